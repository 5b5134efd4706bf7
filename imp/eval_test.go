package imp

import (
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"

	"github.com/arraysem/arraysem/semantics"
)

// Unit tests of IMP's semantics, Fig 12, one table per rule. Every case
// runs under the big-step semantics (Eval) and the small-step one
// (RunSmall) from fresh inputs, and the two must agree on everything: the
// results, the final heap, the final top-level environment, the error
// string (position, rule and message), the error's kind, and the kernels'
// traces (Options.Trace). Then the case's expectations are checked.

// evalCase is one program run under both semantics.
type evalCase struct {
	name string
	src  string
	args map[string]string
	// noCheck runs a program that imp.Check refuses (to reach states the
	// checker rules out, which Fig 12 still gives a meaning or a stuck
	// state); by default the program must pass the checker.
	noCheck bool

	rules []string // rules both runs must apply (before the error, if any)
	want  string   // the results, space separated, as run prints them
	heap  string   // the final heap, "ℓ1=[…] ℓ2=[…]", if set
	env   string   // "x=v …": values in the final environment ("-" absent)
	trace []string // the kernels' traces, in the order they finished

	err  string         // expected error, a regexp over the error string
	kind semantics.Kind // its kind (StuckError if zero and err is set)
}

// evalRun is what one semantics did.
type evalRun struct {
	res     []semantics.Array
	env     Env
	h       *semantics.Heap
	err     error
	counter semantics.Counter
	traces  []string
	stats   *semantics.Stats // when counted
}

func (r evalRun) results() string {
	parts := make([]string, len(r.res))
	for i, v := range r.res {
		parts[i] = v.String()
	}
	return strings.Join(parts, " ")
}

// heapDump renders every block of h.
func heapDump(h *semantics.Heap) string {
	var parts []string
	for l := 1; l <= h.Blocks(); l++ {
		parts = append(parts, fmt.Sprintf("%v=%v", semantics.Label(l), h.Block(semantics.Label(l))))
	}
	return strings.Join(parts, " ")
}

// envDump renders an environment, sorted by name.
func envDump(e Env) string {
	var names []string
	for x := range e {
		names = append(names, x)
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, x := range names {
		parts[i] = x + "=" + e[x].String()
	}
	return strings.Join(parts, " ")
}

func traceString(s Stmt, tr *semantics.KernelTrace) string {
	parts := make([]string, tr.Len())
	for i, a := range tr.Iters() {
		parts[i] = fmt.Sprintf("%d: %s", i+1, a.Sets())
	}
	head := ""
	switch s := s.(type) {
	case *Kernel:
		head = "kernel " + s.X.Name
	case *Reduce:
		head = "reduce " + s.Target.Name
	case *Scan:
		head = "scan " + s.Block.Name
	}
	return head + " {" + strings.Join(parts, "; ") + "}"
}

func mustParse(t *testing.T, src string, check bool) *Program {
	t.Helper()
	p, err := ParseFile("eval.imp", src)
	if err != nil {
		t.Fatalf("parse: %v\n%s", err, src)
	}
	err = Check(p, nil)
	switch {
	case check && err != nil:
		t.Fatalf("check: %v\n%s", err, src)
	case !check && err == nil:
		t.Fatalf("noCheck is set, but the checker accepts the program:\n%s", src)
	}
	return p
}

// runBoth runs p from fresh inputs under Eval and RunSmall.
func runBoth(t *testing.T, p *Program, args map[string]string) (big, small evalRun) {
	t.Helper()
	run := func(useSmall bool) evalRun {
		env, h, err := BindInputs(p, args)
		if err != nil {
			t.Fatalf("inputs: %v", err)
		}
		r := evalRun{env: env, h: h, counter: semantics.Counter{}, stats: &semantics.Stats{}}
		opts := &Options{Counter: r.counter, Stats: r.stats, Trace: func(k Stmt, tr *semantics.KernelTrace) {
			r.traces = append(r.traces, traceString(k, tr))
		}}
		if useSmall {
			r.res, _, r.err = runSmall(p, env, h, &semantics.RunOptions{}, opts)
		} else {
			r.res, r.err = Eval(p, env, h, opts)
		}
		return r
	}
	return run(false), run(true)
}

// agree checks that the two runs did the same.
func agree(t *testing.T, big, small evalRun) {
	t.Helper()
	if a, b := fmt.Sprint(big.err), fmt.Sprint(small.err); a != b {
		t.Errorf("errors differ:\n  big:   %s\n  small: %s", a, b)
	}
	if big.err != nil && small.err != nil {
		var e1, e2 *semantics.Error
		if errors.As(big.err, &e1) && errors.As(small.err, &e2) && e1.Kind != e2.Kind {
			t.Errorf("error kinds differ: big %s, small %s", e1.Kind, e2.Kind)
		}
	}
	if a, b := big.results(), small.results(); a != b {
		t.Errorf("results differ:\n  big:   %s\n  small: %s", a, b)
	}
	if a, b := heapDump(big.h), heapDump(small.h); a != b {
		t.Errorf("final heaps differ:\n  big:   %s\n  small: %s", a, b)
	}
	if a, b := envDump(big.env), envDump(small.env); a != b {
		t.Errorf("final environments differ:\n  big:   %s\n  small: %s", a, b)
	}
	if a, b := strings.Join(big.traces, "\n"), strings.Join(small.traces, "\n"); a != b {
		t.Errorf("traces differ:\n  big:\n%s\n  small:\n%s", a, b)
	}
	// The cost counters of runs that succeed (those of a run that goes
	// wrong may depend on --jobs).
	if big.stats != nil && small.stats != nil && big.err == nil && small.err == nil {
		if a, b := statsLine(big.stats), statsLine(small.stats); a != b {
			t.Errorf("cost counters differ:\n  big:   %s\n  small: %s", a, b)
		}
	}
}

// statsLine renders cost counters on one line.
func statsLine(s *semantics.Stats) string {
	return fmt.Sprintf("ops %d allocs %d words %d peak %d kernels %d", s.Ops, s.Allocs, s.Words, s.PeakWords, s.Kernels)
}

func runEvalCases(t *testing.T, cases []evalCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.src, !c.noCheck)
			big, small := runBoth(t, p, c.args)
			agree(t, big, small)
			for _, r := range []struct {
				name string
				run  evalRun
			}{{"big", big}, {"small", small}} {
				checkExpect(t, r.name, c, r.run)
			}
		})
	}
}

