package fun

import (
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestEqualIsDeepEqual: Equal (its comparers made for each type) and
// equalValue (through reflect.Value) say what reflect.DeepEqual says of
// two programs: of each example with itself parsed again, with its copy, and
// with a copy changed in one place (a name, a position, a statement
// dropped), and of the examples with each other.
func TestEqualIsDeepEqual(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var progs []*Program
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "err_") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseFile(f, string(src))
		if err != nil {
			continue
		}
		again, _ := ParseFile(f, string(src))
		progs = append(progs, p, again, CloneProgram(p))
		renamed := CloneProgram(p)
		Idents(renamed, func(x *Ident) {
			if x.Name == renamed.Body.Result[0].Name {
				x.Name += "'"
			}
		})
		moved := CloneProgram(p)
		moved.Body.In.Col++
		progs = append(progs, renamed, moved)
		if len(p.Body.Stms) > 0 {
			dropped := CloneProgram(p)
			dropped.Body.Stms = dropped.Body.Stms[1:]
			progs = append(progs, dropped)
		}
	}
	equal := 0
	for i, p := range progs {
		for _, q := range progs[i:] {
			got, want := Equal(p, q), reflect.DeepEqual(p, q)
			if plain := equalValue(reflect.ValueOf(p), reflect.ValueOf(q), 0); got != want || plain != want {
				t.Fatalf("Equal says %v, equalValue %v, reflect.DeepEqual %v, of\n%s\nand\n%s", got, plain, want, Print(p), Print(q))
			}
			if got {
				equal++
			}
		}
	}
	if equal <= len(progs) {
		t.Fatalf("only %d equal pairs among %d programs: the test compares nothing equal", equal, len(progs))
	}
}

// TestEqualEdges: Equal and equalValue say what reflect.DeepEqual says
// where comparing memory would not: a float constant NaN (no float's
// equal, itself included), 0 and -0 (equal); interfaces holding values
// of other types, or nil; and both call trees nested
// deeper than equalDepth different, as they call a cycle.
func TestEqualEdges(t *testing.T) {
	float := func(v float64) *Program {
		return &Program{File: "f", Body: &Body{Stms: []*Stm{{Exp: &ScalarExp{X: &FloatConst{Value: v}}}}}}
	}
	nan := float(math.NaN())
	for _, tc := range []struct{ p, q *Program }{
		{nan, CloneProgram(nan)},
		{float(0), float(math.Copysign(0, -1))},
		{float(1), float(2)},
		{float(1), float(1)},
	} {
		got, plain, want := Equal(tc.p, tc.q), equalValue(reflect.ValueOf(tc.p), reflect.ValueOf(tc.q), 0), reflect.DeepEqual(tc.p, tc.q)
		if got != want || plain != want {
			t.Errorf("%s and %s: Equal says %v, equalValue %v, reflect.DeepEqual %v", Print(tc.p), Print(tc.q), got, plain, want)
		}
	}
	// Interfaces' dynamic values (Equal finds their comparers by the
	// interface's type word): of other types, a Var (a struct of one
	// pointer) of other names or of no name, and a nil SExp.
	sexp := func(x SExp) *Program {
		return &Program{File: "f", Body: &Body{Stms: []*Stm{{Exp: &ScalarExp{X: x}}}}}
	}
	for _, tc := range []struct{ p, q *Program }{
		{sexp(Var{&Ident{Name: "x"}}), sexp(&Const{Value: 1})},
		{sexp(Var{&Ident{Name: "x"}}), sexp(Var{&Ident{Name: "x"}})},
		{sexp(Var{&Ident{Name: "x"}}), sexp(Var{&Ident{Name: "y"}})},
		{sexp(Var{}), sexp(Var{&Ident{Name: "y"}})},
		{sexp(Var{}), sexp(Var{})},
		{sexp(nil), sexp(Var{})},
		{sexp(nil), sexp(nil)},
		{sexp(&Const{Value: 1}), sexp(&Const{Value: 1})},
		{sexp(&Const{Value: 1}), sexp((*Const)(nil))},
		// Fields compared in place: a bool, an element type, a
		// position's line and column.
		{&Program{Body: &Body{Stms: []*Stm{{Exp: &RedomapExp{Scan: true}}}}}, &Program{Body: &Body{Stms: []*Stm{{Exp: &RedomapExp{}}}}}},
		{&Program{Body: &Body{Stms: []*Stm{{Pat: []*Param{{Type: Type{Elem: semantics.FloatElem}}}}}}}, &Program{Body: &Body{Stms: []*Stm{{Pat: []*Param{{}}}}}}},
		{&Program{Body: &Body{Stms: []*Stm{{Let: Pos{Line: 1}}}}}, &Program{Body: &Body{Stms: []*Stm{{Let: Pos{Line: 2}}}}}},
		{&Program{Body: &Body{Stms: []*Stm{{Let: Pos{Col: 1}}}}}, &Program{Body: &Body{Stms: []*Stm{{Let: Pos{Col: 1}}}}}},
	} {
		for _, pq := range [][2]*Program{{tc.p, tc.q}, {tc.q, tc.p}} {
			got, want := Equal(pq[0], pq[1]), reflect.DeepEqual(pq[0], pq[1])
			if got != want {
				t.Errorf("%#v and %#v: Equal says %v, reflect.DeepEqual %v", pq[0].Body.Stms[0].Exp, pq[1].Body.Stms[0].Exp, got, want)
			}
		}
	}
	deep := func() *Program {
		b := &Body{}
		for range equalDepth {
			b = &Body{Stms: []*Stm{{Exp: &IfExp{Then: b, Else: &Body{}}}}}
		}
		return &Program{Body: b}
	}
	p, q := deep(), deep()
	if Equal(p, q) || equalValue(reflect.ValueOf(p), reflect.ValueOf(q), 0) || !Equal(p, p) {
		t.Error("trees nested deeper than equalDepth are called equal")
	}
}
