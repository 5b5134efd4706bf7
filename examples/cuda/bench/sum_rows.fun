-- Benchmark (docs/cuda.md, "Performance"): the sum of each row of an
-- n×p matrix, a kernel over the rows whose body reduces its row. A
-- thread per row reads its row word by word, so the lanes of a warp are
-- p words apart; a GPU library gives each row to a group of threads that
-- read consecutive words.
-- ==
-- input { xss=[[1 2 3] [4 5 6]] }
-- output { [6 15] }
-- input { xss=[[7] [-1] [0]] }
-- output { [7 -1 0] }
-- input { xss=[[] []] }
-- output { [0 0] }
input (n : int) (p : int) (xss : [n][p])
let (sums : [n]) =
  kernel i <= n do
    let (zero : int) = 0
    let (s : int) =
      redomap (a : int) (b : int) = zero for k <= p do
        let (x : int) = xss[i, k]
        in (x)
      combine
        let (c : int) = a + b
        in (c)
    in (s)
in (sums)