func checkExpect(t *testing.T, sem string, c evalCase, r evalRun) {
	t.Helper()
	if c.err != "" {
		if r.err == nil {
			t.Errorf("%s: expected an error matching %q, got %s", sem, c.err, r.results())
		} else if !regexp.MustCompile(c.err).MatchString(r.err.Error()) {
			t.Errorf("%s: expected an error matching %q, got %v", sem, c.err, r.err)
		}
		kind := c.kind
		if kind == 0 {
			kind = semantics.StuckError
		}
		var se *semantics.Error
		if r.err != nil && (!errors.As(r.err, &se) || se.Kind != kind) {
			t.Errorf("%s: expected a %s, got %T %v", sem, kind, r.err, r.err)
		}
	} else if r.err != nil {
		t.Errorf("%s: unexpected error: %v", sem, r.err)
	} else if got := r.results(); got != c.want {
		t.Errorf("%s: results %q, want %q", sem, got, c.want)
	}
	if c.heap != "" {
		if got := heapDump(r.h); got != c.heap {
			t.Errorf("%s: final heap %s, want %s", sem, got, c.heap)
		}
	}
	for _, kv := range strings.Fields(c.env) {
		x, want, _ := strings.Cut(kv, "=")
		got := "-"
		if v, ok := r.env[x]; ok {
			got = v.String()
		}
		if got != want {
			t.Errorf("%s: final environment has %s=%s, want %s (%s)", sem, x, got, want, envDump(r.env))
		}
	}
	for _, rule := range c.rules {
		if r.counter[rule] == 0 {
			t.Errorf("%s: rule %s not applied (applied: %s)", sem, rule, golden.RuleList(r.counter))
		}
	}
	if c.trace != nil {
		if got, want := strings.Join(r.traces, "\n"), strings.Join(c.trace, "\n"); got != want {
			t.Errorf("%s: traces\n%s\nwant\n%s", sem, got, want)
		}
	}
}

func args(kv ...string) map[string]string {
	m := map[string]string{}
	for _, s := range kv {
		k, v, _ := strings.Cut(s, "=")
		m[k] = v
	}
	return m
}

