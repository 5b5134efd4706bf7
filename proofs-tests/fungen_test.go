package proofstests

import (
	"math/rand"
	"slices"
	"testing"
)

// TestVisibleKept checks the block's kept lists of visible variables,
// ints and arrays against their definition (the innermost variable of
// each name, latest first) after every binding of a random run, names
// repeating as the generator's do after a body.
func TestVisibleKept(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	for run := 0; run < 50; run++ {
		b := &block{g: &generator{r: r}, mult: 1}
		for step := 0; step < 40; step++ {
			if r.Intn(6) == 0 {
				b = b.nested(2)
			}
			v := &gvar{name: string(rune('a' + r.Intn(8)))}
			if r.Intn(2) == 0 {
				v.dims = []string{"n"}
			}
			b.vars = append(b.vars, v)
			var vis, ints, arrs []*gvar
			seen := map[string]bool{}
			for i := len(b.vars) - 1; i >= 0; i-- {
				if w := b.vars[i]; !seen[w.name] {
					seen[w.name] = true
					vis = append(vis, w)
					if w.isInt() {
						ints = append(ints, w)
					} else {
						arrs = append(arrs, w)
					}
				}
			}
			for k := 0; k < 2; k++ { // computed, then kept
				if !slices.Equal(b.visible(), vis) || !slices.Equal(b.ints(), ints) || !slices.Equal(b.arrays(), arrs) {
					t.Fatalf("run %d step %d (ask %d): the kept lists differ from their definition", run, step, k)
				}
			}
		}
	}
}
