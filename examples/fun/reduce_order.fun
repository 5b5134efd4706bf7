-- A reduce whose operator is not associative: FUN's reduce is the left
-- fold ((ne ⊕ x1) ⊕ x2) … ⊕ xn, whatever the operator. The first computes
-- b - a, alternating the signs of the elements (for [3 1 4 1 5]: 3, -2,
-- 6, -5, 10), and the scan of the same operator keeps every accumulator;
-- the third divides by each element in turn, and is stuck at an element 0. Every level keeps the left fold: the engines' parallel
-- paths take only associative operators, and the CUDA program runs such a
-- fold in one thread (docs/cuda.md, "Folds that do not associate"), where
-- a tree would give 8 for the first and divide by zero for [2 0 0 5].
-- ==
-- input { xs=[3 1 4 1 5] }
-- output { 10 [3 -2 6 -5 10] 16666 }
-- input { xs=[-2 -7] }
-- output { -5 [-2 -5] 71428 }
-- input { xs=[] }
-- output { 0 [] 1000000 }
-- input { xs=[5 0 2] }
-- error: reduce_order\.fun:28:23: E-SCALAR: division by zero \(operator /\) in a / b
input (n : int) (xs : [n])
let (zero : int) = 0
let (d : int) = reduce (a : int) (b : int) = zero over xs do
    let (c : int) = b - a
    in (c)
let (s : [n]) = scan (a : int) (b : int) = zero over xs do
    let (c : int) = b - a
    in (c)
let (million : int) = 1000000
let (q : int) = reduce (a : int) (b : int) = million over xs do
    let (c : int) = a / b
    in (c)
in (d, s, q)