// E-IMP-DEC-INT: var x : int binds x to 0, also when x was bound.
func TestEvalDecInt(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "zero", src: `var x : int; return x`,
			rules: []string{"E-IMP-DEC-INT"}, want: "0", env: "x=0"},
		{name: "redeclaration resets", src: `var x : int; x <- 5; var y : int; y <- x; var x : int; return x, y`,
			rules: []string{"E-IMP-DEC-INT", "E-IMP-ASSIGN-INT"}, want: "0 5"},
		{name: "an int after a block", src: `var x : mem; x <- alloc 2; var x : int; return x`,
			rules: []string{"E-IMP-DEC-INT", "E-IMP-DEC-MEM", "E-IMP-ALLOC"}, want: "0", heap: "ℓ1=[0 0]", env: "x=0"},
		{name: "in a kernel body, per iteration", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do var c : int; c <- c + i; m[i - 1] <- c done; return m : [n]`,
			args: args("n=3"), rules: []string{"E-IMP-DEC-INT"}, want: "[1 2 3]", env: "c=-"},
	})
}

// E-IMP-DEC-MEM: var x : mem binds x to ⊥, which no read, write or
// result can use.
func TestEvalDecMem(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "bottom", src: `var m : mem; var x : int; return x`,
			rules: []string{"E-IMP-DEC-MEM"}, want: "0", env: "m=⊥", heap: ""},
		{name: "write to bottom", src: `var m : mem; m[0] <- 1; return m : [1]`,
			rules: []string{"E-IMP-DEC-MEM"}, err: `^eval.imp:1:14: E-IMP-WRITE: memory block m is ⊥ \(declared, never allocated or assigned\)$`},
		{name: "read from bottom", src: `var m : mem; var x : int; x <- m[0]; return x`,
			err: `^eval.imp:1:32: E-IMP-READ: memory block m is ⊥`},
		{name: "return bottom", src: `var m : mem; return m : [0]`,
			err: `^eval.imp:1:21: return: memory block m is ⊥`},
		{name: "redeclaration forgets the block", src: `var m : mem; m <- alloc 1; var m : mem; m[0] <- 1; return m : [1]`,
			heap: "ℓ1=[0]", err: `E-IMP-WRITE: memory block m is ⊥`},
		{name: "assigning bottom", src: `var m : mem; var b : mem; b <- alloc 1; b <- m; b[0] <- 1; return b : [1]`,
			rules: []string{"E-IMP-ASSIGN-MEM"}, heap: "ℓ1=[0]", err: `E-IMP-WRITE: memory block b is ⊥`},
	})
}

// E-IMP-ASSIGN-INT: x <- se binds x to E(se), whatever x was.
func TestEvalAssignInt(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "expression", src: `input a : int; var x : int; x <- a * 2 + 1; x <- x - a; return x`,
			args: args("a=5"), rules: []string{"E-IMP-ASSIGN-INT"}, want: "6", env: "a=5 x=6"},
		{name: "operators as FUN's", src: `input a : int; input d : int; var x : int; var y : int; var z : int;
x <- -a / d; y <- -a % d; z <- a < -1 || a >= d && 1;
return x, y, z`, args: args("a=7", "d=2"), want: "-3 -1 1"},
		{name: "division by zero", src: `input d : int; var x : int; x <- 1 / d; return x`,
			args: args("d=0"), err: `^eval.imp:1:36: E-IMP-ASSIGN-INT: division by zero \(operator /\) in 1 / d$`},
		{name: "remainder by zero", src: `input d : int; var x : int; x <- 1 % d; return x`,
			args: args("d=0"), err: `E-IMP-ASSIGN-INT: division by zero \(operator %\)`},
		// Fig 12 does not ask x to be declared: only the checker does.
		{name: "undeclared target", noCheck: true, src: `var y : int; x <- 3; y <- x; return y`,
			rules: []string{"E-IMP-ASSIGN-INT"}, want: "3", env: "x=3 y=3"},
		{name: "undeclared variable", noCheck: true, src: `var x : int; x <- y + 1; return x`,
			err: `^eval.imp:1:19: E-IMP-ASSIGN-INT: variable y is not declared$`},
		{name: "a block in an expression", noCheck: true, src: `var m : mem; m <- alloc 1; var x : int; x <- m + 1; return x`,
			err: `E-IMP-ASSIGN-INT: m is a memory block, not an integer`},
		{name: "overflow wraps", src: `var x : int; x <- 9223372036854775807 + 1; return x`,
			want: "-9223372036854775808"},
	})
}

// E-IMP-ASSIGN-MEM: x <- y binds x to y's label: the block is shared.
func TestEvalAssignMem(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "alias", src: `var a : mem; a <- alloc 2; var b : mem; b <- a; b[1] <- 9; var x : int; x <- a[1]; return x, a : [2], b : [2]`,
			rules: []string{"E-IMP-ASSIGN-MEM"}, want: "9 [0 9] [0 9]", heap: "ℓ1=[0 9]", env: "a=ℓ1 b=ℓ1 x=9"},
		{name: "rebind", src: `var a : mem; a <- alloc 1; var b : mem; b <- alloc 1; a[0] <- 1; b[0] <- 2; a <- b; a[0] <- 3; return a : [1], b : [1]`,
			rules: []string{"E-IMP-ASSIGN-MEM"}, want: "[3] [3]", heap: "ℓ1=[1] ℓ2=[3]", env: "a=ℓ2 b=ℓ2"},
		{name: "an input's block", src: `input n : int; input xs : [n] @ xs_mem; var m : mem; m <- xs_mem; m[0] <- 0; return xs_mem : [n]`,
			args: args("xs=[5 6]"), rules: []string{"E-IMP-ASSIGN-MEM"}, want: "[0 6]", env: "m=ℓ1 n=2"},
		// Without the checker, an int variable takes a block.
		{name: "into an int variable", noCheck: true, src: `var a : mem; a <- alloc 1; var x : int; x <- a; x[0] <- 4; return a : [1]`,
			rules: []string{"E-IMP-ASSIGN-MEM"}, want: "[4]", env: "x=ℓ1"},
	})
}

// E-IMP-READ: x <- y[se] binds x to H[E(y), E(se)], offsets from 0.
func TestEvalRead(t *testing.T) {
	src := `input n : int; input o : int; input xs : [n] @ xs_mem; var x : int; x <- xs_mem[o]; return x`
	runEvalCases(t, []evalCase{
		{name: "first", src: src, args: args("xs=[4 5 6]", "o=0"), rules: []string{"E-IMP-READ"}, want: "4"},
		{name: "last", src: src, args: args("xs=[4 5 6]", "o=2"), want: "6"},
		{name: "past the end", src: src, args: args("xs=[4 5 6]", "o=3"),
			err: `^eval.imp:1:69: E-IMP-READ: xs_mem: offset 3 is outside block ℓ1 of size 3$`},
		{name: "negative", src: src, args: args("xs=[4 5 6]", "o=-1"),
			err: `E-IMP-READ: xs_mem: offset -1 is outside block ℓ1 of size 3`},
		{name: "empty block", src: src, args: args("xs=[]", "o=0"),
			err: `E-IMP-READ: xs_mem: offset 0 is outside block ℓ1 of size 0`},
		{name: "a fresh block reads 0", src: `var m : mem; m <- alloc 3; var x : int; x <- m[2]; return x`,
			want: "0", heap: "ℓ1=[0 0 0]"},
		{name: "offset expression", src: `input n : int; input xs : [n][n] @ b; var x : int; x <- b[(n - 1) * n + n - 1]; return x`,
			args: args("xs=[[1 2] [3 4]]"), want: "4"},
		{name: "offset divides by zero", src: `var m : mem; m <- alloc 1; var x : int; x <- m[1 / x]; return x`,
			err: `E-IMP-READ: division by zero`},
		{name: "from an int", noCheck: true, src: `var n : int; var x : int; x <- n[0]; return x`,
			err: `E-IMP-READ: n is an integer, not a memory block`},
		{name: "into a block variable", noCheck: true, src: `var m : mem; m <- alloc 1; m <- m[0]; return m`,
			want: "0", env: "m=0"},
	})
}

// E-IMP-WRITE: x[se_i] <- se_j sets H[E(x), E(se_i)] to E(se_j).
func TestEvalWrite(t *testing.T) {
	src := `input n : int; input o : int; var m : mem; m <- alloc n; m[o] <- o + 10; return m : [n]`
	runEvalCases(t, []evalCase{
		{name: "first", src: src, args: args("n=3", "o=0"), rules: []string{"E-IMP-WRITE"}, want: "[10 0 0]", heap: "ℓ1=[10 0 0]"},
		{name: "last", src: src, args: args("n=3", "o=2"), want: "[0 0 12]"},
		{name: "past the end", src: src, args: args("n=3", "o=3"), heap: "ℓ1=[0 0 0]",
			err: `^eval.imp:1:58: E-IMP-WRITE: m: offset 3 is outside block ℓ1 of size 3$`},
		{name: "negative", src: src, args: args("n=3", "o=-1"),
			err: `E-IMP-WRITE: m: offset -1 is outside block ℓ1 of size 3`},
		{name: "empty block", src: src, args: args("n=0", "o=0"),
			err: `E-IMP-WRITE: m: offset 0 is outside block ℓ1 of size 0`},
		{name: "overwrite", src: `var m : mem; m <- alloc 1; m[0] <- 1; m[0] <- 2; return m : [1]`, want: "[2]"},
		{name: "an input block", src: `input n : int; input xs : [n] @ b; b[1] <- 0; return b : [n]`,
			args: args("xs=[7 8 9]"), want: "[7 0 9]", heap: "ℓ1=[7 0 9]"},
		{name: "value divides by zero", src: `var m : mem; m <- alloc 1; var z : int; m[0] <- 1 / z; return m : [1]`,
			heap: "ℓ1=[0]", err: `E-IMP-WRITE: division by zero`},
		{name: "to an int", noCheck: true, src: `var n : int; n[0] <- 1; return n`,
			err: `E-IMP-WRITE: n is an integer, not a memory block`},
		{name: "to an undeclared variable", noCheck: true, src: `q[0] <- 1; return q`,
			err: `^eval.imp:1:1: E-IMP-WRITE: variable q is not declared$`},
	})
}

// E-IMP-ALLOC: x <- alloc se binds x to a fresh label of a zeroed block
// of E(se) integers.
func TestEvalAlloc(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "zeroed", src: `input n : int; var m : mem; m <- alloc n; return m : [n]`,
			args: args("n=3"), rules: []string{"E-IMP-ALLOC"}, want: "[0 0 0]", heap: "ℓ1=[0 0 0]", env: "m=ℓ1"},
		{name: "empty", src: `input n : int; var m : mem; m <- alloc n; return m : [n]`,
			args: args("n=0"), want: "[]", heap: "ℓ1=[]"},
		{name: "negative", src: `input n : int; var m : mem; m <- alloc n; return m : [n]`,
			args: args("n=-2"), env: "m=⊥", err: `^eval.imp:1:29: E-IMP-ALLOC: allocation of negative size -2$`},
		{name: "fresh labels", src: `var a : mem; a <- alloc 1; var b : mem; b <- alloc 2; a <- alloc 3; a[2] <- 5; return a : [3], b : [2]`,
			want: "[0 0 5] [0 0]", heap: "ℓ1=[0] ℓ2=[0 0] ℓ3=[0 0 5]", env: "a=ℓ3 b=ℓ2"},
		{name: "after the inputs", src: `input n : int; input xs : [n] @ b; var m : mem; m <- alloc n; return m : [n]`,
			args: args("xs=[1 2]"), want: "[0 0]", heap: "ℓ1=[1 2] ℓ2=[0 0]", env: "b=ℓ1 m=ℓ2"},
		{name: "size divides by zero", src: `var z : int; var m : mem; m <- alloc 1 / z; return z`,
			err: `E-IMP-ALLOC: division by zero`},
		{name: "the heap limit", src: `var m : mem; m <- alloc 1000000000000; return m : [0]`,
			err: `E-IMP-ALLOC: allocation of 1000000000000 elements \(7.3 TiB\) exceeds --max-memory`},
		{name: "in each kernel iteration", src: `input n : int; kernel i <= n do var t : mem; t <- alloc i; t[i - 1] <- i done; return n`,
			args: args("n=3"), want: "3", heap: "ℓ1=[1] ℓ2=[0 2] ℓ3=[0 0 3]", env: "t=-"},
	})
}

// E-IMP-SEQ: s1; s2 runs s2 from s1's heap and environment.
func TestEvalSeq(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "threads the environment", src: `var x : int; x <- 1; x <- x + 1; x <- x * 10; return x`,
			rules: []string{"E-IMP-SEQ"}, want: "20"},
		{name: "threads the heap", src: `var m : mem; m <- alloc 1; m[0] <- 3; var x : int; x <- m[0]; m[0] <- x + 1; return x, m : [1]`,
			rules: []string{"E-IMP-SEQ"}, want: "3 [4]"},
		{name: "stops at the first stuck statement", src: `var x : int; var m : mem; m <- alloc 1; x <- 1 / x; m[0] <- 5; return m : [1]`,
			heap: "ℓ1=[0]", err: `E-IMP-ASSIGN-INT: division by zero`},
		{name: "no statements", src: `input n : int; return n`, args: args("n=4"), want: "4"},
	})
}

// E-IMP-IF-TRUE and E-IMP-IF-FALSE: the branch runs in the if's own
// environment and its E' is the if's result, declarations included.
func TestEvalIf(t *testing.T) {
	src := `input c : int; var x : int; if c then x <- 1 else x <- 2 fi; return x`
	runEvalCases(t, []evalCase{
		{name: "true", src: src, args: args("c=1"), rules: []string{"E-IMP-IF-TRUE"}, want: "1"},
		{name: "any non-zero is true", src: src, args: args("c=-3"), rules: []string{"E-IMP-IF-TRUE"}, want: "1"},
		{name: "false", src: src, args: args("c=0"), rules: []string{"E-IMP-IF-FALSE"}, want: "2"},
		{name: "the other branch does not run", src: `input c : int; var z : int; if c then z <- 1 / z else skip fi; return c`,
			args: args("c=0"), want: "0"},
		{name: "the heap", src: `input c : int; var m : mem; m <- alloc 1; if c then m[0] <- 7 else skip fi; return m : [1]`,
			args: args("c=1"), want: "[7]", heap: "ℓ1=[7]"},
		{name: "nested", src: `input a : int; input b : int; var r : int;
if a then if b then r <- 11 else r <- 10 fi else if b then r <- 1 else r <- 0 fi fi; return r`,
			args: args("a=1", "b=0"), rules: []string{"E-IMP-IF-TRUE", "E-IMP-IF-FALSE"}, want: "10"},
		{name: "empty branch", src: `input c : int; if c then else fi; return c`, args: args("c=1"), want: "1"},
		// E-IMP-IF returns the branch's E': its declarations survive the
		// if at run time (the checker refuses to use them, so this runs
		// unchecked).
		{name: "then declarations survive", noCheck: true, src: `input c : int;
if c then var t : int; t <- 5; var b : mem; b <- alloc 2 else var e : int; e <- 6 fi;
return t, b : [2]`, args: args("c=1"), want: "5 [0 0]", env: "t=5 b=ℓ1 e=-"},
		{name: "else declarations survive", noCheck: true, src: `input c : int;
if c then var t : int; t <- 5 else var e : int; e <- 6 fi;
return e`, args: args("c=0"), want: "6", env: "t=- e=6"},
		{name: "the branch not taken declares nothing", noCheck: true, src: `input c : int;
if c then var t : int; t <- 5 else var e : int; e <- 6 fi;
return t`, args: args("c=0"), env: "t=-", err: `^eval.imp:3:8: return: variable t is not declared$`},
		{name: "a branch redeclaration resets the outer variable", src: `input c : int; var x : int; x <- 9;
if c then var x : int else skip fi; return x`, args: args("c=1"), want: "0", env: "x=0"},
		{name: "undeclared condition", noCheck: true, src: `var x : int; if c then skip else skip fi; return x`,
			err: `^eval.imp:1:17: E-IMP-IF[-A-Z]*: variable c is not declared$`},
		{name: "a block as condition", noCheck: true, src: `var m : mem; m <- alloc 1; if m then skip else skip fi; return m : [1]`,
			err: `m is a memory block, not an integer`},
	})
}

// E-IMP-SKIP changes nothing.
func TestEvalSkip(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "skip", src: `input n : int; skip; return n`, args: args("n=2"), rules: []string{"E-IMP-SKIP"}, want: "2", env: "n=2"},
		{name: "skips", src: `var m : mem; m <- alloc 1; skip; skip; m[0] <- 1; skip; return m : [1]`,
			rules: []string{"E-IMP-SKIP", "E-IMP-SEQ"}, want: "[1]", heap: "ℓ1=[1]"},
		{name: "in a kernel", src: `input n : int; kernel i <= n do skip done; return n`, args: args("n=3"),
			rules: []string{"E-IMP-SKIP", "E-IMP-KERNEL"}, want: "3"},
	})
}

// E-IMP-KERNEL: iteration i runs the body from E, x ↦ i (the environment
// before the kernel), threading only the heap; the kernel's result is H'_k
// and E. Iterations must be race free (eq 4, an extension).
func TestEvalKernel(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "map", src: `input n : int; var m : mem; m <- alloc n; kernel i <= n do m[i - 1] <- i * i done; return m : [n]`,
			args: args("n=4"), rules: []string{"E-IMP-KERNEL"}, want: "[1 4 9 16]", env: "i=-"},
		{name: "zero iterations", src: `input n : int; var m : mem; m <- alloc 1; kernel i <= n do m[0] <- 1 / n done; return m : [1]`,
			args: args("n=0"), rules: []string{"E-IMP-KERNEL"}, want: "[0]", trace: []string{"kernel i {}"}},
		{name: "negative bound", src: `input n : int; kernel i <= n do skip done; return n`,
			args: args("n=-1"), err: `^eval.imp:1:16: E-IMP-KERNEL: kernel bound n = -1 is negative$`},
		{name: "bound divides by zero", src: `input n : int; kernel i <= 1 / n do skip done; return n`,
			args: args("n=0"), err: `E-IMP-KERNEL: division by zero`},
		// Assignments inside an iteration do not survive it: every
		// iteration starts from acc = 100, and acc is 100 afterwards.
		{name: "iterations start from E", src: `input n : int; var acc : int; acc <- 100; var m : mem; m <- alloc n;
kernel i <= n do acc <- acc + i; m[i - 1] <- acc done; return acc, m : [n]`,
			args: args("n=3"), want: "100 [101 102 103]", env: "acc=100 i=-"},
		{name: "declarations do not survive", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do var t : int; t <- i; var b : mem; b <- m; b[i - 1] <- t done; return m : [n]`,
			args: args("n=2"), want: "[1 2]", env: "t=- b=- i=- m=ℓ1"},
		{name: "the index shadows a variable", src: `input n : int; var i : int; i <- 42; var m : mem; m <- alloc n;
kernel i <= n do m[i - 1] <- i done; return i, m : [n]`,
			args: args("n=2"), want: "42 [1 2]", env: "i=42"},
		{name: "the bound is read once", src: `input n : int; var m : mem; m <- alloc n; kernel i <= n do n <- 0; m[i - 1] <- i done; return n, m : [n]`,
			args: args("n=3"), want: "3 [1 2 3]"},
		{name: "an alloc in an iteration does not rebind outside", src: `input n : int; var m : mem; m <- alloc 1;
kernel i <= n do m <- alloc 2; m[0] <- i done; return m : [1]`,
			args: args("n=2"), want: "[0]", heap: "ℓ1=[0] ℓ2=[1 0] ℓ3=[2 0]", env: "m=ℓ1"},
		{name: "nested", src: `input n : int; input k : int; var m : mem; m <- alloc n * k;
kernel i <= n do kernel j <= k do m[(i - 1) * k + j - 1] <- 10 * i + j done done; return m : [n][k]`,
			args: args("n=2", "k=3"), want: "[[11 12 13] [21 22 23]]"},
		{name: "reading a shared location is no race", src: `input n : int; var m : mem; m <- alloc n; var s : mem; s <- alloc 1; s[0] <- 5;
kernel i <= n do var v : int; v <- s[0]; m[i - 1] <- v + i done; return m : [n]`,
			args: args("n=3"), want: "[6 7 8]"},
		{name: "one iteration reads and writes its own location", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do m[i - 1] <- i; var v : int; v <- m[i - 1]; m[i - 1] <- v * 2 done; return m : [n]`,
			args: args("n=3"), want: "[2 4 6]"},
		{name: "stuck in an iteration", src: `input n : int; var m : mem; m <- alloc n; kernel i <= n do m[i] <- i done; return m : [n]`,
			args: args("n=3"), heap: "ℓ1=[0 1 2]", err: `^eval.imp:1:60: E-IMP-WRITE: m: offset 3 is outside block ℓ1 of size 3$`},
	})
}

// Races: E-IMP-KERNEL reports two iterations that touch one location,
// one of them writing it, with both iterations and the location, at the
// kernel that sees them.
func TestEvalKernelRace(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "write write", src: `input n : int; var m : mem; m <- alloc 1; kernel i <= n do m[0] <- i done; return m : [1]`,
			args: args("n=3"), kind: semantics.RaceError, heap: "ℓ1=[1]",
			err: `^eval.imp:1:43: E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "read then write", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do var v : int; v <- m[n - 1]; m[i - 1] <- v + 1 done; return m : [n]`,
			args: args("n=2"), kind: semantics.RaceError, heap: "ℓ1=[1 0]",
			err: `^eval.imp:2:1: E-IMP-KERNEL: race: iteration 2 writes ℓ1\[1\], which iteration 1 also uses`},
		{name: "write then read", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do m[i - 1] <- i; var v : int; v <- m[0] done; return m : [n]`,
			args: args("n=2"), kind: semantics.RaceError, heap: "ℓ1=[1 2]",
			err: `E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses`},
		{name: "a later pair", src: `input n : int; var m : mem; m <- alloc n; kernel i <= n do var o : int; o <- i / 3; m[o] <- i done; return m : [n]`,
			args: args("n=5"), kind: semantics.RaceError,
			err: `E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses`},
		{name: "through aliases", src: `input n : int; var a : mem; a <- alloc n; var b : mem; b <- a;
kernel i <= n do a[i - 1] <- i; b[n - i] <- i done; return a : [n]`,
			args: args("n=2"), kind: semantics.RaceError,
			err: `E-IMP-KERNEL: race: iteration 1 writes ℓ1\[1\], which iteration 2 also uses`},
		{name: "one iteration: no race", src: `input n : int; var m : mem; m <- alloc 1; kernel i <= n do m[0] <- i done; return m : [1]`,
			args: args("n=1"), want: "[1]"},
		// Inner kernels race free, the outer iterations racing through them:
		// the outer kernel reports its own iterations.
		{name: "outer race through inner kernels", src: `input n : int; var m : mem; m <- alloc 2;
kernel i <= n do
  kernel j <= 2 do m[j - 1] <- i done
done; return m : [2]`,
			args: args("n=2"), kind: semantics.RaceError, heap: "ℓ1=[1 1]",
			err: `^eval.imp:2:1: E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses`},
		// A race among an inner kernel's iterations is the inner kernel's.
		{name: "inner race", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do
  kernel j <= 2 do m[i - 1] <- j done
done; return m : [n]`,
			args: args("n=2"), kind: semantics.RaceError,
			err: `^eval.imp:3:3: E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses`},
		{name: "a race after a finished kernel", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do m[i - 1] <- i done;
kernel i <= n do m[0] <- i done; return m : [n]`,
			args: args("n=2"), kind: semantics.RaceError, heap: "ℓ1=[1 2]",
			err: `^eval.imp:3:1: E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses`},
		{name: "races in an if's branch", src: `input n : int; input c : int; var m : mem; m <- alloc 1;
kernel i <= n do if c then m[0] <- i else skip fi done; return m : [1]`,
			args: args("n=2", "c=1"), kind: semantics.RaceError,
			err: `E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\]`},
	})
}

