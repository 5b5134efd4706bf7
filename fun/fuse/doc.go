// Package fuse is the producer–consumer fusion of "A T2 Graph-Reduction
// Approach To Fusion" (§3, Figs 8–14), for FUN: Fuse, registered as the
// transformation Fuse of FUN (Pass; the pipeline "fun" runs it after size
// slicing, --no-fuse switches it off). Its files, by concern:
//
//	fuse.go           Fuse, its options and report, the rounds, fresh names
//	fuse_res.go       the analysis result FusionRes (Fig 10) with composeRes
//	                  and unionRes (Fig 11)
//	fuse_analysis.go  the bottom-up analysis fusion1 (Fig 12) and
//	                  tryFuseSOAC (Fig 13), which fuses as it decides
//	fuse_uses.go      the uses of an array in a body: which are a SOAC's
//	                  input reads, and why the others are not
//	fuse_rewrite.go   the compositions of Fig 14 as FUN rewrites
//	fuse_cheap.go     replicate, iota, copy and transpose, whose elements
//	                  cost nothing to recompute: fused everywhere
//	fuse_copyprop.go  the clean-up: copy propagation of the copies fusion
//	                  makes
//	pass.go           the pass as the registry takes it
//
// FUN's SOACs are index based. A map is a kernel (iota and copy are
// derived kernels): kernel i <= n do B computes its element i by B, whose
// reads of an array y are y[i, …]. An array x that a kernel produces is an
// input of a consumer when the consumer reads it only as x[j, …], j the
// consumer's own index over the same size n (a kernel, the map of a
// redomap or scanomap: every such read, at any depth of its body), or folds
// it (reduce or scan over x). The compositions of Fig 14 become:
//
//	map2 ∘ map2 ⇒ map2           kernel over x ⇒ kernel computing x's
//	                              element at the top of its body
//	reduce2 ∘ map2 ⇒ redomap2    reduce over x ⇒ redomap whose map is x's body
//	(scan)                       scan over x ⇒ scanomap
//	redomap2 ∘ map2 ⇒ redomap2   redomap reading x ⇒ redomap computing x's
//	                              element at the top of its map
//	replicate                     a kernel whose body returns a variable of
//	                              outside (or its index: iota), and copy, fuse
//	                              into every read, however nested
//
// The analysis follows the paper: a bottom-up pass over each body whose
// data-flow result (FusionRes: outArr, inpArr, unfusable, kernels) models
// T2 reduction of the dependency graph: a producer with one consumer, or
// with consumers on disjoint control paths only, is fused into them; one
// with any other use is kept, with the case of Fig 9 that forbids it. The
// rewrite happens as the analysis decides (a fused producer's statement is
// dropped, the consumer's rewritten in place), and since a fusion can
// create opportunities inside the consumer's body (Fig 14's second pass),
// the whole pass runs again until a round fuses nothing. The clean-up
// then propagates the copies fusion made (a consumer's read of the
// producer's element becomes a copy of it).
package fuse
