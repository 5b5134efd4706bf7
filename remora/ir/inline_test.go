package ir

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// inlineSource parses, checks, explicitizes and inlines a program; the
// source may already be IR (Explicitize leaves explicit IR as it is).
func inlineSource(file, src string) (p, q *remora.Program, err error) {
	p, _, err = remora.ParseFile(file, src)
	if err != nil {
		return nil, nil, fmt.Errorf("does not parse: %v", err)
	}
	if _, err := remora.Check(p, nil); err != nil {
		return nil, nil, fmt.Errorf("does not check: %v", err)
	}
	x, err := Explicitize(p)
	if err != nil {
		return nil, nil, fmt.Errorf("explicitize: %v", err)
	}
	q, err = Inline(x)
	return p, q, err
}

// firstOrder checks the invariants of §4.4's output (the spec's "After
// Inline"): no type or index abstraction; type and index application
// only around a primitive; every application's function a primitive; a
// λ only as a primitive's argument; no parameter of function type and no
// type variable in any annotation.
func firstOrder(e remora.Expr) error {
	var err error
	fail := func(e remora.Expr, format string, args ...any) {
		if err == nil {
			err = fmt.Errorf("%s: %s: %s", e.At(), fmt.Sprintf(format, args...), remora.Short(e))
		}
	}
	noFn := func(e remora.Expr, t remora.Type) {
		if t == nil {
			return
		}
		tv := map[string]bool{}
		remora.FreeTypeVars(t, tv)
		if len(tv) > 0 {
			fail(e, "type variables in %s", remora.TypeString(t))
		}
		if a, ok := remora.Canon(t).(*remora.Arr); !ok || isFnAtom(a.Elem) {
			fail(e, "function type %s", remora.TypeString(t))
		}
	}
	isPrimTerm := func(f remora.Expr) bool {
		for {
			switch g := f.(type) {
			case *remora.Prim:
				return true
			case *remora.TApp:
				f = g.Fn
			case *remora.IApp:
				f = g.Fn
			default:
				return false
			}
		}
	}
	var walk func(e remora.Expr, opArg bool)
	walk = func(e remora.Expr, opArg bool) {
		switch e := e.(type) {
		case *remora.TLam, *remora.ILam:
			fail(e, "abstraction left")
		case *remora.TApp, *remora.IApp:
			if !isPrimTerm(e) {
				fail(e, "instantiation of a non-primitive")
			}
			return
		case *remora.Prim:
			if !opArg {
				fail(e, "primitive outside function position")
			}
		case *remora.Var:
		case *remora.Lam:
			if !opArg {
				fail(e, "λ outside a primitive's arguments")
			}
			for _, p := range e.Params {
				noFn(e, p.Type)
			}
			walk(e.Body, false)
			return
		case *remora.App:
			if !isPrimTerm(e.Fn) {
				fail(e, "application of a non-primitive")
			}
			for _, a := range e.Args {
				walk(a, true)
			}
			return
		case *remora.Map:
			for _, p := range e.Params {
				noFn(e, p.Type)
			}
		case *remora.Frame:
			noFn(e, e.Cell)
		}
		for _, c := range remora.Subterms(e) {
			walk(c, false)
		}
	}
	walk(e, false)
	return err
}

// inlinedAgrees checks the inlined program: first order, printed and read
// back it checks, and it gives the source's values (or goes wrong too).
func inlinedAgrees(p, q *remora.Program) error {
	for _, e := range q.Exprs {
		if err := firstOrder(e); err != nil {
			return fmt.Errorf("not first order: %v\n%s", err, Language.Print(q))
		}
	}
	return sameValues(p, Language.Print(q))
}

// TestInlineGolden runs testdata/inline.txt: each chunk is a program (of
// the typed dialect or the IR); its "; => TEXT" lines are its expressions
// after Explicitize and Inline, in order, fresh names renumbered; a chunk
// with an error marker must be refused by Inline with that error.
func TestInlineGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "inline.txt"), ";", func(c *golden.Chunk) error {
		if c.OnlyComments() {
			return nil
		}
		p, q, err := inlineSource(c.File, c.Src)
		if c.ErrRe != nil {
			if p == nil {
				return err
			}
			return c.ExpectError(err, semantics.TypeError)
		}
		if err != nil {
			return err
		}
		var want []string
		for _, l := range strings.Split(c.Src, "\n") {
			if r, ok := strings.CutPrefix(strings.TrimSpace(l), "; => "); ok {
				want = append(want, r)
			}
		}
		if len(q.Exprs) != len(want) {
			return fmt.Errorf("%d expressions, %d expected texts:\n%s", len(q.Exprs), len(want), Language.Print(q))
		}
		for i, e := range q.Exprs {
			if got := renumber(remora.ExprString(e)); got != want[i] {
				return fmt.Errorf("expression %d:\n got %s\nwant %s", i+1, got, want[i])
			}
		}
		return inlinedAgrees(p, q)
	})
}

