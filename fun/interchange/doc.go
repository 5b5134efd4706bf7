// Package interchange is the map–reduce interchange of Futhark's kernel
// extraction ("Futhark: Purely Functional GPU-Programming with Nested
// Parallelism and In-Place Array Updates", §5: a reduction whose operator
// is a map over its operands' elements is a map of reductions,
// reduce (map2 ⊕) ne xss = map (reduce ⊕) ne (transpose xss)), for FUN:
// Interchange, registered as the transformation Interchange of FUN
// (Pass; the pipeline "fun" runs it after fusion, --no-interchange
// switches it off).
//
// After fusion, a reduce over arrays whose rows a kernel makes is a
// redomap over arrays: each element a row of m numbers made by a kernel,
// each step a kernel adding two rows element by element (the Remora
// compiler's dot, (reduce-init + 0 (* xs ys)), lowers to this). On a GPU
// such a fold inside a kernel makes and moves two rows of m numbers per
// element, in memory allocated per element. Interchanged, it is a kernel
// over the m columns of scalar redomaps, which make no array at all:
//
//	redomap (a : [m]) (b : [m]) = z for k <= p do      kernel j <= m do
//	  S                                                  let (zj) = z[j]
//	  let (r : [m]) = kernel j1 <= m do B1               let (w) = redomap (u) (v) = zj for k <= p do
//	  in (r)                                       ⇒         S; B1[j1 := j]
//	combine                                                combine
//	  let (s : [m]) = kernel j2 <= m do B2                   B2[a[j2] := u, b[j2] := v]
//	  in (s)                                             in (w)
//
// when S is scalar statements that cannot get stuck (it now runs once per
// column), B1 and B2 make no array (it would be allocated in a fold in a
// kernel, which MemoryExpand hoists only by making the fold a loop of the
// thread), B2 reads a and b only at
// its index j2 and uses j2 nowhere else (the operator is element-wise),
// and the redomap's bound p is a size no
// run can make negative (a size of an input array, or a let of a
// non-negative constant). The program computes the same values and gets
// stuck where it did, with the message of the problem the interchanged
// order meets first, as fusion's contract says: every element and step
// of the fold still runs, once per column, each column's in order.
package interchange
