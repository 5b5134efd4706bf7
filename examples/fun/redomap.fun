-- redomap and scanomap (an extension): a reduce, or a scan, of a map
-- without the map's array, as fusion makes them ("A T2 Graph-Reduction
-- Approach To Fusion", Fig 14). E-REDOMAP is the left fold
-- ((z ⊕ f(1)) ⊕ f(2)) … ⊕ f(n), f(i) the map body's value for the index
-- i, computed just before it is combined; E-SCANOMAP's row i is
-- z ⊕ f(1) ⊕ … ⊕ f(i) (T-SCANOMAP: [n]τ). Shows the sum of squares, the
-- largest |x|, the running sums of squares, and an array accumulator:
-- the sum of the rows of a matrix, each row doubled by the map (a kernel
-- inside it), with its running sums. No elements give z, and an empty
-- scanomap.
-- ==
-- input { xss=[[1 2] [3 4] [5 6]] xs=[3 -1 4] }
-- output { 26 4 [9 10 26] [18 24] [[2 4] [8 12] [18 24]] }
-- input { xss=[[10 -1 0]] xs=[-7] }
-- output { 49 7 [49] [20 -2 0] [[20 -2 0]] }
-- input { xss=[] m=2 xs=[] }
-- output { 0 0 [] [0 0] [] }
input (n : int) (m : int) (xss : [n][m]) (xs : [n])
let (zero : int) = 0
let (sumsq : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
  combine
    let (c : int) = a + b
    in (c)
let (maxabs : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    let (x : int) = xs[i]
    let (neg : int) = x < 0
    let (y : int) =
      if neg
      then
        let (u : int) = 0 - x
        in (u)
      else in (x)
    in (y)
  combine
    let (ge : int) = a >= b
    let (c : int) =
      if ge
      then in (a)
      else in (b)
    in (c)
let (runsq : [n]) =
  scanomap (a : int) (b : int) = zero for i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
  combine
    let (c : int) = a + b
    in (c)
let (zeros : [m]) = kernel j <= m do in (zero)
let (colsum : [m]) =
  redomap (a : [m]) (b : [m]) = zeros for i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        let (w : int) = v + v
        in (w)
    in (row)
  combine
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
let (runs : [n][m]) =
  scanomap (a : [m]) (b : [m]) = zeros for i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        let (w : int) = v + v
        in (w)
    in (row)
  combine
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (sumsq, maxabs, runsq, colsum, runs)
