-- Indexing: E-INDEX with Fig 5's index(v, k1, …, kn), 1-based, typed by
-- T-INDEX (every dimension indexed, indices of type int, result int). The
-- sizes n and m are read off the input array. Reads one element, a row and a
-- column (the latter two with kernels, E-KERNEL / T-KERNEL). An index of 0
-- or past the end is stuck in E-INDEX, naming the index, the bounds and the
-- dimension. With i out of bounds the row kernel is stuck in its first
-- iteration, before xss[i, j] is reached.
-- ==
-- input { xss=[[1 2 3] [4 5 6]] i=2 j=3 }
-- output { 6 [4 5 6] [3 6] }
-- input { xss=[[1 2 3] [4 5 6]] i=1 j=1 }
-- output { 1 [1 2 3] [1 4] }
-- input { xss=[[7]] i=1 j=1 }
-- output { 7 [7] [7] }
-- input { xss=[[1 2 3] [4 5 6]] i=3 j=1 }
-- error: index.fun:23:19: E-INDEX: index 3 out of bounds 1\.\.2 in dimension 1 of xss
-- input { xss=[[1 2 3] [4 5 6]] i=1 j=0 }
-- error: index.fun:25:17: E-INDEX: index 0 out of bounds 1\.\.3 in dimension 2 of xss
-- input { xss=[[1 2 3] [4 5 6]] i=1 j=-1 }
-- error: E-INDEX: index -1 out of bounds 1\.\.3 in dimension 2
input (n : int) (m : int) (xss : [n][m]) (i : int) (j : int)
let (row : [m]) = kernel k <= m do
  let (e : int) = xss[i, k]
  in (e)
let (v : int) = xss[i, j]
let (col : [n]) = kernel k <= n do
  let (e : int) = xss[k, j]
  in (e)
in (v, row, col)
