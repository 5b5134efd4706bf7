-- A five-point stencil on a matrix: the discrete Laplacian
-- 4 x[i,j] - x[i-1,j] - x[i+1,j] - x[i,j-1] - x[i,j+1] on the interior.
-- The five shifted views of the interior are rank-2 slices (E-SLICE /
-- T-SLICE in two dimensions: every view has type [n2][m2]); two nested
-- kernels combine them elementwise. A matrix of 2 rows has an empty
-- interior (slices of size 0, one starting just past the end); one of a
-- single row has an interior of negative size, stuck in E-SLICE.
-- ==
-- input { xss=[[3 1 4 1] [5 9 2 6] [5 3 5 8] [9 7 9 3]] }
-- output { [[25 -16] [-14 -2]] }
-- input { xss=[[1 2 3] [4 9 6] [7 8 0]] }
-- output { [[16]] }
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] }
-- output { [[0 0]] }
-- input { xss=[[1 2 3] [4 5 6] [7 8 9] [1 1 1]] }
-- output { [[0] [10]] }
-- input { xss=[[1 2 3] [4 5 6]] }
-- output { [] }
-- input { xss=[[1 2 3]] }
-- error: E-SLICE: slice size -1 is negative in dimension 1 of xss
input (n : int) (m : int) (xss : [n][m])
let (n2 : int) = n - 2
let (m2 : int) = m - 2
let (one : int) = 1
let (two : int) = 2
let (three : int) = 3
let (centre : [n2][m2]) = xss[two : n2, two : m2]
let (up : [n2][m2]) = xss[one : n2, two : m2]
let (down : [n2][m2]) = xss[three : n2, two : m2]
let (left : [n2][m2]) = xss[two : n2, one : m2]
let (right : [n2][m2]) = xss[two : n2, three : m2]
let (lap : [n2][m2]) =
  kernel i <= n2 do
    let (row : [m2]) =
      kernel j <= m2 do
        let (c : int) = centre[i, j]
        let (u : int) = up[i, j]
        let (d : int) = down[i, j]
        let (l : int) = left[i, j]
        let (r : int) = right[i, j]
        let (v : int) = 4 * c - u - d - l - r
        in (v)
    in (row)
in (lap)
