package proofstests

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"math"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/semantics"
)

// remoraDialectFuel bounds the dynamic small-step: the erasure wraps every
// instantiated primitive in a λ, so a run takes more steps than the typed
// one. A run that needs more is counted, not compared.
const remoraDialectFuel = 200_000

// RemoraDialectMinErasable is the fraction of generated programs that
// must erase, so that the property is not vacuous.
const RemoraDialectMinErasable = 0.25

// RemoraDialectRules are the dynamic dialect's rules the erased programs
// must exercise, in both of its semantics.
var RemoraDialectRules = ruleNames(remora.RuleLift, remora.RuleMap, remora.RuleBeta, remora.RuleDelta, remora.RuleCollapse)

var dynamicKnownBugs = []struct {
	constant string
	set      bool
	src      string // a program of the dynamic dialect
	expect   string // its value, printed
	symptom  string // what the error of a run that shows the bug contains
}{
	// fixed: filter checked that its mask held booleans before looking at
	// its length, and an empty array is an array of ints, so filtering an
	// empty array was stuck.
	{"fixed: filter of an empty array by an empty mask", false,
		"(filter (array [0 2]) (array [0]))", "[]", "filter: wants 0 booleans"},
	// fixed (7f79985, ERRATA R14): regression tests. The small-step's
	// lift replicated an argument of rank below its cell rank (one whole
	// cell, of frame []), whose copies the next step took for one bigger
	// cell and lifted again: [3 3 3] here, and with cell rank all the
	// lifts never ended, the term tripling at each step. Such an argument
	// is now an error in both semantics (issue 33, ERRATA R14); erasures
	// pass one when the dynamic dialect has lost an empty array's cell
	// shape (ERRATA R10), which RestoreEmpty restores.
	{"fixed: lift of an argument of rank below its cell's", false,
		"((λ ((a 0) (b 2)) (length b)) [1 1 1] [5 6])", "error bug.remora:1:1: lift: argument 2 has rank 1, below its cell rank 2: no cell of rank 2 can be taken from it", ""},
	{"fixed: lift of an argument of cell rank all", false,
		"((λ ((f 0) (a all)) (fold f 1 a)) [+ *] [2 3])", "[6 6]", ""},
}

// knownBug names the set bug whose symptom a run shows ("" for none).
func knownBug(runs ...*dynamicRun) string {
	for _, b := range dynamicKnownBugs {
		if !b.set {
			continue
		}
		for _, r := range runs {
			for _, err := range []error{r.berr, r.serr} {
				if err != nil && strings.Contains(err.Error(), b.symptom) {
					return "known bug " + b.constant
				}
			}
		}
	}
	return ""
}

// runSmall runs the dynamic small-step.
func runSmall(e dynamic.Expr, counter semantics.Counter) (*remora.Value, error) {
	v, _, err := dynamic.RunSmall(e, &semantics.RunOptions{Fuel: remoraDialectFuel, Counter: counter})
	return v, err
}

// dynamicRun is an erasure run by the dynamic dialect's two semantics.
type dynamicRun struct {
	src        string
	bv, sv     *remora.Value
	berr, serr error
	big, small semantics.Counter
	fuel       bool // the small-step ran out of fuel
}

func (r *dynamicRun) outcomes() string {
	return "dynamic big-step:   " + outcomeString(r.bv, r.berr) + "\ndynamic small-step: " + outcomeString(r.sv, r.serr)
}

// runDynamic parses an erasure and runs it by both dynamic semantics; it
// returns what went wrong when they disagree (a nil run when the erasure
// does not parse).
func runDynamic(src string) (*dynamicRun, string) {
	de, err := dynamic.ParseExpr("erased.remora", src, nil)
	if err != nil {
		return nil, fmt.Sprintf("ERASURE BUG: the erasure does not parse: %v", err)
	}
	r := &dynamicRun{src: src, big: semantics.Counter{}, small: semantics.Counter{}}
	r.bv, r.berr = dynamic.EvalExpr(de, &dynamic.EvalOptions{Counter: r.big})
	r.sv, r.serr = runSmall(de, r.small)
	if r.fuel = isFuelError(r.serr); r.fuel {
		return r, ""
	}
	switch {
	case (r.berr == nil) != (r.serr == nil):
		return r, "the dynamic big-step and small-step disagree"
	case r.berr == nil:
		if why := dynamicValuesEqual(r.bv, r.sv); why != "" {
			return r, "the dynamic big-step and small-step give different arrays: " + why
		}
	}
	return r, ""
}

func isFuelError(err error) bool {
	var se *semantics.Error
	return errors.As(err, &se) && se.Kind == semantics.FuelError
}

