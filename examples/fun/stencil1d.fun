-- A three-point stencil (sum of each element and its two neighbours), two
-- ways. The interior, of size n-2, adds three slices of xs shifted by one
-- (E-SLICE / T-SLICE: the views xs[1 : m], xs[2 : m], xs[3 : m] all have
-- type [m]) with a kernel. The whole array, of size n, clamps at the ends:
-- a kernel whose body nests an if in the else branch of another (first
-- element, last element, or in between). For n = 2 the slices are empty
-- (xs[3 : 0] starts just past the end, which a slice of size 0 may); for
-- n = 1 the interior has size -1 and the slice is stuck in E-SLICE.
-- ==
-- input { xs=[1 2 3 4 5] }
-- output { [6 9 12] [4 6 9 12 14] }
-- input { xs=[10 0 -10 0] }
-- output { [0 -10] [20 0 -10 -10] }
-- input { xs=[7 8] }
-- output { [] [22 23] }
-- input { xs=[7] }
-- error: stencil1d.fun:23:20: E-SLICE: slice size -1 is negative in dimension 1 of xs
input (n : int) (xs : [n])
let (m : int) = n - 2
let (one : int) = 1
let (two : int) = 2
let (three : int) = 3
let (left : [m]) = xs[one : m]
let (mid : [m]) = xs[two : m]
let (right : [m]) = xs[three : m]
let (inner : [m]) =
  kernel i <= m do
    let (a : int) = left[i]
    let (b : int) = mid[i]
    let (c : int) = right[i]
    let (s : int) = a + b + c
    in (s)
let (clamped : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (isfirst : int) = i == 1
    let (s : int) =
      if isfirst
      then let (r : int) = xs[two]
           let (t : int) = x + x + r
           in (t)
      else let (islast : int) = i == n
           let (j : int) = i - 1
           let (l : int) = xs[j]
           let (t : int) =
             if islast
             then let (u : int) = l + x + x
                  in (u)
             else let (k : int) = i + 1
                  let (r : int) = xs[k]
                  let (u : int) = l + x + r
                  in (u)
           in (t)
    in (s)
in (inner, clamped)
