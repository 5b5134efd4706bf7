-- Inputs from data files (docs/data.md): the dot product of two vectors
-- and the maximum of the first, on a data set made by
--   arraysem dataset -s 7 -g '[100]i32' -g '[100]i32' -b > dot.bin
-- (Futhark's binary data format, which futhark dataset also writes), on
-- one in Futhark's text format and one in this project's literals. A data
-- file gives the arrays alone: the size n is read off them. An input
-- block's value may come from a file too (xs=@FILE).
-- ==
-- input @ dot.bin
-- output { 5570957606244499042 2042120892 }
-- input @ dot.in
-- output { 32 3 }
-- input { xs=@xs.in ys=[4 5 6] }
-- output { 32 3 }
-- input @ short.in
-- error: input ys has 2 elements in dimension 1, but its size n is 3
input (n : int) (xs : [n]) (ys : [n])
let (zero : int) = 0
let (lowest : int) = -9223372036854775808
let (prods : [n]) = kernel i <= n do
  let (x : int) = xs[i]
  let (y : int) = ys[i]
  let (p : int) = x * y
  in (p)
let (dot : int) =
  reduce (a : int) (b : int) = zero over prods do
    let (c : int) = a + b
    in (c)
let (max : int) =
  reduce (a : int) (b : int) = lowest over xs do
    let (ge : int) = a >= b
    let (c : int) =
      if ge
      then in (a)
      else in (b)
    in (c)
in (dot, max)
