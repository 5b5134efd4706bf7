-- Type error, T-SLICE: the first k elements of xs, but k is bound only
-- after the slice. T-SLICE asks every offset and size, and so every size in
-- the slice's type [k], to be an int already in Γ.
-- ==
-- error: err_slice_scope.fun:10:11: T-SLICE: size variable k is not in scope
input (n : int) (xs : [n])
let (one : int) = 1
let (two : int) = 2
let (three : int) = 3
let (ys : [k]) = xs[one : k]
let (k : int) = two + three
in (ys)
