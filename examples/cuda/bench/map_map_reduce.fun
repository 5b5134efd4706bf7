-- Benchmark (docs/cuda.md, "Performance"): a map, a map and a reduce,
-- the sum of the squares of xs[i] + 1. Fusion makes one redomap of the
-- three ("A T2 Graph-Reduction Approach To Fusion", Fig 14): on the GPU
-- one kernel that reads xs once and writes no array, and the reduction's
-- final step over the blocks' partials.
-- ==
-- input { xs=[1 2 3 4] }
-- output { 54 }
-- input { xs=[-3] }
-- output { 4 }
-- input { xs=[] }
-- output { 0 }
input (n : int) (xs : [n])
let (ys : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = x + 1
    in (y)
let (zs : [n]) =
  kernel i <= n do
    let (y : int) = ys[i]
    let (z : int) = y * y
    in (z)
let (zero : int) = 0
let (total : int) =
  reduce (a : int) (b : int) = zero over zs do
    let (c : int) = a + b
    in (c)
in (total)
