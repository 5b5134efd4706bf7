-- Transposition: E-TRANSPOSE with Fig 5's tr, typed by T-TRANSPOSE
-- ([n][m] becomes [m][n]; the sizes swap in the type too). Transposing
-- twice gives the array back, and tr agrees with the transpose written out
-- as two nested kernels that index the array with the indices swapped
-- (E-KERNEL, E-INDEX). Works for a single row, a single column and an
-- empty array of shape [2][0] (whose transpose, of shape [0][2], prints as
-- []).
-- ==
-- input { xss=[[1 2 3] [4 5 6]] }
-- output { [[1 4] [2 5] [3 6]] [[1 2 3] [4 5 6]] [[1 4] [2 5] [3 6]] }
-- input { xss=[[1] [2] [3]] }
-- output { [[1 2 3]] [[1] [2] [3]] [[1 2 3]] }
-- input { xss=[[1 2 3]] }
-- output { [[1] [2] [3]] [[1 2 3]] [[1] [2] [3]] }
-- input { xss=[[] []] }
-- output { [] [[] []] [] }
input (n : int) (m : int) (xss : [n][m])
let (t : [m][n]) = transpose xss
let (tt : [n][m]) = transpose t
let (h : [m][n]) =
  kernel j <= m do
    let (col : [n]) =
      kernel i <= n do
        let (v : int) = xss[i, j]
        in (v)
    in (col)
in (t, tt, h)
