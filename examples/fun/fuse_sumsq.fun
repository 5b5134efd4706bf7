-- The sum of the squares of the even numbers 1 … n, written as the paper
-- writes array programs, map ∘ map ∘ reduce over iota n: a kernel squares
-- each number, a second keeps the even ones' squares (an odd one gives 0),
-- and a reduce adds them up. Fusion ("A T2 Graph-Reduction Approach To
-- Fusion", Fig 14) makes one redomap of the three, with no array at all:
-- the iota fuses into the kernels' reads (each element is its index), the
-- second kernel into the reduce (reduce2 ∘ map2 ⇒ redomap2), the first
-- into the redomap's map (redomap2 ∘ map2 ⇒ redomap2). arraysem compile
-- --explain-fusion shows the decisions; --no-fuse keeps the three arrays.
-- A negative n is stuck in the iota (E-IOTA), or once fused in the
-- redomap (E-REDOMAP).
-- ==
-- input { n=6 }
-- output { 56 }
-- input { n=10 }
-- output { 220 }
-- input { n=1 }
-- output { 0 }
-- input { n=0 }
-- output { 0 }
-- input { n=-1 }
-- error: E-IOTA: iota of n = -1
input (n : int)
let (zero : int) = 0
let (two : int) = 2
let (xs : [n]) = iota n
let (sq : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
let (evensq : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (s : int) = sq[i]
    let (even : int) = x % two == 0
    let (e : int) = s * even
    in (e)
let (sum : int) =
  reduce (a : int) (b : int) = zero over evensq do
    let (c : int) = a + b
    in (c)
in (sum)
