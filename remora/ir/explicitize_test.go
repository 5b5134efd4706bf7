package ir

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/remora"
)

// freshName is a name made by Fresh: a base, %, a number.
var freshName = regexp.MustCompile(`%[0-9]+`)

// renumber renames the fresh names of a printed term x%N to x%1, x%2, …
// in order of first appearance, so that golden texts do not depend on
// how many names earlier tests made.
func renumber(s string) string {
	seen := map[string]string{}
	return freshName.ReplaceAllStringFunc(s, func(m string) string {
		if r, ok := seen[m]; ok {
			return r
		}
		seen[m] = "%" + strconv.Itoa(len(seen)+1)
		return seen[m]
	})
}

// TestExplicitizeGolden runs testdata/explicitize.txt.
func TestExplicitizeGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "explicitize.txt"), ";", func(c *golden.Chunk) error {
		if c.OnlyComments() {
			return nil
		}
		var want []string
		for _, l := range strings.Split(c.Src, "\n") {
			if r, ok := strings.CutPrefix(strings.TrimSpace(l), "; => "); ok {
				want = append(want, r)
			}
		}
		p, _, err := remora.ParseFile(c.File, c.Src)
		if err != nil {
			return err
		}
		if _, err := remora.Check(p, nil); err != nil {
			return err
		}
		q, err := Explicitize(p)
		if err != nil {
			return err
		}
		if len(q.Exprs) != len(want) {
			return fmt.Errorf("%d expressions, %d expected texts", len(q.Exprs), len(want))
		}
		for i, e := range q.Exprs {
			if got := renumber(remora.ExprString(e)); got != want[i] {
				return fmt.Errorf("expression %d:\n got %s\nwant %s", i+1, got, want[i])
			}
		}
		return sameValues(p, Language.Print(q))
	})
}

// sameValues reads the printed IR back, checks it, and compares its
// values with the source program's.
func sameValues(p *remora.Program, ir string) error {
	q, _, err := remora.ParseFile("ir", ir)
	if err != nil {
		return fmt.Errorf("the IR does not parse back: %v\n%s", err, ir)
	}
	if _, err := remora.Check(q, nil); err != nil {
		return fmt.Errorf("the IR does not check: %v\n%s", err, ir)
	}
	want, err1 := remora.Eval(p, nil)
	got, err2 := remora.Eval(q, nil)
	if (err1 == nil) != (err2 == nil) {
		return fmt.Errorf("source: %v, IR: %v", err1, err2)
	}
	for i := range want {
		if !want[i].Equal(got[i]) {
			return fmt.Errorf("value %d: source %s, IR %s", i+1, want[i], got[i])
		}
	}
	return nil
}

// TestExplicitizeExamples explicitizes every program of examples/remora
// and checks that the IR, printed and read back, checks and gives the
// same values (or goes wrong too) under the big-step and the small-step.
func TestExplicitizeExamples(t *testing.T) {
	forExamples(t, func(t *testing.T, p *remora.Program) {
		q, err := Explicitize(p)
		if err != nil {
			t.Fatal(err)
		}
		if err := sameValues(p, Language.Print(q)); err != nil {
			t.Fatal(err)
		}
	})
}
