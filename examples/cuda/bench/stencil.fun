-- Benchmark (docs/cuda.md, "Performance"): a three-point stencil, each
-- element the sum of itself and its two neighbours, the ends clamped
-- (the end element stands in for its missing neighbour). Each element is
-- read by three threads; the least a GPU can move is xs once and ys once.
-- ==
-- input { xs=[1 2 3 4] }
-- output { [4 6 9 11] }
-- input { xs=[5] }
-- output { [15] }
-- input { xs=[] }
-- output { [] }
input (n : int) (xs : [n])
let (ys : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (first : int) = i == 1
    let (l : int) =
      if first
      then in (x)
      else let (j : int) = i - 1
           let (y : int) = xs[j]
           in (y)
    let (last : int) = i == n
    let (r : int) =
      if last
      then in (x)
      else let (k : int) = i + 1
           let (y : int) = xs[k]
           in (y)
    let (s : int) = l + x + r
    in (s)
in (ys)
