package ir

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/remora"
)

// TestSimplifyGolden runs testdata/simplify.txt. Each chunk is a program
// of the IR; each comment line "; => TEXT" is the printed IR of its next
// expression after Simplify, fresh names (h%N) renumbered in order of
// appearance. A line "; only: NAME" runs the one optimisation NAME (to a
// fixed point) instead of all of them, to show what it does, and what it
// declines, by itself. Every chunk must also keep its program's meaning
// (simplifiedAgrees), and leave the input as it was.
func TestSimplifyGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "simplify.txt"), ";", func(c *golden.Chunk) error {
		if c.OnlyComments() {
			return nil
		}
		want, only := simplifyExpectations(c.Src)
		p, _, err := remora.ParseFile(c.File, c.Src)
		if err != nil {
			return err
		}
		if _, err := remora.Check(p, nil); err != nil {
			return err
		}
		before := Language.Print(p)
		q, err := simplifyOnly(p, only)
		if err != nil {
			return err
		}
		if after := Language.Print(p); after != before {
			return fmt.Errorf("Simplify changed its input:\n%s\nbecame\n%s", before, after)
		}
		if len(q.Exprs) != len(want) {
			return fmt.Errorf("%d expressions, %d expected texts", len(q.Exprs), len(want))
		}
		for i, e := range q.Exprs {
			if got := renumber(remora.ExprString(e)); got != want[i] {
				return fmt.Errorf("expression %d:\n got %s\nwant %s", i+1, got, want[i])
			}
		}
		return simplifiedAgrees(p, q)
	})
}

// simplifyExpectations reads a chunk's "; => " texts and its "; only: ".
func simplifyExpectations(src string) (want []string, only string) {
	for _, l := range strings.Split(src, "\n") {
		l = strings.TrimSpace(l)
		if r, ok := strings.CutPrefix(l, "; => "); ok {
			want = append(want, r)
		}
		if r, ok := strings.CutPrefix(l, "; only: "); ok {
			only = strings.TrimSpace(r)
		}
	}
	return want, only
}

// simplifyOnly is Simplify, or, when only names one, that optimisation
// alone, run to a fixed point on the checked program p.
func simplifyOnly(p *remora.Program, only string) (*remora.Program, error) {
	if only == "" {
		return Simplify(p), nil
	}
	for _, o := range simplifications {
		if o.name == only {
			q := &remora.Program{File: p.File, Types: p.Types}
			for _, e := range p.Exprs {
				q.Exprs = append(q.Exprs, simplifyExpr(e, []simplification{o}))
			}
			return q, nil
		}
	}
	return nil, fmt.Errorf("no optimisation %q", only)
}

// simplifiedAgrees checks that the simplified program q means what p
// means: it checks, at p's types, and the big-step gives the same values,
// or goes wrong with the same error (message and position) — the first
// error of the reference interpreter, which Simplify must not change. It
// also prints q and reads it back: the text checks and runs alike.
func simplifiedAgrees(p, q *remora.Program) error {
	c := &remora.Program{File: q.File, Exprs: append([]remora.Expr{}, q.Exprs...)}
	if _, err := remora.Check(c, nil); err != nil {
		return fmt.Errorf("the simplified IR does not check: %v\n%s", err, Language.Print(q))
	}
	for i, t := range c.Types {
		if !remora.Equal(t, p.Types[i]) {
			return fmt.Errorf("expression %d: type %s became %s", i+1, remora.TypeString(p.Types[i]), remora.TypeString(t))
		}
	}
	if err := sameOutcome(p, c); err != nil {
		return fmt.Errorf("%v\nsimplified:\n%s", err, Language.Print(q))
	}
	text := Language.Print(q)
	r, _, err := remora.ParseFile("simplified", text)
	if err != nil {
		return fmt.Errorf("the simplified IR does not parse back: %v\n%s", err, text)
	}
	if _, err := remora.Check(r, nil); err != nil {
		return fmt.Errorf("the simplified IR, read back, does not check: %v\n%s", err, text)
	}
	want, err1 := remora.Eval(p, nil)
	got, err2 := remora.Eval(r, nil)
	if (err1 == nil) != (err2 == nil) {
		return fmt.Errorf("read back: source %v, simplified %v", err1, err2)
	}
	return sameValueList(want, got)
}

