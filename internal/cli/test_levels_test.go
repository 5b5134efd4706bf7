package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
)

// TestTestLevels: arraysem test --levels runs each case again at every
// level its file compiles to and reports them by level; without the flag
// the output is as before; a registered pass that breaks programs (in a
// clone of the registry) fails the run, naming the level and the pass.
func TestTestLevels(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"examples/fun/fig2.fun", "examples/imp/fig13.imp"} {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errs, status := run(t, "test", dir)
	if status != 0 || strings.Contains(out, "level") {
		t.Errorf("test: status %d\n%s%s", status, out, errs)
	}
	out, errs, status = run(t, "test", "--levels", dir)
	if status != 0 || !strings.Contains(out, "\nIMP expanded (gpu) after Simplify  ") || !strings.Contains(out, "\nCUDA after EmitCUDA  ") || !strings.Contains(out, " 0 failed\n") {
		t.Errorf("test --levels: status %d\n%s%s", status, out, errs)
	}

	// Seven, whatever the program: IMP and CUDA below it go wrong.
	reg := check.NewRegistry()
	reg.Append(lang.Pass{Name: "Seven", From: "imp", To: "imp", Doc: "replaces the program, wrongly",
		Run: func(any, lang.Options) (any, []string, error) {
			p, err := imp.ParseFile("seven.imp", "var r : int;\nr <- 7;\nreturn r\n")
			return p, nil, err
		}})
	out, errs, status = runWith(t, reg, "test", "--levels", dir)
	if status != 1 || !strings.Contains(out, "FAIL ") || !strings.Contains(out, "(IMP after Seven big): ") || !strings.Contains(out, "the output of Seven (imp → imp)") {
		t.Errorf("test --levels with a broken pass: status %d\n%s%s", status, out, errs)
	}
}