// inlineRefused are the examples Inline refuses, and why (a regexp of the
// error): each uses functions in a way that is not first order.
var inlineRefused = map[string]string{
	// (curry-add [1 2]) and sum{ | 3} are results that are functions.
	"rp_fig2_curry_closures.remora": `the result is a function`,
}

// TestInlineExamples inlines every example of examples/remora that checks
// (through Explicitize) and compares the values before and after; the
// examples in inlineRefused must be refused with their error.
func TestInlineExamples(t *testing.T) {
	forExamples(t, func(t *testing.T, p *remora.Program) {
		x, err := Explicitize(p)
		if err != nil {
			t.Fatal(err)
		}
		q, err := Inline(x)
		if why, ok := inlineRefused[filepath.Base(p.File)]; ok {
			var se *semantics.Error
			if err == nil || !errors.As(err, &se) || !regexp.MustCompile(why).MatchString(se.Msg) {
				t.Fatalf("want the error %q, got %v", why, err)
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := inlinedAgrees(p, q); err != nil {
			t.Fatal(err)
		}
	})
}

// TestInlineIR inlines hand-written IR (checked, not explicitized), so
// that each case pins one rule of the pass whatever Explicitize makes.
func TestInlineIR(t *testing.T) {
	tests := []struct {
		name, src string
		want      string // the inlined expression, or
		err       string // a regexp of the error
	}{
		{name: "let-bound λ applied",
			src:  `(MAP [] ([f (-> (int) int) (fn ([y int]) (* y 2))]) (f 3))`,
			want: `(MAP [] ([y int 3]) (* y 2))`},
		{name: "let-bound primitive applied",
			src:  `(MAP [] ([f (-> (int int) int) +]) (f 1 2))`,
			want: `(+ 1 2)`},
		{name: "REP of a λ is one function over the frame",
			src:  `(MAP [2] ([f (-> (int) int) (REP [2] (fn ([y int]) (* y 2)))] [x int [1 2]]) (f x))`,
			want: `(MAP [2] ([x int [1 2]]) (MAP [] ([y int x]) (* y 2)))`},
		{name: "frame of one primitive",
			src:  `(MAP [2] ([f (-> (int int) int) [+ +]] [x int [1 2]] [y int [3 4]]) (f x y))`,
			want: `(MAP [2] ([x int [1 2]] [y int [3 4]]) (+ x y))`},
		{name: "frame of distinct primitives is a CASE on a tag (MIMD)",
			src:  `(MAP [2] ([f (-> (int int) int) [+ -]] [x int [1 2]] [y int [3 4]]) (f x y))`,
			want: `(MAP [] ([tag [int 2] [0 1]]) (MAP [2] ([tag%1 int tag] [x int [1 2]] [y int [3 4]]) (MAP [] ([arg int x] [arg%1 int y]) (CASE tag%1 (+ arg arg%1) (- arg arg%1)))))`},
		{name: "a CASE of the IR is kept",
			src:  `(MAP [2] ([t int [1 0]]) (CASE t 5 (+ 1 2)))`,
			want: `(MAP [2] ([t int [1 0]]) (CASE t 5 (+ 1 2)))`},
		{name: "instantiation of a let-bound Tλ, replicated",
			src:  `(MAP [] ([id (Forall (t) (-> (t) t)) (t-fn (t) (fn ([x t]) x))]) (MAP [2] ([g (-> (int) int) (REP [2] id{int | })] [x int [5 6]]) (g x)))`,
			want: `(MAP [2] ([x int [5 6]]) (MAP [] ([x%1 int x]) x%1))`},
		{name: "index application substitutes into types and frames",
			src:  `(MAP [] ([f (Pi (n) (-> ([int n]) [int n])) (i-fn (n) (fn ([v [int n]]) (MAP [n] ([a int v]) (* a a))))]) (f{ | 3} [1 2 3]))`,
			want: `(MAP [] ([v [int 3] [1 2 3]]) (MAP [3] ([a int v]) (* a a)))`},
		{name: "a captured variable is not captured by a later binder",
			src:  `(MAP [] ([x int 1]) (MAP [] ([f (-> (int) int) (fn ([y int]) (+ x y))]) (MAP [] ([x int 2]) (f x))))`,
			want: `(MAP [] ([x int 1]) (MAP [] ([x%1 int 2]) (MAP [] ([y int x%1]) (+ x y))))`},
		{name: "a function's prelude goes around its use",
			src:  `(MAP [] ([g (-> (int) int) (MAP [] ([k int (* 2 3)]) (fn ([y int]) (+ k y)))]) (g 4))`,
			want: `(MAP [] ([k int (* 2 3)]) (MAP [] ([y int 4]) (+ k y)))`},
		{name: "an operator λ is closed over ordinary variables",
			src:  `(MAP [] ([k int 2]) (MAP [] ([op (-> (int int) int) (fn ([a int] [b int]) (+ a (* k b)))]) (reduce{int | 2 [] []} op [1 2 3])))`,
			want: `(MAP [] ([k int 2]) (reduce{int | 2 [] []} (fn ([a int] [b int]) (+ a (* k b))) [1 2 3]))`},
		{name: "not explicitized",
			src: `((fn ([y int]) y) [1 2])`,
			err: `^1:19: Inline: the argument has type \[int 2\], the parameter's cell type is int: run Explicitize first$`},
		{name: "value restriction",
			src: `(MAP [] ([id (Forall (t) (-> (t) t)) (MAP [] ([u int 1]) (t-fn (t) (fn ([x t]) x)))]) (id{int | } 2))`,
			err: `^1:38: Inline: value restriction: `},
		{name: "a function result",
			src: `(MAP [] ([f (-> (int) int) abs]) f)`,
			err: `^1:34: Inline: the result is a function \(f\)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, _, err := remora.ParseFile("", tc.src)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := remora.Check(p, nil); err != nil {
				t.Fatal(err)
			}
			q, err := Inline(p)
			if tc.err != "" {
				if err == nil || !regexp.MustCompile(tc.err).MatchString(err.Error()) {
					t.Fatalf("want the error %q, got %v", tc.err, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := remora.ExprString(q.Exprs[0]); got != tc.want {
				t.Fatalf("got  %s\nwant %s", got, tc.want)
			}
			if err := inlinedAgrees(p, q); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestInlineKeepsInput checks that Inline builds new terms: the
// explicitized program of every example is the same tree after.
func TestInlineKeepsInput(t *testing.T) {
	forExamples(t, func(t *testing.T, p *remora.Program) {
		x, err := Explicitize(p)
		if err != nil {
			t.Fatal(err)
		}
		before := treeText(x)
		if _, err := Inline(x); err != nil && inlineRefused[filepath.Base(p.File)] == "" {
			t.Fatal(err)
		}
		if after := treeText(x); after != before {
			t.Fatalf("Inline changed its input:\nbefore %s\nafter  %s", before, after)
		}
	})
}

// treeText prints a program's terms with every annotation the checker
// fills in, so that two texts are equal when the trees are.
func treeText(p *remora.Program) string {
	var b strings.Builder
	var walk func(e remora.Expr)
	ann := func(t remora.Type) {
		if t != nil && !reflect.ValueOf(t).IsNil() {
			b.WriteString(" : " + remora.TypeString(t))
		}
	}
	walk = func(e remora.Expr) {
		b.WriteString("\n" + remora.ExprString(e))
		switch e := e.(type) {
		case *remora.App:
			ann(e.Type)
		case *remora.Frame:
			ann(e.Type)
		case *remora.Lam:
			ann(e.Ret)
		case *remora.Map:
			ann(e.Type)
		case *remora.Rep:
			ann(e.Type)
		case *remora.Reshape:
			ann(e.Type)
		case *remora.LiftDim:
			ann(e.Type)
		case *remora.Pack:
			ann(e.Type)
		}
		for _, c := range remora.Subterms(e) {
			walk(c)
		}
	}
	for _, e := range p.Exprs {
		walk(e)
	}
	return b.String()
}