// sameOutcome compares the big-step runs of two checked programs: the
// same values, or the same error.
func sameOutcome(p, q *remora.Program) error {
	want, err1 := remora.Eval(p, nil)
	got, err2 := remora.Eval(q, nil)
	switch {
	case err1 != nil || err2 != nil:
		if err1 == nil || err2 == nil || err1.Error() != err2.Error() {
			return fmt.Errorf("source: %v, simplified: %v", err1, err2)
		}
		return nil
	}
	return sameValueList(want, got)
}

func sameValueList(want, got []*remora.Value) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d values, %d simplified", len(want), len(got))
	}
	for i := range want {
		if !want[i].Equal(got[i]) {
			return fmt.Errorf("value %d: source %s, simplified %s", i+1, want[i], got[i])
		}
	}
	return nil
}

// TestCanFail pins the judgement the optimisations rely on: false only
// for what is built of variables, literals and total primitives.
func TestCanFail(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want bool
	}{
		{"5", false},
		{"(+ 1 2)", false},
		{"(/ 1 2)", true},
		{"(% 7 2)", true},
		{"(float->int 2.5)", true},
		{"(int->float 2)", false},
		{"(sqrt -1.)", false},
		{"[(+ 1 2) (* 3 4)]", false},
		{"[(+ 1 2) (/ 3 4)]", true},
		{"(if{int | } #t 1 2)", false},
		{"(head{int | 2 []} [1 2 3])", false},
		{"(index{int | [3] [] 1} [1 2 3] [0])", true},
		{"(subvector{int | 3 2 []} [1 2 3] 0)", true},
		{"iota{ | [3]}", false},
		{"(replicate{int | [2] [3]} [1 2 3])", false},
		{"(reduce{int | 2 [] []} + [1 2 3])", true},
		{"(reduce-init{int | 3 [] []} + 0 [1 2 3])", false},
		{"(reduce-init{int | 3 [] []} / 1 [1 2 3])", true},
		{"(reduce-init{int | 3 [] []} (fn ([a int] [b int]) (+ a b)) 0 [1 2 3])", true},
		{"((fn ([x int]) x) 1)", true},
		{"(fn ([x int]) (/ x 0))", false},
		{"(MAP [] ([x int 1]) (+ x 1))", false},
		{"(MAP [] ([x int (/ 1 0)]) 2)", true},
		{"(MAP [0] ([x int (frame [0] int)]) (/ x 0))", true},
		{"(REP [2] (+ 1 2))", false},
		{"(REP [2] (/ 1 2))", true},
		{"(lift [d 3] (reify-dimension d))", false},
		{"(lift [d (- 0 3)] (reify-dimension d))", true},
		// A run-time size may overflow.
		{"(lift [d 3] iota{ | [d]})", true},
		{"(unbox (box (3) (Sigma (n) [int n]) [1 2 3]) (xs n) (reduce-init{int | n [] []} + 0 xs))", false},
	} {
		e, err := remora.ParseExpr("canfail", tc.src)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		ce, _, _, err := remora.CheckExpr(e, nil)
		if err != nil {
			t.Fatalf("%s: %v", tc.src, err)
		}
		if got := CanFail(ce); got != tc.want {
			t.Errorf("CanFail(%s) = %v, want %v", tc.src, got, tc.want)
		}
		// What CanFail says cannot fail does not: a spot check of the
		// judgement against the evaluator.
		if _, err := remora.EvalExpr(ce, nil); err != nil && !CanFail(ce) {
			t.Errorf("%s goes wrong (%v), but CanFail says it cannot", tc.src, err)
		}
	}
}

// TestTotalPrimsAreBasis checks that the list of total primitives names
// primitives of the basis, so that a renamed primitive is not silently
// taken to be partial.
func TestTotalPrimsAreBasis(t *testing.T) {
	for name := range totalPrims {
		if remora.Basis[name] == nil {
			t.Errorf("totalPrims names %s, which the basis does not have", name)
		}
	}
}

