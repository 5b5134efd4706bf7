-- Benchmark (docs/cuda.md, "Performance"): a reduce of reduces, the sum
-- of the sums of the rows of an n×p matrix. Fusion makes the kernel of
-- row sums the map of a redomap over the rows, each element a reduce of
-- its row.
-- ==
-- input { xss=[[1 2 3] [4 5 6]] }
-- output { 21 }
-- input { xss=[[-1] [1]] }
-- output { 0 }
-- input { n=0 p=3 xss=[] }
-- output { 0 }
input (n : int) (p : int) (xss : [n][p])
let (zero : int) = 0
let (sums : [n]) =
  kernel i <= n do
    let (s : int) =
      redomap (a : int) (b : int) = zero for k <= p do
        let (x : int) = xss[i, k]
        in (x)
      combine
        let (c : int) = a + b
        in (c)
    in (s)
let (total : int) =
  reduce (a : int) (b : int) = zero over sums do
    let (c : int) = a + b
    in (c)
in (total)
