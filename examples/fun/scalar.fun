-- Scalar expressions and the bodies around them. Every statement is
-- let (x : int) = se, evaluated by E-SCALAR ("conventional evaluation of
-- se") and typed by T-SCALAR from T-CONST, T-VAR and T-OP; the body is a
-- chain of E-LET / T-STM ending in E-IN / T-RESULT, and the program's
-- results are scalars (an extension of T-PROG).
--
-- What it pins down: * / % bind tighter than + -, which bind tighter than
-- the comparisons, then &&, then ||; every binary operator associates to
-- the left; -k is a negative constant and -x unary minus; comparisons give
-- 1 or 0; && and || take any non-zero value as true; the Unicode forms
-- ≤ ≥ ≠ are the ASCII <= >= !=; / and % truncate toward zero (-7 / 2 = -3,
-- -7 % 2 = -1). A zero divisor is stuck in E-SCALAR at the operator.
-- ==
-- input { a=7 d=2 }
-- output { 7 9 3 2 -7 -3 -1 1 1 1 0 17 4 1 }
-- input { a=-7 d=-2 }
-- output { 7 9 3 2 7 -3 1 1 0 1 0 17 2 0 }
-- input { a=7 d=0 }
-- error: scalar.fun:26:21: E-SCALAR: division by zero \(operator /\) in -a / d
input (a : int) (d : int)
let (p : int) = 1 + 2 * 3              -- 1 + (2 * 3)
let (q : int) = (1 + 2) * 3
let (r : int) = 10 - 4 - 3             -- (10 - 4) - 3
let (s : int) = 100 / 10 / 5           -- (100 / 10) / 5
let (neg : int) = -a
let (nd : int) = -a / d
let (nm : int) = -a % d
let (c1 : int) = 1 < 2 == 1            -- (1 < 2) == 1
let (c2 : int) = a >= 7 && d != 0 || 0 -- ((a >= 7) && (d != 0)) || 0
let (c3 : int) = 3 && -5
let (c4 : int) = 0 || 0
let (x : int) = a * d - -3             -- a * d minus the constant -3
let (y : int) = a / d + a % d
let (u : int) = a ≤ 7 && d ≠ 0 && a ≥ d
in (p, q, r, s, neg, nd, nm, c1, c2, c3, c4, x, y, u)
