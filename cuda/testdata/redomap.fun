-- redomap and scanomap at every place the emitter puts a fold: on the
-- host (a parallel fold whose element part is the map body: here one
-- that allocates, launches nothing but runs a kernel, a reduce, an if,
-- a loop and an assert inside the thread), inside a kernel's thread, and
-- over arrays (a for on the host); with empty, odd and large bounds.
-- Every operator is associative with its start neutral, as a parallel
-- fold assumes.
-- ==
-- input { xss=[[1 2] [3 4] [5 6]] }
-- output { 91 [5 25 61] [0.5 1.5 3.0] [9 12] [[1 2] [4 6] [9 12]] 6 }
-- input { xss=[] m=3 }
-- output { 0 [] [] [0 0 0] [] 0 }
-- input { xss=[[7]] }
-- output { 49 [49] [0.5] [7] [[7]] 1 }
-- input { xss=[[1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1] [1 1 1 1]] }
-- output { 148 [4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4] [0.5 1.5 3.0 5.0 7.5 10.5 14.0 18.0 22.5 27.5 33.0 39.0 45.5 52.5 60.0 68.0 76.5 85.5 95.0 105.0 115.5 126.5 138.0 150.0 162.5 175.5 189.0 203.0 217.5 232.5 248.0 264.0 280.5 297.5 315.0 333.0 351.5] [37 37 37 37] [[1 1 1 1] [2 2 2 2] [3 3 3 3] [4 4 4 4] [5 5 5 5] [6 6 6 6] [7 7 7 7] [8 8 8 8] [9 9 9 9] [10 10 10 10] [11 11 11 11] [12 12 12 12] [13 13 13 13] [14 14 14 14] [15 15 15 15] [16 16 16 16] [17 17 17 17] [18 18 18 18] [19 19 19 19] [20 20 20 20] [21 21 21 21] [22 22 22 22] [23 23 23 23] [24 24 24 24] [25 25 25 25] [26 26 26 26] [27 27 27 27] [28 28 28 28] [29 29 29 29] [30 30 30 30] [31 31 31 31] [32 32 32 32] [33 33 33 33] [34 34 34 34] [35 35 35 35] [36 36 36 36] [37 37 37 37]] 703 }
-- input { xss=[[1 2] [3 -9] [5 6]] }
-- error: no element below -5
input (n : int) (m : int) (xss : [n][m])
let (zero : int) = 0
let (s : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    let (r : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        let (pos : int) = v > -5
        let (ok : int) = assert pos "no element below -5"
        let (w : int) = v * v
        in (w)
    let (t : int) =
      reduce (p : int) (q : int) = zero over r do
        let (c : int) = p + q
        in (c)
    let (odd : int) = i % 2
    let (y : int) =
      if odd
      then
        let (u : int) =
          loop (acc : int) = (t) for k <= m do
            let (acc1 : int) = acc + 0
            in (acc1)
        in (u)
      else
        let (u : int) = t - 0
        in (u)
    in (y)
  combine
    let (c : int) = a + b
    in (c)
let (ks : [n]) =
  kernel i <= n do
    let (t : int) =
      redomap (a : int) (b : int) = zero for j <= m do
        let (v : int) = xss[i, j]
        let (w : int) = v * v
        in (w)
      combine
        let (c : int) = a + b
        in (c)
    in (t)
let (fz : float) = 0.0
let (fs : [n]float) =
  scanomap (a : float) (b : float) = fz for i <= n do
    let (x : float) = float(i)
    let (y : float) = x / 2.0
    in (y)
  combine
    let (c : float) = a + b
    in (c)
let (zeros : [m]) = kernel j <= m do in (zero)
let (cols : [m]) =
  redomap (a : [m]) (b : [m]) = zeros for i <= n do
    let (r : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        in (v)
    in (r)
  combine
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
let (runs : [n][m]) =
  scanomap (a : [m]) (b : [m]) = zeros for i <= n do
    let (r : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        in (v)
    in (r)
  combine
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
let (tri : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    in (i)
  combine
    let (c : int) = a + b
    in (c)
in (s, ks, fs, cols, runs, tri)
