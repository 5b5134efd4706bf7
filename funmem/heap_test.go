package funmem

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Unit tests of the heap-based semantics of Fig 10, one table per rule.
// Every case runs under the big-step semantics (EvalHeap) and the
// small-step one (RunHeapSmall) from the same inputs, and the two must
// agree on everything: the result values (labels and LMAD values too), the
// final heap, the error, the rules applied and the kernels' traces.

// heapCase is one program run under both heap semantics.
type heapCase struct {
	name string
	src  string
	args map[string]string
	// env, when set, replaces BindInputs: it builds the environment and
	// heap by hand (for states no well-typed program reaches).
	env func() (*Env, *semantics.Heap)

	rules []string // rules the run must apply (checked on success)
	want  string   // the results: values as Read prints them, ints, labels ℓk
	vals  string   // the results as Value.String prints them, if set
	heap  string   // the final heap, "ℓ1=[…] ℓ2=[…]", if set

	err  string         // expected error, a regexp over "RULE: msg"
	kind semantics.Kind // its kind (StuckError if zero and err is set)
}

// heapRun is what one semantics did.
type heapRun struct {
	vals    []Value
	h       *semantics.Heap
	err     error
	counter semantics.Counter
	traces  []string
}

// parseChecked parses and type checks a FUNMEM program. The tests return
// views and blocks to look at them, which T-MEM-PROG refuses as a
// program's results (it wants (mem, row-major array) pairs); that is the
// one type error allowed here, since the heap semantics does not depend
// on it.
func parseChecked(t *testing.T, src string) *fun.Program {
	t.Helper()
	p, err := ParseFile("heap.funmem", src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	if _, err := Check(p, nil); err != nil {
		var se *semantics.Error
		if !errors.As(err, &se) || se.Rule != "T-MEM-PROG" {
			t.Fatalf("check: %v\n%s", err, src)
		}
	}
	return p
}

// runHeapBoth runs p from fresh inputs under EvalHeap and RunHeapSmall.
func runHeapBoth(t *testing.T, p *fun.Program, c heapCase) (big, small heapRun) {
	big, small, _ = runHeapAll(t, p, c)
	return big, small
}

// runHeapAll is runHeapBoth, and the tree-walking big-step (evalHeapTree),
// which the compiled one (EvalHeap) is.
func runHeapAll(t *testing.T, p *fun.Program, c heapCase) (big, small, tree heapRun) {
	t.Helper()
	run := func(mode int) heapRun {
		var env *Env
		var h *semantics.Heap
		if c.env != nil {
			env, h = c.env()
		} else {
			var err error
			env, h, err = BindInputs(p, c.args)
			if err != nil {
				t.Fatalf("inputs: %v", err)
			}
		}
		r := heapRun{h: h, counter: semantics.Counter{}}
		opts := &HeapOptions{Counter: r.counter, Trace: func(k *fun.Stm, tr *semantics.KernelTrace) {
			var parts []string
			for i, a := range tr.Iters() {
				parts = append(parts, fmt.Sprintf("%d: %s", i+1, a.Sets()))
			}
			r.traces = append(r.traces, k.Pat[0].Name.Name+" {"+strings.Join(parts, "; ")+"}")
		}}
		switch mode {
		case 0:
			r.vals, r.err = EvalHeap(p, env, h, opts)
		case 3: // untraced: kernels that cannot race run without a tracker
			r.vals, r.err = EvalHeap(p, env, h, &HeapOptions{Counter: r.counter})
		case 1:
			r.vals, _, r.err = runHeapSmall(p, env, h, &semantics.RunOptions{}, opts)
		default:
			r.vals, r.err = evalHeapTree(p, env, h, opts)
		}
		return r
	}
	big, small, tree = run(0), run(1), run(2)
	untraced := run(3)
	untraced.traces = tree.traces
	sameRun(t, untraced, tree)
	return big, small, tree
}

// sameRun fails unless the compiled big-step did exactly what the tree
// walker did: error, heap, values, traces and every rule's count.
func sameRun(t *testing.T, big, tree heapRun) {
	t.Helper()
	if fmt.Sprint(big.err) != fmt.Sprint(tree.err) {
		t.Fatalf("compiled error %v, tree-walking error %v", big.err, tree.err)
	}
	if a, b := heapDump(big.h), heapDump(tree.h); a != b {
		t.Errorf("final heaps differ:\ncompiled     %s\ntree-walking %s", a, b)
	}
	if a, b := ValuesString(big.vals), ValuesString(tree.vals); a != b {
		t.Errorf("results differ: compiled %s, tree-walking %s", a, b)
	}
	if a, b := strings.Join(big.traces, "\n"), strings.Join(tree.traces, "\n"); a != b {
		t.Errorf("traces differ:\ncompiled\n%s\ntree-walking\n%s", a, b)
	}
	if a, b := fmt.Sprint(big.counter), fmt.Sprint(tree.counter); a != b {
		t.Errorf("rule counts differ: compiled %s, tree-walking %s", a, b)
	}
}

// heapDump renders every block of h.
func heapDump(h *semantics.Heap) string {
	var parts []string
	for l := 1; l <= h.Blocks(); l++ {
		parts = append(parts, fmt.Sprintf("%v=%v", semantics.Label(l), fmt.Sprint(h.Block(semantics.Label(l)))))
	}
	return strings.Join(parts, " ")
}

// resultString renders results as a program prints them: arrays read
// through their LMADs, ints, and labels for blocks.
func resultString(t *testing.T, h *semantics.Heap, vs []Value) string {
	t.Helper()
	parts := make([]string, len(vs))
	for i, v := range vs {
		if v.Kind == BlockVal {
			parts[i] = v.Block.String()
			continue
		}
		a, err := Read(h, v)
		if err != nil {
			t.Fatalf("reading result %d (%v): %v", i+1, v, err)
		}
		parts[i] = a.String()
	}
	return strings.Join(parts, " ")
}

// errString renders an error as "RULE: msg" and its kind.
func errString(err error) (string, semantics.Kind, bool) {
	var se *semantics.Error
	if !errors.As(err, &se) {
		return err.Error(), 0, false
	}
	msg := se.Msg
	if se.Rule != "" {
		msg = se.Rule + ": " + se.Msg
	}
	return msg, se.Kind, true
}

// testHeapCases runs a table of cases.
func testHeapCases(t *testing.T, cases []heapCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := parseChecked(t, c.src)
			big, small, tree := runHeapAll(t, p, c)
			sameRun(t, big, tree)
			// The two semantics agree.
			if fmt.Sprint(big.err) != fmt.Sprint(small.err) {
				t.Fatalf("big-step error %v, small-step error %v", big.err, small.err)
			}
			if a, b := heapDump(big.h), heapDump(small.h); a != b {
				t.Errorf("final heaps differ:\nbig-step   %s\nsmall-step %s", a, b)
			}
			if big.err == nil {
				if a, b := ValuesString(big.vals), ValuesString(small.vals); a != b {
					t.Errorf("results differ: big-step %s, small-step %s", a, b)
				}
				if a, b := strings.Join(big.traces, "\n"), strings.Join(small.traces, "\n"); a != b {
					t.Errorf("traces differ:\nbig-step\n%s\nsmall-step\n%s", a, b)
				}
				for _, r := range c.rules {
					// The small-step semantics names E-STMS only for the
					// return from an if's branch (a kernel iteration's
					// return is E-MEM-KERNEL, the program's E-MEM-PROG).
					if big.counter[r] == 0 || (small.counter[r] == 0 && r != "E-STMS") {
						t.Errorf("rule %s: applied %d times by the big-step semantics, %d by the small-step one", r, big.counter[r], small.counter[r])
					}
				}
			}
			// And they give what the paper says.
			if c.err != "" {
				if big.err == nil {
					t.Fatalf("expected an error matching %q, got %s", c.err, ValuesString(big.vals))
				}
				msg, kind, ok := errString(big.err)
				if !ok {
					t.Fatalf("expected a *semantics.Error, got %T: %v", big.err, big.err)
				}
				want := c.kind
				if want == 0 {
					want = semantics.StuckError
				}
				if kind != want {
					t.Errorf("expected a %s, got a %s: %v", want, kind, big.err)
				}
				if !regexp.MustCompile(c.err).MatchString(msg) {
					t.Errorf("expected an error matching %q, got %q", c.err, msg)
				}
			} else if big.err != nil {
				t.Fatalf("unexpected error: %v", big.err)
			} else if got := resultString(t, big.h, big.vals); got != c.want {
				t.Errorf("results %s, want %s", got, c.want)
			}
			if c.vals != "" && big.err == nil && ValuesString(big.vals) != c.vals {
				t.Errorf("values %s, want %s", ValuesString(big.vals), c.vals)
			}
			if c.heap != "" && heapDump(big.h) != c.heap {
				t.Errorf("heap %s, want %s", heapDump(big.h), c.heap)
			}
		})
	}
}

