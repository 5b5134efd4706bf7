-- The derived forms of §2. iota x ≡ kernel xi <= x do in (xi) is [1 … n]
-- (derived E-IOTA, typed as T-KERNEL would: T-IOTA gives [x]); copy x ≡
-- nested kernels indexing x everywhere is a fresh array equal to x (derived
-- E-COPY, T-COPY gives x's own type). Copies a vector and a transposed
-- matrix (the copy manifests the transposition). iota of 0 is []; iota of a
-- negative number is stuck, as the kernel it stands for is.
-- ==
-- input { n=3 }
-- output { [1 2 3] [1 2 3] [[1 1 1] [2 2 2]] }
-- input { n=1 }
-- output { [1] [1] [[1] [2]] }
-- input { n=0 }
-- output { [] [] [[] []] }
-- input { n=-1 }
-- error: iota_copy.fun:17:23: E-IOTA: iota of n = -1: a kernel bound is negative
input (n : int)
let (xs : [n]) = iota n
let (ys : [n]) = copy xs
let (two : int) = 2
let (xss : [n][two]) = kernel i <= n do
  let (r : [two]) = iota two
  in (r)
let (t : [two][n]) = transpose xss
let (c : [two][n]) = copy t
in (xs, ys, c)