// simplifyCases are hand-written programs of the source dialect for the
// property below, beside the examples: lets and lifts that give every
// optimisation work, some going wrong.
var simplifyCases = []string{
	`(let ([x 5] [y (+ x 1)]) (* x y))`,
	`(let [v [1 2 3]] (+ v (reduce-init{int | 3 [] []} + 0 v)))`,
	`(let ([d 0] [v (frame [0] int)]) (+ v (/ 1 d)))`,
	`(let ([d 0] [v [1 2]]) (+ v (/ 1 d)))`,
	`(let ([d 2] [v [[1 2] [3 4]]]) (+ v (/ [10 20] d)))`,
	`(let ([z 0] [a (/ 1 z)] [b (/ 2 z)]) (+ b a))`,
	`(let ([u (+ 1 2)] [w (/ 1 0)]) 7)`,
	`(define (sq [x int]) (* x x)) (sq [1 2 3])`,
	`(let [m [[1 2 3] [4 5 6]]] (reduce-init{int | 2 [3] []} + 0 (* m (length{int | 3 []} [7 8 9]))))`,
	`(unbox (box (0) (Sigma (n) [int n]) (frame [0] int)) (xs n) (reduce-init{int | n [] []} + 0 (+ xs (/ 1 0))))`,
	`(unbox (box (2) (Sigma (n) [int n]) [4 5]) (xs n) (reduce-init{int | n [] []} + 0 (+ xs (/ 10 (length{int | n []} xs)))))`,
	// An applied λ over an empty frame is a loop that never runs its
	// body: the division in it must not leave it.
	`((fn ([x int]) (+ x (/ 1 0))) (frame [0] int))`,
	`((fn ([x int]) (+ x (/ 1 0))) [1 2])`,
}

// simplifyCase runs a hand-written case through Check and
// compileSimplify, and returns the source program and the simplified one.
func simplifyCase(src string) (p, s *remora.Program, err error) {
	p, _, err = remora.ParseFile("case.remora", src)
	if err != nil {
		return nil, nil, err
	}
	if _, err := remora.Check(p, nil); err != nil {
		return nil, nil, err
	}
	s, _, err = compileSimplify(p)
	return p, s, err
}

// compileSimplify is the compile path up to Simplify on the checked
// program p: Explicitize, Inline, Simplify, each output checked. Where
// Inline refuses the program (an array of distinct functions), Simplify
// runs on Explicitize's output: it must keep the meaning of any checked
// IR. inlined says which. It fails if Simplify changes its input, or, on
// an inlined program, breaks the invariants of Inline's output
// (firstOrder).
func compileSimplify(p *remora.Program) (s *remora.Program, inlined bool, err error) {
	q, err := Explicitize(p)
	if err != nil {
		return nil, false, err
	}
	if _, err := remora.Check(q, nil); err != nil {
		return nil, false, fmt.Errorf("Explicitize's output does not check: %v", err)
	}
	if r, err := Inline(q); err == nil {
		if _, err := remora.Check(r, nil); err != nil {
			return nil, false, fmt.Errorf("Inline's output does not check: %v", err)
		}
		q, inlined = r, true
	}
	before := Language.Print(q)
	s = Simplify(q)
	if after := Language.Print(q); after != before {
		return nil, false, fmt.Errorf("Simplify changed its input:\n%s\nbecame\n%s", before, after)
	}
	if inlined {
		for _, e := range s.Exprs {
			if err := firstOrder(e); err != nil {
				return nil, false, fmt.Errorf("Simplify broke Inline's invariants: %v\n%s", err, Language.Print(s))
			}
		}
	}
	return s, inlined, nil
}