func args(kv ...string) map[string]string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return m
}

// TestHeapScalar: E-MEM-SCALAR (conventional, elided in Fig 10).
func TestHeapScalar(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "arithmetic", src: "input (a : int)\nlet (x : int) = a * 3 + 1\nlet (y : int) = x / 2 - -a\nin (x, y)",
			args: args("a", "4"), rules: []string{"E-MEM-SCALAR", "E-STMS", "E-MEM-PROG"}, want: "13 10", heap: ""},
		{name: "comparison", src: "input (a : int)\nlet (x : int) = a < 3 && a != 0\nin (x)",
			args: args("a", "2"), want: "1"},
		{name: "division by zero", src: "input (a : int)\nlet (z : int) = 0\nlet (x : int) = a / z\nin (x)",
			args: args("a", "2"), err: `^E-MEM-SCALAR: division by zero`},
	})
}

// TestHeapAlloc: E-MEM-ALLOC adds a fresh zeroed block of E(se) integers.
func TestHeapAlloc(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "zeroed blocks", src: "input (n : int)\nlet (a : mem) = alloc n\nlet (b : mem) = alloc n * 2 - 4\nlet (c : mem) = alloc 0\nin (a, b, c)",
			args: args("n", "3"), rules: []string{"E-MEM-ALLOC"}, want: "ℓ1 ℓ2 ℓ3", heap: "ℓ1=[0 0 0] ℓ2=[0 0] ℓ3=[]"},
		{name: "fresh labels", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n))\nlet (c : mem) = alloc n\nin (c)",
			args: args("xs", "[7 8]"), want: "ℓ2", heap: "ℓ1=[7 8] ℓ2=[0 0]"},
		{name: "negative size", src: "input (n : int)\nlet (a : mem) = alloc n - 5\nin (a)",
			args: args("n", "3"), err: `^E-MEM-ALLOC: allocation of negative size -2$`},
	})
}

