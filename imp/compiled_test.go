package imp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// progGen writes random IMP programs, most of which the checker refuses:
// variables used before or without a declaration, declared in one branch
// of an if and used after it, declared again inside loops, ints, floats
// and blocks mixed, races, offsets out of bounds, division by zero. The
// compiled big-step (slots, iterations run in place) must do exactly what
// the small-step, which copies environments as the rules do, does.
type progGen struct {
	rng *rand.Rand
}

var genScalars = []string{"a", "b", "c", "i", "j", "n"}

func (g *progGen) pick(xs []string) string { return xs[g.rng.IntN(len(xs))] }

func (g *progGen) scalar() string { return g.pick(genScalars) }

func (g *progGen) block() string { return g.pick([]string{"m", "p", "xs_mem", "a"}) }

func (g *progGen) sexp(depth int) string {
	switch k := g.rng.IntN(10); {
	case k < 3 || depth == 0:
		return fmt.Sprint(g.rng.IntN(4) - 1)
	case k < 6:
		return g.scalar()
	case k < 7:
		return g.pick([]string{"1.5", "0.0", "float(" + g.scalar() + ")"})
	default:
		op := g.pick([]string{"+", "-", "*", "/", "%", "<", "==", "&&"})
		return "(" + g.sexp(depth-1) + " " + op + " " + g.sexp(depth-1) + ")"
	}
}

func (g *progGen) bound() string { return g.pick([]string{"0", "1", "2", "3", "n", "a"}) }

func (g *progGen) stmts(depth int) string {
	n := 1 + g.rng.IntN(4)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = g.stmt(depth)
	}
	return strings.Join(parts, ";\n")
}

func (g *progGen) stmt(depth int) string {
	k := g.rng.IntN(16)
	if depth == 0 {
		k %= 9
	}
	switch k {
	case 0:
		return "var " + g.scalar() + " : " + g.pick([]string{"int", "int", "float", "mem"})
	case 1:
		return "var " + g.block() + " : mem"
	case 2, 3:
		return g.scalar() + " <- " + g.sexp(2)
	case 4:
		return g.block() + " <- alloc " + g.bound()
	case 5:
		return g.scalar() + " <- " + g.block() + "[" + g.sexp(1) + "]"
	case 6:
		return g.block() + "[" + g.sexp(1) + "] <- " + g.sexp(2)
	case 7:
		return "assert " + g.sexp(1)
	case 8:
		return g.pick([]string{"skip", g.block() + " <- " + g.block()})
	case 9, 10:
		return "if " + g.scalar() + " then " + g.stmts(depth-1) + " else " + g.stmts(depth-1) + " fi"
	case 11, 12:
		return "kernel " + g.scalar() + " <= " + g.bound() + " do " + g.stmts(depth-1) + " done"
	case 13:
		return "for " + g.scalar() + " <= " + g.bound() + " do " + g.stmts(depth-1) + " done"
	}
	head := "reduce " + g.scalar()
	if k == 15 {
		head = "scan " + g.block() + "[" + g.sexp(1) + "]"
	}
	return head + " <- " + g.sexp(1) + " for " + g.scalar() + " <= " + g.bound() + " do " + g.stmts(depth-1) +
		" yield " + g.scalar() + " combine " + g.scalar() + ", " + g.scalar() + " do " + g.stmts(depth-1) +
		" yield " + g.scalar() + " done"
}

func (g *progGen) program() string {
	return "input n : int;\ninput xs : [n] @ xs_mem;\nvar m : mem;\nm <- alloc 4;\nvar a : int;\n" +
		g.stmts(3) + ";\nreturn " + g.pick([]string{"n", "a", "b"}) + ", m : [" + g.pick([]string{"2", "n"}) + "]\n"
}

// runRef runs p under EvalRules (fig12.go), as runBoth runs Eval.
func runRef(t *testing.T, p *Program, args map[string]string) evalRun {
	env, h, err := BindInputs(p, args)
	if err != nil {
		t.Fatalf("inputs: %v", err)
	}
	r := evalRun{env: env, h: h, counter: semantics.Counter{}, stats: &semantics.Stats{}}
	opts := &Options{Counter: r.counter, Stats: r.stats, Trace: func(k Stmt, tr *semantics.KernelTrace) {
		r.traces = append(r.traces, traceString(k, tr))
	}}
	r.res, _, r.err = EvalRules(p, env, h, opts)
	return r
}

