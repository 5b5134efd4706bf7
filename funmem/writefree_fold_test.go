package funmem

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestWriteFreeFoldsAgree runs random reduces, scans and filters over an
// input array and redomaps whose bodies read the heap (indexes into the input, which may
// be out of bounds) and branch, but write nothing, alone and inside a
// kernel, under the compiled heap semantics with the plain loops on and
// off (HeapOptions.NoScalarFolds) and under the rules as written
// (EvalRules): the same values, errors and final heaps. Most of them must
// take the loops.
func TestWriteFreeFoldsAgree(t *testing.T) {
	// Not parallel: the counts of loops run are the package's.
	g := newSrcGen(41, 42)
	rng, pick, sexp := g.rng, g.pick, g.sexp
	// body writes a body over leaves that reads xs and may branch; its
	// result is c.
	body := func(ind string, leaves []string) string {
		var b strings.Builder
		fmt.Fprintf(&b, "%slet (q : int) = %s\n", ind, sexp(append(leaves, "n"), 1))
		fmt.Fprintf(&b, "%slet (w : int) = xs[q]\n", ind)
		leaves = append(leaves, "w")
		// Sometimes a fold or a loop nested in the body, which writes
		// nothing either.
		switch rng.IntN(6) {
		case 0:
			fmt.Fprintf(&b, "%slet (w2 : int) =\n%s  reduce (a2 : int) (b2 : int) = w over xs do\n%s    let (c2 : int) = %s\n%s    in (c2)\n",
				ind, ind, ind, sexp([]string{"a2", "b2", "w", "1"}, 2), ind)
			leaves = append(leaves, "w2")
		case 1:
			fmt.Fprintf(&b, "%slet (w2 : int) =\n%s  redomap (a2 : int) (b2 : int) = w for j2 <= q do\n%s    let (y2 : int) = xs[j2]\n%s    in (y2)\n%s  combine\n%s    let (c2 : int) = %s\n%s    in (c2)\n",
				ind, ind, ind, ind, ind, ind, sexp([]string{"a2", "b2", "1"}, 2), ind)
			leaves = append(leaves, "w2")
		case 2:
			fmt.Fprintf(&b, "%slet (w2 : int) =\n%s  loop (l2 : int) = (w) for j2 <= q do\n%s    let (y2 : int) = %s\n%s    in (y2)\n",
				ind, ind, ind, sexp([]string{"l2", "j2", "w", "1"}, 2), ind)
			leaves = append(leaves, "w2")
		}
		if rng.IntN(2) == 0 {
			fmt.Fprintf(&b, "%slet (t : int) = %s\n", ind, sexp(leaves, 1))
			fmt.Fprintf(&b, "%slet (c : int) =\n%s  if t then\n%s    in (w)\n%s  else\n", ind, ind, ind, ind)
			fmt.Fprintf(&b, "%s    let (u : int) = %s\n%s    in (u)\n", ind, sexp(leaves, 2), ind)
		} else {
			fmt.Fprintf(&b, "%slet (c : int) = %s\n", ind, sexp(leaves, 2))
		}
		fmt.Fprintf(&b, "%sin (c)\n", ind)
		return b.String()
	}
	reduces, redomaps, scans, filters := scalarReduceRuns.Load(), scalarRedomapRuns.Load(), scalarScanRuns.Load(), scalarFilterRuns.Load()
	failed := 0
	const programs = 400
	for k := range programs {
		var b strings.Builder
		b.WriteString("input (n : int) (m : int) (xs : [n])\n")
		nested := k%3 == 0
		ind := ""
		if nested {
			b.WriteString("let (ys : [m]) = kernel j <= m do\n")
			ind = "  "
		}
		fmt.Fprintf(&b, "%slet (z : int) = %s\n", ind, pick("0", "1", "-7"))
		if k%7 == 6 {
			// A filter, then the sum of what it kept.
			fmt.Fprintf(&b, "%slet (kept : int) (ks : [kept]) =\n%s  filter (a : int) over xs do\n", ind, ind)
			b.WriteString(body(ind+"    ", []string{"a", "z", "1", "2"}))
			fmt.Fprintf(&b, "%slet (r : int) =\n%s  reduce (a : int) (b : int) = z over ks do\n%s    let (c : int) = a - b\n%s    in (c)\n", ind, ind, ind, ind)
		} else if k%5 == 4 {
			// A scan; inside the kernel, its destination is the
			// kernel's row.
			if nested {
				b.Reset()
				b.WriteString("input (n : int) (m : int) (xs : [n])\n")
				b.WriteString("let (ys : [m][n]) = kernel j <= m do\n")
				fmt.Fprintf(&b, "%slet (z : int) = %s\n", ind, pick("0", "1", "-7"))
			}
			fmt.Fprintf(&b, "%slet (r : [n]) =\n%s  scan (a : int) (b : int) = z over xs do\n", ind, ind)
			b.WriteString(body(ind+"    ", []string{"a", "b", "1", "2"}))
		} else if k%2 == 0 {
			fmt.Fprintf(&b, "%slet (r : int) =\n%s  reduce (a : int) (b : int) = z over xs do\n", ind, ind)
			b.WriteString(body(ind+"    ", []string{"a", "b", "1", "2"}))
		} else {
			fmt.Fprintf(&b, "%slet (r : int) =\n%s  redomap (a : int) (b : int) = z for i <= m do\n", ind, ind)
			b.WriteString(body(ind+"    ", []string{"i", "m", "1", "-2"}))
			fmt.Fprintf(&b, "%s  combine\n", ind)
			b.WriteString(body(ind+"    ", []string{"a", "b", "1", "2"}))
		}
		if nested {
			b.WriteString("  in (r)\nin (ys)\n")
		} else {
			b.WriteString("in (r)\n")
		}
		src := b.String()
		xs := make([]string, rng.IntN(6))
		for i := range xs {
			xs[i] = fmt.Sprint(rng.IntN(9) - 3)
		}
		args := map[string]string{"m": fmt.Sprint(rng.IntN(5)), "xs": "[" + strings.Join(xs, " ") + "]"}
		if agreeFolds(t, src, args) {
			failed++
		}
	}
	reduces, redomaps = scalarReduceRuns.Load()-reduces, scalarRedomapRuns.Load()-redomaps
	scans, filters = scalarScanRuns.Load()-scans, scalarFilterRuns.Load()-filters
	t.Logf("%d reduces, %d redomaps, %d scans and %d filters ran as loops over %d programs, %d went wrong", reduces, redomaps, scans, filters, programs, failed)
	if reduces < programs/5 || redomaps < programs/5 || scans < programs/10 || filters < programs/20 || failed < programs/10 || programs-failed < programs/4 {
		t.Errorf("%d reduces, %d redomaps, %d scans and %d filters ran as loops, %d of %d programs went wrong: too few to test both outcomes", reduces, redomaps, scans, filters, failed, programs)
	}
}