// TestHeapIndex: E-MEM-INDEX reads H[ℓ, L(E(y1), …)] and records the read.
func TestHeapIndex(t *testing.T) {
	outside := func() (*Env, *semantics.Heap) {
		// xs : [3] @ b -> 2 + {(3 : 1)} in a block of 4 integers: L(3) = 4 is
		// in dom(L)'s image but outside the block. No well-typed program
		// builds this state (every location of an array was written, by a
		// kernel or as an input), so it is made by hand.
		h := &semantics.Heap{}
		l, _ := h.Alloc(4)
		for i := int64(0); i < 4; i++ {
			_ = h.Write(semantics.Loc{Block: l, Offset: i}, 10+i)
		}
		var env *Env
		env = env.Bind("n", Value{Kind: IntVal, K: 3})
		env = env.Bind("b", Value{Kind: BlockVal, Block: l})
		env = env.Bind("xs", Value{Kind: ArrayVal, Block: l, L: semantics.LMAD{Offset: 2, Dims: []semantics.LDim{{Elems: 3, Stride: 1}}}})
		env = env.Bind("k", Value{Kind: IntVal, K: 3})
		return env, h
	}
	const outsideSrc = "input (n : int) (b : mem) (xs : [n] @ b -> R(n)) (k : int)\nlet (one : int) = 1\nlet (v : int) = xs[one]\nlet (w : int) = xs[k]\nin (v, w)"
	testHeapCases(t, []heapCase{
		{name: "row-major", src: "input (n : int) (m : int) (b : mem) (xss : [n][m] @ b -> R(n, m)) (i : int) (j : int)\nlet (v : int) = xss[i, j]\nin (v)",
			args: args("xss", "[[1 2 3] [4 5 6]]", "i", "2", "j", "1"), rules: []string{"E-MEM-INDEX"}, want: "4"},
		{name: "column-major input", src: "input (n : int) (m : int) (b : mem) (xss : [n][m] @ b -> 0 + {(n : 1) (m : n)}) (i : int) (j : int)\nlet (v : int) = xss[i, j]\nin (v)",
			args: args("xss", "[[1 2 3] [4 5 6]]", "i", "1", "j", "3"), want: "3", heap: "ℓ1=[1 4 2 5 3 6]"},
		{name: "offset and stride", src: "input (n : int) (b : mem) (xs : [n] @ b -> 1 + {(n : 2)}) (i : int)\nlet (v : int) = xs[i]\nin (v)",
			args: args("xs", "[7 8 9]", "i", "3"), want: "9", heap: "ℓ1=[0 7 0 8 0 9]"},
		{name: "index above the domain", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n)) (i : int)\nlet (v : int) = xs[i]\nin (v)",
			args: args("xs", "[7 8 9]", "i", "4"), err: `^E-MEM-INDEX: index 4 out of bounds 1\.\.3 in dimension 1 of xs$`},
		{name: "index below the domain", src: "input (n : int) (m : int) (b : mem) (xss : [n][m] @ b -> R(n, m)) (i : int)\nlet (one : int) = 1\nlet (v : int) = xss[one, i]\nin (v)",
			args: args("xss", "[[1 2] [3 4]]", "i", "0"), err: `^E-MEM-INDEX: index 0 out of bounds 1\.\.2 in dimension 2 of xss$`},
		{name: "LMAD outside its block", src: outsideSrc, env: outside,
			err: `^E-MEM-INDEX: xs\[3\]: offset 4 is outside block ℓ1 of size 4$`},
	})
}

// TestHeapSlice: E-MEM-SLICE is slice_f of eq (2) on the LMAD value, the
// same block, no heap access.
func TestHeapSlice(t *testing.T) {
	const src = "input (n : int) (m : int) (b : mem) (xss : [n][m] @ b -> R(n, m)) (o : int) (k : int) (p : int) (l : int)\n" +
		"let (ys : [k][l] @ b -> (o - 1) * m + p - 1 + {(k : m) (l : 1)}) = xss[o : k, p : l]\nin (ys)"
	xss := "[[1 2 3] [4 5 6] [7 8 9]]"
	testHeapCases(t, []heapCase{
		{name: "inner block", src: src, args: args("xss", xss, "o", "2", "k", "2", "p", "2", "l", "2"),
			rules: []string{"E-MEM-SLICE"}, want: "[[5 6] [8 9]]", vals: "((ℓ1, 4 + {(2 : 3) (2 : 1)}))", heap: "ℓ1=[1 2 3 4 5 6 7 8 9]"},
		{name: "whole", src: src, args: args("xss", xss, "o", "1", "k", "3", "p", "1", "l", "3"),
			want: "[[1 2 3] [4 5 6] [7 8 9]]", vals: "((ℓ1, 0 + {(3 : 3) (3 : 1)}))"},
		{name: "empty past the end", src: src, args: args("xss", xss, "o", "4", "k", "0", "p", "1", "l", "3"),
			want: "[]", vals: "((ℓ1, 9 + {(0 : 3) (3 : 1)}))"},
		{name: "slice of a slice", src: src[:strings.Index(src, "in (ys)")] +
			"let (one : int) = 1\nlet (zs : [one][one] @ b -> (o - 1) * m + p - 1 + (l - 1) * m + l - 1 + {(one : m) (one : 1)}) = ys[l : one, l : one]\nin (zs)",
			args: args("xss", xss, "o", "1", "k", "2", "p", "1", "l", "2"), want: "[[5]]", vals: "((ℓ1, 4 + {(1 : 3) (1 : 1)}))"},
		{name: "out of bounds", src: src, args: args("xss", xss, "o", "3", "k", "2", "p", "1", "l", "1"),
			err: `^E-MEM-SLICE: slice 3:2 \(elements 3\.\.4\) out of bounds 1\.\.3 in dimension 1 of xss$`},
		{name: "negative size", src: src, args: args("xss", xss, "o", "1", "k", "1", "p", "2", "l", "-1"),
			err: `^E-MEM-SLICE: slice size -1 is negative in dimension 2 of xss$`},
	})
}

