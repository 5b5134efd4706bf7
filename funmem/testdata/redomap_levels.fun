-- redomap and scanomap down every level (funmem/redomap_levels_test.go):
-- the map and operator bodies are scopes of their own in FUN and share
-- one in IMP's for over arrays, so the names they both bind (the
-- operator's i is the map's index; c an array in one and a float in the
-- other) are renamed apart there; a redomap over arrays inside a kernel's
-- thread and inside a loop; a scanomap whose map body returns an array
-- from outside it.
-- ==
-- input { xss=[[1 2] [3 4] [5 6]] }
-- output { [[1 2] [4 6] [9 12]] 6.0 [[4 4] [12 8] [20 12]] [9 12] [[0 0] [0 0] [0 0]] }
-- input { xss=[] m=2 }
-- output { [] 0.0 [] [0 0] [] }
input (n : int) (m : int) (xss : [n][m])
let (zero : int) = 0
let (zeros : [m]) = kernel j <= m do in (zero)
let (runs : [n][m]) =
  scanomap (a : [m]) (b : [m]) = zeros for i <= n do
    let (c : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        in (v)
    in (c)
  combine
    let (i : int) = 7
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v + i - i
        in (w)
    in (c)
let (fz : float) = 0.0
let (t : float) =
  redomap (a : float) (b : float) = fz for i <= n do
    let (c : float) = float(i)
    in (c)
  combine
    let (c : float) = a + b
    in (c)
let (twice : [n][m]) =
  kernel k <= n do
    let (r : [m]) =
      redomap (a : [m]) (b : [m]) = zeros for i <= m do
        let (c : [m]) =
          kernel j <= m do
            let (v : int) = xss[k, j]
            let (e : int) = i == j
            let (w : int) = v * e
            in (w)
        in (c)
      combine
        let (c : [m]) =
          kernel j <= m do
            let (u : int) = a[j]
            let (v : int) = b[j]
            let (w : int) = u + v + u + v
            in (w)
        in (c)
    let (h : [m]) =
      kernel j <= m do
        let (x : int) = r[j]
        let (y : int) = x / 2
        in (y)
    let (g : [m]) =
      kernel j <= m do
        let (x : int) = h[j]
        let (y : int) = x + x
        in (y)
    in (g)
let (last : [m]) =
  loop (acc : [m]) = (zeros) for l <= n do
    let (s : [m]) =
      redomap (a : [m]) (b : [m]) = zeros for i <= n do
        let (c : [m]) =
          kernel j <= m do
            let (v : int) = xss[i, j]
            in (v)
        in (c)
      combine
        let (c : [m]) =
          kernel j <= m do
            let (u : int) = a[j]
            let (v : int) = b[j]
            let (w : int) = u + v
            in (w)
        in (c)
    in (s)
let (outside : [n][m]) =
  scanomap (a : [m]) (b : [m]) = zeros for i <= n do
    in (zeros)
  combine
    in (a)
in (runs, t, twice, last, outside)
