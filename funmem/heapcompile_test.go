package funmem

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// TestSlotBound: slotBound reserves at least the slots compiling a body
// takes, for every body of the seed programs and their expansions: each
// compiled with every nested body at once (eager), where get panics when
// a body takes more than its reservation, and the program's own body
// within slotBound of it.
func TestSlotBound(t *testing.T) {
	bodies := 0
	for _, p := range seedVariants(t) {
		c := &hcompiler{eager: true}
		c.body(nil, p.Body)
		if bound := slotBound(p.Body); c.slots > bound {
			t.Fatalf("compiling took %d slots, slotBound reserves %d:\n%s", c.slots, bound, Print(p))
		}
		eachBody(p.Body, func(*fun.Body) { bodies++ })
	}
	if bodies < 100 {
		t.Fatalf("only %d bodies compiled: the test checks little", bodies)
	}
}

// TestLazyBodies: a nested body is compiled when it first runs, and only
// then: the branch not taken and a kernel of no iterations are not
// compiled; and the run is what compiling every body first (eager) gives.
func TestLazyBodies(t *testing.T) {
	src := ifSrc
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
				var stms int
				runs[i] = compiledRun(t, &hcompiler{eager: eager, stms: &stms}, p, args("c", tc.c, "n", tc.n))
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

// TestOnceScalars: the scalar expressions of code that runs at most once
// (the program's body, an if's branch there, a kernel of one iteration)
// are left to fun.EvalNum, those of a body that iterates are compiled;
// and the run, values and errors, is what compiling every scalar
// expression (allLooped) gives, on the seed programs and their
// expansions with inputs that reach their bodies.
func TestOnceScalars(t *testing.T) {
	const src = "input (c : int) (n : int)\n" +
		"let (a : int) = n + 1\n" +
		"let (k : int) (zm : mem) (zs : [k] @ zm -> R(k)) =\n" +
		"  if c\n  then let (m : int) = a * 2\n       let (b : mem) = alloc m\n       let (y : [m] @ b -> R(m)) = kernel i <= m do\n         let (v : int) = 10 * i\n         let (w : int) = v / c\n         in (w)\n       in (m, b, y)\n" +
		"  else let (m : int) = a - 1\n       let (b : mem) = alloc m\n       let (y : [m] @ b -> R(m)) = kernel i <= m do\n         let (v : int) = 10 - i\n         in (v)\n       in (m, b, y)\n" +
		"in (k, zm, zs)"
	p := parseChecked(t, src)
	for _, tc := range []struct {
		name, c, n string
		sexps      int // the scalar expressions compiled
	}{
		{"at top and in a branch", "0", "-1", 0}, // a kernel of no iterations
		{"kernel of one iteration", "0", "1", 0},
		{"kernel of two iterations", "0", "2", 1},
		{"kernel of four iterations", "1", "1", 2},
		{"stuck in a compiled body", "1", "-1", 0}, // m = 0: no iterations
	} {
		t.Run(tc.name, func(t *testing.T) {
			var runs [2]string
			for i, all := range []bool{false, true} {
				var sexps int
				runs[i] = compiledRun(t, &hcompiler{allLooped: all, sexps: &sexps}, p, args("c", tc.c, "n", tc.n))
				if !all && sexps != tc.sexps {
					t.Errorf("%d scalar expressions compiled, want %d", sexps, tc.sexps)
				}
			}
			if runs[0] != runs[1] {
				t.Errorf("run %s, compiling every scalar expression %s", runs[0], runs[1])
			}
		})
	}
	// A division by zero in a body run once is stuck as when compiled.
	q := parseChecked(t, "input (a : int)\nlet (x : int) = a / 0\nin (x)")
	var errs [2]string
	for i, all := range []bool{false, true} {
		env, h, err := BindInputs(q, args("a", "3"))
		if err != nil {
			t.Fatal(err)
		}
		_, err = evalCompiled(&hcompiler{allLooped: all}, q, env, h, withBudget(nil))
		errs[i] = fmt.Sprint(err)
	}
	if errs[0] != errs[1] || errs[0] == "<nil>" {
		t.Errorf("once: %s; compiled: %s", errs[0], errs[1])
	}
	// Every seed program and expansion, run as EvalHeap runs it and with
	// every scalar expression compiled, gives the same values and heap.
	ran := 0
	for _, p := range seedVariants(t) {
		in := map[string]string{}
		for _, x := range p.Inputs {
			in[x.Name.Name] = "3"
		}
		if _, _, err := BindInputs(p, in); err != nil {
			continue
		}
		once, all := compiledRun(t, &hcompiler{}, p, in), compiledRun(t, &hcompiler{allLooped: true}, p, in)
		if once != all {
			t.Errorf("run %s, compiling every scalar expression %s:\n%s", once, all, Print(p))
		}
		ran++
	}
	if ran < 50 {
		t.Errorf("only %d programs ran", ran)
	}
}

// TestIfBranchesShareSlots: an if's branches take the same slots (one
// runs at a time), so the frame holds the larger, not both; and a loop
// whose iterations take one branch then the other gives what the rules
// give (the values a branch leaves are never read by the other).
func TestIfBranchesShareSlots(t *testing.T) {
	const src = "input (n : int)\n" +
		"let (r : int) = loop (acc : int) = (n) for i <= n do\n" +
		"  let (c : int) = i % 2\n" +
		"  let (x : int) = if c\n" +
		"    then let (a : int) = acc * 2\n         let (b : int) = a + i\n         in (b)\n" +
		"    else let (d : int) = acc + 1\n         in (d)\n" +
		"  in (x)\n" +
		"in (r)"
	p := parseChecked(t, src)
	c := &hcompiler{eager: true}
	c.body(nil, p.Body)
	// r; the loop's acc and i; c, x; then's a, b (else's d in a's slot;
	// the input n is bound by evalCompiled).
	if want := 1 + 2 + 2 + 2; c.slots != want {
		t.Errorf("compiled into %d slots, want %d", c.slots, want)
	}
	if got, want := slotBound(p.Body), 1+2+2+2; got != want {
		t.Errorf("slotBound %d, want %d", got, want)
	}
	for _, n := range []string{"0", "1", "4", "7"} {
		env, h, err := BindInputs(p, args("n", n))
		if err != nil {
			t.Fatal(err)
		}
		vs, err := evalCompiled(&hcompiler{}, p, env, h, withBudget(nil))
		got := fmt.Sprintf("%s %v", ValuesString(vs), err)
		env, h, err = BindInputs(p, args("n", n))
		if err != nil {
			t.Fatal(err)
		}
		wvs, _, werr := EvalRules(p, env, h, withBudget(nil))
		if want := fmt.Sprintf("%s %v", ValuesString(wvs), werr); got != want {
			t.Errorf("n = %s: compiled %s, tree walker %s", n, got, want)
		}
	}
}

// compiledRun is p's run on the inputs in by the heap engine compiled by
// c: its values, its heap and its error, as one text to compare.
func compiledRun(t *testing.T, c *hcompiler, p *fun.Program, in map[string]string) string {
	t.Helper()
	env, h, err := BindInputs(p, in)
	if err != nil {
		t.Fatal(err)
	}
	vs, err := evalCompiled(c, p, env, h, withBudget(nil))
	return fmt.Sprintf("%s %s %v", ValuesString(vs), heapDump(h), err)
}

// TestRecycleTrackersOnce: a run hands its pool's trackers on once each,
// even one given back twice, so that two later runs never share one.
func TestRecycleTrackersOnce(t *testing.T) {
	tr, other := semantics.NewTracker(false), semantics.NewTracker(false)
	p := trackerPool{free: []*semantics.Tracker{tr, other, tr, other, tr}}
	p.recycle()
	if len(p.free) != 0 {
		t.Fatalf("the pool keeps %d trackers after recycling", len(p.free))
	}
	seen := map[*semantics.Tracker]bool{}
	for range 6 {
		n := semantics.NewTracker(false)
		if seen[n] {
			t.Fatal("NewTracker gave one tracker twice: it was recycled twice")
		}
		seen[n] = true
	}
}

// TestFrameRecycled: a frame given back comes out of newFrame with every
// slot zero (no variable of the run before it bound), at the size asked.
func TestFrameRecycled(t *testing.T) {
	for range 4 {
		box := newFrame(8)
		fr := *box
		for i := range fr {
			fr[i] = Value{Kind: IntVal, K: int64(i + 1), Elem: semantics.IntElem}
		}
		recycleFrame(box)
		gbox := newFrame(6)
		g := *gbox
		if len(g) != 6 {
			t.Fatalf("newFrame(6) has %d slots", len(g))
		}
		for i, v := range g {
			if v.Kind != 0 || v.K != 0 || v.Block != 0 || v.Elem != 0 || v.L.Dims != nil {
				t.Fatalf("slot %d of a recycled frame is %v, not zero", i, v)
			}
		}
		recycleFrame(gbox)
	}
}

// TestScopeLookup: hscope.lookup, which compares names' keys first,
// finds the innermost binding of each name as comparing every name does:
// names short and long, sharing their first seven bytes or their
// length, longer than 255 bytes, shadowed, and unbound.
func TestScopeLookup(t *testing.T) {
	long := strings.Repeat("x", 300)
	names := []string{"", "a", "b", "ab", "ba", "x1", "x2", "abcdefg", "abcdefh", "abcdefgh", "abcdefgi",
		"abcdefghij", "abcdefgxyz", long, long[:299] + "y", long[:44], "x" + long[:299], "é", "\x00", "\x00\x00"}
	r := rand.New(rand.NewSource(1))
	for round := range 200 {
		var sc *hscope
		var binds []string // innermost last
		for i := range r.Intn(30) {
			x := names[r.Intn(len(names))]
			sc = sc.bind(x, i)
			binds = append(binds, x)
		}
		for _, x := range names {
			want := -1
			for i := len(binds) - 1; i >= 0; i-- {
				if binds[i] == x {
					want = i
					break
				}
			}
			if got := sc.lookup(x); got != want {
				t.Fatalf("round %d: lookup(%q) = %d, want %d (binds %q)", round, x, got, want, binds)
			}
		}
	}
}
