-- Floats (an extension): float64 scalars and arrays of floats, written
-- float and [n]float. A literal with a '.' or an exponent is a float
-- (1.5, 3.0, 1e3, 2.5e-3); + - * / and comparisons apply to two floats
-- (T-OP: no implicit conversions, a comparison gives the int 1 or 0),
-- and % && || take ints only. The functions sqrt exp log sin cos take a
-- float (T-CALL); float(se) makes an int a float and int(se) truncates a
-- float to an int, stuck in E-SCALAR on NaN or outside the int64 range.
-- Division follows IEEE: 1.0 / 0.0 is +Inf, 0.0 / 0.0 NaN. Floats print
-- in Go's shortest form, always as floats: 3.0, 0.5, 1e+21.
--
-- The program computes the mean and the root mean square of xs (a
-- float reduce), the squares of xs (a float kernel, which for an empty
-- xs is an empty float array, printed []), their running sums (a float
-- scan), the number of elements above the mean (a float filter), and
-- ten times the root mean square truncated to an int. For an empty xs
-- the mean and the root mean square are 0.0 / 0.0, NaN (int(NaN) is not
-- taken: the if guards it); for huge elements the squares overflow to
-- +Inf, and int(+Inf) is stuck.
-- Rules: T-FLOAT, T-CALL, T-OP, E-SCALAR, E-KERNEL, E-REDUCE, E-SCAN,
-- E-FILTER, E-IF-TRUE, E-IF-FALSE.
-- ==
-- input { xs=[1.0 2.0 3.0 4.0] }
-- output { 10.0 2.5 2.7386127875258306 [1.0 4.0 9.0 16.0] [1.0 5.0 14.0 30.0] 2 27 }
-- input { xs=[0.5 -1e-3] }
-- output { 0.499 0.2495 0.3535540976993478 [0.25 1e-06] [0.25 0.250001] 1 3 }
-- input { xs=[] }
-- output { 0.0 NaN NaN [] [] 0 0 }
-- input { xs=[1e300 1e300] }
-- error: floats.fun:58:24: E-SCALAR: integer overflow: int\(\+Inf\) does not fit in 64 bits in int\(rms \* 10.0\)
input (n : int) (xs : [n]float)
let (zero : float) = 0.0
let (sum : float) =
  reduce (a : float) (b : float) = zero over xs do
    let (c : float) = a + b
    in (c)
let (mean : float) = sum / float(n)
let (squares : [n]float) =
  kernel i <= n do
    let (x : float) = xs[i]
    let (y : float) = x * x
    in (y)
let (sumsq : float) =
  reduce (a : float) (b : float) = zero over squares do
    let (c : float) = a + b
    in (c)
let (rms : float) = sqrt(sumsq / float(n))
let (running : [n]float) =
  scan (a : float) (b : float) = zero over squares do
    let (c : float) = a + b
    in (c)
let (k : int) (above : [k]float) =
  filter (x : float) over xs do
    let (keep : int) = x > mean
    in (keep)
let (nonempty : int) = n > 0
let (rms10 : int) =
  if nonempty
  then let (r : int) = int(rms * 10.0)
       in (r)
  else in (n)
in (sum, mean, rms, squares, running, k, rms10)
