package dynamic

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// docsFile is the dialect's basis reference for users.
const docsFile = "../../docs/remora-dynamic.md"

// TestDocsListEveryPrimitive checks that the basis reference has a table
// row naming every primitive of the basis in its first column.
func TestDocsListEveryPrimitive(t *testing.T) {
	src, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	name := regexp.MustCompile("`([^`]+)`")
	for _, line := range strings.Split(string(src), "\n") {
		cols := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| `") || len(cols) < 2 {
			continue
		}
		for _, m := range name.FindAllStringSubmatch(cols[0], -1) {
			listed[m[1]] = true
		}
	}
	for _, n := range BasisNames() {
		if !listed[n] {
			t.Errorf("%s does not list the primitive %s", docsFile, n)
		}
	}
}

// TestDocsExamples runs every example of the basis reference, "`e` ⇒
// `v`", by both semantics and checks that it prints v.
func TestDocsExamples(t *testing.T) {
	src, err := os.ReadFile(docsFile)
	if err != nil {
		t.Fatal(err)
	}
	example := regexp.MustCompile("`([^`]+)` ⇒ `([^`]+)`")
	n := 0
	for _, m := range example.FindAllStringSubmatch(string(src), -1) {
		expr, want := m[1], m[2]
		if !strings.HasPrefix(expr, "(") {
			continue // prose: "(/ 7 2)" inside a sentence is still an example
		}
		n++
		e, err := ParseExpr("docs", expr, nil)
		if err != nil {
			t.Errorf("%s: %v", expr, err)
			continue
		}
		v, err := EvalExpr(e, nil)
		if err != nil || v.String() != want {
			t.Errorf("big-step: %s gives %v (error %v), the docs say %s", expr, v, err, want)
		}
		sv, _, err := RunSmall(e, &semantics.RunOptions{Fuel: goldenFuel})
		if err != nil || sv.String() != want {
			t.Errorf("small-step: %s gives %v (error %v), the docs say %s", expr, sv, err, want)
		}
	}
	t.Logf("%d examples", n)
	if n < 100 {
		t.Errorf("found only %d examples in %s", n, docsFile)
	}
}
