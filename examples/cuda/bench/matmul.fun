-- Benchmark (docs/cuda.md, "Performance"): the matrix product as the
-- Remora compiler writes it (examples/cuda/bench/matmul.remora: dot of a
-- row and a matrix, (reduce-init + 0 (* x y))): row i of c is the sum,
-- over k, of the rows b[k] scaled by a[i, k]. A reduce over arrays, each
-- element a row of p products, each step adding two rows.
-- ==
-- input { a=[[1 2 3] [4 5 6]] b=[[1 2] [3 4] [5 6]] }
-- output { [[22 28] [49 64]] }
-- input { a=[[2]] b=[[1 -1 3]] }
-- output { [[2 -2 6]] }
-- input { m=2 a=[[] []] b=[] }
-- output { [[0 0] [0 0]] }
input (n : int) (p : int) (m : int) (a : [n][p]) (b : [p][m])
let (c : [n][m]) =
  kernel i <= n do
    let (zero : int) = 0
    let (zeros : [m]) =
      kernel j <= m do
        in (zero)
    let (prods : [p][m]) =
      kernel k <= p do
        let (x : int) = a[i, k]
        let (r : [m]) =
          kernel j <= m do
            let (y : int) = b[k, j]
            let (xy : int) = x * y
            in (xy)
        in (r)
    let (row : [m]) =
      reduce (acc : [m]) (e : [m]) = zeros over prods do
        let (s : [m]) =
          kernel j <= m do
            let (u : int) = acc[j]
            let (v : int) = e[j]
            let (w : int) = u + v
            in (w)
        in (s)
    in (row)
in (c)