// typedAgrees compares the typed outcome with the dynamic big-step's.
func (r *dynamicRun) typedAgrees(tv *remora.Value, terr error) string {
	switch {
	case (terr == nil) != (r.berr == nil):
		return "the typed and the dynamic big-step disagree"
	case terr == nil:
		if why := typedDynamicAgree(tv, r.bv); why != "" {
			return "the typed and the dynamic big-step give different arrays: " + why
		}
	case ruleOf(terr) == remora.RuleLiftDim.Name:
		// the erasure of lift checks the dimension with a reshape
		if ruleOf(r.berr) != remora.RuleDelta.Name {
			return "the typed big-step fails in lift-dim, the dynamic one not in δ"
		}
	case errorMsg(terr) != errorMsg(r.berr):
		return "the typed and the dynamic big-step fail differently"
	}
	return ""
}

// errorMsg is an error's rule and message, without its position.
func errorMsg(err error) string {
	var se *semantics.Error
	if errors.As(err, &se) {
		return divZero.ReplaceAllString(se.Rule+": "+se.Msg, "δ: division by zero")
	}
	return err.Error()
}

// divZero matches the two dialects' words for one error: the typed
// "division by zero (operator /)" and the dynamic "quotient: division by
// zero" (its δ-rules are Racket's functions, named as Racket names them).
var divZero = regexp.MustCompile(`^δ: (division by zero \(operator [/%]\)|(quotient|%): division by zero)$`)

