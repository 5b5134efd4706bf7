package imp

// EachStm is eachStm, for the tests of package imp_test.
var EachStm = eachStm

// WalkBindings is walkBindings, for the tests of package imp_test.
var WalkBindings = walkBindings
