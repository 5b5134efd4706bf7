-- A scan nested in a kernel whose result nothing uses, its neutral
-- element (x14) mentioned nowhere else in the kernel's body, over an
-- empty array, in an empty kernel: the generator's reproducer of an
-- emitter that left x14 out of the kernel's parameters (the file read
-- `int64_t neutral = ;`, which gpu-sim refused as an unsupported ";").
-- ==
-- input { n1=3 }
-- output { 3 }
input (n1 : int)
let (x11 : int) = 0
let (h1 : int) = 0
let (h2 : [h1]) = iota h1
let (x14 : int) = 0
let (a19 : [x11]) =
  kernel i20 <= x11 do
    let (a24 : [h1]) =
      scan (x25 : int) (x26 : int) = x14 over h2 do
        let (x27 : int) = 0
        in (x27)
    let (x27 : int) = 0
    in (x27)
in (n1)
