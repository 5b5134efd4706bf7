package dynamic

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The chunked golden files testdata/parse.txt and testdata/run.txt are read
// by package golden (internal/golden), which documents their markers; the
// head of each file documents what its chunks state. Package golden knows
// FUN's "--" comments only: a chunk of Remora's ";" comments alone is a
// note here (isNote), and no comment may hold a marker's three #.

// goldenFuel is the small-step fuel of a golden chunk.
const goldenFuel = 100000

// resultLine is the prefix of a comment line giving the printed value of
// the chunk's next result.
const resultLine = "; =>"

// isNote reports whether a chunk is only comments and blank lines.
func isNote(c *golden.Chunk) bool {
	for _, l := range strings.Split(c.Src, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, ";") {
			return false
		}
	}
	return true
}

// expectedResults reads the "; => V" lines of a chunk, in order.
func expectedResults(src string) []string {
	var out []string
	for _, l := range strings.Split(src, "\n") {
		if t := strings.TrimSpace(l); strings.HasPrefix(t, resultLine) {
			out = append(out, strings.TrimSpace(strings.TrimPrefix(t, resultLine)))
		}
	}
	return out
}

// reprint checks that a term prints to a text that ParseExpr reads back
// to a term printing the same text.
func reprint(e Expr) error {
	text := ExprString(e)
	again, err := ParseExpr("reprint", text, nil)
	if err != nil {
		return fmt.Errorf("the printed term does not parse: %v\n%s", err, text)
	}
	if t2 := ExprString(again); t2 != text {
		return fmt.Errorf("printing is not stable:\n%s\nthen\n%s", text, t2)
	}
	return nil
}

// relift is raised (as a panic, out of RunSmall's step hook) when the
// small-step applies lift twice in a row. A lift leaves an application
// whose frames all agree, so the next step must be its map: a second lift
// would be the old bug of re-lifting an argument whose cell rank is all
// (or higher than its rank), which replicated it forever. Stopping at once
// keeps such a regression from exhausting memory.
type relift struct{ term string }

// smallRun is what a guarded small-step run saw.
type smallRun struct {
	rules    []string // the rules applied, in order
	terms    []string // the term after each step, printed
	printErr error    // the first intermediate term that does not reprint
}

// shownSteps is how many steps of a guarded small-step run are recorded
// as terms and checked to reprint: a run that recursion keeps going (to
// the end of its fuel, or to the depth bound, its term growing) is not
// printed at every one of its many steps.
const shownSteps = 500

// runSmall runs e by the small-step semantics (RunSmall's machine) with
// the relift guard, recording every rule and, for the first shownSteps
// steps, every term, checking that it reprints.
func runSmall(e Expr, fuel int, counter semantics.Counter) (v *remora.Value, run *smallRun, err error) {
	run = &smallRun{}
	defer func() {
		if r := recover(); r != nil {
			rl, ok := r.(relift)
			if !ok {
				panic(r)
			}
			v, err = nil, fmt.Errorf("lift applied twice in a row (the rank-all re-lift regression); the term grew to %.200s", rl.term)
		}
	}()
	on := func(rule string, s *State) {
		if rule == "lift" && len(run.rules) > 0 && run.rules[len(run.rules)-1] == "lift" {
			panic(relift{ExprString(Term(s))})
		}
		run.rules = append(run.rules, rule)
		if len(run.rules) > shownSteps {
			return
		}
		e := Term(s)
		run.terms = append(run.terms, ExprString(e))
		if run.printErr == nil {
			if err := reprint(e); err != nil {
				run.printErr = fmt.Errorf("after step %d (%s): %v", len(run.rules), rule, err)
			}
		}
	}
	d := &semantics.Driver[*State]{Machine: Contexts(0), Fuel: fuel, Counter: counter, OnStep: on, Pos: e.At()}
	s, _, err := d.Run(Load(e))
	if err != nil {
		return nil, run, err
	}
	return valueOf(s), run, nil
}

// smallAll runs every expression of p by the guarded small-step, stopping
// at the first error.
func smallAll(p *Program, counter semantics.Counter) ([]*remora.Value, error) {
	var out []*remora.Value
	for i, e := range p.Exprs {
		v, run, err := runSmall(e, goldenFuel, counter)
		if err != nil {
			return out, err
		}
		if run.printErr != nil {
			return out, fmt.Errorf("expression %d: %v", i+1, run.printErr)
		}
		out = append(out, v)
	}
	return out, nil
}

// compareResults checks printed values against the expected ones.
func compareResults(sem string, got []*remora.Value, want []string) error {
	gs := make([]string, len(got))
	for i, v := range got {
		gs[i] = v.String()
	}
	if strings.Join(gs, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("%s-step: got results\n  %s\nwant\n  %s", sem, strings.Join(gs, "\n  "), strings.Join(want, "\n  "))
	}
	return nil
}

