package imp

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// affineGen writes random IMP programs whose kernels access blocks at
// offsets affine in their indices (as FunMemToImp emits them, and worse:
// strides too small, offsets that collide, blocks aliased, blocks the
// body allocates, indices the body assigns, bounds that vary), so that the
// untraced big-step's race-freedom plans (racefree.go) both run kernels
// untracked and give up, next to races the trackers must find.
type affineGen struct {
	rng  *rand.Rand
	defs bool // also offsets through variables the body sets (TestRaceFreePlanDefsAgree)
}

func (g *affineGen) pick(xs ...string) string { return xs[g.rng.IntN(len(xs))] }

// offset is an offset over the indices in scope.
func (g *affineGen) offset(idx []string) string {
	i := idx[len(idx)-1]
	o := idx[0]
	return g.pick(
		i+" - 1", i, "2 * "+i+" - 2", o+" * n + "+i+" - n - 1", o+" * 2 + "+i+" - 3",
		i+" - a", "a", "-"+i+" + n", i+" * a", "0", i+" + "+o+" - 2", i+" - 1 + 0 * "+o,
		"("+i+" - 1) * (n - 1)", i+" / 2", i+" - b")
}

func (g *affineGen) pick2(ks ...int) int { return ks[g.rng.IntN(len(ks))] }

func (g *affineGen) block() string { return g.pick("m", "m", "p", "q", "r") }

func (g *affineGen) stmts(idx []string, depth int) string {
	n := 1 + g.rng.IntN(3)
	parts := make([]string, n)
	for k := range parts {
		parts[k] = g.stmt(idx, depth)
	}
	return strings.Join(parts, ";\n")
}

func (g *affineGen) stmt(idx []string, depth int) string {
	k := g.rng.IntN(12)
	switch {
	case len(idx) == 0:
		// Outside kernels: a kernel, mostly.
		k = g.pick2(0, 0, 0, 11)
	case depth == 0:
		k = 6 + g.rng.IntN(6)
	}
	if g.defs && len(idx) > 0 && g.rng.IntN(3) == 0 {
		return g.def(idx, depth)
	}
	switch k {
	case 0, 1, 2:
		x := g.pick("i", "j", "k")
		return "kernel " + x + " <= " + g.pick("n", "n", "2", "a", "b", "0") + " do\n" + g.stmts(append(idx[:len(idx):len(idx)], x), depth-1) + "\ndone"
	case 3:
		x := g.pick("j", "k")
		return "for " + x + " <= " + g.pick("n", "2", "a") + " do\n" + g.stmts(append(idx[:len(idx):len(idx)], x), depth-1) + "\ndone"
	case 4:
		x := g.pick("j", "k")
		inner := append(idx[:len(idx):len(idx)], x)
		return "scan " + g.block() + "[" + g.offset(inner) + "] <- 0 for " + x + " <= " + g.pick("n", "2") + " do\n" +
			"var y : int;\ny <- " + x + ";\n" + g.stmts(inner, depth-1) + "\nyield y combine c, d do\nvar e : int;\ne <- c + d\nyield e done"
	case 5:
		return "var r : mem;\nr <- alloc " + g.pick("n", "n * n", "2") + ";\n" + g.stmts(idx, depth-1)
	case 6, 7:
		return g.block() + "[" + g.offset(idx) + "] <- " + idx[len(idx)-1]
	case 8, 9:
		return "var t : int;\nt <- " + g.block() + "[" + g.offset(idx) + "]"
	case 10:
		return g.pick("b <- b + 1", "b <- b + n", "var "+idx[len(idx)-1]+" : int", "q <- m", "var q : mem;\nq <- m", "var q : mem;\nq <- alloc n",
			"a <- 2", "skip", "if a then r <- alloc 2 else skip fi", "var r : mem;\nr <- m")
	}
	return g.pick("q <- p", "skip", "r <- alloc n")
}

