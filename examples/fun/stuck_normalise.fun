-- Division by zero in an inner kernel: each row of the matrix is divided by
-- its first element (integer division, truncating). A row that starts
-- with 0 is stuck in E-SCALAR at the division, in the iteration that
-- reaches it; the rows before it have been computed, but the program has
-- no result.
-- ==
-- input { xss=[[2 4 6] [3 9 12] [-1 5 0]] }
-- output { [[1 2 3] [1 3 4] [1 -5 0]] }
-- input { xss=[[2 5 7]] }
-- output { [[1 2 3]] }
-- input { xss=[[2 4] [0 5]] }
-- error: stuck_normalise.fun:21:27: E-SCALAR: division by zero \(operator /\) in x / p
input (n : int) (m : int) (xss : [n][m])
let (one : int) = 1
let (norm : [n][m]) =
  kernel i <= n do
    let (p : int) = xss[i, one]
    let (row : [m]) =
      kernel j <= m do
        let (x : int) = xss[i, j]
        let (y : int) = x / p
        in (y)
    in (row)
in (norm)