// The trace (Options.Trace): each kernel, when it finishes, gives the
// read and write sets of each iteration; inner kernels report once per
// outer iteration, before the outer kernel.
func TestEvalTrace(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "copy", src: `input n : int; input xs : [n] @ b; var m : mem; m <- alloc n;
kernel i <= n do var v : int; v <- b[i - 1]; m[i - 1] <- v done; return m : [n]`,
			args: args("xs=[7 8]"), want: "[7 8]",
			trace: []string{"kernel i {1: R = {ℓ1[0]}  W = {ℓ2[0]}; 2: R = {ℓ1[1]}  W = {ℓ2[1]}}"}},
		{name: "nested", src: `var m : mem; m <- alloc 4;
kernel i <= 2 do kernel j <= 2 do m[(i - 1) * 2 + j - 1] <- i * j done done; return m : [2][2]`,
			want: "[[1 2] [2 4]]",
			trace: []string{
				"kernel j {1: R = {}  W = {ℓ1[0]}; 2: R = {}  W = {ℓ1[1]}}",
				"kernel j {1: R = {}  W = {ℓ1[2]}; 2: R = {}  W = {ℓ1[3]}}",
				"kernel i {1: R = {}  W = {ℓ1[0], ℓ1[1]}; 2: R = {}  W = {ℓ1[2], ℓ1[3]}}",
			}},
		{name: "repeats once", src: `var m : mem; m <- alloc 1;
kernel i <= 1 do m[0] <- 1; m[0] <- 2; var v : int; v <- m[0]; v <- m[0] done; return m : [1]`,
			want: "[2]", trace: []string{"kernel i {1: R = {ℓ1[0]}  W = {ℓ1[0]}}"}},
		{name: "zero iterations", src: `kernel i <= 0 do skip done; var x : int; return x`,
			want: "0", trace: []string{"kernel i {}"}},
		{name: "no trace for a racy kernel", src: `var m : mem; m <- alloc 1; kernel i <= 2 do m[0] <- i done; return m : [1]`,
			kind: semantics.RaceError, err: `race`, trace: []string{}},
		{name: "allocations are not accesses", src: `kernel i <= 2 do var t : mem; t <- alloc 1 done; var x : int; return x`,
			want: "0", trace: []string{"kernel i {1: R = {}  W = {}; 2: R = {}  W = {}}"}},
	})
}