// def is an access through an int variable o the body sets: once after
// its declaration (the plan reads it as its expression), and worse: set
// twice, used before it is set, set in a branch or a loop and used after
// it, declared after it is set, set from what the body reads.
func (g *affineGen) def(idx []string, depth int) string {
	off := g.offset(idx)
	acc := g.pick(g.block()+"[o] <- "+idx[len(idx)-1], "var t : int;\nt <- "+g.block()+"[o]", g.block()+"[o - 1] <- 1", g.block()+"[2 * o + 1] <- 2")
	switch g.rng.IntN(9) {
	case 0, 1, 2, 3:
		return "var o : int;\no <- " + off + ";\n" + acc
	case 4:
		return "var o : int;\no <- " + off + ";\n" + g.stmts(idx, depth-1) + ";\n" + acc
	case 5:
		return "var o : int;\no <- " + off + ";\n" + g.pick("o <- o + 1", "o <- 0", "if a then o <- 0 else skip fi", "for k <= 2 do o <- k done", "kernel k <= 1 do o <- 0 done") + ";\n" + acc
	case 6:
		return "var o : int;\n" + acc + ";\no <- " + off
	case 7:
		return "var o : int;\n" + g.pick("if a then o <- "+off+" else skip fi", "for k <= 2 do o <- "+off+" done") + ";\n" + acc
	}
	return g.pick("o <- "+off+";\nvar o : int;\n", "var o : int;\no <- m[0];\n", "var o : int;\no <- o + 1;\n") + acc
}

func (g *affineGen) program() string {
	return "input n : int;\nvar m : mem;\nm <- alloc " + g.pick("n * n", "n * n + n", "n") + ";\nvar p : mem;\np <- alloc n * n;\n" +
		"var q : mem;\nq <- " + g.pick("p", "m", "alloc 9") + ";\nvar r : mem;\nvar a : int;\na <- " + g.pick("1", "2", "0", "-1") +
		";\nvar b : int;\nb <- 1;\n" + g.stmts(nil, 3) + ";\nreturn m : [n], p : [n]\n"
}

// runUntraced runs p's compiled big-step without a trace, as run and bench
// do: kernels the plans prove race free run without a tracker.
func runUntraced(p *Program, args map[string]string, ref bool) evalRun {
	env, h, err := BindInputs(p, args)
	if err != nil {
		panic(err)
	}
	r := evalRun{env: env, h: h, counter: semantics.Counter{}}
	opts := &Options{Counter: r.counter}
	if ref {
		r.res, _, r.err = EvalRules(p, env, h, opts)
	} else {
		r.res, r.err = Eval(p, env, h, opts)
	}
	return r
}

// TestRaceFreePlansAgree runs random programs of affine kernels untraced
// (plans on) against the rules as written (EvalRules), which track every kernel,
// and the small-step, traced, which tracks every kernel too: the same
// results, errors (races named the same), heaps, environments and rule
// counts. It also requires that some kernels ran untracked and that races
// were found.
func TestRaceFreePlansAgree(t *testing.T) {
	runs := 4000
	if testing.Short() {
		runs = 800
	}
	plansAgree(t, &affineGen{rng: rand.New(rand.NewPCG(5, 6))}, runs)
}

// TestRaceFreePlanDefsAgree is TestRaceFreePlansAgree on programs whose
// kernels also access blocks through int variables they set
// (affineGen.def): the plans read an offset through a variable declared
// and set once as the variable's expression, and give up on the rest.
func TestRaceFreePlanDefsAgree(t *testing.T) {
	runs := 1000
	if testing.Short() {
		runs = 400
	}
	plansAgree(t, &affineGen{rng: rand.New(rand.NewPCG(7, 8)), defs: true}, runs)
}

