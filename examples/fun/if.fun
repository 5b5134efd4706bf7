-- Conditionals: E-IF-TRUE when the condition variable is non-zero (any
-- non-zero value, -3 included), E-IF-FALSE when it is 0; typed by T-IF. The
-- pattern binds several scalars at once, a branch may return variables of
-- the enclosing scope (n) as well as its own (T-RESULT), a branch may be a
-- bare in (…), and an else branch nests a second if (an else-if chain).
-- ==
-- input { c=1 n=10 }
-- output { 11 10 21 1 }
-- input { c=-3 n=10 }
-- output { 11 10 21 1 }
-- input { c=0 n=10 }
-- output { 10 20 30 2 }
-- input { c=0 n=-4 }
-- output { -4 -8 -12 3 }
input (c : int) (n : int)
let (x : int) (y : int) =
  if c
  then let (a : int) = n + 1
       in (a, n)
  else let (b : int) = n * 2
       in (n, b)
let (z : int) = x + y
-- which branch was taken, as a number: 1, or else 2 if n > 0, or else 3
let (pos : int) = n > 0
let (which : int) =
  if c
  then let (one : int) = 1
       in (one)
  else let (k : int) =
         if pos
         then let (two : int) = 2
              in (two)
         else let (three : int) = 3
              in (three)
       in (k)
in (x, y, z, which)
