-- Ifs whose branches return arrays of different sizes, as in Fig 2: the
-- pattern binds the sizes along with the arrays, and T-RESULT's
-- substitution S maps the pattern's size names to the sizes each branch
-- returns. The first if returns either the matrix or its transpose, so
-- the sizes swap (S = {r ↦ m, q ↦ n} in the then branch). The second binds
-- its array before its size, (zs : [k]) (k : int): T-IF only asks that the
-- sizes be bound by Γ or by the pattern, in any order. Its then branch
-- returns a slice (the first half, rounded up, of the row), its else branch
-- the whole row, a variable bound outside the if.
-- ==
-- input { xss=[[1 2 3] [4 5 6]] c=1 }
-- output { 3 2 [[1 4] [2 5] [3 6]] [1 4] 2 [1 4] }
-- input { xss=[[1 2 3] [4 5 6]] c=0 }
-- output { 2 3 [[1 2 3] [4 5 6]] [1 2 3] 2 [1 2] }
-- input { xss=[[1 2 3 4 5]] c=0 }
-- output { 1 5 [[1 2 3 4 5]] [1 2 3 4 5] 3 [1 2 3] }
-- input { xss=[[1 2 3 4 5]] c=1 }
-- output { 5 1 [[1] [2] [3] [4] [5]] [1] 1 [1] }
input (n : int) (m : int) (xss : [n][m]) (c : int)
let (r : int) (q : int) (yss : [r][q]) =
  if c
  then let (t : [m][n]) = transpose xss
       in (m, n, t)
  else in (n, m, xss)
let (one : int) = 1
let (row : [q]) =
  kernel j <= q do
    let (v : int) = yss[one, j]
    in (v)
let (long : int) = q > 2
let (zs : [k]) (k : int) =
  if long
  then let (h : int) = (q + 1) / 2
       let (half : [h]) = row[one : h]
       in (half, h)
  else in (row, q)
in (r, q, yss, row, k, zs)
