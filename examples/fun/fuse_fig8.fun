-- Fig 8 of "A T2 Graph-Reduction Approach To Fusion": fusion as T2
-- reduction of the dependency graph, where an arrow points from a
-- consumer to its producer. The root res reads z1, z2, y1 and g (the
-- figure's (z1, z2) is one map of two results; a FUN kernel has one, so
-- here they are two kernels). Reduction: g has one consumer, res: fused.
-- z1 and z2 then have one consumer, the fused res: fused, each in turn.
-- y1, which res and z1 and z2 read, is then read by res alone: fused.
-- x1 has two consumers on one path, res and u: no further T2 reduction is
-- possible, and it starts a kernel of its own (the figure's Kernel 1); u
-- is Kernel 2 and res, with g, z1, z2 and y1 inside it, Kernel 3.
-- arraysem compile --explain-fusion lists the decisions.
-- ==
-- input { a=[1 2 3] b=[10 20 30] }
-- output { [42 156 342] [3 5 7] }
-- input { a=[] b=[] }
-- output { [] [] }
-- input { a=[-4] b=[4] }
-- output { [1] [-7] }
input (n : int) (a : [n]) (b : [n])
let (x1 : [n]) =
  kernel i <= n do
    let (v : int) = a[i]
    let (w : int) = v * 2
    in (w)
let (u : [n]) =
  kernel i <= n do
    let (x : int) = x1[i]
    let (w : int) = x + 1
    in (w)
let (y1 : [n]) =
  kernel i <= n do
    let (x : int) = x1[i]
    let (c : int) = b[i]
    let (w : int) = x + c
    in (w)
let (z1 : [n]) =
  kernel i <= n do
    let (y : int) = y1[i]
    let (w : int) = y * y
    in (w)
let (z2 : [n]) =
  kernel i <= n do
    let (y : int) = y1[i]
    let (w : int) = y - 1
    in (w)
let (g : [n]) =
  kernel i <= n do
    let (c : int) = b[i]
    let (w : int) = c / 10
    in (w)
let (res : [n]) =
  kernel i <= n do
    let (p : int) = z1[i]
    let (q : int) = z2[i]
    let (y : int) = y1[i]
    let (h : int) = g[i]
    let (s : int) = p + q + y + h
    let (d : int) = s / 4
    in (d)
in (res, u)
