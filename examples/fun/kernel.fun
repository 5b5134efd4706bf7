-- Parallel loops: E-KERNEL runs the body once for each x = 1 … E(y) and
-- stacks the results; T-KERNEL types the statement (z : [y]τ) when the body
-- gives a τ, whose sizes (here m) must be in scope outside the kernel.
-- Shows a map over the indices (squares), a two-level kernel building a
-- multiplication table of type [n][m] (the inner body sees both indices),
-- and a body that returns a variable bound outside the kernel. A kernel of
-- bound 0 gives an empty array (for a [0][m] table that prints as []);
-- a negative bound is stuck in E-KERNEL.
-- ==
-- input { n=3 m=2 }
-- output { [1 4 9] [[1 2] [2 4] [3 6]] [7 7] }
-- input { n=1 m=1 }
-- output { [1] [[1]] [7] }
-- input { n=0 m=2 }
-- output { [] [] [7 7] }
-- input { n=2 m=0 }
-- output { [1 4] [[] []] [] }
-- input { n=-1 m=2 }
-- error: kernel.fun:23:30: E-KERNEL: kernel bound n = -1 is negative
-- input { n=2 m=-5 }
-- error: E-KERNEL: .*-5 is negative
input (n : int) (m : int)
let (sq : [n]) = kernel i <= n do
  let (s : int) = i * i
  in (s)
let (tab : [n][m]) =
  kernel i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (p : int) = i * j
        in (p)
    in (row)
let (k : int) = 7
let (sevens : [m]) = kernel j <= m do in (k)
in (sq, tab, sevens)
