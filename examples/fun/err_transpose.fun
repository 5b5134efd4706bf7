-- Type error, T-TRANSPOSE: transpose takes a rank-2 array ([x1][x2] to
-- [x2][x1]); a vector of type [n] has no second dimension to swap.
-- ==
-- error: err_transpose.fun:7:28: T-TRANSPOSE: transpose needs an array of rank 2, but xs has type \[n\]
input (n : int)
let (xs : [n]) = iota n
let (ys : [n]) = transpose xs
in (ys)