// srcGen writes random pieces of FUN source for the fold tests.
type srcGen struct{ rng *rand.Rand }

func newSrcGen(a, b uint64) *srcGen { return &srcGen{rand.New(rand.NewPCG(a, b))} }

// pick is one of xs.
func (g *srcGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

// sexp is a scalar expression over leaves of depth at most d, with
// divisions that may be by zero and operators that are not associative.
func (g *srcGen) sexp(leaves []string, d int) string {
	if d == 0 || g.rng.IntN(3) == 0 {
		return g.pick(leaves...)
	}
	return "(" + g.sexp(leaves, d-1) + " " + g.pick("+", "-", "*", "/", "%", "<", "==") + " " + g.sexp(leaves, d-1) + ")"
}

// agreeFolds runs the FUN program src, made FUNMEM, on args under the
// compiled heap semantics with the plain loops on and off
// (HeapOptions.NoScalarFolds) and under the rules as written (EvalRules):
// the same values, errors and final heaps. failed says whether the runs
// went wrong.
func agreeFolds(t *testing.T, src string, args map[string]string) (failed bool) {
	t.Helper()
	fp, err := fun.ParseFile("folds.fun", src)
	if err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	if _, err := fun.Check(fp, nil); err != nil {
		t.Fatalf("%v\n%s", err, src)
	}
	p := Simplify(Transform(fp))
	run := func(off, rules bool) heapRun {
		env, h, err := BindInputs(p, args)
		if err != nil {
			t.Fatalf("%v\n%v\n%s", err, args, src)
		}
		r := heapRun{h: h}
		if rules {
			r.vals, _, r.err = EvalRules(p, env, h, &HeapOptions{})
		} else {
			r.vals, r.err = EvalHeap(p, env, h, &HeapOptions{NoScalarFolds: off})
		}
		return r
	}
	fast := run(false, false)
	for _, mode := range []struct {
		name      string
		off, rule bool
	}{{"the engine's steps", true, false}, {"the rules", false, true}} {
		slow := run(mode.off, mode.rule)
		if fmt.Sprint(fast.err) != fmt.Sprint(slow.err) {
			t.Fatalf("errors differ: loop %v, %s %v\n%v\n%s", fast.err, mode.name, slow.err, args, src)
		}
		if a, b := heapDump(fast.h), heapDump(slow.h); a != b {
			t.Fatalf("final heaps differ:\nloop  %s\n%s %s\n%s", a, mode.name, b, src)
		}
		if a, b := ValuesString(fast.vals), ValuesString(slow.vals); a != b {
			t.Fatalf("values differ: loop %s, %s %s\n%v\n%s", a, mode.name, b, args, src)
		}
	}
	return fast.err != nil
}

// TestScanomapLoopAgrees runs random scanomaps whose map bodies read an
// input (in bounds but for the divisions) and whose operators branch, as
// loops and by the steps and the rules (agreeFolds).
func TestScanomapLoopAgrees(t *testing.T) {
	// Not parallel: the counts of loops run are the package's.
	rng := rand.New(rand.NewPCG(61, 62))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	sexp := func(leaves ...string) string {
		return "(" + pick(leaves...) + " " + pick("+", "-", "*", "/", "%", "<") + " " + pick(leaves...) + ")"
	}
	before := scalarRedomapRuns.Load()
	failed := 0
	const programs = 150
	for range programs {
		src := fmt.Sprintf(`input (n : int) (m : int) (xs : [n])
let (z : int) = %s
let (r : [m]) =
  scanomap (a : int) (b : int) = z for i <= m do
    let (w : int) = xs[i]
    let (v : int) = %s
    in (v)
  combine
    let (t : int) = %s
    let (c : int) =
      if t then
        in (a)
      else
        let (u : int) = %s
        in (u)
    in (c)
in (r)
`, pick("0", "1", "-7"), sexp("w", "i", "2", "-1"), sexp("a", "b", "1", "0"), sexp("a", "b", "3"))
		xs := make([]string, 5)
		for i := range xs {
			xs[i] = fmt.Sprint(rng.IntN(9) - 3)
		}
		args := map[string]string{"m": fmt.Sprint(rng.IntN(6)), "xs": "[" + strings.Join(xs, " ") + "]"}
		if agreeFolds(t, src, args) {
			failed++
		}
	}
	ran := scalarRedomapRuns.Load() - before
	t.Logf("%d scanomaps ran as loops over %d programs, %d went wrong", ran, programs, failed)
	if ran < programs/2 || failed < programs/20 || programs-failed < programs/2 {
		t.Errorf("%d scanomaps ran as loops, %d of %d programs went wrong: too few to test both outcomes", ran, failed, programs)
	}
}

// threeRuns runs the FUNMEM program src on xs = [1 2 3 4] by the engine,
// the engine with the plain loops off and the rules: the same outcome,
// and an error naming race when race is not "" (none else).
func threeRuns(t *testing.T, name, file, src, race string) {
	t.Helper()
	p, err := ParseFile(file, src)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	args := map[string]string{"xs": "[1 2 3 4]"}
	var outs []string
	for mode := range 3 {
		env, h, err := BindInputs(p, args)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var vs []Value
		switch mode {
		case 0:
			vs, err = EvalHeap(p, env, h, &HeapOptions{})
		case 1:
			vs, err = EvalHeap(p, env, h, &HeapOptions{NoScalarFolds: true})
		default:
			vs, _, err = EvalRules(p, env, h, &HeapOptions{})
		}
		outs = append(outs, fmt.Sprintf("%v %s %s", err, ValuesString(vs), heapDump(h)))
		if (err != nil && race != "" && strings.Contains(err.Error(), race)) != (race != "") {
			t.Errorf("%s: mode %d: error %v, want one with %q", name, mode, err, race)
		}
	}
	if outs[0] != outs[1] || outs[0] != outs[2] {
		t.Errorf("%s: the runs differ:\n  engine:       %s\n  engine steps: %s\n  rules:        %s", name, outs[0], outs[1], outs[2])
	}
}

// TestScalarFilterCopies: a filter whose destination's rows overlap runs
// as the loop and copies its kept rows under a tracker, which finds the
// race the rules find; one that writes into its array's block, or into a
// block an array in scope lives in, runs by the rules' steps.
func TestScalarFilterCopies(t *testing.T) {
	const op = `  filter (x : int) over xs do
    let (p : int) = x > 1
    in (p)
in (ys)
`
	for _, c := range []struct {
		name, src, race string
		loop            bool
	}{
		{"rows overlap", `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (one : int) = 1
let (ys_mem : mem) = alloc one
let (k : int) (ys : [k] @ ys_mem -> 0 + {(k : 0)}) =
` + op, "race", true},
		{"into its array's block", `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (k : int) (ys : [k] @ xs_mem -> R(k)) =
` + op, "", false},
		{"into a block in scope", `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (ys_mem : mem) = alloc n
let (zs : [n] @ ys_mem -> R(n)) = copy xs
let (k : int) (ys : [k] @ ys_mem -> R(k)) =
` + op, "", false},
	} {
		before := scalarFilterRuns.Load()
		threeRuns(t, c.name, "filter.funmem", c.src, c.race)
		if n := scalarFilterRuns.Load() - before; (n == 1) != c.loop {
			t.Errorf("%s: ran as the loop %d times, want %v", c.name, n, c.loop)
		}
	}
}

// TestScalarScanKeepsTracker: a scan whose destination shares the array's
// block, or whose rows overlap, or a scanomap whose map body may read its
// destination, keeps its tracker, and so finds
// the races the rules find; an in-place scan row for row is race free
// either way.
func TestScalarScanKeepsTracker(t *testing.T) {
	const op = `  scan (a : int) (b : int) = zero over xs do
    let (c : int) = a + b
    in (c)
in (ys)
`
	for _, c := range []struct {
		name, src, race string
	}{
		{"in place", `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (zero : int) = 0
let (ys : [n] @ xs_mem -> R(n)) =
` + op, ""},
		{"one row behind", `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> 1 + {(n : 1)})
let (zero : int) = 0
let (ys : [n] @ xs_mem -> R(n)) =
` + op, "race"},
		{"rows overlap", `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (zero : int) = 0
let (one : int) = 1
let (ys_mem : mem) = alloc one
let (ys : [n] @ ys_mem -> 0 + {(n : 0)}) =
` + op, "race"},
		// A scanomap whose map body reads the row after its own, in the
		// block it writes.
		{"scanomap reads ahead", `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (zero : int) = 0
let (one : int) = 1
let (m : int) = n - one
let (ys : [m] @ xs_mem -> R(m)) =
  scanomap (a : int) (b : int) = zero for i <= m do
    let (j : int) = i + one
    let (x : int) = xs[j]
    in (x)
  combine
    let (c : int) = a + b
    in (c)
in (ys)
`, "race"},
	} {
		before := scalarScanRuns.Load() + scalarRedomapRuns.Load()
		threeRuns(t, c.name, "scan.funmem", c.src, c.race)
		if n := scalarScanRuns.Load() + scalarRedomapRuns.Load() - before; n != 0 {
			t.Errorf("%s: ran as the loop %d times", c.name, n)
		}
	}
}
