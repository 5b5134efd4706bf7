-- Matrix multiplication C = A B with three nested kernels (E-KERNEL,
-- T-KERNEL at ranks 2, 1 and 1). B is transposed first (E-TRANSPOSE) so
-- both operands are read along rows. Each dot product is summed by kernels
-- (not the extension reduce, reduce.fun): a tree of two halving levels, each adding
-- neighbouring pairs and carrying an odd last element alone (nested ifs in
-- kernels, E-IF-TRUE / E-IF-FALSE). Two levels sum at most 4 products: the
-- program checks p <= 4 up front by dividing by the comparison, so a wider
-- inner dimension is stuck in E-SCALAR (division by zero) before any work.
-- ==
-- input { a=[[1 2 3] [4 5 6]] b=[[7 8] [9 10] [11 12]] }
-- output { [[58 64] [139 154]] }
-- input { a=[[1 0] [0 1]] b=[[1 2] [3 4]] }
-- output { [[1 2] [3 4]] }
-- input { a=[[1 2] [3 4]] b=[[0 1] [1 0]] }
-- output { [[2 1] [4 3]] }
-- input { a=[[1 1 1 1]] b=[[1] [2] [3] [4]] }
-- output { [[10]] }
-- input { a=[[2] [-1]] b=[[3 4 5]] }
-- output { [[6 8 10] [-3 -4 -5]] }
-- input { a=[[1 1 1 1 1]] b=[[1] [1] [1] [1] [1]] }
-- error: matmul.fun:24:24: E-SCALAR: division by zero \(operator /\) in 1 / fits
input (n : int) (p : int) (m : int) (a : [n][p]) (b : [p][m])
let (fits : int) = p <= 4
let (assert : int) = 1 / fits
let (bt : [m][p]) = transpose b
let (c : [n][m]) =
  kernel i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (prod : [p]) =
          kernel k <= p do
            let (x : int) = a[i, k]
            let (y : int) = bt[j, k]
            let (xy : int) = x * y
            in (xy)
        -- level 1: prod[2t-1] + prod[2t], or prod[2t-1] alone at an odd end
        let (h1 : int) = (p + 1) / 2
        let (l1 : [h1]) =
          kernel t <= h1 do
            let (k1 : int) = 2 * t - 1
            let (k2 : int) = 2 * t
            let (u : int) = prod[k1]
            let (pair : int) = k2 <= p
            let (s : int) =
              if pair
              then let (w : int) = prod[k2]
                   let (uw : int) = u + w
                   in (uw)
              else in (u)
            in (s)
        -- level 2: the same on l1
        let (h2 : int) = (h1 + 1) / 2
        let (l2 : [h2]) =
          kernel t <= h2 do
            let (k1 : int) = 2 * t - 1
            let (k2 : int) = 2 * t
            let (u : int) = l1[k1]
            let (pair : int) = k2 <= h1
            let (s : int) =
              if pair
              then let (w : int) = l1[k2]
                   let (uw : int) = u + w
                   in (uw)
              else in (u)
            in (s)
        let (empty : int) = p == 0
        let (dot : int) =
          if empty
          then let (zero : int) = 0
               in (zero)
          else let (first : int) = 1
               let (d : int) = l2[first]
               in (d)
        in (dot)
    in (row)
in (c)
