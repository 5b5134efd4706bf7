package proofstests

import (
	arraycheck "github.com/arraysem/arraysem/check"
	"math/rand"
	"slices"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
)

// The campaigns' speed-ups (2026-11-25) replaced some tree walks and
// passes by ones that allocate less. While they were made, tests ran the
// code as it was (copied) against the new code on generated programs and
// wanted the same trees (docs/performance.md, "The property campaigns
// again"). What stays here are the properties the new code must keep that
// do not need the old code.

// equivPrograms are n generated FUN programs and their FUNMEM variants.
func equivPrograms(t *testing.T, n int) []*fun.Program {
	t.Helper()
	if testing.Short() {
		n /= 10
	}
	var out []*fun.Program
	reg := arraycheck.NewRegistry()
	for k := 0; k < n; k++ {
		c := Generate(rand.New(rand.NewSource(int64(k)+1)), k%(MaxGenSize+1), MemGenConfig())
		p, err := c.Parsed()
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, p)
		vs, _, _ := Variants(reg, p)
		for _, v := range vs {
			out = append(out, v.Prog)
		}
	}
	return out
}

// TestStmsBodiesAsInspect: fun.Stms and fun.Bodies, which skip the
// subtrees that hold no statements, see the statements and bodies the
// full walk (fun.Inspect) sees, in its order.
func TestStmsBodiesAsInspect(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		var wantStms, wantBodies []any
		fun.Inspect(p.Body, func(n fun.Node) bool {
			switch n.(type) {
			case *fun.Stm:
				wantStms = append(wantStms, n)
			case *fun.Body:
				wantBodies = append(wantBodies, n)
			}
			return true
		})
		var stms, bodies []any
		fun.Stms(p.Body, func(s *fun.Stm) { stms = append(stms, s) })
		fun.Bodies(p.Body, func(b *fun.Body) { bodies = append(bodies, b) })
		if !slices.Equal(stms, wantStms) || !slices.Equal(bodies, wantBodies) {
			t.Fatalf("program %d: Stms or Bodies differ from the full walk's", i)
		}
	}
}

// TestUnmemFresh: funmem.Unmem's tree is a fresh one: no statement,
// parameter or body shared with the FUNMEM program (its callers may
// change it).
func TestUnmemFresh(t *testing.T) {
	for i, p := range equivPrograms(t, 300) {
		now := funmem.Unmem(p)
		mine := map[any]bool{}
		fun.Inspect(p, func(n fun.Node) bool {
			switch n.(type) {
			case *fun.Stm, *fun.Param, *fun.Body:
				mine[n] = true
			}
			return true
		})
		fun.Inspect(now, func(n fun.Node) bool {
			if mine[n] {
				t.Fatalf("program %d: Unmem's output shares %T %v with its input", i, n, n)
			}
			return true
		})
	}
}
