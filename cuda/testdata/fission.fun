-- Reduces on the host whose elements fold rows: with 32 elements or more
-- a row, the host runs the elements as a kernel of a block per element
-- (cuda/coop.go) writing a block the emitter allocates, then the reduce
-- of that block (cuda/fission.go); with fewer, the parallel fold as it
-- is. The sum of the row sums; the last row sum by the operator (a, b) ->
-- b, associative but not commutative, so the split must keep the
-- elements' order; a float sum; and an element that gets stuck (a
-- division by zero when xs[k] = 20 i).
-- ==
-- input { n=3 xs=[1 -5 3 -8 -7 8 -6 2 9 -8 7 -3 -8 -7 4 4 -7 -2 -7 8 4 -8 9 -6 -2 9 -8 9 9 3 -8 -2 -8 8 -5 0 4 -5 8 -6 9 0 8 -4 -6] }
-- output { -60 3095 -15.0 -379 }
-- input { n=37 xs=[4 6 2 9 2 1 4 8 9 7 6 8 8 6 5 4 3 4 2 5 9 8 6 8 5 2 2 9 7 3 6 3 8 7 1 2 9 6 6 6 8 8 2 2 5 8 2 1 5 8 5 7 6 1 8 6 3 2 8 1 4 5 3 4 7 7 8 2 3 8] }
-- output { 255189 92308 6715.5 -832 }
-- input { n=2 xs=[5 6 7] }
-- output { 54 30 18.0 -27 }
-- input { n=0 xs=[4 6 2 9 2 1 4 8 9 7 6 8 8 6 5 4 3 4 2 5 9 8 6 8 5 2 2 9 7 3 6 3 8 7 1 2 9 6 6 6 8 8 2 2 5 8 2 1 5 8 5 7 6 1 8 6 3 2 8 1 4 5 3 4 7 7 8 2 3 8] }
-- output { 0 0 0.0 0 }
-- input { n=2 p=0 xs=[] }
-- output { 0 0 0.0 0 }
-- input { n=2 xs=[4 6 2 9 2 1 4 8 9 7 6 8 8 6 5 4 3 4 2 5 9 8 6 8 5 2 2 9 7 3 6 3 8 7 1 2 9 20 6 6 8 8 2 2 5 8 2 1 5 8 5 7 6 1 8 6 3 2 8 1 4 5 3 4 7 7 8 2 3 8] }
-- error: division by zero
input (n : int) (p : int) (xs : [p])
let (zero : int) = 0
let (zf : float) = 0.0
let (total : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    let (s : int) =
      redomap (a1 : int) (b1 : int) = zero for k <= p do
        let (x : int) = xs[k]
        let (y : int) = x * i
        in (y)
      combine
        let (c1 : int) = a1 + b1
        in (c1)
    in (s)
  combine
    let (c : int) = a + b
    in (c)
let (last : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    let (s : int) =
      redomap (a1 : int) (b1 : int) = zero for k <= p do
        let (x : int) = xs[k]
        let (y : int) = x + i * k
        in (y)
      combine
        let (c1 : int) = a1 + b1
        in (c1)
    in (s)
  combine
    in (b)
let (ftotal : float) =
  redomap (a : float) (b : float) = zf for i <= n do
    let (s : float) =
      redomap (a1 : float) (b1 : float) = zf for k <= p do
        let (x : int) = xs[k]
        let (f : float) = float(x)
        let (g : float) = f * 0.5
        in (g)
      combine
        let (c1 : float) = a1 + b1
        in (c1)
    in (s)
  combine
    let (c : float) = a + b
    in (c)
let (q : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    let (s : int) =
      redomap (a1 : int) (b1 : int) = zero for k <= p do
        let (x : int) = xs[k]
        let (i20 : int) = i * 20
        let (d : int) = x - i20
        let (y : int) = 100 / d
        in (y)
      combine
        let (c1 : int) = a1 + b1
        in (c1)
    in (s)
  combine
    let (c : int) = a + b
    in (c)
in (total, last, ftotal, q)
