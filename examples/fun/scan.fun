-- Scans (an extension): E-SCAN is the inclusive left scan, whose row i is
-- z ⊕ x1 ⊕ … ⊕ xi, so the result has as many rows as xs (T-SCAN: [n]τ
-- for xs : [n]τ). Shows prefix sums, running maxima, and the running sums
-- of the rows of a matrix (an array-valued scan). A scan of no rows is
-- empty.
-- ==
-- input { xss=[[1 2] [3 4] [5 6]] xs=[3 1 4] }
-- output { [3 4 8] [3 3 4] [[1 2] [4 6] [9 12]] }
-- input { xss=[[0 0 7]] xs=[-2] }
-- output { [-2] [-2] [[0 0 7]] }
-- input { xss=[] m=2 xs=[] }
-- output { [] [] [] }
input (n : int) (m : int) (xss : [n][m]) (xs : [n])
let (zero : int) = 0
let (lowest : int) = -9223372036854775808
let (sums : [n]) =
  scan (a : int) (b : int) = zero over xs do
    let (c : int) = a + b
    in (c)
let (maxima : [n]) =
  scan (a : int) (b : int) = lowest over xs do
    let (ge : int) = a >= b
    let (c : int) =
      if ge
      then in (a)
      else in (b)
    in (c)
let (zeros : [m]) = kernel j <= m do in (zero)
let (rowsums : [n][m]) =
  scan (a : [m]) (b : [m]) = zeros over xss do
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (sums, maxima, rowsums)
