package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
)

// identityPass stands for a new package's optional FUN → FUN pass: its
// declaration, with the option that switches it off, is all the package
// has to say to the registry.
var identityPass = lang.Pass{Name: "Identity", From: fun.Language.Name(), To: fun.Language.Name(), Doc: "changes nothing",
	Options: []lang.Option{{Name: "no-identity", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip Identity (FUN → FUN)"}},
	Label:   func(lang.Options) string { return "identity" },
	Run:     func(p any, _ lang.Options) (any, []string, error) { return p, []string{"identity: nothing to do"}, nil }}

// TestRegisteredPassReachesTheCommands: an optional pass is one
// registration (Append, at the end of FUN's pipeline), and every command
// sees it with no other edit: compile --list-passes (with its switch),
// compile --passes, --stages (and its switch as a compile flag),
// side-by-side and test --levels (the level property sees it too:
// proofs-tests/levels' TestLevelsPropertyRunsRegisteredPass).
func TestRegisteredPassReachesTheCommands(t *testing.T) {
	reg := check.NewRegistry()
	reg.Append(identityPass)

	out, errs, status := runWith(t, reg, "compile", "--list-passes")
	if status != 0 || !strings.Contains(out, "\n  Identity  (fun → fun)\n") || !strings.Contains(out, "--no-identity: skip Identity") ||
		!strings.Contains(out, "fun (fun): Slice, Fuse, Interchange, Identity") {
		t.Errorf("compile --list-passes: status %d\n%s%s", status, out, errs)
	}
	out, errs, status = runWith(t, reg, "compile", "examples/fun/fig2.fun", "--passes", "Identity,TransformProgram", "--stages", "--explain-fusion")
	if status != 0 || !strings.Contains(out, "-- stage 1: Identity (fun)\n--   identity: nothing to do\n") || !strings.Contains(out, "-- stage 2: TransformProgram (funmem)\n") || strings.Contains(out, "Slice") {
		t.Errorf("compile --passes: status %d\n%s%s", status, out, errs)
	}
	out, errs, status = runWith(t, reg, "compile", "examples/fun/fig2.fun", "--to", "funmem", "--stages", "--no-slice", "--no-fuse", "--no-interchange")
	if status != 0 || !strings.Contains(out, "-- stage 1: Identity (fun)\n") || !strings.Contains(out, "-- stage 2: TransformProgram (funmem)\n") {
		t.Errorf("compile --stages: status %d\n%s%s", status, out, errs)
	}
	out, errs, status = runWith(t, reg, "compile", "examples/fun/fig2.fun", "--to", "funmem", "--stages", "--no-identity")
	if status != 0 || strings.Contains(out, "Identity") {
		t.Errorf("compile --no-identity: status %d\n%s%s", status, out, errs)
	}
	if _, errs, status := run(t, "compile", "examples/fun/fig2.fun", "--to", "funmem", "--no-identity"); status != 2 || !strings.Contains(errs, "unknown flag --no-identity") {
		t.Errorf("--no-identity without the pass registered: status %d, %s", status, errs)
	}
	out, errs, status = runWith(t, reg, "side-by-side", "examples/fun/fig2.fun", "--arg", "xsize=3", "--arg", "ysize=4", "--arg", "zcond=1")
	if status != 0 || !strings.Contains(out, "\nFUN identity ") || !strings.Contains(out, "verdict: agree") {
		t.Errorf("side-by-side: status %d\n%s%s", status, out, errs)
	}
	dir := t.TempDir()
	src, err := os.ReadFile("examples/fun/fig2.fun")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "fig2.fun"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, status = runWith(t, reg, "test", "--levels", dir)
	if status != 0 || !strings.Contains(out, "\nFUNMEM identity after Simplify  ") {
		t.Errorf("test --levels: status %d\n%s%s", status, out, errs)
	}
}
