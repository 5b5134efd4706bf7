-- Fusion across an if ("A T2 Graph-Reduction Approach To Fusion", Fig 9,
-- case 4): an array consumed by kernels on disjoint control paths, one in
-- each branch, fuses into both without computing anything twice: whichever
-- branch runs computes each element of ys once, at its index. Here the
-- then branch maps ys (map2 ∘ map2 ⇒ map2) and the else branch sums it
-- (reduce2 ∘ map2 ⇒ redomap2). The doubled xs, zs, is the loop's start
-- and is read in its body: it is kept (Fig 9, case 3), while the
-- replicate ones fuses into its read (Fig 14), inside the loop too.
-- ==
-- input { xs=[1 2 3] c=1 t=2 }
-- output { [4 9 16] [4 8 12] }
-- input { xs=[1 2 3] c=0 t=0 }
-- output { [9] [2 4 6] }
-- input { xs=[] c=0 t=3 }
-- output { [0] [] }
input (n : int) (xs : [n]) (c : int) (t : int)
let (zero : int) = 0
let (one : int) = 1
let (ones : [n]) = kernel i <= n do in (one)
let (ys : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = x + one
    in (y)
let (k : int) (r : [k]) =
  if c
  then let (sq : [n]) =
         kernel j <= n do
           let (y : int) = ys[j]
           let (s : int) = y * y
           in (s)
       in (n, sq)
  else let (s : int) =
         reduce (a : int) (b : int) = zero over ys do
           let (d : int) = a + b
           in (d)
       let (ss : [one]) = kernel q <= one do in (s)
       in (one, ss)
let (zs : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (z : int) = x + x
    in (z)
let (acc : [n]) =
  loop (a : [n]) = (zs) for s <= t do
    let (b : [n]) =
      kernel j <= n do
        let (u : int) = a[j]
        let (o : int) = ones[j]
        let (z : int) = zs[j]
        let (h : int) = z / 2
        let (w : int) = u + o * h
        in (w)
    in (b)
in (r, acc)
