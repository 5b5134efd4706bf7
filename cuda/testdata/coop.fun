-- Kernels whose iterations fold rows: with 32 elements or more a row,
-- the host launches a block per iteration (cuda/coop.go), whose threads
-- fold the row together and whose thread 0 writes. Row sums; the last
-- element of each row by the operator (a, b) -> b, associative but not
-- commutative, so the block must keep the elements' order; a float sum;
-- two reduces and a nested kernel in one body (as the matrix product has
-- after the interchange); and an element that gets stuck (a division by
-- zero when xs[k] = 20 i), in a part run by one thread of the block.
-- Then kernels of 3 and 5 columns whose iterations fold xs read as a
-- matrix of rows of 3 (5) words, which the block folds all at once
-- when it has as many threads as columns (coop.go, columnFold): the
-- first element above i + 4 of each column (a, b) -> if a != 0 then a
-- else b, associative but not commutative; sums with the division by
-- zero above in the 5 columns' elements.
-- ==
-- input { n=3 xs=[1 -5 3 -8 -7 8 -6 2 9 -8 7 -3 -8 -7 4 4 -7 -2 -7 8 4 -8 9 -6 -2 9 -8 9 9 3 -8 -2 -8 8 -5 0 4 -5 8 -6 9 0 8 -4 -6] }
-- output { [-10 -20 -30] [39 84 129] [-5.0 -5.0 -5.0] [[-10 8] [-10 7] [-10 6]] [-232 -102 -45] [[91 72 83] [91 72 83] [91 82 83]] [[-2830 -2275 -2535 -2630 -2655] [-1075 -1360 -1045 -1115 -1540] [-605 -1030 -630 -700 -1185]] }
-- input { n=4 xs=[4 6 2 9 2 1 4 8 9 7 6 8 8 6 5 4 3 4 2 5 9 8 6 8 5 2 2 9 7 3 6 3 8 7 1 2 9 6 6 6 8 8 2 2 5 8 2 1 5 8 5 7 6 1 8 6 3 2 8 1 4 5 3 4 7 7 8 2 3 8] }
-- output { [363 726 1089 1452] [78 148 218 288] [181.5 181.5 181.5 181.5] [[363 8] [363 7] [363 6] [363 5]] [-457 -165 -70 -70] [[91 62 93] [91 82 93] [91 82 93] [91 92 93]] [[-4435 -4145 -3715 -3400 -2990] [-1625 -1255 -970 -475 -210] [-880 -495 -235 290 530] [-540 -130 120 640 885]] }
-- input { n=2 xs=[5 6 7] }
-- output { [18 36] [10 13] [9.0 9.0] [[18 6] [18 5]] [-20 -7] [[0 62 73] [0 0 73]] [[-195 -177 -159 -141 -123] [-69 -51 -33 -15 3]] }
-- input { n=0 xs=[4 6 2 9 2 1 4 8 9 7 6 8 8 6 5 4 3 4 2 5 9 8 6 8 5 2 2 9 7 3 6 3 8 7 1 2 9 6 6 6 8 8 2 2 5 8 2 1 5 8 5 7 6 1 8 6 3 2 8 1 4 5 3 4 7 7 8 2 3 8] }
-- output { [] [] [] [] [] [] [] }
-- input { n=2 p=0 xs=[] }
-- output { [0 0] [0 0] [0.0 0.0] [[0 -1000] [0 -1000]] [0 0] [[0 0 0] [0 0 0]] [[0 0 0 0 0] [0 0 0 0 0]] }
-- input { n=2 xs=[4 6 2 9 2 1 4 8 9 7 6 8 8 6 5 4 3 4 2 5 9 8 6 8 5 2 2 9 7 3 6 3 8 7 1 2 9 20 6 6 8 8 2 2 5 8 2 1 5 8 5 7 6 1 8 6 3 2 8 1 4 5 3 4 7 7 8 2 3 8] }
-- error: division by zero
input (n : int) (p : int) (xs : [p])
let (zero : int) = 0
let (zf : float) = 0.0
let (two : int) = 2
let (sums : [n]) =
  kernel i <= n do
    let (s : int) =
      redomap (a : int) (b : int) = zero for k <= p do
        let (x : int) = xs[k]
        let (y : int) = x * i
        in (y)
      combine
        let (c : int) = a + b
        in (c)
    in (s)
let (lasts : [n]) =
  kernel i <= n do
    let (l : int) =
      redomap (a : int) (b : int) = zero for k <= p do
        let (x : int) = xs[k]
        let (y : int) = x + i * k
        in (y)
      combine
        in (b)
    in (l)
let (fsums : [n]float) =
  kernel i <= n do
    let (s : float) =
      redomap (a : float) (b : float) = zf for k <= p do
        let (x : int) = xs[k]
        let (f : float) = float(x)
        let (g : float) = f * 0.5
        in (g)
      combine
        let (c : float) = a + b
        in (c)
    in (s)
let (both : [n][two]) =
  kernel i <= n do
    let (s : int) =
      redomap (a : int) (b : int) = zero for k <= p do
        let (x : int) = xs[k]
        in (x)
      combine
        let (c : int) = a + b
        in (c)
    let (first : int) = -1000
    let (m : int) =
      redomap (a : int) (b : int) = first for k <= p do
        let (x : int) = xs[k]
        let (y : int) = x - i
        in (y)
      combine
        let (bigger : int) = a > b
        let (c : int) = if bigger then in (a) else in (b)
        in (c)
    let (row : [two]) =
      kernel j <= two do
        let (isfirst : int) = j == 1
        let (v : int) = if isfirst then in (s) else in (m)
        in (v)
    in (row)
let (q : [n]) =
  kernel i <= n do
    let (s : int) =
      redomap (a : int) (b : int) = zero for k <= p do
        let (x : int) = xs[k]
        let (i20 : int) = i * 20
        let (d : int) = x - i20
        let (y : int) = 100 / d
        in (y)
      combine
        let (c : int) = a + b
        in (c)
    in (s)
let (three : int) = 3
let (five : int) = 5
let (firsts : [n][three]) =
  kernel i <= n do
    let (row : [three]) =
      kernel j <= three do
        let (f : int) =
          redomap (a : int) (b : int) = zero for k <= p do
            let (pos : int) = (k - 1) * three + j - 1
            let (idx : int) = pos % p + 1
            let (x : int) = xs[idx]
            let (big : int) = x > i + 4
            let (mark : int) = x * 10 + j
            let (y : int) = if big then in (mark) else in (zero)
            in (y)
          combine
            let (isset : int) = a != 0
            let (c : int) = if isset then in (a) else in (b)
            in (c)
        in (f)
    in (row)
let (cols : [n][five]) =
  kernel i <= n do
    let (row : [five]) =
      kernel j <= five do
        let (s : int) =
          redomap (a : int) (b : int) = zero for k <= p do
            let (pos : int) = (k - 1) * five + j - 1
            let (idx : int) = pos % p + 1
            let (x : int) = xs[idx]
            let (d : int) = x - i * 20
            let (y : int) = 1000 / d + x * j
            in (y)
          combine
            let (c : int) = a + b
            in (c)
        in (s)
    in (row)
in (sums, lasts, fsums, both, q, firsts, cols)
