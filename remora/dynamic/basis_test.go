package dynamic

import (
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// basisArgs are arguments of every kind and of ranks 0 to 2, empty arrays
// included: what TestBasisTotal applies each primitive to.
var basisArgs = []string{
	"0", "2", "-3", "7/2", "99999999999999999999", "2.5", "#t", "#\\a",
	"[]", "[1 2 3]", "[0 1]", "[#t #f #t]", "[1/2 3]", "[1.5 -2.]", `"ab"`,
	"[[1 2] [3 4]]", "(array [2 0])", "(box [1 2])", "[(box 1) (box [2 3])]",
	"(pair 1 2)", "[(pair 1 [2]) (pair 3 [4])]", "+", "[+ -]", "(λ ((x 0)) x)",
}

// thirds are the third arguments of three-argument applications.
var thirds = map[string]bool{"2": true, "[1 2 3]": true, "2.5": true, "(box [1 2])": true, "[]": true, "+": true}

// TestBasisTotal applies every primitive to every combination of basisArgs
// of its arity (scalar primitives of variable arity at one to three
// arguments), under both semantics: neither may panic, and both must give
// the same value or fail with the same rule and message; where check
// --infer elaborates the application, the typed core must give the same
// value (it may be defined where the program fails). It stands in for a
// generator of the dialect's programs over the whole basis.
func TestBasisTotal(t *testing.T) {
	n := 0
	for _, name := range BasisNames() {
		p := Basis[name]
		arities := []int{len(p.Ranks)}
		if p.variadic() {
			arities = []int{1, 2, 3}
		}
		for _, k := range arities {
			combos := [][]string{nil}
			for i := 0; i < k; i++ {
				var next [][]string
				for _, c := range combos {
					for _, a := range basisArgs {
						if k == 3 && i == 2 && !thirds[a] {
							continue // three arguments: the third from a few
						}
						next = append(next, append(append([]string{}, c...), a))
					}
				}
				combos = next
			}
			for _, c := range combos {
				n++
				src := "(" + name + " " + strings.Join(c, " ") + ")"
				if msg := agree(src); msg != "" {
					t.Error(msg)
				}
			}
		}
	}
	t.Logf("%d applications", n)
}

// agree runs src by both semantics and reports how they differ ("" when
// they agree), turning a panic into a report.
func agree(src string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("%s: panic: %v", src, r)
		}
	}()
	e, err := ParseExpr("total", src, nil)
	if err != nil {
		return src + ": " + err.Error()
	}
	bv, berr := EvalExpr(e, nil)
	sv, _, serr := RunSmall(e, &semantics.RunOptions{Fuel: goldenFuel})
	switch {
	case berr != nil || serr != nil:
		if fmt.Sprint(berr) != fmt.Sprint(serr) {
			return fmt.Sprintf("%s: big-step %v, small-step %v", src, orValue(bv, berr), orValue(sv, serr))
		}
	case bv.String() != sv.String():
		return fmt.Sprintf("%s: big-step %s, small-step %s", src, bv, sv)
	}
	// What check --infer elaborates must run to the program's value.
	inf, err := Infer(e)
	if err != nil {
		return ""
	}
	term, err := remora.ParseExpr("infer", inf.Term)
	if err != nil {
		return fmt.Sprintf("%s: the elaboration %s does not parse: %v", src, inf.Term, err)
	}
	ce, _, _, err := remora.CheckExpr(term, nil)
	if err != nil {
		return fmt.Sprintf("%s: the elaboration %s does not check: %v", src, inf.Term, err)
	}
	tv, terr := remora.EvalExpr(ce, nil)
	var se *semantics.Error
	switch {
	case berr != nil:
		// The elaboration may be more defined than a program that fails:
		// the typed core's float functions give NaN where the dialect has
		// no real result ((arcsin 2), (sqrt -1.)).
		return ""
	case terr != nil && errors.As(terr, &se) && se.Kind == semantics.OverflowError:
		// The typed core's ints are 64 bits: the elaboration stops
		// where the dialect's exact integers pass them (a refusal).
		return ""
	case terr != nil:
		return fmt.Sprintf("%s: the elaboration %s fails (%v), the program gives %s", src, inf.Term, terr, bv)
	}
	// The typed core has no exact numbers: where Racket keeps an exact
	// result ((sin 0) is 0, (if #t 0 2.5) is 0), the elaboration, typed
	// float, gives the same number inexact (0.0).
	if asFloats(inf.Show(tv)) != asFloats(bv.String()) {
		return fmt.Sprintf("%s: the elaboration %s gives %s, the program %s", src, inf.Term, inf.Show(tv), bv)
	}
	return ""
}

// asFloats prints the integers of a printed value as floats print, and
// -0.0 as 0.0: an exact 0 has no sign, and the float the typed core
// computes in its place may have one ((* 0 -2.) is exact 0, the typed
// (*. 0. -2.) is -0.0).
func asFloats(s string) string {
	return atomRe.ReplaceAllStringFunc(s, func(a string) string {
		switch {
		case intRe.MatchString(a):
			return a + ".0"
		case a == "-0.0":
			return "0.0"
		}
		return a
	})
}

var (
	atomRe = regexp.MustCompile(`[^\[\] ]+`)
	intRe  = regexp.MustCompile(`^-?\d+$`)
)

func orValue(v fmt.Stringer, err error) string {
	if err != nil {
		return "error " + err.Error()
	}
	return v.String()
}
