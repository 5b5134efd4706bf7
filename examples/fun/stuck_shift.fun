-- A stuck state deep in a kernel: shifting xs by s reads xs[i + s] in
-- iteration i, so with s = 1 the last iteration indexes one past the end
-- and with s = -1 the first indexes position 0. Both semantics are stuck in
-- E-INDEX at the same place with the same message (the big-step run after
-- evaluating the earlier iterations, the small-step run after stepping
-- through them).
-- ==
-- input { xs=[10 20 30] s=0 }
-- output { [10 20 30] }
-- input { xs=[10 20 30] s=1 }
-- error: stuck_shift.fun:20:21: E-INDEX: index 4 out of bounds 1\.\.3 in dimension 1 of xs
-- input { xs=[10 20 30] s=-1 }
-- error: stuck_shift.fun:20:21: E-INDEX: index 0 out of bounds 1\.\.3 in dimension 1 of xs
-- input { xs=[] s=5 }
-- output { [] }
input (n : int) (xs : [n]) (s : int)
let (ys : [n]) =
  kernel i <= n do
    let (j : int) = i + s
    let (v : int) = xs[j]
    in (v)
in (ys)
