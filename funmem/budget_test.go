package funmem

import (
	"fmt"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// TestHeapFuel: the compiled heap big-step (EvalHeap) runs out of fuel
// exactly where the tree walker it is checked against does, for every
// fuel from none left to enough: a kernel's and a fold's iterations are
// spent when they start, a loop's one by one.
func TestHeapFuel(t *testing.T) {
	p := parseChecked(t, `input (n : int) (m : int)
let (a_mem : mem) = alloc n
let (a : [n] @ a_mem -> R(n)) =
  kernel i <= n do
    let (z : int) = 0
    let (s : int) =
      loop (x : int) = (z) for j <= m do
        let (y : int) = x + j * i
        in (y)
    in (s)
let (zero : int) = 0
let (t : int) =
  reduce (p : int) (q : int) = zero over a do
    let (r : int) = p + q
    in (r)
in (t)
`)
	args := map[string]string{"n": "3", "m": "4"}
	// 3 (the kernel) + 3·4 (the loops) + 3 (the reduce) = 18 iterations.
	for fuel := 1; fuel <= 19; fuel++ {
		run := func(eval func(*fun.Program, *Env, *semantics.Heap, *HeapOptions) ([]Value, error)) string {
			env, h, err := BindInputs(p, args)
			if err != nil {
				t.Fatal(err)
			}
			vs, err := eval(p, env, h, &HeapOptions{Budget: semantics.NewBudget(fuel), Jobs: 1})
			if err != nil {
				return err.Error()
			}
			return ValuesString(vs)
		}
		compiled, tree := run(EvalHeap), run(evalHeapTree)
		if compiled != tree {
			t.Errorf("fuel %d: compiled %s, tree-walking %s", fuel, compiled, tree)
		}
		want := "heap.funmem:4:3: E-MEM-KERNEL: out of fuel: 3 more iterations"
		switch {
		case fuel >= 18:
			want = "(60)"
		case fuel >= 15:
			want = "heap.funmem:13:3: E-MEM-REDUCE: out of fuel: 3 more iterations"
		case fuel >= 3:
			want = fmt.Sprintf("heap.funmem:7:7: E-MEM-LOOP: out of fuel after %d iterations", fuel)
		}
		if len(compiled) < len(want) || compiled[:len(want)] != want {
			t.Errorf("fuel %d: %s, want %s…", fuel, compiled, want)
		}
	}
}