// plansAgree is the property of TestRaceFreePlansAgree over runs programs
// of g.
func plansAgree(t *testing.T, g *affineGen, runs int) {
	t.Helper()
	races, ok, untracked := 0, 0, 0
	for range runs {
		src := g.program()
		p, err := ParseFile("affine.imp", src)
		if err != nil {
			t.Fatalf("parse: %v\n%s", err, src)
		}
		for _, n := range []string{"2", "3"} {
			args := map[string]string{"n": n}
			big := runUntraced(p, args, false)
			ref := runUntraced(p, args, true)
			agree(t, big, ref)
			if fmt.Sprint(big.counter) != fmt.Sprint(ref.counter) {
				t.Errorf("rule counts differ:\n  compiled: %v\n  map:      %v", big.counter, ref.counter)
			}
			// Traced, kernels proved race free run untracked too, and
			// log their traces flat (semantics.KernelTrace).
			traced, small := runBoth(t, p, args)
			agree(t, traced, small)
			small.traces = nil
			agree(t, big, small)
			if t.Failed() {
				t.Fatalf("n = %s, program:\n%s", n, src)
			}
			switch {
			case big.err == nil:
				ok++
			case strings.Contains(big.err.Error(), "race"):
				races++
			}
			untracked += countUntracked(p, args)
		}
	}
	t.Logf("%d runs ended, %d found races, %d kernels ran untracked, of %d programs", ok, races, untracked, runs)
	if ok < runs/10 || races < runs/20 || untracked < runs/4 {
		t.Errorf("%d runs ended, %d found races, %d kernels ran untracked, of %d programs", ok, races, untracked, runs)
	}
}

// countUntracked is how many kernel starts of p's run the plans proved race
// free.
func countUntracked(p *Program, args map[string]string) int {
	env, h, err := BindInputs(p, args)
	if err != nil {
		panic(err)
	}
	opts := &Options{}
	m, body := compile(p, env, h, opts)
	n := 0
	m.onUntracked = func() { n++ }
	m.run(body)
	return n
}

