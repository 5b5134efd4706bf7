-- Type error, T-INDEX: xss has rank 2, but xss[i] indexes one dimension.
-- FUN's index reads one element, with one index per dimension
-- ((y : [z1, …, zn]) ∈ Γ with n indices); to take a row, use a slice or a
-- kernel.
-- ==
-- error: err_index_rank.fun:10:21: T-INDEX: xss has rank 2 but is indexed with 1 indices
input (n : int) (m : int) (xss : [n][m])
let (rows : [n]) =
  kernel i <= n do
    let (r : int) = xss[i]
    in (r)
in (rows)
