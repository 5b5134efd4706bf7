-- arraysem: results as remora: bool char char (box 1 float) (boxes 1 1 (w1+1) int) int
--
-- A compiled program prints its results as its source program prints
-- its values: the header line above (a comment for FUN, read by
-- arraysem run) is the result format that the compile path from Remora
-- gives every program it makes (FUN, FUNMEM, IMP, and a table of the
-- CUDA file), so that each level prints what `arraysem run` of the
-- Remora program prints. The results are FUN's ints and floats, laid
-- out as Lower lays out Remora values: booleans are 0 and 1, characters
-- their code points (a row of them prints as a string, with Racket's
-- escapes), a box is its witnesses then its contents, a frame of boxes
-- one array of witnesses over the frame then every box's contents in
-- turn (here of w1+1 atoms each); floats print as Racket prints them.
-- ==
-- input { bits=[1 0 1] s=[97 34 98 10 26085 128512 7] ws=[0 2] data=[5 6 7 8] }
-- output { [#t #f #t] #\é "a\"b\n日😀\u0007" (box (2) [+inf.0 -0.0]) [(box (0) [5]) (box (2) [6 7 8])] -3 }
input (n : int) (bits : [n]) (m : int) (s : [m]) (k : int) (ws : [k]) (d : int) (data : [d])
let (e : int) = 233
let (two : int) = 2
let (fs : [two]float) = kernel i <= two do
    let (one : float) = 1.0
    let (zero : float) = 0.0
    let (inf : float) = one / zero
    let (negz : float) = -0.0
    let (first : int) = i == 1
    let (f : float) =
      if first
      then in (inf)
      else in (negz)
    in (f)
let (last : int) = -3
in (bits, e, s, two, fs, ws, data, last)
