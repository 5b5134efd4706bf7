-- Reductions (an extension): E-REDUCE is the left fold
-- ((z ⊕ x1) ⊕ x2) … ⊕ xn of the rows of xs, where the body computes a ⊕ b,
-- and z for no rows. T-REDUCE asks that a, b and z have the type of xs's
-- rows. Shows the sum, the maximum and the product of a vector, and an
-- array-valued reduce: the sum of the rows of a matrix, by vector
-- addition, from a row of zeros. Every operator here is associative with
-- z its neutral element, which is all a parallel reduction (the CUDA
-- backend's tree) may assume: a difference, say, would give the left fold
-- ((0 - 3) - 1) - 4 here and something else on a GPU.
-- ==
-- input { xss=[[1 2] [3 4] [5 6]] xs=[3 1 4] }
-- output { 8 4 12 [9 12] }
-- input { xss=[[10 -1 0]] xs=[-7] }
-- output { -7 -7 -7 [10 -1 0] }
-- input { xss=[] m=2 xs=[] }
-- output { 0 -9223372036854775808 1 [0 0] }
input (n : int) (m : int) (xss : [n][m]) (xs : [n])
let (zero : int) = 0
let (lowest : int) = -9223372036854775808
let (sum : int) =
  reduce (a : int) (b : int) = zero over xs do
    let (c : int) = a + b
    in (c)
let (max : int) =
  reduce (a : int) (b : int) = lowest over xs do
    let (ge : int) = a >= b
    let (c : int) =
      if ge
      then in (a)
      else in (b)
    in (c)
let (one : int) = 1
let (prod : int) =
  reduce (a : int) (b : int) = one over xs do
    let (c : int) = a * b
    in (c)
let (zeros : [m]) = kernel j <= m do in (zero)
let (colsum : [m]) =
  reduce (a : [m]) (b : [m]) = zeros over xss do
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (sum, max, prod, colsum)
