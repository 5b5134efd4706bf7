-- Folds nested in threads (sequential loops of a thread in CUDA): a
-- reduce and a scan over a row in a kernel, their neutral elements host
-- names that only the folds mention; a reduce over a float array in a
-- kernel; a scan inside a loop inside a kernel; a filter inside a kernel
-- (FUN → IMP lowers it to a for with an if); a reduce inside a reduce's
-- operator (a fold inside the parallel combine's __device__ function).
-- Empty arrays: no rows, empty rows, no floats.
-- ==
-- input { n=2 m=3 xs=[1 2] xss=[[1 -2 3] [4 5 -6]] ys=[0.5 0.25 1.5] }
-- output { [9 10] [[1 -1 2] [4 9 3]] [2.25 4.5] [[1 -1 2] [4 13 16]] [2 2] 3 }
-- input { n=0 m=2 xs=[] xss=[] ys=[1.0 2.0] }
-- output { [] [] [] [] [] 0 }
-- input { n=2 m=0 xs=[3 4] xss=[[] []] ys=[] }
-- output { [7 7] [[] []] [0.0 0.0] [[] []] [0 0] 7 }
-- input { n=5 m=4 xs=[5 -1 0 2 9] xss=[[1 2 3 4] [0 0 0 0] [-1 -2 -3 -4] [7 -7 7 -7] [1 1 1 1]] ys=[-0.5 2.0 0.25 0.25] }
-- output { [17 7 -3 7 11] [[1 3 6 10] [0 0 0 0] [-1 -3 -6 -10] [7 0 7 0] [1 2 3 4]] [2.0 4.0 6.0 8.0 10.0] [[1 3 6 10] [0 0 0 0] [-1 -5 -15 -35] [7 21 49 91] [1 6 21 56]] [4 0 0 2 4] 15 }
input (n : int) (m : int) (xs : [n]) (xss : [n][m]) (ys : [m]float)
let (z : int) = 0
let (seven : int) = 7
let (zf : float) = 0.0
let (one : int) = 1
let (sums : [n]) =
  kernel i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (x : int) = xss[i, j]
        in (x)
    let (s : int) =
      reduce (a : int) (b : int) = seven over row do
        let (c : int) = a + b
        in (c)
    in (s)
let (runs : [n][m]) =
  kernel i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (x : int) = xss[i, j]
        in (x)
    let (r : [m]) =
      scan (a : int) (b : int) = z over row do
        let (c : int) = a + b
        in (c)
    in (r)
let (fs : [n]float) =
  kernel i <= n do
    let (f : float) =
      reduce (a : float) (b : float) = zf over ys do
        let (c : float) = a + b
        in (c)
    let (g : float) = float(i) * f
    in (g)
let (looped : [n][m]) =
  kernel i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (x : int) = xss[i, j]
        in (x)
    let (acc : [m]) =
      loop (cur : [m]) = (row) for t <= i do
        let (nxt : [m]) =
          scan (a : int) (b : int) = z over cur do
            let (c : int) = a + b
            in (c)
        in (nxt)
    in (acc)
let (counts : [n]) =
  kernel i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (x : int) = xss[i, j]
        in (x)
    let (k : int) (pos : [k]) =
      filter (x : int) over row do
        let (keep : int) = x > 0
        in (keep)
    in (k)
let (total : int) =
  reduce (a : int) (b : int) = z over xs do
    let (inner : int) =
      reduce (p : int) (q : int) = a over xs do
        let (r : int) = p + q
        in (r)
    let (c : int) = b + inner - inner
    let (d : int) = a + c
    in (d)
in (sums, runs, fs, looped, counts, total)
