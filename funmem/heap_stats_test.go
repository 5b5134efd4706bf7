package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// TestStats pins FUNMEM's cost counters (heap_stats.go) on small programs:
// the heap-based big-step (compiled, and the tree walker) and small-step
// count alike; the value-based semantics counts as FUN on the unmem'd
// program.
func TestStats(t *testing.T) {
	for _, c := range []struct {
		name        string
		src         string
		args        map[string]string
		heap, value semantics.Stats
	}{{
		// n = 5 iterations of a read, a multiply and a write; then the
		// result's copy (a read and a write per element).
		name: "kernel",
		src: `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (ys_mem : mem) = alloc n
let (ys : [n] @ ys_mem -> R(n)) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * 3
    in (y)
let (res_mem : mem) = alloc n
let (res : [n] @ res_mem -> R(n)) = copy ys
in (res_mem, res)`,
		args:  map[string]string{"xs": "[1 2 3 4 5]"},
		heap:  semantics.Stats{Ops: 15 + 10, Allocs: 2, Words: 10, PeakWords: 10, Kernels: 2},
		value: semantics.Stats{Ops: 15 + 10, Allocs: 2, Words: 10, PeakWords: 10, Kernels: 2},
	}, {
		// Each iteration's row block dies with it; storing a row is a
		// memcpy (a read and a write per element), where FUN writes the
		// row's elements.
		name: "nested",
		src: `input (n : int) (m : int)
let (tab_mem : mem) = alloc m * n
let (tab : [n][m] @ tab_mem -> R(n, m)) =
  kernel i <= n do
    let (row_mem : mem) = alloc m
    let (row : [m] @ row_mem -> R(m)) =
      kernel j <= m do
        let (p : int) = i * j
        in (p)
    in (row)
let (res_mem : mem) = alloc m * n
let (res : [n][m] @ res_mem -> R(n, m)) = copy tab
in (res_mem, res)`,
		args:  map[string]string{"n": "3", "m": "4"},
		heap:  semantics.Stats{Ops: 12*2 + 12*2 + 12*2, Allocs: 5, Words: 36, PeakWords: 24, Kernels: 2},
		value: semantics.Stats{Ops: 12*2 + 12 + 12*2, Allocs: 5, Words: 36, PeakWords: 24, Kernels: 2},
	}, {
		// A reduce over rows binds each row by reference (no reads at
		// FUNMEM, a row's reads in FUN); each operator step's block dies
		// with it.
		name: "reduce",
		src: `input (n : int) (m : int) (xss_mem : mem) (xss : [n][m] @ xss_mem -> R(n, m))
let (zeros_mem : mem) = alloc m
let (zeros : [m] @ zeros_mem -> R(m)) =
  kernel j <= m do
    let (zero : int) = 0
    in (zero)
let (s_mem : mem) (s_off : int) (s_s : int) (s : [m] @ s_mem -> s_off + {(m : s_s)}) =
  reduce (a_mem : mem) (a_off : int) (a_s : int) (a : [m] @ a_mem -> a_off + {(m : a_s)})
         (b_mem : mem) (b_off : int) (b_s : int) (b : [m] @ b_mem -> b_off + {(m : b_s)}) = zeros over xss do
    let (c_mem : mem) = alloc m
    let (c : [m] @ c_mem -> R(m)) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
let (res_mem : mem) = alloc m
let (res : [m] @ res_mem -> R(m)) = copy s
in (res_mem, res)`,
		args:  map[string]string{"xss": "[[1 2] [3 4] [5 6]]"},
		heap:  semantics.Stats{Ops: 2 + 3*2*4 + 4, Allocs: 5, Words: 10, PeakWords: 4, Kernels: 3},
		value: semantics.Stats{Ops: 2 + 6 + 3*2*4 + 4, Allocs: 5, Words: 10, PeakWords: 4, Kernels: 3},
	}} {
		l, err := Language.Load(c.name+".funmem", c.src, lang.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		check := func(sem string, st *semantics.Stats, want semantics.Stats) {
			t.Helper()
			st.SetLive(0)
			if st.String() != want.String() {
				t.Errorf("%s %s:\n got %v\nwant %v", c.name, sem, st, &want)
			}
		}
		for _, sem := range []string{"heap", "small", "value"} {
			var st semantics.Stats
			o := lang.RunOptions{Semantics: sem, Args: c.args}
			o.Stats = &st
			r, err := l.Run(o)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, sem, err)
			}
			if r.Stats != &st {
				t.Errorf("%s %s: the result does not carry the counters", c.name, sem)
			}
			want := c.heap
			if sem == "value" {
				want = c.value
			}
			check(sem, &st, want)
		}
		p := l.Syntax().(*fun.Program)
		env, h, err := BindInputs(p, c.args)
		if err != nil {
			t.Fatal(err)
		}
		var st semantics.Stats
		if _, err := evalHeapTree(p, env, h, &HeapOptions{Stats: &st}); err != nil {
			t.Fatalf("%s tree: %v", c.name, err)
		}
		check("tree", &st, c.heap)
	}
}
