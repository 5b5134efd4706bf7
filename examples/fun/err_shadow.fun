-- Type error, shadowing: the kernel body binds x, which the enclosing body
-- has bound already. The rules of Fig 3 assume every name is bound once
-- along a path of scopes (else a type [n] could come to mean another n),
-- so the checker refuses the second binding when T-STM adds it to Γ (see
-- ERRATA.md).
-- ==
-- error: err_shadow.fun:13:10: T-STM: x is already bound at .*err_shadow.fun:10:6
input (n : int) (xs : [n])
let (two : int) = 2
let (x : int) = 10
let (ys : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * two
    in (y)
in (ys, x)
