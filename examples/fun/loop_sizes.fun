-- Loops whose carried array changes size from one iteration to the next:
-- its size is a loop-carried int (an existential size, as in Fig 2 of
-- size-slicing). T-LOOP checks the initial values and the body's results
-- against the parameters' types with T-RESULT's substitution S (k ↦ n for
-- the initial values, k ↦ k1 for the results), and the pattern binds the
-- final size with the array, (k2 : int) (grown : [k2]). The first loop
-- appends i * i in iteration i; the second drops the first element while
-- there is one (an if inside the body, whose pattern binds a size too).
-- ==
-- input { xs=[5 6] t=3 }
-- output { 5 [5 6 1 4 9] 0 [] }
-- input { xs=[1 2 3 4 5] t=2 }
-- output { 7 [1 2 3 4 5 1 4] 3 [3 4 5] }
-- input { xs=[5 6] t=0 }
-- output { 2 [5 6] 2 [5 6] }
-- input { xs=[] t=1 }
-- output { 1 [1] 0 [] }
input (n : int) (xs : [n]) (t : int)
let (two : int) = 2
let (k2 : int) (grown : [k2]) =
  loop (k : int) (ys : [k]) = (n, xs) for i <= t do
    let (k1 : int) = k + 1
    let (ys1 : [k1]) =
      kernel j <= k1 do
        let (old : int) = j <= k
        let (v : int) =
          if old
          then let (y : int) = ys[j]
               in (y)
          else let (sq : int) = i * i
               in (sq)
        in (v)
    in (k1, ys1)
let (k3 : int) (shrunk : [k3]) =
  loop (k : int) (ys : [k]) = (n, xs) for i <= t do
    let (nonempty : int) = k > 0
    let (k1 : int) (ys1 : [k1]) =
      if nonempty
      then let (km : int) = k - 1
           let (tail : [km]) = ys[two : km]
           in (km, tail)
      else in (k, ys)
    in (k1, ys1)
in (k2, grown, k3, shrunk)