// TestHeapTranspose: E-MEM-TRANSPOSE swaps the LMAD's dimensions; the
// block is shared, nothing is copied.
func TestHeapTranspose(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "row-major", src: "input (n : int) (m : int) (b : mem) (xss : [n][m] @ b -> R(n, m))\nlet (t : [m][n] @ b -> 0 + {(m : 1) (n : m)}) = transpose xss\nin (t)",
			args: args("xss", "[[1 2 3] [4 5 6]]"), rules: []string{"E-MEM-TRANSPOSE"},
			want: "[[1 4] [2 5] [3 6]]", vals: "((ℓ1, 0 + {(3 : 1) (2 : 3)}))", heap: "ℓ1=[1 2 3 4 5 6]"},
		{name: "twice", src: "input (n : int) (m : int) (b : mem) (xss : [n][m] @ b -> 2 + {(n : 1) (m : n)})\n" +
			"let (t : [m][n] @ b -> 2 + {(m : n) (n : 1)}) = transpose xss\nlet (tt : [n][m] @ b -> 2 + {(n : 1) (m : n)}) = transpose t\nin (t, tt)",
			args: args("xss", "[[1 2] [3 4]]"), want: "[[1 3] [2 4]] [[1 2] [3 4]]",
			vals: "((ℓ1, 2 + {(2 : 2) (2 : 1)}), (ℓ1, 2 + {(2 : 1) (2 : 2)}))", heap: "ℓ1=[0 0 1 3 2 4]"},
	})
}

// TestHeapKernel: E-MEM-KERNEL runs the iterations in order, copies each
// iteration's result to index_f(L_z, i) (memcpy, eq 5), and checks
// racefree (eq 4) over the iterations' traces, memcpy included.
func TestHeapKernel(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "int items", src: "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> R(n)) = kernel i <= n do\n  let (v : int) = i * i\n  in (v)\nin (b, xs)",
			args: args("n", "4"), rules: []string{"E-MEM-KERNEL", "E-MEM-ALLOC", "E-MEM-SCALAR"}, want: "ℓ1 [1 4 9 16]", heap: "ℓ1=[1 4 9 16]"},
		{name: "strided destination", src: "input (n : int)\nlet (b : mem) = alloc 3 * n\nlet (xs : [n] @ b -> 2 + {(n : 3)}) = kernel i <= n do in (i)\nin (xs)",
			args: args("n", "2"), want: "[1 2]", heap: "ℓ1=[0 0 1 0 0 2]"},
		{name: "array items by memcpy, column-major", src: "input (n : int) (m : int)\nlet (b : mem) = alloc n * m\n" +
			"let (xss : [n][m] @ b -> 0 + {(n : 1) (m : n)}) = kernel i <= n do\n" +
			"  let (r : mem) = alloc m\n  let (row : [m] @ r -> R(m)) = kernel j <= m do\n    let (v : int) = 10 * i + j\n    in (v)\n  in (row)\nin (xss)",
			args: args("n", "2", "m", "3"), rules: []string{"E-MEM-KERNEL"},
			want: "[[11 12 13] [21 22 23]]", heap: "ℓ1=[11 21 12 22 13 23] ℓ2=[11 12 13] ℓ3=[21 22 23]"},
		{name: "array items from Γ", src: "input (n : int) (m : int) (c : mem) (col : [m] @ c -> 1 + {(m : 2)})\nlet (b : mem) = alloc n * m\n" +
			"let (xss : [n][m] @ b -> R(n, m)) = kernel i <= n do in (col)\nin (xss)",
			args: args("n", "2", "col", "[5 6]"), want: "[[5 6] [5 6]]", heap: "ℓ1=[0 5 0 6] ℓ2=[5 6 5 6]"},
		{name: "memcpy in place", src: "input (n : int)\nlet (two : int) = 2\nlet (b : mem) = alloc n * two\n" +
			"let (xss : [n][two] @ b -> 0 + {(n : 2) (two : 1)}) = kernel i <= n do\n" +
			"  let (off : int) = (i - 1) * 2\n  let (row : [two] @ b -> off + {(two : 1)}) = iota two\n  in (row)\nin (xss)",
			args: args("n", "3"), want: "[[1 2] [1 2] [1 2]]", heap: "ℓ1=[1 2 1 2 1 2]"},
		{name: "zero iterations", src: "input (n : int)\nlet (b : mem) = alloc 1\nlet (xs : [n] @ b -> 5 + {(n : 1)}) = kernel i <= n do in (i)\nin (xs)",
			args: args("n", "0"), want: "[]", heap: "ℓ1=[0]"},
		{name: "nested kernels", src: "input (n : int) (m : int)\nlet (b : mem) = alloc n * m\nlet (big : mem) = alloc n * m\n" +
			"let (xs : [n] @ b -> R(n)) = kernel i <= n do\n" +
			"  let (row : [m] @ big -> (i - 1) + {(m : n)}) = kernel j <= m do\n    let (v : int) = i * j\n    in (v)\n" +
			"  let (w : int) = row[m]\n  in (w)\nin (xs)",
			args: args("n", "3", "m", "2"), want: "[2 4 6]", heap: "ℓ1=[2 4 6 0 0 0] ℓ2=[1 2 3 2 4 6]"},
		{name: "negative bound", src: "input (n : int)\nlet (b : mem) = alloc 1\nlet (xs : [n] @ b -> R(n)) = kernel i <= n do in (i)\nin (xs)",
			args: args("n", "-1"), err: `^E-MEM-KERNEL: kernel bound n = -1 is negative$`},
		{name: "destination outside the block", src: "input (n : int)\nlet (b : mem) = alloc 2\nlet (xs : [n] @ b -> R(n)) = kernel i <= n do in (i)\nin (xs)",
			args: args("n", "3"), err: `^E-MEM-KERNEL: storing iteration 3: offset 2 is outside block ℓ1 of size 2$`},
		{name: "array item outside the block", src: "input (n : int) (m : int)\nlet (b : mem) = alloc n * m - 1\n" +
			"let (xss : [n][m] @ b -> R(n, m)) = kernel i <= n do\n  let (r : mem) = alloc m\n  let (row : [m] @ r -> R(m)) = iota m\n  in (row)\nin (xss)",
			args: args("n", "2", "m", "2"), err: `^E-MEM-KERNEL: storing iteration 2: offset 3 is outside block ℓ1 of size 3$`},
		{name: "stuck in the body", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n))\nlet (c : mem) = alloc n\n" +
			"let (ys : [n] @ c -> R(n)) = kernel i <= n do\n  let (j : int) = i + 1\n  let (v : int) = xs[j]\n  in (v)\nin (ys)",
			args: args("xs", "[1 2]"), err: `^E-MEM-INDEX: index 3 out of bounds 1\.\.2 in dimension 1 of xs$`},
	})
}