// agreeAll runs p traced under the compiled big-step, the small-step and
// the rules as written (EvalRules, fig12.go), and untraced under the
// compiled big-step and the rules (where kernels the plans prove race free run
// untracked, racefree.go, and copies as one loop, copykernel.go), and
// requires the same results, errors, final heaps and environments,
// traces and (against the rules) rule counts. It gives the compiled run.
func agreeAll(t *testing.T, p *Program, args map[string]string) evalRun {
	t.Helper()
	big, small := runBoth(t, p, args)
	agree(t, big, small)
	ref := runRef(t, p, args)
	agree(t, big, ref)
	if fmt.Sprint(big.counter) != fmt.Sprint(ref.counter) {
		t.Errorf("rule counts differ:\n  compiled: %v\n  map:      %v", big.counter, ref.counter)
	}
	fast, slow := runUntraced(p, args, false), runUntraced(p, args, true)
	agree(t, fast, slow)
	if fmt.Sprint(fast.counter) != fmt.Sprint(slow.counter) {
		t.Errorf("rule counts differ untraced:\n  compiled: %v\n  map:      %v", fast.counter, slow.counter)
	}
	return big
}

// TestCompiledAgreesWithSmallStep runs random programs under both
// semantics and under the rules as written (EvalRules): the property
// engine ≡ rules over generated programs. It compares results, errors
// (with their positions and rules), final heaps and environments, traces,
// and (with the rules) rule counts.
func TestCompiledAgreesWithSmallStep(t *testing.T) {
	runs := 3000
	if testing.Short() {
		runs = 600
	}
	g := &progGen{rng: rand.New(rand.NewPCG(3, 4))}
	parsed, ok, stuck := 0, 0, map[string]int{}
	for range runs {
		src := g.program()
		p, err := ParseFile("gen.imp", src)
		if err != nil {
			continue
		}
		parsed++
		big := agreeAll(t, p, map[string]string{"n": "2", "xs": "[5 7]"})
		if t.Failed() {
			t.Fatalf("program:\n%s", src)
		}
		if big.err == nil {
			ok++
		} else {
			msg := big.err.Error()
			if i := strings.Index(msg, ": "); i >= 0 {
				msg = msg[i+2:]
			}
			if i := strings.Index(msg, ":"); i >= 0 {
				msg = msg[:i]
			}
			stuck[msg]++
		}
	}
	// The generator must reach both ends and the rules' stuck states.
	if parsed < runs*9/10 || ok < parsed/20 || len(stuck) < 8 {
		t.Errorf("%d of %d programs parsed, %d ran to the end; stuck in %v", parsed, runs, ok, stuck)
	}
}

// TestSmallStepReusesTrackers: the small-step machine gives the trackers
// of kernels and folds that have ended to the next (Config.free); on
// random programs (races, stuck states, nested kernels and folds) it does
// what it does with a new tracker for each, under every way of running
// it: plain, traced, with races reported and run on (Options.Races), and
// under a shuffled schedule.
func TestSmallStepReusesTrackers(t *testing.T) {
	runs := 1500
	if testing.Short() {
		runs = 300
	}
	g := &progGen{rng: rand.New(rand.NewPCG(5, 6))}
	args := map[string]string{"n": "2", "xs": "[5 7]"}
	reused := 0
	for k := range runs {
		src := g.program()
		p, err := ParseFile("gen.imp", src)
		if err != nil {
			continue
		}
		mode := k % 4
		run := func(reuse bool) (evalRun, int) {
			env, h, err := BindInputs(p, args)
			if err != nil {
				t.Fatalf("inputs: %v", err)
			}
			r := evalRun{env: env, h: h, counter: semantics.Counter{}}
			opts := &Options{Counter: r.counter}
			switch mode {
			case 1:
				opts.Trace = func(k Stmt, tr *semantics.KernelTrace) { r.traces = append(r.traces, traceString(k, tr)) }
			case 2:
				opts.Races = func(err error) { r.traces = append(r.traces, "race: "+err.Error()) }
			case 3:
				opts.Schedule, _ = semantics.ParseSchedule("random", int64(k)) // the same order in both runs
			}
			c := Initial(p, env, h)
			if !reuse {
				c.free = nil // a new tracker for every kernel and fold
			}
			d := &semantics.Driver[*Config]{Machine: Machine{Opts: opts}, Counter: opts.Counter, Pos: semantics.Pos{File: p.File, Line: 1, Col: 1}}
			end, _, err := d.Run(c)
			r.err = err
			if err == nil {
				r.res, r.err = Results(p, end.top.env, h)
			}
			given := 0
			if c.free != nil {
				given = len(c.free.ts)
			}
			return r, given
		}
		with, given := run(true)
		without, _ := run(false)
		agree(t, with, without)
		if t.Failed() {
			t.Fatalf("mode %d, program:\n%s", mode, src)
		}
		if given > 0 {
			reused++
		}
	}
	if reused < runs/20 {
		t.Errorf("trackers given back in %d of %d runs: too few to test their reuse", reused, runs)
	}
}

