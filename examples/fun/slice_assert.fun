-- Fig 10 of "Size Slicing - A Hybrid Approach to Size Inference in
-- Futhark", in FUN: compile --stages shows what fun.SliceSizes does.
--
-- Fig 7's main maps f over the k matrices of a; f(a) concatenates the row
-- sums and the row products of a, so each row of B has f_shape(a) = n + n
-- elements. In b, the rows are predicted to have s elements (Fig 8's S, an
-- input here) and each iteration asserts that f_shape is s (Fig 8's
-- assert(s == S), with f_shape inlined as Fig 10 B). The assertion depends
-- on nothing the iteration binds, so it is checked once, before the kernel
-- (Fig 10 C, D), and only when the kernel runs its body: with k = 0 a
-- wrong s is no error, as before slicing.
--
-- In c, the prediction is Fig 8's own, s2 = 0 if a is empty, else n + n.
-- Where the kernel runs its body, k > 0, so s2 is n + n there and the
-- assertion compares n + n with itself: it is dropped.
-- ==
-- input { a=[[[1 2] [3 4]] [[5 6] [7 8]]] s=4 }
-- output { [[3 7 2 12] [11 15 30 56]] [[1 2 3 4] [1 2 3 4]] }
-- input { k=0 n=2 m=2 a=[] s=3 }
-- output { [] [] }
-- input { a=[[[1 2] [3 4]]] s=3 }
-- error: slice_assert.fun:27:22: E-ASSERT: assertion nn == s failed: B is regular
input (k : int) (n : int) (m : int) (a : [k][n][m]) (s : int)
let (b : [k][s]) =
  kernel i <= k do
    let (nn : int) = n + n
    let (ok : int) = assert nn == s "B is regular"
    let (row : [s]) =
      kernel j <= s do
        let (isSum : int) = j <= n
        let (r : int) = (j - 1) % n + 1
        let (start : int) = 1 - isSum
        let (acc : int) =
          loop (z : int) = (start) for t <= m do
            let (v : int) = a[i, r, t]
            let (z1 : int) =
              if isSum
              then let (zv : int) = z + v
                   in (zv)
              else let (zv : int) = z * v
                   in (zv)
            in (z1)
        in (acc)
    in (row)
let (empty : int) = k == 0
let (s2 : int) =
  if empty
  then let (zero : int) = 0
       in (zero)
  else let (n2 : int) = n + n
       in (n2)
let (c : [k][s2]) =
  kernel i <= k do
    let (nn : int) = n + n
    let (ok : int) = assert nn == s2 "B is regular"
    let (row : [s2]) = iota s2
    in (row)
in (b, c)
