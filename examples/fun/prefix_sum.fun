-- Prefix sums in kernels (Hillis and Steele's scan): three rounds, round r
-- adding to each element the one 2^(r-1) places before it, if there is one
-- (an if inside each kernel: E-IF-TRUE for i > d, E-IF-FALSE otherwise).
-- Three rounds scan up to 8 numbers; more are refused up front by a
-- division by zero (stuck in E-SCALAR). From the inclusive scan the program
-- derives the exclusive scan (0 first, each sum shifted one place right)
-- and the total, 0 for an empty input (an if returning a scalar).
-- ==
-- input { xs=[3 1 4 1 5 9 2 6] }
-- output { [3 4 8 9 14 23 25 31] [0 3 4 8 9 14 23 25] 31 }
-- input { xs=[1 1 1 1 1] }
-- output { [1 2 3 4 5] [0 1 2 3 4] 5 }
-- input { xs=[5 -5] }
-- output { [5 0] [0 5] 0 }
-- input { xs=[7] }
-- output { [7] [0] 7 }
-- input { xs=[] }
-- output { [] [] 0 }
-- input { xs=[1 2 3 4 5 6 7 8 9] }
-- error: E-SCALAR: division by zero
input (n : int) (xs : [n])
let (fits : int) = n <= 8
let (assert : int) = 1 / fits
let (d1 : int) = 1
let (s1 : [n]) =
  kernel i <= n do
    let (a : int) = xs[i]
    let (far : int) = i > d1
    let (v : int) =
      if far
      then let (j : int) = i - d1
           let (b : int) = xs[j]
           let (ab : int) = a + b
           in (ab)
      else in (a)
    in (v)
let (d2 : int) = 2
let (s2 : [n]) =
  kernel i <= n do
    let (a : int) = s1[i]
    let (far : int) = i > d2
    let (v : int) =
      if far
      then let (j : int) = i - d2
           let (b : int) = s1[j]
           let (ab : int) = a + b
           in (ab)
      else in (a)
    in (v)
let (d3 : int) = 4
let (scan : [n]) =
  kernel i <= n do
    let (a : int) = s2[i]
    let (far : int) = i > d3
    let (v : int) =
      if far
      then let (j : int) = i - d3
           let (b : int) = s2[j]
           let (ab : int) = a + b
           in (ab)
      else in (a)
    in (v)
let (exclusive : [n]) =
  kernel i <= n do
    let (first : int) = i == 1
    let (v : int) =
      if first
      then let (zero : int) = 0
           in (zero)
      else let (j : int) = i - 1
           let (b : int) = scan[j]
           in (b)
    in (v)
let (empty : int) = n == 0
let (total : int) =
  if empty
  then let (zero : int) = 0
       in (zero)
  else let (last : int) = scan[n]
       in (last)
in (scan, exclusive, total)
