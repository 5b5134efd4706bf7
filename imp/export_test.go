package imp

// EachStm is eachStm, for the tests of package imp_test.
var EachStm = eachStm
