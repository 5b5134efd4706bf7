// Package slice is size slicing, after "Size Slicing - A Hybrid Approach
// to Size Inference in Futhark" (Henriksen, Elsman, Oancea), on FUN: Sizes,
// registered as the transformation Slice of FUN (Pass; the pipeline "fun"
// runs it before fusion, --no-slice switches it off). FUN already makes every
// size explicit (Fig 8's existential target IR is FUN's normal form: the
// pattern of an if, a loop or a filter binds the sizes of its arrays, as
// Fig 15's and Fig 20's rules do); what the pass adds is the paper's size
// slicing (§1, §2.4, §4): a size's shape slice, the statements it depends
// on, is computed ahead of the value it sizes when the slice is cheap, so
// that the size is known before the array is made. After it, FUNMEM's
// MemoryExpand (§5 of the memory paper) can hoist out of a kernel every
// allocation whose size the pass made known before the kernel.
//
// The pass (slice.go, with its cost model in slice_cost.go, and as the
// registry takes it in pass.go) has four parts, in this order (one file
// each):
//
//  1. slice_if.go: an if whose pattern binds an existential size
//     (k : int) … (zs : [k]) (Fig 15). When both branches return the
//     same size bound outside the if, the pattern's k is that size (Fig 22
//     → Fig 23). When both branches' shape slices of k are cheap (the cost
//     model of §1: no recurrence, only scalar statements, element reads,
//     views and ifs of those), k is computed ahead by an if of the two
//     slices, and the branches return arrays of size k (Fig 9's split into
//     a shape and a value function, for an if). Otherwise k stays
//     existential (the fallback of §1).
//  2. slice_assert.go: an assertion in a kernel body that is trivially
//     true where it runs (a value compared with itself, constants, a size
//     known under the guard that the kernel's bound is above 0) is dropped,
//     as Fig 10 D simplifies the reduction of the checks.
//  3. slice_hoist.go: the shape slice of a size that a kernel body
//     computes from variables bound outside the kernel (matmul.fun's
//     h1 = (p + 1) / 2), and an assertion whose slice is such, are hoisted
//     out of the kernel nest, computed (checked) once before it (Fig 9,
//     Fig 10 A–D). A slice that can fail runs only when the kernel would
//     have run its body (Fig 10 D's if N == 0 …).
//  4. slice_kept.go: loops that carry sizes and filters keep their
//     existential sizes (their shape slice is a recurrence: §1's fallback,
//     Fig 20), and the allocations in kernel bodies that stay there are
//     listed.
//
// The pass keeps errors: every statement it moves runs where the
// original would have run it (in the same branch of the same if, or once
// before a kernel, guarded by the kernel's bound being above 0 when the
// statement can fail), so a program that runs gives the same values and
// one that gets stuck gets stuck too. Only the order of two errors may
// change: a moved statement that fails now fails before a statement that
// preceded it and would have failed first, and an error that names a
// renamed variable names its new name.
package slice