// TestHeapKernelRaces: racefree (eq 4) fails when a location written by
// one iteration is read or written by another; the error names the two
// iterations and the location.
func TestHeapKernelRaces(t *testing.T) {
	race := semantics.RaceError
	testHeapCases(t, []heapCase{
		{name: "write-write by stride 0", src: "input (n : int)\nlet (b : mem) = alloc 1\nlet (xs : [n] @ b -> 0 + {(n : 0)}) = kernel i <= n do in (i)\nin (xs)",
			args: args("n", "3"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "stride 0 with one iteration", src: "input (n : int)\nlet (b : mem) = alloc 1\nlet (xs : [n] @ b -> 0 + {(n : 0)}) = kernel i <= n do in (i)\nin (xs)",
			args: args("n", "1"), want: "[1]"},
		{name: "write then read", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n))\n" +
			"let (ys : [n] @ b -> R(n)) = kernel i <= n do\n  let (j : int) = n + 1 - i\n  let (v : int) = xs[j]\n  in (v)\nin (ys)",
			args: args("xs", "[1 2 3 4]"), kind: race,
			// iteration 1 reads ℓ1[3] and writes ℓ1[0], iteration 2 reads
			// ℓ1[2] and writes ℓ1[1], iteration 3 reads ℓ1[1]: caught there.
			err: `^E-MEM-KERNEL: race: iteration 2 writes ℓ1\[1\], which iteration 3 also uses \(racefree, eq 4\)$`},
		{name: "read then write", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n))\n" +
			"let (ys : [n] @ b -> R(n)) = kernel i <= n do\n  let (one : int) = 1\n  let (v : int) = xs[one]\n  in (v)\nin (ys)",
			args: args("xs", "[5 6 7]"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "shared reads are no race", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n))\nlet (c : mem) = alloc n\n" +
			"let (ys : [n] @ c -> R(n)) = kernel i <= n do\n  let (one : int) = 1\n  let (v : int) = xs[one]\n  in (v)\nin (ys)",
			args: args("xs", "[5 6 7]"), want: "[5 5 5]"},
		{name: "in-place map is no race", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n))\n" +
			"let (ys : [n] @ b -> R(n)) = kernel i <= n do\n  let (v : int) = xs[i]\n  let (w : int) = v * 2\n  in (w)\nin (ys)",
			args: args("xs", "[5 6 7]"), want: "[10 12 14]", heap: "ℓ1=[10 12 14]"},
		{name: "memcpy writes overlap", src: "input (n : int) (m : int)\nlet (b : mem) = alloc n + m\n" +
			"let (xss : [n][m] @ b -> 0 + {(n : 1) (m : 1)}) = kernel i <= n do\n  let (r : mem) = alloc m\n  let (row : [m] @ r -> R(m)) = iota m\n  in (row)\nin (xss)",
			args: args("n", "2", "m", "2"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ1\[1\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "memcpy reads what another iteration wrote", src: "input (n : int) (m : int) (b : mem) (xs : [m] @ b -> R(m))\n" +
			"let (yss : [n][m] @ b -> 0 + {(n : m) (m : 1)}) = kernel i <= n do in (xs)\nin (yss)",
			args: args("n", "2", "xs", "[1 2]"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "nested: the outer kernel sees it", src: "input (n : int) (m : int)\nlet (b : mem) = alloc n\nlet (big : mem) = alloc m\n" +
			"let (xs : [n] @ b -> R(n)) = kernel i <= n do\n" +
			"  let (row : [m] @ big -> R(m)) = kernel j <= m do\n    let (v : int) = i * j\n    in (v)\n" +
			"  let (w : int) = row[m]\n  in (w)\nin (xs)",
			args: args("n", "2", "m", "3"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ2\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "nested: the inner kernel sees it", src: "input (n : int) (m : int)\nlet (b : mem) = alloc n\n" +
			"let (xs : [n] @ b -> R(n)) = kernel i <= n do\n  let (r : mem) = alloc 1\n" +
			"  let (row : [m] @ r -> 0 + {(m : 0)}) = kernel j <= m do in (j)\n  let (one : int) = 1\n  let (w : int) = row[one]\n  in (w)\nin (xs)",
			args: args("n", "2", "m", "2"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ2\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "iota in a kernel, shared by the iterations", src: "input (n : int) (m : int)\nlet (b : mem) = alloc n\nlet (big : mem) = alloc m\n" +
			"let (xs : [n] @ b -> R(n)) = kernel i <= n do\n  let (is : [m] @ big -> R(m)) = iota m\n  let (w : int) = is[m]\n  in (w)\nin (xs)",
			args: args("n", "2", "m", "2"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ2\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "iota into a shared location", src: "input (n : int)\nlet (b : mem) = alloc 2\nlet (xs : [n] @ b -> 1 + {(n : 0)}) = iota n\nin (xs)",
			args: args("n", "2"), kind: race,
			err: `^E-MEM-IOTA: race: iteration 1 writes ℓ1\[1\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "copy reversed in place", src: "input (n : int) (b : mem) (xs : [n] @ b -> R(n))\n" +
			"let (ys : [n] @ b -> (n - 1) + {(n : -1)}) = copy xs\nin (ys)",
			args: args("xs", "[1 2 3]"), kind: race,
			err: `^E-MEM-COPY: race: iteration 1 writes ℓ1\[2\], which iteration 3 also uses \(racefree, eq 4\)$`},
	})
}

// TestHeapRacePosition: a race is an error of kind RaceError at the kernel
// whose iterations race, in both semantics.
func TestHeapRacePosition(t *testing.T) {
	src := "input (n : int)\nlet (b : mem) = alloc 1\nlet (xs : [n] @ b -> 0 + {(n : 0)}) =\n  kernel i <= n do in (i)\nin (xs)"
	p := parseChecked(t, src)
	big, small := runHeapBoth(t, p, heapCase{args: args("n", "2")})
	for _, err := range []error{big.err, small.err} {
		var se *semantics.Error
		if !errors.As(err, &se) || se.Kind != semantics.RaceError || se.Rule != "E-MEM-KERNEL" || se.Pos.Line != 4 || se.Pos.Col != 3 {
			t.Errorf("want a race of E-MEM-KERNEL at heap.funmem:4:3, got %v", err)
		}
	}
}

// ifSrc is an if whose then allocates and makes an iota, and whose else
// allocates and runs a kernel (TestHeapIf, TestLazyBodies).
const ifSrc = "input (c : int) (n : int)\n" +
	"let (k : int) (zm : mem) (zs : [k] @ zm -> R(k)) =\n" +
	"  if c\n  then let (a : mem) = alloc n\n       let (x : [n] @ a -> R(n)) = iota n\n       in (n, a, x)\n" +
	"  else let (m : int) = n + 1\n       let (b : mem) = alloc m\n       let (y : [m] @ b -> R(m)) = kernel i <= m do\n         let (v : int) = 10 * i\n         in (v)\n       in (m, b, y)\n" +
	"in (k, zm, zs)"

// TestHeapIf: E-MEM-IF-T and E-MEM-IF-F evaluate one branch, whose
// statements alone touch the heap.
func TestHeapIf(t *testing.T) {
	src := ifSrc
	testHeapCases(t, []heapCase{
		{name: "true", src: src, args: args("c", "1", "n", "2"), rules: []string{"E-MEM-IF-T", "E-MEM-IOTA"},
			want: "2 ℓ1 [1 2]", heap: "ℓ1=[1 2]"},
		{name: "any non-zero is true", src: src, args: args("c", "-7", "n", "1"), rules: []string{"E-MEM-IF-T"}, want: "1 ℓ1 [1]"},
		{name: "false", src: src, args: args("c", "0", "n", "2"), rules: []string{"E-MEM-IF-F", "E-MEM-KERNEL"},
			want: "3 ℓ1 [10 20 30]", heap: "ℓ1=[10 20 30]"},
		{name: "stuck in the branch taken", src: src, args: args("c", "1", "n", "-1"),
			err: `^E-MEM-ALLOC: allocation of negative size -1$`},
		{name: "not stuck in the other", src: src, args: args("c", "0", "n", "-1"), want: "0 ℓ1 []"},
		{name: "in a kernel", src: "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> R(n)) = kernel i <= n do\n" +
			"  let (odd : int) = i % 2\n  let (v : int) = if odd then in (i) else let (w : int) = 0 - i in (w)\n  in (v)\nin (xs)",
			args: args("n", "4"), rules: []string{"E-MEM-IF-T", "E-MEM-IF-F"}, want: "[1 -2 3 -4]"},
	})
}

// TestHeapStms: E-STMS threads the environment and heap through the
// statements, in order.
func TestHeapStms(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "sequence", src: "input (n : int)\nlet (a : mem) = alloc n\nlet (xs : [n] @ a -> R(n)) = iota n\n" +
			"let (b : mem) = alloc n\nlet (ys : [n] @ b -> R(n)) = kernel i <= n do\n  let (v : int) = xs[i]\n  let (w : int) = v + 100\n  in (w)\nin (a, xs, b, ys)",
			args: args("n", "3"), rules: []string{"E-STMS"}, want: "ℓ1 [1 2 3] ℓ2 [101 102 103]", heap: "ℓ1=[1 2 3] ℓ2=[101 102 103]"},
		{name: "a later write is seen by a later read", src: "input (n : int)\nlet (a : mem) = alloc n\nlet (xs : [n] @ a -> R(n)) = iota n\n" +
			"let (one : int) = 1\nlet (before : int) = xs[one]\nlet (ys : [n] @ a -> R(n)) = kernel i <= n do\n  let (v : int) = i * 7\n  in (v)\n" +
			"let (after : int) = xs[one]\nin (before, after)",
			args: args("n", "2"), want: "1 7", heap: "ℓ1=[7 14]"},
		{name: "stops at the first stuck statement", src: "input (n : int)\nlet (a : mem) = alloc n\nlet (b : mem) = alloc 0 - 1\nlet (c : mem) = alloc n\nin (a)",
			args: args("n", "2"), err: `^E-MEM-ALLOC: allocation of negative size -1$`, heap: "ℓ1=[0 0]"},
	})
}

// TestHeapProg: E-MEM-PROG runs the body from the inputs' environment and
// heap and returns E(x1), …, the blocks as labels and arrays as (ℓ, L).
func TestHeapProg(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "pairs", src: "let (n : int) = 2\nlet (m : mem) = alloc n\nlet (xs : [n] @ m -> R(n)) = iota n\nin (m, xs)",
			rules: []string{"E-MEM-PROG"}, want: "ℓ1 [1 2]", vals: "(ℓ1, (ℓ1, 0 + {(2 : 1)}))"},
		{name: "only a result", src: "input (n : int)\nin (n)", args: args("n", "5"), rules: []string{"E-MEM-PROG"}, want: "5", heap: ""},
		{name: "inputs laid out by their LMADs", src: "input (n : int) (b : mem) (xs : [n] @ b -> 2 + {(n : -1)})\nin (b, xs)",
			args: args("xs", "[1 2 3]"), want: "ℓ1 [1 2 3]", vals: "(ℓ1, (ℓ1, 2 + {(3 : -1)}))", heap: "ℓ1=[3 2 1]"},
		{name: "two inputs in one block", src: "input (n : int) (k : int) (b : mem) (xs : [n] @ b -> R(n)) (ys : [k] @ b -> n + {(k : 1)})\nin (xs, ys)",
			args: args("xs", "[1 2]", "ys", "[3 4 5]"), want: "[1 2] [3 4 5]", heap: "ℓ1=[1 2 3 4 5]"},
	})
}

// TestHeapIota: E-MEM-IOTA is the kernel iota n ≡ kernel i <= n do in (i)
// of §2: iteration i writes i at L(i), traced like a kernel.
func TestHeapIota(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "row-major", src: "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> R(n)) = iota n\nin (b, xs)",
			args: args("n", "3"), rules: []string{"E-MEM-IOTA"}, want: "ℓ1 [1 2 3]", heap: "ℓ1=[1 2 3]"},
		{name: "reversed", src: "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> (n - 1) + {(n : -1)}) = iota n\nin (xs)",
			args: args("n", "3"), want: "[1 2 3]", heap: "ℓ1=[3 2 1]"},
		{name: "empty", src: "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> R(n)) = iota n\nin (xs)",
			args: args("n", "0"), want: "[]", heap: "ℓ1=[]"},
		{name: "negative", src: "input (n : int)\nlet (b : mem) = alloc 1\nlet (xs : [n] @ b -> R(n)) = iota n\nin (xs)",
			args: args("n", "-2"), err: `^E-MEM-IOTA: a kernel bound of -2 is negative$`},
		{name: "outside the block", src: "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> 1 + {(n : 1)}) = iota n\nin (xs)",
			args: args("n", "2"), err: `^E-MEM-IOTA: offset 2 is outside block ℓ1 of size 2$`},
	})
}

// TestHeapCopy: E-MEM-COPY is copy x ≡ a kernel over x's rows (§2): each
// iteration copies one item into L_z's place for it.
func TestHeapCopy(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "vector", src: "input (n : int) (a : mem) (xs : [n] @ a -> 1 + {(n : 2)})\nlet (b : mem) = alloc n\nlet (ys : [n] @ b -> R(n)) = copy xs\nin (b, ys)",
			args: args("xs", "[4 5]"), rules: []string{"E-MEM-COPY"}, want: "ℓ2 [4 5]", heap: "ℓ1=[0 4 0 5] ℓ2=[4 5]"},
		{name: "row-major to column-major", src: "input (n : int) (m : int) (a : mem) (xss : [n][m] @ a -> R(n, m))\nlet (b : mem) = alloc n * m\n" +
			"let (yss : [n][m] @ b -> 0 + {(n : 1) (m : n)}) = copy xss\nlet (t : [m][n] @ b -> R(m, n)) = transpose yss\nin (b, t)",
			args: args("xss", "[[1 2 3] [4 5 6]]"), rules: []string{"E-MEM-COPY", "E-MEM-TRANSPOSE"},
			want: "ℓ2 [[1 4] [2 5] [3 6]]", heap: "ℓ1=[1 2 3 4 5 6] ℓ2=[1 4 2 5 3 6]"},
		{name: "of a view", src: "input (n : int) (m : int) (a : mem) (xss : [n][m] @ a -> R(n, m))\n" +
			"let (t : [m][n] @ a -> 0 + {(m : 1) (n : m)}) = transpose xss\nlet (b : mem) = alloc n * m\nlet (ts : [m][n] @ b -> R(m, n)) = copy t\nin (b, ts)",
			args: args("xss", "[[1 2] [3 4] [5 6]]"), want: "ℓ2 [[1 3 5] [2 4 6]]", heap: "ℓ1=[1 2 3 4 5 6] ℓ2=[1 3 5 2 4 6]"},
		{name: "empty", src: "input (n : int) (m : int) (a : mem) (xss : [n][m] @ a -> R(n, m))\nlet (b : mem) = alloc 0\n" +
			"let (yss : [n][m] @ b -> R(n, m)) = copy xss\nin (yss)",
			args: args("n", "2", "m", "0", "xss", "[[] []]"), want: "[[] []]"},
		{name: "destination outside the block", src: "input (n : int) (a : mem) (xs : [n] @ a -> R(n))\nlet (b : mem) = alloc n - 1\nlet (ys : [n] @ b -> R(n)) = copy xs\nin (ys)",
			args: args("xs", "[1 2 3]"), err: `^E-MEM-COPY: offset 2 is outside block ℓ2 of size 2$`},
	})
}

// TestHeapTrace checks HeapOptions.Trace: each kernel, when it ends, hands
// over its iterations' read and write sets (the boxed parts of Fig 10),
// memcpy's R' and W' included, inner kernels before the outer one.
func TestHeapTrace(t *testing.T) {
	src := "input (n : int) (m : int)\nlet (b : mem) = alloc n * m\n" +
		"let (xss : [n][m] @ b -> 0 + {(n : 1) (m : n)}) = kernel i <= n do\n" +
		"  let (r : mem) = alloc m\n  let (row : [m] @ r -> R(m)) = kernel j <= m do in (j)\n  in (row)\n" +
		"let (c : mem) = alloc n * m\nlet (yss : [n][m] @ c -> R(n, m)) = copy xss\nin (c, yss)"
	p := parseChecked(t, src)
	big, small := runHeapBoth(t, p, heapCase{args: args("n", "2", "m", "2")})
	if big.err != nil || small.err != nil {
		t.Fatalf("errors: %v, %v", big.err, small.err)
	}
	want := []string{
		"row {1: R = {}  W = {ℓ2[0]}; 2: R = {}  W = {ℓ2[1]}}",
		"row {1: R = {}  W = {ℓ3[0]}; 2: R = {}  W = {ℓ3[1]}}",
		"xss {1: R = {ℓ2[0], ℓ2[1]}  W = {ℓ1[0], ℓ1[2], ℓ2[0], ℓ2[1]}; 2: R = {ℓ3[0], ℓ3[1]}  W = {ℓ1[1], ℓ1[3], ℓ3[0], ℓ3[1]}}",
		"yss {1: R = {ℓ1[0], ℓ1[2]}  W = {ℓ4[0], ℓ4[1]}; 2: R = {ℓ1[1], ℓ1[3]}  W = {ℓ4[2], ℓ4[3]}}",
	}
	for _, r := range []heapRun{big, small} {
		if got := strings.Join(r.traces, "\n"); got != strings.Join(want, "\n") {
			t.Errorf("traces:\n%s\nwant\n%s", got, strings.Join(want, "\n"))
		}
	}
	// Without a Trace function nothing is recorded, and the result is the same.
	env, h, err := BindInputs(p, args("n", "2", "m", "2"))
	if err != nil {
		t.Fatal(err)
	}
	vs, err := EvalHeap(p, env, h, nil)
	if err != nil || resultString(t, h, vs) != "ℓ4 [[1 2] [1 2]]" {
		t.Errorf("without a trace: %v, %v", vs, err)
	}
}

// TestHeapSmallSteps: the small-step semantics takes one step per
// statement, per kernel iteration's start and end, and per return, and
// its steps carry the rule names of Fig 10.
func TestHeapSmallSteps(t *testing.T) {
	src := "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> R(n)) = kernel i <= n do\n  let (v : int) = i + 1\n  in (v)\nin (b, xs)"
	p := parseChecked(t, src)
	env, h, err := BindInputs(p, args("n", "2"))
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	vs, steps, err := RunHeapSmall(p, env, h, &semantics.RunOptions{OnStep: func(rule string, _ any) { rules = append(rules, rule) }})
	if err != nil {
		t.Fatal(err)
	}
	want := "E-MEM-ALLOC E-MEM-KERNEL E-MEM-SCALAR E-MEM-KERNEL E-MEM-SCALAR E-MEM-KERNEL E-MEM-PROG"
	if got := strings.Join(rules, " "); got != want || steps != len(rules) {
		t.Errorf("steps %d: %s\nwant %s", steps, got, want)
	}
	if got := resultString(t, h, vs); got != "ℓ1 [2 3]" {
		t.Errorf("results %s", got)
	}
	// Out of fuel part way: a FuelError, not a wrong result.
	env, h, _ = BindInputs(p, args("n", "2"))
	_, _, err = RunHeapSmall(p, env, h, &semantics.RunOptions{Fuel: 3})
	var se *semantics.Error
	if !errors.As(err, &se) || se.Kind != semantics.FuelError {
		t.Errorf("with fuel 3: want a FuelError, got %v", err)
	}
}