// PropDialectsAgree is the remora-dialects property on one program; st
// collects what it saw.
func PropDialectsAgree(c *RemoraCase, st *DialectStats) string {
	_, e, _, msg := remoraProgram(c)
	if msg != "" {
		return msg
	}
	st.mu.Lock()
	st.Generated++
	st.mu.Unlock()
	src, err := EraseRemora(e, nil)
	if err != nil {
		reason := EraseReason(err)
		if reason == "" {
			return "ERASURE BUG: " + err.Error()
		}
		st.skip(reason)
		return ""
	}
	tv, terr := remora.EvalExpr(e, nil)
	fail := func(what string, runs ...*dynamicRun) string {
		if bug := knownBug(runs...); bug != "" {
			st.skip(bug)
			return ""
		}
		s := fmt.Sprintf("%s\ntyped (checked): %s\ntyped big-step:     %s", what, shortTerm(e), outcomeString(tv, terr))
		for i, r := range runs {
			label := "erasure"
			if i > 0 {
				label = "erasure with RestoreEmpty"
			}
			s += fmt.Sprintf("\n%s: %s\n%s", label, r.src, r.outcomes())
		}
		return s
	}
	run, why := runDynamic(src)
	if run == nil {
		return fmt.Sprintf("%s\ntyped (checked): %s\nerasure: %s", why, shortTerm(e), src)
	}
	if why != "" && knownBug(run) == "" {
		// the dynamic dialect's own semantics disagree: no erasure
		// explains that
		return fail(why, run)
	}
	if why == "" {
		why = run.typedAgrees(tv, terr)
	}
	restored := ""
	if why != "" {
		// The dynamic dialect cannot know the cell shape or the atom kind
		// of an empty array (ERRATA R10); if the erasure that states them
		// where the types know them agrees, that is all it was.
		src2, err := EraseRemora(e, &EraseOptions{RestoreEmpty: true})
		if err != nil {
			return fail(why+"\n(the erasure with RestoreEmpty fails: "+err.Error()+")", run)
		}
		run2, why2 := runDynamic(src2)
		if run2 == nil {
			return fail(why+"\n(with RestoreEmpty: "+why2+")", run)
		}
		if why2 == "" {
			why2 = run2.typedAgrees(tv, terr)
		}
		if why2 != "" {
			return fail(why+"\n(and with RestoreEmpty: "+why2+")", run, run2)
		}
		restored = "differs from the typed core"
		if bug := knownBug(run); bug != "" {
			restored = "shows the " + bug
		}
		run = run2
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	st.Erased++
	if restored != "" {
		st.restored[restored]++
	}
	if run.fuel {
		st.fuelOut++
	}
	if terr == nil {
		st.typedOK++
	} else {
		st.typedFails++
		st.bothFail[ruleOf(terr)+" / "+ruleOf(run.berr)]++
	}
	st.Big.Add(run.big)
	st.Small.Add(run.small)
	return ""
}

// typedDynamicAgree compares a typed value with a dynamic one: "" when
// they are the same array up to what the dialects cannot both say.
func typedDynamicAgree(tv, dv *remora.Value) string {
	for i := 0; ; i++ {
		if i == len(tv.Shape) || i == len(dv.Shape) {
			if len(tv.Shape) != len(dv.Shape) {
				return fmt.Sprintf("shapes %v and %v", tv.Shape, dv.Shape)
			}
			break
		}
		if tv.Shape[i] != dv.Shape[i] {
			return fmt.Sprintf("shapes %v and %v", tv.Shape, dv.Shape)
		}
		if tv.Shape[i] == 0 {
			return "" // empty: the cell shape after a 0 is unknown to the dynamic dialect
		}
	}
	if tv.Kind != dv.Kind {
		return fmt.Sprintf("%s atoms and %s atoms", tv.Kind, dv.Kind)
	}
	switch tv.Kind {
	case remora.KFunc:
		return "" // functions print differently in the two dialects
	case remora.KBox:
		for i := range tv.A {
			if why := typedDynamicAgree(tv.A[i].(*remora.Box).Val, dv.A[i].(*remora.Box).Val); why != "" {
				return fmt.Sprintf("box %d: %s", i, why)
			}
		}
		return ""
	}
	return sameAtoms(tv, dv)
}

// sameAtoms compares the base atoms of two arrays of one kind and shape
// (floats exactly, NaN equal to NaN).
func sameAtoms(a, b *remora.Value) string {
	if a.Kind == remora.KFloat {
		for i := range a.F {
			if a.F[i] != b.F[i] && !(math.IsNaN(a.F[i]) && math.IsNaN(b.F[i])) {
				return fmt.Sprintf("atom %d: %s and %s", i, remora.FormatFloat(a.F[i]), remora.FormatFloat(b.F[i]))
			}
		}
		return ""
	}
	for i := range a.I {
		if a.I[i] != b.I[i] {
			return fmt.Sprintf("atom %d: %d and %d", i, a.I[i], b.I[i])
		}
	}
	return ""
}

// dynamicValuesEqual compares the dynamic dialect's two results exactly:
// shapes, kinds, atoms, box contents, and functions by their print.
func dynamicValuesEqual(a, b *remora.Value) string {
	if !semantics.SameShape(a.Shape, b.Shape) {
		return fmt.Sprintf("shapes %v and %v", a.Shape, b.Shape)
	}
	if a.Len() == 0 {
		return ""
	}
	if a.Kind != b.Kind {
		return fmt.Sprintf("%s atoms and %s atoms", a.Kind, b.Kind)
	}
	switch a.Kind {
	case remora.KFunc:
		for i := range a.A {
			if a.A[i].String() != b.A[i].String() {
				return fmt.Sprintf("function %d: %s and %s", i, a.A[i], b.A[i])
			}
		}
		return ""
	case remora.KBox:
		for i := range a.A {
			if why := dynamicValuesEqual(a.A[i].(*remora.Box).Val, b.A[i].(*remora.Box).Val); why != "" {
				return fmt.Sprintf("box %d: %s", i, why)
			}
		}
		return ""
	}
	return sameAtoms(a, b)
}

// DialectStats is what a run of the property saw: the programs
// generated, those erased (and compared), and the dynamic dialect's rules
// their runs applied under the big-step and the small-step.
type DialectStats struct {
	mu                  sync.Mutex
	Generated, Erased   int
	skipped             map[string]int // why → programs
	restored            map[string]int // agree only with RestoreEmpty: what the plain erasure showed → programs
	bothFail            map[string]int // "typed rule / dynamic rule" → programs
	typedOK, typedFails int
	fuelOut             int
	Big, Small          semantics.Counter
}

// NewDialectStats is an empty DialectStats.
func NewDialectStats() *DialectStats {
	return &DialectStats{skipped: map[string]int{}, restored: map[string]int{}, bothFail: map[string]int{},
		Big: semantics.Counter{}, Small: semantics.Counter{}}
}

func (s *DialectStats) skip(reason string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.skipped[reason]++
}

// Report is what the property saw, for a test's log: the programs
// erased and skipped (and why), how the compared ones ended, and the
// dynamic rules applied.
func (s *DialectStats) Report() string {
	var b strings.Builder
	skipped := 0
	for _, k := range s.skipped {
		skipped += k
	}
	fmt.Fprintf(&b, "%d programs generated, %d erased and compared (%.0f%%), %d skipped", s.Generated, s.Erased, 100*float64(s.Erased)/float64(max(1, s.Generated)), skipped)
	if skipped > 0 {
		b.WriteString(":\n" + countLines(s.skipped))
	} else {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "of those compared: %d run to a value, %d fail in all three semantics alike", s.typedOK, s.typedFails)
	if len(s.bothFail) > 0 {
		b.WriteString(" (typed rule / dynamic rule):\n" + countLines(s.bothFail))
	} else {
		b.WriteByte('\n')
	}
	n := 0
	for _, k := range s.restored {
		n += k
	}
	fmt.Fprintf(&b, "%d agree only with RestoreEmpty (the dynamic dialect cannot know the cell shape or atom kind of an empty array)", n)
	if n > 0 {
		b.WriteString("; the plain erasure:\n" + countLines(s.restored))
	} else {
		b.WriteByte('\n')
	}
	fmt.Fprintf(&b, "%d dynamic small-step runs out of fuel (%d steps; not compared with the big-step)\n", s.fuelOut, remoraDialectFuel)
	fmt.Fprintf(&b, "dynamic rules, big-step: %s\n", counts(s.Big))
	fmt.Fprintf(&b, "dynamic rules, small-step: %s", counts(s.Small))
	return b.String()
}

// countLines lists a count per key, most first.
func countLines(m map[string]int) string {
	keys := slices.Collect(maps.Keys(m))
	slices.SortFunc(keys, func(a, b string) int { return cmp.Or(cmp.Compare(m[b], m[a]), strings.Compare(a, b)) })
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "  %5d  %s\n", m[k], k)
	}
	return b.String()
}
