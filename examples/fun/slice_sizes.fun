-- Size slicing ("Size Slicing - A Hybrid Approach to Size Inference in
-- Futhark"): compile --stages shows what fun.SliceSizes does to it.
--
-- The first if binds an existential size k: half of xs (rounded up) or
-- all of it doubled. Both shape slices, (n + 1) / 2 and n * 2, are cheap,
-- so k is computed by an if ahead of the one that makes the arrays, whose
-- branches then make arrays of size k (Fig 15 → Fig 23).
--
-- The kernel sums each row of xss by pairs: its body computes the number
-- of pairs, h = (m + 1) / 2, from m, bound outside the kernel. Its shape
-- slice moves before the kernel, so the body's kernel of bound h has a
-- size known before the outer kernel and MemoryExpand (compile --expand)
-- hoists its block out of both (Fig 9).
--
-- The second kernel's body computes a size that can fail, w = m / d; it
-- moves before the kernel too, but runs only when n > 0 (Fig 10 D's
-- guard): with n = 0 nothing fails, as before slicing.
-- ==
-- input { xs=[1 2 3] c=1 xss=[[1 2 3] [4 5 6]] d=3 }
-- output { 2 [1 2] [6 15] [[1] [1]] }
-- input { xs=[1 2 3] c=0 xss=[[1 2 3] [4 5 6]] d=3 }
-- output { 6 [1 2 3 1 2 3] [6 15] [[1] [1]] }
-- input { xs=[] c=0 n=0 m=2 xss=[] d=0 }
-- output { 0 [] [] [] }
-- input { xs=[1] c=1 xss=[[1 2]] d=0 }
-- error: slice_sizes.fun:65:23: E-SCALAR: division by zero \(operator /\) in m / d
input (l : int) (xs : [l]) (c : int) (n : int) (m : int) (xss : [n][m]) (d : int)
let (k : int) (ys : [k]) =
  if c
  then let (h : int) = (l + 1) / 2
       let (one : int) = 1
       let (half : [h]) = xs[one : h]
       in (h, half)
  else let (twice : int) = l * 2
       let (both : [twice]) =
         kernel i <= twice do
           let (i1 : int) = (i - 1) % l + 1
           let (v : int) = xs[i1]
           in (v)
       in (twice, both)
let (sums : [n]) =
  kernel i <= n do
    let (h : int) = (m + 1) / 2
    let (pairs : [h]) =
      kernel t <= h do
        let (k1 : int) = 2 * t - 1
        let (k2 : int) = 2 * t
        let (u : int) = xss[i, k1]
        let (odd : int) = k2 > m
        let (s : int) =
          if odd
          then in (u)
          else let (w : int) = xss[i, k2]
               let (uw : int) = u + w
               in (uw)
        in (s)
    let (zero : int) = 0
    let (sum : int) = reduce (a : int) (b : int) = zero over pairs do
      let (e : int) = a + b
      in (e)
    in (sum)
let (one : int) = 1
let (firsts : [n][one]) =
  kernel i <= n do
    let (w : int) = m / d
    let (zs : [w]) = iota w
    let (row : [one]) = zs[one : one]
    in (row)
in (k, ys, sums, firsts)
