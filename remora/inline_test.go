package remora

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// inlineSource parses, checks, explicitizes and inlines a program; the
// source may already be IR (Explicitize leaves explicit IR as it is).
func inlineSource(file, src string) (p, q *Program, err error) {
	p, _, err = ParseFile(file, src)
	if err != nil {
		return nil, nil, fmt.Errorf("does not parse: %v", err)
	}
	if _, err := Check(p, nil); err != nil {
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
func firstOrder(e Expr) error {
	var err error
	fail := func(e Expr, format string, args ...any) {
		if err == nil {
			err = fmt.Errorf("%s: %s: %s", e.At(), fmt.Sprintf(format, args...), short(e))
		}
	}
	noFn := func(e Expr, t Type) {
		if t == nil {
			return
		}
		tv := map[string]bool{}
		freeTypeVars(t, tv)
		if len(tv) > 0 {
			fail(e, "type variables in %s", TypeString(t))
		}
		if a, ok := Canon(t).(*Arr); !ok || isFnAtom(a.Elem) {
			fail(e, "function type %s", TypeString(t))
		}
	}
	isPrimTerm := func(f Expr) bool {
		for {
			switch g := f.(type) {
			case *Prim:
				return true
			case *TApp:
				f = g.Fn
			case *IApp:
				f = g.Fn
			default:
				return false
			}
		}
	}
	var walk func(e Expr, opArg bool)
	walk = func(e Expr, opArg bool) {
		switch e := e.(type) {
		case *TLam, *ILam:
			fail(e, "abstraction left")
		case *TApp, *IApp:
			if !isPrimTerm(e) {
				fail(e, "instantiation of a non-primitive")
			}
			return
		case *Prim:
			if !opArg {
				fail(e, "primitive outside function position")
			}
		case *Var:
		case *Lam:
			if !opArg {
				fail(e, "λ outside a primitive's arguments")
			}
			for _, p := range e.Params {
				noFn(e, p.Type)
			}
			walk(e.Body, false)
			return
		case *App:
			if !isPrimTerm(e.Fn) {
				fail(e, "application of a non-primitive")
			}
			for _, a := range e.Args {
				walk(a, true)
			}
			return
		case *Map:
			for _, p := range e.Params {
				noFn(e, p.Type)
			}
		case *Frame:
			noFn(e, e.Cell)
		}
		for _, c := range inlChildren(e) {
			walk(c, false)
		}
	}
	walk(e, false)
	return err
}

// inlinedAgrees checks the inlined program: first order, printed and read
// back it checks, and it gives the source's values (or goes wrong too).
func inlinedAgrees(p, q *Program) error {
	for _, e := range q.Exprs {
		if err := firstOrder(e); err != nil {
			return fmt.Errorf("not first order: %v\n%s", err, IR.Print(q))
		}
	}
	return sameValues(p, IR.Print(q))
}

// TestInlineGolden runs testdata/inline.txt: each chunk is a program (of
// the typed dialect or the IR); its "; => TEXT" lines are its expressions
// after Explicitize and Inline, in order, fresh names renumbered; a chunk
// with an error marker must be refused by Inline with that error.
func TestInlineGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "inline.txt"), ";", func(c *golden.Chunk) error {
		if isNote(c) {
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
			return fmt.Errorf("%d expressions, %d expected texts:\n%s", len(q.Exprs), len(want), IR.Print(q))
		}
		for i, e := range q.Exprs {
			if got := renumber(ExprString(e)); got != want[i] {
				return fmt.Errorf("expression %d:\n got %s\nwant %s", i+1, got, want[i])
			}
		}
		return inlinedAgrees(p, q)
	})
}

// inlineRefused are the examples Inline refuses, and why (a regexp of the
// error): each uses functions in a way that is not first order.
var inlineRefused = map[string]string{
	// ([sum{ | 3} length{int | 3 []}] [8 9 6]), ([+ -] 10 3): MIMD.
	"rp_fig2_function_arrays.remora": `distinct functions in function position \(MIMD\)`,
	// (curry-add [1 2]) and sum{ | 3} are results that are functions.
	"rp_fig2_curry_closures.remora": `the result is a function`,
	// (twice{int | } [(fn …) (fn …)] 5): two distinct λs mapped over.
	"higher_order.remora": `distinct functions in function position \(MIMD\)`,
}

// TestInlineExamples inlines every example of examples/remora that checks
// (through Explicitize) and compares the values before and after; the
// examples in inlineRefused must be refused with their error.
func TestInlineExamples(t *testing.T) {
	forExamples(t, func(t *testing.T, p *Program) {
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
