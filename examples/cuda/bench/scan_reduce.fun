-- Benchmark (docs/cuda.md, "Performance"): the running sums of xs, then
-- their sum: a scan followed by a reduce of its result. Both results are
-- returned, so the least a GPU can move is xs read once and the running
-- sums written once (and the total).
-- ==
-- input { xs=[1 2 3 4] }
-- output { [1 3 6 10] 20 }
-- input { xs=[5] }
-- output { [5] 5 }
-- input { xs=[] }
-- output { [] 0 }
input (n : int) (xs : [n])
let (zero : int) = 0
let (ps : [n]) =
  scan (a : int) (b : int) = zero over xs do
    let (c : int) = a + b
    in (c)
let (total : int) =
  reduce (a : int) (b : int) = zero over ps do
    let (c : int) = a + b
    in (c)
in (ps, total)
