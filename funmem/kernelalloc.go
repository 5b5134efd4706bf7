package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// AllocsInKernels are the positions of the alloc statements of a FUNMEM
// program that sit inside a kernel's body (at any depth: in an if's
// branch, a loop's or a fold's body, a nested kernel), in the order of the
// program. After MemoryExpand these are the allocations it could not
// hoist: each runs once per iteration (a device allocation per thread, on
// a GPU), which size slicing (slice.Sizes, package fun/slice) exists to avoid; the check
// that its report's kept allocations are all that remain uses this.
//
// An alloc statement's position is its let's, which FUN → FUNMEM takes
// from the FUN statement that makes the array (MemoryExpand keeps it on
// the block it hoists), so the positions name the FUN program's
// statements.
func AllocsInKernels(p *fun.Program) []semantics.Pos {
	var out []semantics.Pos
	var body func(b *fun.Body, inKernel bool)
	body = func(b *fun.Body, inKernel bool) {
		for _, st := range b.Stms {
			if a, ok := st.Exp.(*AllocExp); ok && inKernel {
				pos := st.Let
				if !pos.IsValid() {
					pos = a.Alloc
				}
				out = append(out, pos)
			}
			_, kernel := st.Exp.(*fun.KernelExp)
			for _, nb := range fun.ExpBodies(st.Exp) {
				body(nb, inKernel || kernel)
			}
		}
	}
	body(p.Body, false)
	return out
}