// TestSimplifyAgrees is the property: for the hand-written cases and every
// example of examples/remora, Check, Explicitize, Inline, Simplify and
// Check again give a program that the big-step runs to the same values,
// or to the same error, as the source program.
func TestSimplifyAgrees(t *testing.T) {
	for i, src := range simplifyCases {
		t.Run(fmt.Sprintf("case%d", i+1), func(t *testing.T) {
			p, s, err := simplifyCase(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := simplifiedAgrees(p, s); err != nil {
				t.Fatal(err)
			}
		})
	}
	inlined, all := 0, 0
	forExamples(t, func(t *testing.T, p *remora.Program) {
		s, in, err := compileSimplify(p)
		if err != nil {
			t.Fatal(err)
		}
		all++
		if in {
			inlined++
		}
		if err := simplifiedAgrees(p, s); err != nil {
			t.Fatal(err)
		}
	})
	if 2*inlined < all {
		t.Errorf("only %d of %d examples were inlined before Simplify", inlined, all)
	}
	t.Logf("%d examples, %d inlined", all, inlined)
}

// TestSimplifyShrinks checks that Simplify does some work on the
// inlined examples: on the whole, the IR gets smaller (a pass that
// did nothing would pass the property above).
func TestSimplifyShrinks(t *testing.T) {
	var before, after int
	forExamples(t, func(t *testing.T, p *remora.Program) {
		q, err := Explicitize(p)
		if err != nil {
			t.Fatal(err)
		}
		if r, err := Inline(q); err == nil {
			q = r
		}
		if _, err := remora.Check(q, nil); err != nil {
			t.Fatal(err)
		}
		before += len(Language.Print(q))
		after += len(Language.Print(Simplify(q)))
	})
	t.Logf("the examples' IR prints in %d bytes before Simplify, %d after", before, after)
	if after >= before {
		t.Errorf("the simplified examples print in %d bytes, the explicitized in %d", after, before)
	}
}

// TestSimplifyIllTyped checks that an input that does not check is
// returned as it is (the driver's re-check reports it).
func TestSimplifyIllTyped(t *testing.T) {
	p, _, err := remora.ParseFile("bad.rir", "(+ 1 #t)")
	if err != nil {
		t.Fatal(err)
	}
	if q := Simplify(p); q != p {
		t.Errorf("Simplify of an ill-typed program gave a new program:\n%s", Language.Print(q))
	}
}

// partialGen writes random programs of the typed dialect made to test
// what Simplify must not change: where a program goes wrong. Ints only;
// divisions and remainders by values that are often zero; lets whose
// bindings go unused or are used once; λs applied over vectors, some
// empty (loops that run zero times), whose bodies use outer variables
// (loop-invariant computations); reductions, some with a λ operator over
// outer variables. Every program is well typed by construction.
type partialGen struct {
	r    *rand.Rand
	next int
}

func (g *partialGen) name() string {
	g.next++
	return fmt.Sprintf("v%d", g.next)
}

// scalar is an int expression over the int variables vars.
func (g *partialGen) scalar(depth int, vars []string) string {
	if depth <= 0 || g.r.Intn(4) == 0 {
		if len(vars) > 0 && g.r.Intn(3) > 0 {
			return vars[g.r.Intn(len(vars))]
		}
		return fmt.Sprint([]int{0, 1, 2, 5}[g.r.Intn(4)])
	}
	switch g.r.Intn(8) {
	case 0, 1:
		op := []string{"+", "*", "-", "/", "%", "/"}[g.r.Intn(6)]
		return fmt.Sprintf("(%s %s %s)", op, g.scalar(depth-1, vars), g.scalar(depth-1, vars))
	case 2, 3:
		x := g.name()
		return fmt.Sprintf("(let [%s %s] %s)", x, g.scalar(depth-1, vars), g.scalar(depth-1, append(vars[:len(vars):len(vars)], x)))
	case 4:
		n := g.r.Intn(3)
		return fmt.Sprintf("(reduce-init{int | %d [] []} + 0 %s)", n, g.vector(depth-1, n, vars))
	case 6:
		// A reduction whose operator, run once per item (perhaps never),
		// uses outer variables.
		n, a, b := g.r.Intn(3), g.name(), g.name()
		op := fmt.Sprintf("(fn ([%s int] [%s int]) %s)", a, b, g.scalar(depth-1, append(vars[:len(vars):len(vars)], a, b)))
		return fmt.Sprintf("(reduce-init{int | %d [] []} %s %s %s)", n, op, g.scalar(depth-1, vars), g.vector(depth-1, n, vars))
	case 5:
		// A let of two bindings at once: a MAP over [] of two arguments.
		a, b := g.name(), g.name()
		return fmt.Sprintf("((fn ([%s int] [%s int]) %s) %s %s)", a, b, g.scalar(depth-1, append(vars[:len(vars):len(vars)], a, b)), g.scalar(depth-1, vars), g.scalar(depth-1, vars))
	}
	return fmt.Sprintf("(+ %s %s)", g.scalar(depth-1, vars), g.scalar(depth-1, vars))
}

// vector is an expression of type [int n].
func (g *partialGen) vector(depth, n int, vars []string) string {
	if depth <= 0 || g.r.Intn(3) == 0 {
		if n == 0 {
			return "(frame [0] int)"
		}
		var b strings.Builder
		b.WriteString("[")
		for i := range n {
			if i > 0 {
				b.WriteString(" ")
			}
			fmt.Fprint(&b, g.r.Intn(3))
		}
		return b.String() + "]"
	}
	switch g.r.Intn(4) {
	case 0:
		// A loop: the λ's body sees its cell and the outer variables.
		x := g.name()
		return fmt.Sprintf("((fn ([%s int]) %s) %s)", x, g.scalar(depth-1, append(vars[:len(vars):len(vars)], x)), g.vector(depth-1, n, vars))
	case 3:
		// A loop over two vectors, or a vector and a replicated scalar.
		a, b := g.name(), g.name()
		other := g.scalar(depth-1, vars)
		if g.r.Intn(2) == 0 {
			other = g.vector(depth-1, n, vars)
		}
		return fmt.Sprintf("((fn ([%s int] [%s int]) %s) %s %s)", a, b, g.scalar(depth-1, append(vars[:len(vars):len(vars)], a, b)), g.vector(depth-1, n, vars), other)
	case 1:
		// A lifted operation, the scalar replicated over the frame.
		op := []string{"+", "/", "*", "%"}[g.r.Intn(4)]
		return fmt.Sprintf("(%s %s %s)", op, g.vector(depth-1, n, vars), g.scalar(depth-1, vars))
	}
	x := g.name()
	return fmt.Sprintf("(let [%s %s] %s)", x, g.scalar(depth-1, vars), g.vector(depth-1, n, append(vars[:len(vars):len(vars)], x)))
}

// TestSimplifyKeepsErrors is the property on partialGen's programs: after
// Check, Explicitize, Inline and Simplify, the big-step gives the same values, or
// the same first error (message and position). It also counts the
// programs that go wrong, so that the property is seen to test both
// kinds.
func TestSimplifyKeepsErrors(t *testing.T) {
	n := 3000
	wrong, err := simplifyKeepsErrors(15, n)
	if err != nil {
		t.Fatal(err)
	}
	if wrong < n/10 || wrong > n*9/10 {
		t.Errorf("%d of %d programs go wrong: the generator should make both kinds", wrong, n)
	}
	t.Logf("%d programs, %d going wrong", n, wrong)
}

// simplifyKeepsErrors runs the property on n programs of partialGen from
// seed, and returns how many went wrong, or the first disagreement.
func simplifyKeepsErrors(seed int64, n int) (wrong int, err error) {
	g := &partialGen{r: rand.New(rand.NewSource(seed))}
	for i := range n {
		var src string
		if i%2 == 0 {
			src = g.scalar(5, nil)
		} else {
			src = g.vector(5, g.r.Intn(3), nil)
		}
		p, s, err := simplifyCase(src)
		if err != nil {
			return wrong, fmt.Errorf("%s: %v", src, err)
		}
		if _, err := remora.Eval(p, nil); err != nil {
			wrong++
		}
		if err := simplifiedAgrees(p, s); err != nil {
			return wrong, fmt.Errorf("%s:\n%v", src, err)
		}
	}
	return wrong, nil
}

// TestFoldConstantsLargeShapes: constant folding computes a value only
// where its type, and its arguments' sizes, say it is small (issue 32:
// (length iota{ | [400000000]}) computed the iota, 3 GB, to keep its
// length). The bound on what simplifying allocates is a hundredth of
// what computing one of these values takes.
func TestFoldConstantsLargeShapes(t *testing.T) {
	for _, src := range []string{
		"(length{int | 400000000 []} iota{ | [400000000]})",
		"(reduce-init{int | 400000000 [] []} + 0 iota{ | [400000000]})",
		"(+ 1 iota{ | [400000000]})",
		"(replicate{int | [20000 20000] []} 1)",
		"(length{int | 9223372036854775807 []} iota{ | [9223372036854775807]})",
	} {
		t.Run(src, func(t *testing.T) {
			p, _, err := remora.ParseFile("large.remora", src)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := remora.Check(p, nil); err != nil {
				t.Fatal(err)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			_, _, err = compileSimplify(p)
			runtime.ReadMemStats(&after)
			if err != nil {
				t.Fatal(err)
			}
			if n := after.TotalAlloc - before.TotalAlloc; n > 32<<20 {
				t.Errorf("simplifying allocated %d bytes", n)
			}
		})
	}
}
