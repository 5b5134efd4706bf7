-- Benchmark (docs/cuda.md, "Performance"): the transpose of an n×m
-- matrix, made in memory. transpose is a view (E-TRANSPOSE: only the
-- LMAD changes); the result, a row-major block of its own, is what moves
-- the data.
-- ==
-- input { xss=[[1 2 3] [4 5 6]] }
-- output { [[1 4] [2 5] [3 6]] }
-- input { xss=[[7 8]] }
-- output { [[7] [8]] }
-- input { n=0 m=2 xss=[] }
-- output { [[] []] }
input (n : int) (m : int) (xss : [n][m])
let (t : [m][n]) = transpose xss
in (t)