// runChunk parses and runs a chunk of run.txt under every semantics (the
// big-step's engine and rules as written, the small-step), returning
// what went wrong. It also returns the counters of the rules the
// small-step applied and the run-time error, for the coverage test.
func runChunk(c *golden.Chunk) (small semantics.Counter, runErr error, err error) {
	p, _, perr := ParseFile(c.File, c.Src)
	if perr != nil {
		if c.ErrRe != nil {
			return nil, nil, c.ExpectError(perr, semantics.SyntaxError)
		}
		return nil, nil, fmt.Errorf("parse: %v", perr)
	}
	for i, e := range p.Exprs {
		if err := reprint(e); err != nil {
			return nil, nil, fmt.Errorf("expression %d: %v", i+1, err)
		}
	}
	want := expectedResults(c.Src)
	big, bigErr := Eval(p, &EvalOptions{Counter: semantics.Counter{}})
	rules, _, rulesErr := EvalRules(p, nil)
	small = semantics.Counter{}
	smallVals, smallErr := smallAll(p, small)
	if c.ErrRe != nil {
		if err := c.ExpectError(bigErr, runKind(bigErr)); err != nil {
			return small, bigErr, fmt.Errorf("big-step: %v", err)
		}
		if err := c.ExpectError(rulesErr, runKind(rulesErr)); err != nil {
			return small, rulesErr, fmt.Errorf("big-step (rules): %v", err)
		}
		if err := c.ExpectError(smallErr, runKind(smallErr)); err != nil {
			return small, smallErr, fmt.Errorf("small-step: %v", err)
		}
		runErr = bigErr
	} else {
		if bigErr != nil {
			return small, nil, fmt.Errorf("big-step: %v", bigErr)
		}
		if rulesErr != nil {
			return small, nil, fmt.Errorf("big-step (rules): %v", rulesErr)
		}
		if smallErr != nil {
			return small, nil, fmt.Errorf("small-step: %v", smallErr)
		}
		if len(want) != len(p.Exprs) {
			return small, nil, fmt.Errorf("%d expressions but %d %q lines", len(p.Exprs), len(want), resultLine)
		}
	}
	if err := compareResults("big", big, want); err != nil {
		return small, runErr, err
	}
	if err := compareResults("big (rules)", rules, want); err != nil {
		return small, runErr, err
	}
	if err := compareResults("small", smallVals, want); err != nil {
		return small, runErr, err
	}
	return small, runErr, c.ExpectRules(small)
}

// runKind is the kind a run-time error of a chunk may have: stuck, or
// stopped by a bound (fuel, depth) when it is one.
func runKind(err error) semantics.Kind {
	if se, ok := err.(*semantics.Error); ok && se.Kind == semantics.FuelError {
		return semantics.FuelError
	}
	return semantics.StuckError
}

// TestParseGolden runs testdata/parse.txt: a chunk with an expected error
// must fail to parse with it; any other must parse, and each of its
// expressions must print to a text that parses back to a term printing
// the same.
func TestParseGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "parse.txt"), ";", func(c *golden.Chunk) error {
		if isNote(c) {
			return nil
		}
		p, _, err := ParseFile(c.File, c.Src)
		if c.ErrRe != nil {
			return c.ExpectError(err, semantics.SyntaxError)
		}
		if err != nil {
			return fmt.Errorf("parse: %v", err)
		}
		for i, e := range p.Exprs {
			if err := reprint(e); err != nil {
				return fmt.Errorf("expression %d: %v", i+1, err)
			}
		}
		if want := expectedResults(c.Src); len(want) > 0 {
			// A parse chunk may state the printed form of its expressions.
			var got []string
			for _, e := range p.Exprs {
				got = append(got, ExprString(e))
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				return fmt.Errorf("printed\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
			}
		}
		return nil
	})
}

// TestRunGolden runs testdata/run.txt (its head documents the chunks).
func TestRunGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "run.txt"), ";", func(c *golden.Chunk) error {
		if isNote(c) {
			return nil
		}
		_, _, err := runChunk(c)
		return err
	})
}

// smallRules are the rules of the small-step semantics (step.go).
var smallRules = []string{"lift", "map", "β", "δ", "collapse", "unbox"}

// failingRules are the rules a run can get stuck in.
var failingRules = []string{"lift", "collapse", "β", "δ", "unbox"}

// TestRunGoldenCoverage checks that run.txt applies every small-step rule
// in a passing chunk and gets stuck in every rule that can fail in a
// failing one, and that it tests every primitive of the basis.
func TestRunGoldenCoverage(t *testing.T) {
	passed := semantics.Counter{}
	failed := map[string]bool{}
	used := map[string]bool{}
	for _, c := range golden.Read(t, filepath.Join("testdata", "run.txt"), ";") {
		if c.Bug != "" || isNote(c) {
			continue
		}
		if sexps, _, err := semantics.ReadSExps(c.File, c.Src); err == nil {
			for _, s := range sexps {
				atoms(s, used)
			}
		}
		small, runErr, err := runChunk(c)
		if err != nil {
			continue // TestRunGolden reports it
		}
		if runErr != nil {
			if se, ok := runErr.(*semantics.Error); ok {
				failed[se.Rule] = true
			}
			continue
		}
		if c.ErrRe == nil {
			passed.Add(small)
		}
	}
	for _, r := range smallRules {
		if passed[r] == 0 {
			t.Errorf("no passing chunk of run.txt applies %s", r)
		}
	}
	for _, r := range failingRules {
		if !failed[r] {
			t.Errorf("no failing chunk of run.txt gets stuck in %s", r)
		}
	}
	for _, name := range BasisNames() {
		if !used[name] {
			t.Errorf("run.txt never uses the primitive %s", name)
		}
	}
}

// atoms records the atoms of an s-expression.
func atoms(s *semantics.SExp, into map[string]bool) {
	if s.Kind == semantics.Atom {
		into[s.Text] = true
	}
	for _, x := range s.List {
		atoms(x, into)
	}
}
