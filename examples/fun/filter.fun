-- Filters (an extension): E-FILTER keeps, in order, the rows of xs for
-- which the body's int is not 0. How many is known only at run time, so
-- T-FILTER has the pattern bind the size first, then an array of that
-- size: (k : int) (pos : [k]). The size is then an ordinary variable: a
-- kernel of bound k doubles the kept elements. The second filter keeps
-- the rows of a matrix whose first element is even (rows of type [m]).
-- ==
-- input { xs=[3 -1 4 -5 0 2] xss=[[1 2] [4 5] [7 8] [6 0] [9 9] [2 2]] }
-- output { 3 [3 4 2] [6 8 4] 3 [[4 5] [6 0] [2 2]] }
-- input { xs=[-1 -2] xss=[[1 1] [3 3]] }
-- output { 0 [] [] 0 [] }
-- input { xs=[] m=2 xss=[] }
-- output { 0 [] [] 0 [] }
input (n : int) (m : int) (xs : [n]) (xss : [n][m])
let (k : int) (pos : [k]) =
  filter (x : int) over xs do
    let (keep : int) = x > 0
    in (keep)
let (doubled : [k]) =
  kernel i <= k do
    let (v : int) = pos[i]
    let (w : int) = 2 * v
    in (w)
let (r : int) (even : [r][m]) =
  filter (row : [m]) over xss do
    let (one : int) = 1
    let (h : int) = row[one]
    let (keep : int) = h % 2 == 0
    in (keep)
in (k, pos, doubled, r, even)
