-- Type error, T-KERNEL: a triangular array, row i holding 1 … i. Its type
-- would be [n][i], but T-KERNEL's ∀y' ∈ FV(τ). (y' : int) ∈ Γ asks the
-- sizes of the element type to be in scope outside the kernel, and the
-- kernel's own index i is not: FUN's arrays are regular.
-- ==
-- error: err_kernel_index.fun:8:15: T-KERNEL: size variable i is not in scope
input (n : int)
let (tri : [n][i]) =
  kernel i <= n do
    let (row : [i]) = iota i
    in (row)
in (tri)
