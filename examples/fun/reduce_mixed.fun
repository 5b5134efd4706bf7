-- Folds of ints and of floats whose operators name their parameters alike
-- (E-REDUCE, E-SCAN, T-REDUCE, T-SCAN, E-KERNEL): FUN → IMP keeps the
-- names, so the IMP program declares a and b (by `combine a, b`) and c as
-- ints in the int folds' combine parts and as floats in the float folds',
-- each in a scope of its own. The sums and maxima of xs and ys, their
-- running sums, and in a kernel the sum of each row of xss and of yss (a
-- fold inside a thread), again with the same a, b and c. The float sums
-- here are exact (halves and quarters), so the CUDA backend's parallel
-- folds, which re-associate, print the interpreter's values.
-- ==
-- input { xs=[3 1 4 1 5] ys=[0.5 0.25 2.0 1.5 -1.0] xss=[[1 2] [3 4]] yss=[[0.5 0.25] [1.0 -2.0]] }
-- output { 14 3.25 5 2.0 [3 4 8 9 14] [0.5 0.75 2.75 4.25 3.25] [3 7] [0.75 -1.0] }
-- input { xs=[-7] ys=[-0.0] xss=[[5 6 7]] yss=[[1.5 2.5 3.5]] }
-- output { -7 0.0 -7 -0.0 [-7] [0.0] [18] [7.5] }
-- input { xs=[] ys=[] xss=[] m=2 yss=[] }
-- output { 0 0.0 -9223372036854775808 -Inf [] [] [] [] }
input (n : int) (k : int) (m : int) (xs : [n]) (ys : [n]float) (xss : [k][m]) (yss : [k][m]float)
let (zi : int) = 0
let (zf : float) = 0.0
let (lowest : int) = -9223372036854775808
let (one : float) = 1.0
let (inf : float) = one / zf
let (neginf : float) = zf - inf
let (si : int) =
  reduce (a : int) (b : int) = zi over xs do
    let (c : int) = a + b
    in (c)
let (sf : float) =
  reduce (a : float) (b : float) = zf over ys do
    let (c : float) = a + b
    in (c)
let (mi : int) =
  reduce (a : int) (b : int) = lowest over xs do
    let (ge : int) = a >= b
    let (c : int) =
      if ge
      then in (a)
      else in (b)
    in (c)
let (mf : float) =
  reduce (a : float) (b : float) = neginf over ys do
    let (ge : int) = a >= b
    let (c : float) =
      if ge
      then in (a)
      else in (b)
    in (c)
let (pi : [n]) =
  scan (a : int) (b : int) = zi over xs do
    let (c : int) = a + b
    in (c)
let (pf : [n]float) =
  scan (a : float) (b : float) = zf over ys do
    let (c : float) = a + b
    in (c)
let (ri : [k]) =
  kernel i <= k do
    let (row : [m]) =
      kernel j <= m do
        let (x : int) = xss[i, j]
        in (x)
    let (s : int) =
      reduce (a : int) (b : int) = zi over row do
        let (c : int) = a + b
        in (c)
    in (s)
let (rf : [k]float) =
  kernel i <= k do
    let (row : [m]float) =
      kernel j <= m do
        let (x : float) = yss[i, j]
        in (x)
    let (s : float) =
      reduce (a : float) (b : float) = zf over row do
        let (c : float) = a + b
        in (c)
    in (s)
in (si, sf, mi, mf, pi, pf, ri, rf)
