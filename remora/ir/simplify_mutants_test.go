//go:build mutants

package ir

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/remora"
)

// TestSimplifyMutantKilled checks that the golden chunks of
// testdata/simplify.txt and the properties' hand-written and random
// cases each kill the mutant simplify-hoist-past-empty (go test -tags mutants ./remora/ir/):
// with it on, some simplified program goes wrong where the source does
// not — the semantic check fails, not only the expected text.
func TestSimplifyMutantKilled(t *testing.T) {
	chunks := golden.Read(t, filepath.Join("testdata", "simplify.txt"), ";")
	run := func() (killed []string) {
		for _, c := range chunks {
			if c.OnlyComments() {
				continue
			}
			_, only := simplifyExpectations(c.Src)
			p, _, err := remora.ParseFile(c.File, c.Src)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := remora.Check(p, nil); err != nil {
				t.Fatal(err)
			}
			q, err := simplifyOnly(p, only)
			if err != nil {
				t.Fatal(err)
			}
			if err := simplifiedAgrees(p, q); err != nil {
				killed = append(killed, c.Name()+": "+strings.SplitN(err.Error(), "\n", 2)[0])
			}
		}
		for i, src := range simplifyCases {
			p, q, err := simplifyCase(src)
			if err != nil {
				t.Fatal(err)
			}
			if err := simplifiedAgrees(p, q); err != nil {
				killed = append(killed, fmt.Sprintf("case%d: %s", i+1, strings.SplitN(err.Error(), "\n", 2)[0]))
			}
		}
		return killed
	}
	if k := run(); len(k) > 0 {
		t.Fatalf("with no mutant on, chunks disagree: %v", k)
	}
	undo := mutant.Set("simplify-hoist-past-empty")
	killed := run()
	undo()
	if len(killed) == 0 {
		t.Fatal("mutant simplify-hoist-past-empty survives the golden chunks of Simplify")
	}
	// The random property kills it too: its first disagreement may be a
	// program that goes wrong, but earlier, at the hoisted computation.
	undo = mutant.Set("simplify-hoist-past-empty")
	_, err := simplifyKeepsErrors(15, 3000)
	undo()
	if err == nil {
		t.Error("mutant simplify-hoist-past-empty survives TestSimplifyKeepsErrors' programs")
	}
	for _, k := range killed {
		if !strings.Contains(k, "source: <nil>") {
			t.Errorf("the mutant should make a program that does not go wrong go wrong: %s", k)
		}
	}
	t.Logf("killed by %s", strings.Join(killed, "; "))
}
