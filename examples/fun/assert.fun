-- Assertions (an extension): assert se "message" binds 1 when se is not
-- 0; when it is 0 the program is stuck in E-ASSERT with the message. The
-- sums of adjacent pairs need an even number of elements, which the first
-- assertion checks before the kernel indexes; an assertion inside the
-- kernel checks each pair's elements are not negative, and one without a
-- message that the total fits a bound.
-- ==
-- input { xs=[1 2 3 4] }
-- output { [3 7] 1 }
-- input { xs=[] }
-- output { [] 1 }
-- input { xs=[1 2 3] }
-- error: assert.fun:19:20: E-ASSERT: assertion n % 2 == 0 failed: xs has an even number of elements
-- input { xs=[1 2 -3 4] }
-- error: assert.fun:27:22: E-ASSERT: assertion a >= 0 && b >= 0 failed: no negative elements
-- input { xs=[600 500] }
-- error: assert.fun:34:20: E-ASSERT: assertion total <= 1000 failed$
input (n : int) (xs : [n])
let (even : int) = assert n % 2 == 0 "xs has an even number of elements"
let (h : int) = n / 2
let (pairs : [h]) =
  kernel i <= h do
    let (i2 : int) = 2 * i
    let (i1 : int) = i2 - 1
    let (a : int) = xs[i1]
    let (b : int) = xs[i2]
    let (ok : int) = assert a >= 0 && b >= 0 "no negative elements"
    let (s : int) = a + b
    in (s)
let (zero : int) = 0
let (total : int) = reduce (a : int) (b : int) = zero over pairs do
  let (c : int) = a + b
  in (c)
let (fits : int) = assert total <= 1000
in (pairs, fits)
