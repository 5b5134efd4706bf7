package funmem

import (
	"fmt"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestSlotBound: slotBound reserves at least the slots compiling a body
// takes, for every body of the seed programs and their expansions: each
// compiled with every nested body at once (eager), where get panics when
// a body takes more than its reservation, and the program's own body
// within slotBound of it.
func TestSlotBound(t *testing.T) {
	bodies := 0
	for _, q := range transformedSeeds(t) {
		for _, p := range []*fun.Program{q, Simplify(q), MemoryExpand(q, GPU), Simplify(MemoryExpand(q, CPU))} {
			c := &hcompiler{eager: true}
			c.body(nil, p.Body)
			if bound := slotBound(p.Body); c.slots > bound {
				t.Fatalf("compiling took %d slots, slotBound reserves %d:\n%s", c.slots, bound, Print(p))
			}
			eachBody(p.Body, func(*fun.Body) { bodies++ })
		}
	}
	if bodies < 100 {
		t.Fatalf("only %d bodies compiled: the test checks little", bodies)
	}
}

// TestLazyBodies: a nested body is compiled when it first runs, and only
// then: the branch not taken and a kernel of no iterations are not
// compiled; and the run is what compiling every body first (eager) gives.
func TestLazyBodies(t *testing.T) {
	const src = "input (c : int) (n : int)\n" +
		"let (k : int) (zm : mem) (zs : [k] @ zm -> R(k)) =\n" +
		"  if c\n  then let (a : mem) = alloc n\n       let (x : [n] @ a -> R(n)) = iota n\n       in (n, a, x)\n" +
		"  else let (m : int) = n + 1\n       let (b : mem) = alloc m\n       let (y : [m] @ b -> R(m)) = kernel i <= m do\n         let (v : int) = 10 * i\n         in (v)\n       in (m, b, y)\n" +
		"in (k, zm, zs)"
	p := parseChecked(t, src)
	for _, tc := range []struct {
		name, c, n string
		stms       int // the statements compiled: the if, then those of the bodies run
	}{
		{"then", "1", "2", 1 + 2},
		{"else", "0", "2", 1 + 3 + 1},
		{"no iterations", "0", "-1", 1 + 3},
		{"stuck", "1", "-1", 1 + 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs [2]string
			for i, eager := range []bool{false, true} {
				env, h, err := BindInputs(p, args("c", tc.c, "n", tc.n))
				if err != nil {
					t.Fatal(err)
				}
				var stms int
				vs, err := evalCompiled(&hcompiler{eager: eager, stms: &stms}, p, env, h, withBudget(nil))
				runs[i] = fmt.Sprintf("%s %s %v", ValuesString(vs), heapDump(h), err)
				want := tc.stms
				if eager {
					want = 1 + 2 + 3 + 1
				}
				if stms != want {
					t.Errorf("eager %v: %d statements compiled, want %d", eager, stms, want)
				}
			}
			if runs[0] != runs[1] {
				t.Errorf("lazy run %s, eager run %s", runs[0], runs[1])
			}
		})
	}
}
