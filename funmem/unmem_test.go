package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestUnmemArena: Unmem's arena is counted exactly (every statement,
// body, if, kernel and zero it holds is used, so none is allocated on its
// own), and no node of the tree is handed out twice.
func TestUnmemArena(t *testing.T) {
	seen, programs := 0, 0
	for _, q := range transformedSeeds(t) {
		for _, p := range []*fun.Program{q, Simplify(q), MemoryExpand(q, GPU), MemoryExpand(q, CPU)} {
			a := newUnmemArena(p.Body)
			b := a.body(p.Body)
			if n := len(a.stms) + len(a.stmPtrs) + len(a.bodies) + len(a.ifs) + len(a.kernels) + len(a.zeros); n != 0 {
				t.Fatalf("%d nodes of the arena left unused in\n%s", n, Print(p))
			}
			nodes := map[any]bool{}
			fun.Inspect(&fun.Program{Body: b}, func(n fun.Node) bool {
				switch n.(type) {
				case *fun.Stm, *fun.Param, *fun.Body, *fun.IfExp, *fun.KernelExp, *fun.ScalarExp:
					if nodes[n] {
						t.Fatalf("%T %v twice in Unmem's tree of\n%s", n, n, Print(p))
					}
					nodes[n] = true
				}
				return true
			})
			seen += len(nodes)
			programs++
		}
	}
	if seen < 1000 {
		t.Fatalf("only %d nodes in %d programs", seen, programs)
	}
}
