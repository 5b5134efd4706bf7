-- Ifs nested three deep inside a kernel: FizzBuzz as numbers (-3 for
-- multiples of 15, -2 for other multiples of 5, -1 for other multiples of
-- 3, the number itself otherwise), each iteration taking its own path of
-- E-IF-TRUE / E-IF-FALSE steps. Then an if inside a kernel that returns
-- arrays: row i of a [n][m] matrix is 1 … m for odd i (iota) and m … 1 for
-- even i (a kernel counting down), both of type [m].
-- ==
-- input { n=15 m=3 }
-- output { [1 2 -1 4 -2 -1 7 8 -1 -2 11 -1 13 14 -3] [[1 2 3] [3 2 1] [1 2 3] [3 2 1] [1 2 3] [3 2 1] [1 2 3] [3 2 1] [1 2 3] [3 2 1] [1 2 3] [3 2 1] [1 2 3] [3 2 1] [1 2 3]] }
-- input { n=2 m=4 }
-- output { [1 2] [[1 2 3 4] [4 3 2 1]] }
-- input { n=0 m=4 }
-- output { [] [] }
-- input { n=3 m=0 }
-- output { [1 2 -1] [[] [] []] }
input (n : int) (m : int)
let (fb : [n]) =
  kernel i <= n do
    let (by15 : int) = i % 15 == 0
    let (v : int) =
      if by15
      then let (a : int) = -3
           in (a)
      else let (by5 : int) = i % 5 == 0
           let (w : int) =
             if by5
             then let (b : int) = -2
                  in (b)
             else let (by3 : int) = i % 3 == 0
                  let (u : int) =
                    if by3
                    then let (c : int) = -1
                         in (c)
                    else in (i)
                  in (u)
           in (w)
    in (v)
let (zigzag : [n][m]) =
  kernel i <= n do
    let (odd : int) = i % 2
    let (row : [m]) =
      if odd
      then let (up : [m]) = iota m
           in (up)
      else let (down : [m]) =
             kernel j <= m do
               let (d : int) = m + 1 - j
               in (d)
           in (down)
    in (row)
in (fb, zigzag)
