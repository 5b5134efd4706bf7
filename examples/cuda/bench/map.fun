-- Benchmark (docs/cuda.md, "Performance"): a map, ys[i] = 3 xs[i] + 1.
-- The least a GPU can move is xs read once and ys written once; the
-- emitted code should move that and no more, with coalesced requests.
-- ==
-- input { xs=[1 2 3 4 5] }
-- output { [4 7 10 13 16] }
-- input { xs=[] }
-- output { [] }
input (n : int) (xs : [n])
let (three : int) = 3
let (ys : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = three * x + 1
    in (y)
in (ys)
