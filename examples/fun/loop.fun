-- Sequential loops (an extension, after size-slicing's Fig 2): E-LOOP runs
-- the body for i = 1 … E(t), in order, with the loop-carried parameters
-- bound to the previous iteration's results (the initial values first);
-- T-LOOP gives the pattern the parameters' types. The first loop carries
-- two ints, a pair of Fibonacci numbers; the second an array of a fixed
-- size, rotated left by one element in each iteration (a kernel inside
-- the loop). Zero iterations give the initial values; a negative bound is
-- stuck in E-LOOP, as a kernel's is in E-KERNEL.
-- ==
-- input { xs=[1 2 3 4] t=5 }
-- output { 5 [2 3 4 1] }
-- input { xs=[1 2 3 4] t=0 }
-- output { 0 [1 2 3 4] }
-- input { xs=[] t=3 }
-- output { 2 [] }
-- input { xs=[7] t=1 }
-- output { 1 [7] }
-- input { xs=[7] t=-1 }
-- error: loop.fun:25:53: E-LOOP: loop bound t = -1 is negative
input (n : int) (xs : [n]) (t : int)
let (zero : int) = 0
let (one : int) = 1
-- (f0, f1) = (F(i), F(i+1)) after iteration i
let (a : int) (b : int) =
  loop (f0 : int) (f1 : int) = (zero, one) for i <= t do
    let (f2 : int) = f0 + f1
    in (f1, f2)
let (ys : [n]) =
  loop (acc : [n]) = (xs) for i <= t do
    let (rot : [n]) =
      kernel j <= n do
        let (j1 : int) = j % n + 1
        let (v : int) = acc[j1]
        in (v)
    in (rot)
in (a, ys)