// TestSameSExp: on the scalar expressions of random programs, two are
// the same (sameSExp, which a copy's write uses for the read's offset)
// exactly when they print the same.
func TestSameSExp(t *testing.T) {
	g := &progGen{rng: rand.New(rand.NewPCG(11, 12))}
	var es []fun.SExp
	for range 100 {
		p, err := ParseFile("gen.imp", g.program())
		if err != nil {
			continue
		}
		WalkStmts(p.Body, func(s Stmt) {
			switch s := s.(type) {
			case *Read:
				es = append(es, s.Index)
			case *Write:
				es = append(es, s.Index, s.Value)
			case *Assign:
				es = append(es, s.SE)
			}
		})
	}
	same := 0
	for i, a := range es {
		for _, b := range es[i:] {
			if got, want := sameSExp(a, b), fun.PrintSExp(a) == fun.PrintSExp(b); got != want {
				t.Fatalf("sameSExp(%s, %s) = %v", fun.PrintSExp(a), fun.PrintSExp(b), got)
			} else if got {
				same++
			}
		}
	}
	if len(es) < 200 || same < 2*len(es) {
		t.Errorf("%d expressions, %d pairs the same: too few", len(es), same)
	}
}

// TestOnceBodies: a kernel, for or fold outside every loop that starts
// with one iteration runs its body (each part) once in the run, and
// leaves its scalar expressions to the reference evaluator, as the code
// around it does; with more iterations, or inside a loop that may start
// it again, its body is compiled. The results are the rules' either way.
func TestOnceBodies(t *testing.T) {
	p, err := ParseFile("once.imp", `input n : int; input k : int;
var m : mem; m <- alloc n;
kernel i <= n do var t : int; t <- 10 - i * i; m[i - 1] <- t done;
var r : int;
reduce r <- 0 for e <= n do var y : int; y <- e * e - 3 yield y combine a, b do var c : int; c <- a * 2 + b yield c done;
var s : mem; s <- alloc 1;
for j <= k do
  kernel i2 <= 1 do var u : int; u <- 5 - j * j; s[i2 - 1] <- u done
done;
return m : [n], r, s : [1]`)
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(p, nil); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n, k  string
		sexps int // the scalar expressions compiled
	}{
		{"1", "0", 0}, // the kernel and the reduce once, no for
		{"1", "1", 0}, // and the for once, its kernel once
		{"2", "0", 5}, // the kernel's and the reduce's bodies twice
		{"1", "2", 4}, // the for's body twice, its kernel at each
		{"0", "0", 0}, // no iteration: nothing compiled
	} {
		args := map[string]string{"n": c.n, "k": c.k}
		env, h, err := BindInputs(p, args)
		if err != nil {
			t.Fatal(err)
		}
		m, body := compile(p, env, h, &Options{})
		compiled := 0
		m.onCompile = func() { compiled++ }
		err = m.run(body)
		m.writeBack(env)
		got := fmt.Sprint(err)
		if err == nil {
			vs, rerr := Results(p, env, h)
			got = fmt.Sprint(vs, rerr)
		}
		ref := runUntraced(p, args, true)
		want := fmt.Sprint(ref.err)
		if ref.err == nil {
			want = fmt.Sprint(ref.res, nil)
		}
		if got != want {
			t.Errorf("n = %s, k = %s: the engine gives %s, the rules %s", c.n, c.k, got, want)
		}
		if compiled != c.sexps {
			t.Errorf("n = %s, k = %s: %d scalar expressions compiled, want %d", c.n, c.k, compiled, c.sexps)
		}
	}
}