// TestRaceFreePlanRows: the kernels of the bench rows' programs run
// untracked, all of them.
func TestRaceFreePlanRows(t *testing.T) {
	for _, c := range []struct {
		src     string
		n, want int
	}{{benchFlat, 5, 3}, {benchNested, 4, 1 + 1 + 2*4 + 1 + 4}} {
		p, err := ParseFile("bench.imp", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if got := countUntracked(p, map[string]string{"n": fmt.Sprint(c.n)}); got != c.want {
			t.Errorf("%d of %d kernel starts untracked:\n%s", got, c.want, c.src)
		}
	}
}

// TestRaceFreePlanCases: programs at the edges of the plans, run untraced
// against the small-step, with the kernel starts that must run untracked.
func TestRaceFreePlanCases(t *testing.T) {
	head := "input n : int;\nvar m : mem;\nm <- alloc n * n + n;\nvar b : int;\nb <- 1;\n"
	for _, c := range []struct {
		name, body string
		untracked  int
	}{
		{"rows", "kernel i <= n do kernel j <= n do m[i * n + j - n - 1] <- j done done", 1 + 3},
		{"rows overlap", "kernel i <= n do kernel j <= n + 1 do m[i * n + j - n - 1] <- j done done", 2},     // the race stops it in iteration 2
		{"bound varies", "kernel i <= n do b <- b + n; kernel j <= b do m[i * 2 + j - 3] <- j done done", 2}, // the inner ones; a race in iteration 2
		{"bound fixed", "kernel i <= n do kernel j <= b do m[i * 2 + j - 3] <- j done done", 1 + 3},
		{"index assigned", "kernel i <= n do var t : int; t <- m[i - 1]; i <- 1; m[i - 1] <- t done", 0},
		{"alias declared", "kernel i <= n do var q : mem; q <- m; q[0] <- i done", 0},
		{"fresh block", "kernel i <= n do var q : mem; q <- alloc 2; q[0] <- i; m[i - 1] <- i done", 1},
		{"read neighbour", "kernel i <= n do var t : int; t <- m[i]; m[i - 1] <- t done", 0},
		{"stride", "kernel i <= n do m[2 * i - 2] <- 1; m[2 * i - 1] <- 2 done", 1},
		{"overflow", "kernel i <= n do m[i * 4611686018427387904 - 4611686018427387904] <- 1 done", 0},
		{"uneven trace", "kernel i <= n do var c : int; c <- i - 2; if c then m[i - 1] <- 1; m[i - 1] <- 2 else skip fi done", 1},
		{"uneven trace late", "kernel i <= n + 1 do var c : int; c <- i - n - 1; if c then m[i - 1] <- 1 else var t : int; t <- m[i - 1]; m[i - 1] <- 2 fi done", 1},
		// The kernel, and its scans (their offsets one-to-one in j).
		{"scan rows", "kernel i <= n do scan m[i * n + j - n - 1] <- 0 for j <= n do var y : int; y <- j yield y combine c, d do var e : int; e <- c + d yield e done done", 1 + 3},
		{"scan reads another block", "var q : mem; q <- alloc n; scan m[j - 1] <- 0 for j <= n do var y : int; y <- q[j - 1] yield y combine c, d do var e : int; e <- c + d yield e done", 1},
		{"scan reads its block", "scan m[j - 1] <- 0 for j <= n do var y : int; y <- m[j] yield y combine c, d do var e : int; e <- c + d yield e done", 0},
		{"scan reads an alias", "var q : mem; q <- m; scan m[j] <- 0 for j <= n do var y : int; y <- q[j - 1] yield y combine c, d do var e : int; e <- c + d yield e done", 0},
		{"scan alias set in a part", "var q : mem; q <- alloc n; scan m[j - 1] <- 0 for j <= n do var y : int; q <- m; y <- q[j] yield y combine c, d do var e : int; e <- c + d yield e done", 0},
		{"scan offset not one-to-one", "scan m[j * j - 1] <- 0 for j <= n do var y : int; y <- j yield y combine c, d do var e : int; e <- c + d yield e done", 0},
		{"scan offset constant", "scan m[b] <- 0 for j <= n do var y : int; y <- j yield y combine c, d do var e : int; e <- c + d yield e done", 0},
		{"scan negated offset", "scan m[n - j] <- 0 for j <= n do var y : int; y <- j yield y combine c, d do var e : int; e <- c + d yield e done", 1},
		{"scan part writes", "scan m[j - 1] <- 0 for j <= n do var y : int; y <- j; m[n] <- y yield y combine c, d do var e : int; e <- c + d yield e done", 0},
		// Offsets through variables the body sets (planScope.once).
		{"stencil neighbours", "var q : mem; q <- alloc n + 2; kernel i <= n do var c : int; c <- i > 1 && i < n; var v : int; if c then var l : int; l <- i - 1; var r : int; r <- b * i + 1 - b; var x : int; x <- q[b * l + 1]; var y : int; y <- q[r + 1]; v <- x + y else v <- i fi; m[i - 1] <- v done", 1},
		{"defined, then read in a loop", "kernel i <= n do var o : int; o <- n * i - n; for k <= n do m[o + k - 1] <- k done done", 1},
		{"defined from a definition", "kernel i <= n do var o : int; o <- i - 1; var p : int; p <- 2 * o; m[p] <- 1; m[p + 1] <- 2 done", 1},
		{"defined twice", "kernel i <= n do var o : int; o <- i - 1; o <- 0; m[o] <- i done", 0},
		{"set again in a branch", "kernel i <= n do var o : int; o <- i - 1; if b then o <- 0 else skip fi; m[o] <- i done", 0},
		{"defined in a branch", "kernel i <= n do var o : int; if b then o <- i - 1 else skip fi; m[o] <- i done", 0},
		{"declared twice", "kernel i <= n do var o : int; o <- i - 1; m[o] <- i; for k <= 1 do var o : int; o <- 0; m[o] <- 1 done done", 0},
		{"used before set", "kernel i <= n do var o : int; m[o] <- i; o <- i - 1 done", 0},
		{"set before declared", "var o : int; o <- 0; kernel i <= n do o <- i - 1; var o : int; m[o] <- i done", 0},
		{"defined by a read", "kernel i <= n do var o : int; o <- m[i - 1]; m[o] <- i done", 0},
		{"defined, colliding", "kernel i <= n do var o : int; o <- i; m[o] <- i; m[o - 1] <- 1 done", 0},
		{"reduce reads", "var s : int; reduce s <- 0 for j <= n do var y : int; y <- m[j] yield y combine c, d do var e : int; e <- c + d yield e done", 1},
		{"reduce writes", "var s : int; reduce s <- 0 for j <= n do var y : int; y <- m[j]; m[j - 1] <- y yield y combine c, d do var e : int; e <- c + d yield e done", 0},
	} {
		p, err := ParseFile("case.imp", head+c.body+";\nreturn m : [n]\n")
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		args := map[string]string{"n": "3"}
		big := runUntraced(p, args, false)
		traced, small := runBoth(t, p, args)
		agree(t, traced, small)
		small.traces = nil
		agree(t, big, small)
		if got := countUntracked(p, args); got != c.untracked {
			t.Errorf("%s: %d kernel starts untracked, want %d", c.name, got, c.untracked)
		}
	}
}

// TestDeclFusedSelfReference: a declaration run with the read or
// assignment after it (execDeclRead, execDeclAssign) when the right side
// mentions the variable declared, which must then read the declaration's
// value, and when it fails.
func TestDeclFusedSelfReference(t *testing.T) {
	head := "input n : int;\nvar m : mem;\nm <- alloc 4;\nm[1] <- 7;\nvar x : int;\nx <- 3;\n"
	for _, body := range []string{
		"var x : int;\nx <- x + 1",
		"var x : int;\nx <- m[x + 1]",
		"var x : float;\nx <- m[1]",
		"var x : int;\nx <- m[x - 1]",
		"var m : mem;\nm <- m",
		"var x : int;\nx <- y + 1",
		"var x : int;\nx <- m[9]",
		"var x : int;\nx <- 5 / 0",
		"var x : mem;\nx <- m;\nvar y : int;\ny <- x[1]",
		"var x : int;\nx <- x * n + n - 1",
		"var x : int;\nx <- m[1];\nm[x - 5] <- x",
		"var x : int;\nx <- m[1];\nm[9] <- x",
		"var x : int;\nx <- m[7];\nm[0] <- x",
		"var x : float;\nx <- m[1];\nm[0] <- x + 0.5",
	} {
		src := head + body + ";\nreturn n\n"
		p, err := ParseFile("fused.imp", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		agreeAll(t, p, map[string]string{"n": "3"})
		if t.Failed() {
			t.Fatalf("program:\n%s", src)
		}
	}
}

// TestDeclaredFirst: on the bodies of random programs, declaredFirst (the
// race plans' fresh blocks, the engine's keep sets) holds the names a
// body declares before any statement of it mentions them, each mention
// found again in the statements' printed text.
func TestDeclaredFirst(t *testing.T) {
	g := &progGen{rng: rand.New(rand.NewPCG(7, 8))}
	bodies := 0
	for range 400 {
		p, err := ParseFile("gen.imp", g.program())
		if err != nil {
			continue
		}
		var check func(body []Stmt)
		check = func(body []Stmt) {
			bodies++
			want := map[string]bool{}
			for k, s := range body {
				d, ok := s.(*Decl)
				if !ok {
					continue
				}
				word := regexp.MustCompile(`(^|[^A-Za-z0-9_])` + regexp.QuoteMeta(d.X.Name) + `($|[^A-Za-z0-9_])`)
				mentioned := false
				for _, before := range body[:k] {
					mentioned = mentioned || word.MatchString(PrintStmt(before))
				}
				if !mentioned {
					want[d.X.Name] = true
				}
			}
			got := map[string]bool{}
			for _, x := range declaredFirst(body) {
				got[x] = true
			}
			if !maps.Equal(got, want) {
				t.Fatalf("declaredFirst = %v, want %v, of:\n%s", got, want, printBody(body))
			}
		}
		WalkStmts(p.Body, func(s Stmt) {
			switch s := s.(type) {
			case *If:
				check(s.Then)
				check(s.Else)
			case *Kernel:
				check(s.Body)
			case *For:
				check(s.Body)
			case *Reduce:
				check(s.Body)
				check(s.Combine)
			case *Scan:
				check(s.Body)
				check(s.Combine)
			}
		})
		check(p.Body)
	}
	if bodies < 1000 {
		t.Errorf("%d bodies checked: too few", bodies)
	}
}

func printBody(body []Stmt) string {
	var b strings.Builder
	for _, s := range body {
		b.WriteString(PrintStmt(s) + "\n")
	}
	return b.String()
}

// TestPlanAtFirstStart: a kernel's plan is made when it first starts, its
// body compiled when it first runs an iteration, and an if's branch when
// it is first taken, and only then: nothing of a branch not taken, no
// body of a kernel of no iteration (and no plan in a run with
// NoRaceFreePlans); the plan made then is the one the plan of the
// statement itself gives (racePlanOf), and the kernel runs untracked on
// it. The input block xs_mem is mentioned in the kernel's body only: its
// slot, made then, holds the input.
func TestPlanAtFirstStart(t *testing.T) {
	src := `input n : int;
var m : mem;
m <- alloc n;
var c : int;
c <- 0;
if c then
  kernel j <= n do
    m[j - 1] <- j;
  done;
else
  skip;
fi;
kernel k <= c do
  m[k - 1] <- k;
done;
kernel i <= n do
  var t : int;
  t <- xs_mem[i - 1];
  t <- t * 2;
  m[i - 1] <- t;
done;
return m : [n]
`
	p, err := ParseFile("plan.imp", strings.Replace(src, "input n : int;", "input n : int;\ninput xs : [n] @ xs_mem;", 1))
	if err != nil {
		t.Fatal(err)
	}
	find := func(body []*cstmt) (branch, empty, taken *cstmt) {
		for _, c := range body {
			switch c.s.(type) {
			case *If:
				branch = c
			case *Kernel:
				empty, taken = taken, c
			}
		}
		return branch, empty, taken
	}
	for _, noPlans := range []bool{false, true} {
		env, h, err := BindInputs(p, map[string]string{"n": "4", "xs": "[1 2 3 4]"})
		if err != nil {
			t.Fatal(err)
		}
		m, body := compile(p, env, h, &Options{NoRaceFreePlans: noPlans})
		branch, empty, taken := find(body)
		if branch.compiled || branch.compiled2 || empty.planned || empty.compiled || taken.planned || taken.compiled || taken.body != nil {
			t.Fatalf("a plan made or a body compiled before the run")
		}
		untracked := 0
		m.onUntracked = func() { untracked++ }
		if err := m.run(body); err != nil {
			t.Fatal(err)
		}
		if branch.compiled || branch.body != nil || !branch.compiled2 || len(branch.body2) != 1 {
			t.Errorf("NoRaceFreePlans %v: the branch not taken compiled, or the one taken not", noPlans)
		}
		if empty.compiled || empty.body != nil || empty.planned == noPlans {
			t.Errorf("NoRaceFreePlans %v: the kernel of no iteration compiled, or planned %v", noPlans, empty.planned)
		}
		if !taken.compiled || len(taken.body) == 0 {
			t.Errorf("NoRaceFreePlans %v: the started kernel's body not compiled", noPlans)
		}
		m.writeBack(env)
		if vs, err := Results(p, env, h); err != nil || len(vs) != 1 || vs[0].String() != "[2 4 6 8]" {
			t.Errorf("NoRaceFreePlans %v: %v %v, want [2 4 6 8]", noPlans, vs, err)
		}
		if taken.planned == noPlans {
			t.Errorf("NoRaceFreePlans %v: the started kernel planned %v", noPlans, taken.planned)
		}
		if want := map[bool]int{false: 2, true: 0}[noPlans]; untracked != want { // the kernel of no iteration too
			t.Errorf("NoRaceFreePlans %v: %d kernel starts untracked, want %d", noPlans, untracked, want)
		}
		if !noPlans {
			if taken.plan == nil {
				t.Fatalf("no plan for %s", PrintStmt(taken.s))
			}
			if again := m.racePlanOf(taken.s.(*Kernel)); len(again.acc) != len(taken.plan.acc) || len(again.loops) != len(taken.plan.loops) {
				t.Errorf("the plan made at the start differs from the statement's")
			}
		}
	}
}
