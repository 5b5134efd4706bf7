-- A reduction written with kernels only: the sum and the maximum of up to 8
-- numbers, by a tree of three halving levels. Each level is a kernel over
-- pairs whose body is itself a kernel of two iterations (q = 1: the sum,
-- q = 2: the maximum), so each level is an array of type [h][two]
-- (T-KERNEL with a non-scalar element type whose size two is bound outside
-- the kernel). Ifs nested two deep inside the kernels pick between a pair
-- and an odd element carried alone, and between sum and maximum. The first
-- level is returned too. An empty input gives 0 for both; more than 8
-- numbers are refused by a division by zero (stuck in E-SCALAR).
-- ==
-- input { xs=[3 1 4 1 5 9 2 6] }
-- output { 31 9 [[4 3] [5 4] [14 9] [8 6]] }
-- input { xs=[-5 -2 -7] }
-- output { -14 -2 [[-7 -2] [-7 -7]] }
-- input { xs=[42] }
-- output { 42 42 [[42 42]] }
-- input { xs=[] }
-- output { 0 0 [] }
-- input { xs=[1 2 3 4 5 6 7 8 9] }
-- error: E-SCALAR: division by zero \(operator /\) in 1 / fits
input (n : int) (xs : [n])
let (fits : int) = n <= 8
let (assert : int) = 1 / fits
let (one : int) = 1
let (two : int) = 2
-- level 0: each number as the pair (x, x)
let (l0 : [n][two]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (cell : [two]) = kernel q <= two do in (x)
    in (cell)
-- level 1: combine rows 2t-1 and 2t of l0, or keep row 2t-1 at an odd end
let (h1 : int) = (n + 1) / 2
let (l1 : [h1][two]) =
  kernel t <= h1 do
    let (k1 : int) = 2 * t - 1
    let (k2 : int) = 2 * t
    let (pair : int) = k2 <= n
    let (cell : [two]) =
      kernel q <= two do
        let (a : int) = l0[k1, q]
        let (v : int) =
          if pair
          then let (b : int) = l0[k2, q]
               let (issum : int) = q == 1
               let (r : int) =
                 if issum
                 then let (ab : int) = a + b
                      in (ab)
                 else let (ge : int) = a >= b
                      let (mx : int) = a * ge + b * (1 - ge)
                      in (mx)
               in (r)
          else in (a)
        in (v)
    in (cell)
-- level 2: the same on l1
let (h2 : int) = (h1 + 1) / 2
let (l2 : [h2][two]) =
  kernel t <= h2 do
    let (k1 : int) = 2 * t - 1
    let (k2 : int) = 2 * t
    let (pair : int) = k2 <= h1
    let (cell : [two]) =
      kernel q <= two do
        let (a : int) = l1[k1, q]
        let (v : int) =
          if pair
          then let (b : int) = l1[k2, q]
               let (issum : int) = q == 1
               let (r : int) =
                 if issum
                 then let (ab : int) = a + b
                      in (ab)
                 else let (ge : int) = a >= b
                      let (mx : int) = a * ge + b * (1 - ge)
                      in (mx)
               in (r)
          else in (a)
        in (v)
    in (cell)
-- level 3: the same on l2
let (h3 : int) = (h2 + 1) / 2
let (l3 : [h3][two]) =
  kernel t <= h3 do
    let (k1 : int) = 2 * t - 1
    let (k2 : int) = 2 * t
    let (pair : int) = k2 <= h2
    let (cell : [two]) =
      kernel q <= two do
        let (a : int) = l2[k1, q]
        let (v : int) =
          if pair
          then let (b : int) = l2[k2, q]
               let (issum : int) = q == 1
               let (r : int) =
                 if issum
                 then let (ab : int) = a + b
                      in (ab)
                 else let (ge : int) = a >= b
                      let (mx : int) = a * ge + b * (1 - ge)
                      in (mx)
               in (r)
          else in (a)
        in (v)
    in (cell)
let (empty : int) = n == 0
let (sum : int) (max : int) =
  if empty
  then let (zero : int) = 0
       in (zero, zero)
  else let (s : int) = l3[one, one]
       let (m : int) = l3[one, two]
       in (s, m)
in (sum, max, l1)
