-- Type error, T-RESULT: an if whose pattern (k : int) (zs : [k]) asks each
-- branch to return a size and an array of that size. The else branch
-- returns m with an array of size n: under S = {k ↦ m, zs ↦ xs} the
-- binding needs xs : [m], but xs : [n]. Sizes are compared as names, not
-- values, even if n and m happen to be equal at run time.
-- ==
-- error: err_result_size.fun:12:15: T-RESULT: result xs has type \[n\], but the binding \(zs : \[k\]\) needs \[m\]
input (n : int) (m : int) (xs : [n]) (c : int)
let (k : int) (zs : [k]) =
  if c
  then in (n, xs)
  else in (m, xs)
in (zs)
