-- Slicing: E-SLICE with Fig 5's slice, read as docs/fun.md fixes it (the
-- figure's slice has an off-by-one, see ERRATA.md): x[o : s] is the s
-- elements at positions o, …, o+s-1, in every dimension at once. Typed by
-- T-SLICE: offsets and sizes are int variables, the result's type is
-- [s1][s2]. A slice of size 0 may start just past the end (o = n+1); a
-- slice that reaches past the end, starts before 1, or has a negative size
-- is stuck in E-SLICE. Slicing a slice from 1 with its full size is the
-- identity.
-- ==
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=2 s1=2 o2=2 s2=3 }
-- output { [[6 7 8] [10 11 12]] [[6 7 8] [10 11 12]] }
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=1 s1=3 o2=1 s2=4 }
-- output { [[1 2 3 4] [5 6 7 8] [9 10 11 12]] [[1 2 3 4] [5 6 7 8] [9 10 11 12]] }
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=3 s1=1 o2=4 s2=1 }
-- output { [[12]] [[12]] }
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=4 s1=0 o2=1 s2=4 }
-- output { [] [] }
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=1 s1=3 o2=5 s2=0 }
-- output { [[] [] []] [[] [] []] }
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=3 s1=2 o2=1 s2=1 }
-- error: slice.fun:29:24: E-SLICE: slice 3:2 \(elements 3\.\.4\) out of bounds 1\.\.3 in dimension 1 of xss
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=0 s1=1 o2=1 s2=1 }
-- error: E-SLICE: slice 0:1 \(elements 0\.\.0\) out of bounds 1\.\.3 in dimension 1 of xss
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=5 s1=0 o2=1 s2=1 }
-- error: E-SLICE: slice 5:0 \(elements 5\.\.4\) out of bounds 1\.\.3 in dimension 1 of xss
-- input { xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]] o1=1 s1=1 o2=2 s2=-1 }
-- error: E-SLICE: slice size -1 is negative in dimension 2 of xss
input (n : int) (m : int) (xss : [n][m]) (o1 : int) (s1 : int) (o2 : int) (s2 : int)
let (sub : [s1][s2]) = xss[o1 : s1, o2 : s2]
let (one : int) = 1
let (same : [s1][s2]) = sub[one : s1, one : s2]
in (sub, same)