// Results: return reads ints, and blocks as row-major arrays of the
// given shape (the first elements of the block).
func TestEvalResults(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "row-major", src: `var m : mem; m <- alloc 6; kernel i <= 6 do m[i - 1] <- i done; return m : [2][3], m : [3][2], m : [6]`,
			want: "[[1 2 3] [4 5 6]] [[1 2] [3 4] [5 6]] [1 2 3 4 5 6]"},
		{name: "a prefix of the block", src: `var m : mem; m <- alloc 3; m[0] <- 1; return m : [2]`, want: "[1 0]"},
		{name: "more than the block", src: `var m : mem; m <- alloc 3; return m : [2][2]`,
			err: `^eval.imp:1:35: return: block m holds 3 integers, fewer than the 4 of \[2\]\[2\]$`},
		{name: "a negative shape", src: `var m : mem; m <- alloc 3; var k : int; k <- -1; return m : [k]`,
			err: `return: .*negative`},
		{name: "empty", src: `var m : mem; m <- alloc 0; return m : [0][5]`, want: "[]"},
	})
}

// TestEvalInputs: BindInputs puts each array input in a block of its own,
// row-major, and reads sizes off the arrays.
func TestEvalInputs(t *testing.T) {
	p := mustParse(t, `input n : int; input m : int; input a : [n][m] @ a_mem; input v : [m] @ v_mem; return n, m, a_mem : [n][m], v_mem : [m]`, true)
	env, h, err := BindInputs(p, args("a=[[1 2 3] [4 5 6]]", "v=[7 8 9]"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := envDump(env), "a_mem=ℓ1 m=3 n=2 v_mem=ℓ2"; got != want {
		t.Errorf("environment %s, want %s", got, want)
	}
	if got, want := heapDump(h), "ℓ1=[1 2 3 4 5 6] ℓ2=[7 8 9]"; got != want {
		t.Errorf("heap %s, want %s", got, want)
	}
	if _, _, err := BindInputs(p, args("a=[[1 2 3] [4 5 6]]", "v=[7 8]")); err == nil || !strings.Contains(err.Error(), "input v has 2 elements in dimension 1, but its size m is 3") {
		t.Errorf("mismatched sizes: got %v", err)
	}
	if _, _, err := BindInputs(p, args("a=[[1]]", "v=[1]", "q=3")); err == nil || !strings.Contains(err.Error(), "no input of that name") {
		t.Errorf("unknown input: got %v", err)
	}
}

// TestEvalRuleCoverage checks that the tables above exercise every rule of
// Fig 12 under both semantics.
func TestEvalRuleCoverage(t *testing.T) {
	fig12 := []string{"E-IMP-DEC-INT", "E-IMP-DEC-MEM", "E-IMP-ASSIGN-INT", "E-IMP-ASSIGN-MEM", "E-IMP-READ",
		"E-IMP-WRITE", "E-IMP-ALLOC", "E-IMP-SEQ", "E-IMP-IF-TRUE", "E-IMP-IF-FALSE", "E-IMP-SKIP", "E-IMP-KERNEL"}
	cases := map[string]bool{}
	for _, tc := range []struct {
		test string
		rule string
	}{
		{"TestEvalDecInt", "E-IMP-DEC-INT"}, {"TestEvalDecMem", "E-IMP-DEC-MEM"},
		{"TestEvalAssignInt", "E-IMP-ASSIGN-INT"}, {"TestEvalAssignMem", "E-IMP-ASSIGN-MEM"},
		{"TestEvalRead", "E-IMP-READ"}, {"TestEvalWrite", "E-IMP-WRITE"}, {"TestEvalAlloc", "E-IMP-ALLOC"},
		{"TestEvalSeq", "E-IMP-SEQ"}, {"TestEvalIf", "E-IMP-IF-TRUE"}, {"TestEvalIf", "E-IMP-IF-FALSE"},
		{"TestEvalSkip", "E-IMP-SKIP"}, {"TestEvalKernel", "E-IMP-KERNEL"},
	} {
		cases[tc.rule] = true
	}
	for _, r := range fig12 {
		if !cases[r] {
			t.Errorf("no table for %s", r)
		}
	}
	// Every rule fires in a whole program, under both semantics.
	p := mustParse(t, `input n : int; input c : int;
var x : int; var m : mem; m <- alloc n; var b : mem; b <- m; skip;
if c then x <- 1 else x <- 2 fi;
kernel i <= n do b[i - 1] <- i done;
x <- m[0];
return x, m : [n]`, true)
	for _, sem := range []string{"big", "small"} {
		got := semantics.Counter{}
		for _, c := range []string{"0", "1"} {
			env, h, err := BindInputs(p, args("n=2", "c="+c))
			if err != nil {
				t.Fatal(err)
			}
			opts := &Options{Counter: got}
			if sem == "big" {
				_, err = Eval(p, env, h, opts)
			} else {
				_, _, err = runSmall(p, env, h, &semantics.RunOptions{}, opts)
			}
			if err != nil {
				t.Fatalf("%s: %v", sem, err)
			}
		}
		for _, r := range fig12 {
			if got[r] == 0 {
				t.Errorf("%s: %s not applied (applied: %s)", sem, r, golden.RuleList(got))
			}
		}
	}
}

// TestSmallStepRules checks the rule names of the small steps: each
// statement without a body steps by its own rule, an if by the branch it
// takes, a kernel by E-IMP-KERNEL to start, between and after its
// iterations, the end of a branch by E-IMP-SEQ.
func TestSmallStepRules(t *testing.T) {
	p := mustParse(t, `input c : int; var x : int; var m : mem; m <- alloc 2; if c then x <- 1 else skip fi;
kernel i <= 2 do m[i - 1] <- i done; x <- m[1]; return x`, true)
	env, h, err := BindInputs(p, args("c=1"))
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	res, n, err := RunSmall(p, env, h, &semantics.RunOptions{OnStep: func(rule string, _ any) { rules = append(rules, rule) }})
	if err != nil {
		t.Fatal(err)
	}
	want := "E-IMP-DEC-INT E-IMP-DEC-MEM E-IMP-ALLOC E-IMP-IF-TRUE E-IMP-ASSIGN-INT E-IMP-SEQ " +
		"E-IMP-KERNEL E-IMP-WRITE E-IMP-KERNEL E-IMP-WRITE E-IMP-KERNEL E-IMP-READ E-IMP-SEQ"
	if got := strings.Join(rules, " "); got != want {
		t.Errorf("steps\n  %s\nwant\n  %s", got, want)
	}
	if n != len(rules) || len(res) != 1 || res[0].String() != "2" {
		t.Errorf("%d steps, results %v", n, res)
	}
}

// TestSmallStepFuel: the small-step run stops when its fuel runs out.
func TestSmallStepFuel(t *testing.T) {
	p := mustParse(t, `var m : mem; m <- alloc 100; kernel i <= 100 do m[i - 1] <- i done; return m : [100]`, true)
	env, h, _ := BindInputs(p, nil)
	_, n, err := RunSmall(p, env, h, &semantics.RunOptions{Fuel: 10})
	var se *semantics.Error
	if !errors.As(err, &se) || se.Kind != semantics.FuelError || n != 10 {
		t.Errorf("after %d steps: %v", n, err)
	}
}

// TestStuckKernelLeavesNoTracker: a run that gets stuck inside a kernel
// must leave the heap as it found it apart from the writes made, with no
// race tracker of the abandoned kernel still listening to its accesses.
// Eval pops the trackers of every kernel it leaves on an error, and so
// does RunSmall, also when an if's condition or an inner kernel's bound is
// stuck inside a kernel (it used to leave them there: a regression test).
// When that was broken, RunSmall
// returns without popping the enclosing kernels' trackers, and a later
// access to the heap (another run on it, a REPL step) is checked against
// the dead kernel's iterations: here reading ℓ1[0], which iteration 1 of
// the dead kernel wrote while iteration 2 was running, is a "race".
func TestStuckKernelLeavesNoTracker(t *testing.T) {
	p := mustParse(t, `input d : int; var m : mem; m <- alloc 1;
kernel i <= 2 do
  var first : int; first <- i == 1;
  if first then m[0] <- 1 else skip fi;
  kernel j <= 1 - d * i do skip done
done; return m : [1]`, true)
	var bugs []string
	for _, sem := range []string{"big", "small"} {
		env, h, err := BindInputs(p, args("d=1"))
		if err != nil {
			t.Fatal(err)
		}
		if sem == "big" {
			_, err = Eval(p, env, h, nil)
		} else {
			_, _, err = RunSmall(p, env, h, nil)
		}
		if err == nil || !strings.Contains(err.Error(), "E-IMP-KERNEL: kernel bound 1 - d * i = -1 is negative") {
			t.Fatalf("%s: expected the inner kernel's bound to be stuck, got %v", sem, err)
		}
		if _, err := h.Read(semantics.Loc{Block: 1, Offset: 0}); err != nil {
			bugs = append(bugs, fmt.Sprintf("%s: reading ℓ1[0] after the run: %v", sem, err))
		}
	}
	if len(bugs) > 0 {
		t.Errorf("a race tracker of an abandoned kernel is still on the heap:\n%s", strings.Join(bugs, "\n"))
	}
}
