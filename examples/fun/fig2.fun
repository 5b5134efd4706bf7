-- Fig 2 of the FUN paper, made a whole program: the inputs xsize, ysize
-- and zcond are "assumed to have been previously defined". The paper's
-- else-branch returns (ysize, y), but it binds x: we return (ysize, x)
-- (see ERRATA.md). The branches return the size of their array with it.
-- ==
-- input { xsize=3 ysize=4 zcond=1 }
-- output { 3 [1 2 3] }
-- input { xsize=3 ysize=4 zcond=0 }
-- output { 4 [1 2 3 4] }
-- input { xsize=0 ysize=2 zcond=7 }
-- output { 0 [] }
input (xsize : int) (ysize : int) (zcond : int)
let (zsize : int) (zarr : [zsize]) =
  if zcond
  then let (x : [xsize]) = iota xsize
       in (xsize, x)
  else let (x : [ysize]) = iota ysize
       in (ysize, x)
in (zsize, zarr)
