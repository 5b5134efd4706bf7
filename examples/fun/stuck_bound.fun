-- A negative kernel bound computed inside a kernel. Iteration i builds an
-- array of k - i elements with an inner kernel; its size depends on i, so
-- it may not escape the iteration (T-KERNEL), and the body returns a
-- scalar: the array's last element, k - i, or 0 when it is empty. When
-- k < n, iteration k + 1 has a negative bound and is stuck in E-KERNEL.
-- ==
-- input { n=4 k=5 }
-- output { [4 3 2 1] }
-- input { n=4 k=4 }
-- output { [3 2 1 0] }
-- input { n=4 k=2 }
-- error: stuck_bound.fun:18:19: E-KERNEL: kernel bound len = -1 is negative
input (n : int) (k : int)
let (lasts : [n]) =
  kernel i <= n do
    let (len : int) = k - i
    let (ys : [len]) =
      kernel j <= len do
        in (j)
    let (empty : int) = len == 0
    let (v : int) =
      if empty
      then in (len)
      else let (w : int) = ys[len]
           in (w)
    in (v)
in (lasts)
