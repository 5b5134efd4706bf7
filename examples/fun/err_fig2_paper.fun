-- Type error, T-RESULT: Fig 2 exactly as the paper prints it. The else
-- branch binds x but returns (ysize, y), and y is bound nowhere, so the
-- branch's result fails T-RESULT ((y : S(τ)) ∈ Γ). fig2.fun is the
-- corrected program (see ERRATA.md).
-- ==
-- error: err_fig2_paper.fun:13:19: T-RESULT: result y is not in scope
input (xsize : int) (ysize : int) (zcond : int)
let (zsize : int) (zarr : [zsize]) =
  if zcond
  then let (x : [xsize]) = iota xsize
       in (xsize, x)
  else let (x : [ysize]) = iota ysize
       in (ysize, y)
in (zsize, zarr)
