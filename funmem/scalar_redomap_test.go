package funmem

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestScalarRedomapAgrees runs random redomaps whose map and operator
// bodies compute scalars (divisions that may be by zero, bounds that may
// be negative, operators that are not associative), alone and inside a
// kernel, under the compiled heap semantics with the scalar loop on and
// off (HeapOptions.NoScalarFolds): the same values, errors and final
// heaps. Most of them must take the loop.
func TestScalarRedomapAgrees(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(21, 22))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var sexp func(leaves []string, d int) string
	sexp = func(leaves []string, d int) string {
		if d == 0 || rng.IntN(3) == 0 {
			return pick(leaves...)
		}
		return "(" + sexp(leaves, d-1) + " " + pick("+", "-", "*", "/", "%", "<", "==") + " " + sexp(leaves, d-1) + ")"
	}
	run := func(p *fun.Program, args map[string]string, off bool) (heapRun, error) {
		env, h, err := BindInputs(p, args)
		if err != nil {
			return heapRun{}, err
		}
		r := heapRun{h: h}
		r.vals, r.err = EvalHeap(p, env, h, &HeapOptions{NoScalarFolds: off})
		return r, nil
	}
	before := scalarRedomapRuns.Load()
	failed := 0
	const programs = 400
	for k := range programs {
		var b strings.Builder
		b.WriteString("input (n : int) (m : int)\n")
		nested := k%3 == 0
		ind := "  "
		if nested {
			b.WriteString("let (ys : [n]) = kernel j <= n do\n")
			ind = "    "
		}
		bound, leaves := "m", []string{"i", "m", "0", "1", "3", "-2"}
		if nested {
			bound, leaves = "j", append(leaves, "j")
		}
		fmt.Fprintf(&b, "%slet (z : int) = %s\n", ind[2:], pick("0", "1", "-7"))
		fmt.Fprintf(&b, "%slet (r : int) =\n%s  redomap (a : int) (b : int) = z for i <= %s do\n", ind[2:], ind[2:], bound)
		fmt.Fprintf(&b, "%s    let (v : int) = %s\n%s    in (v)\n", ind[2:], sexp(leaves, 2), ind[2:])
		fmt.Fprintf(&b, "%s  combine\n%s    let (c : int) = %s\n%s    in (c)\n", ind[2:], ind[2:], sexp([]string{"a", "b", "1", "2"}, 2), ind[2:])
		if nested {
			b.WriteString("    in (r)\nin (ys)\n")
		} else {
			b.WriteString("in (r)\n")
		}
		src := b.String()
		fp, err := fun.ParseFile("redomap.fun", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		if _, err := fun.Check(fp, nil); err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		p := Simplify(Transform(fp))
		args := map[string]string{"n": fmt.Sprint(rng.IntN(4)), "m": fmt.Sprint(rng.IntN(30) - 3)}
		fast, err := run(p, args, false)
		if err != nil {
			t.Fatal(err)
		}
		slow, _ := run(p, args, true)
		if fmt.Sprint(fast.err) != fmt.Sprint(slow.err) {
			t.Fatalf("errors differ: loop %v, rules %v\n%v\n%s", fast.err, slow.err, args, src)
		}
		if a, b := heapDump(fast.h), heapDump(slow.h); a != b {
			t.Fatalf("final heaps differ:\nloop  %s\nrules %s\n%s", a, b, src)
		}
		if a, b := ValuesString(fast.vals), ValuesString(slow.vals); a != b {
			t.Fatalf("values differ: loop %s, rules %s\n%v\n%s", a, b, args, src)
		}
		if fast.err != nil {
			failed++
		}
	}
	ran := scalarRedomapRuns.Load() - before
	t.Logf("%d redomaps ran as the loop over %d programs, %d went wrong", ran, programs, failed)
	if ran < programs/2 || failed < programs/10 || programs-failed < programs/4 {
		t.Errorf("%d redomaps ran as the loop, %d of %d programs went wrong: too few to test both outcomes", ran, failed, programs)
	}
}
