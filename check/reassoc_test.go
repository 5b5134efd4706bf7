package check

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// TestSideBySideFloatReassociation: the CUDA levels of a float sum fold
// it as a tree, which rounds differently; side-by-side accepts their
// floats within the bound (Row.Reassociated, said in the verdict) and
// nothing else, and --exact-floats does not.
func TestSideBySideFloatReassociation(t *testing.T) {
	reg := NewRegistry()
	t.Parallel()
	file := filepath.Join("..", "examples", "remora", "float_reductions.remora")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(reg, file, string(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, verdict := SideBySide(reg, p, nil)
	if verdict != nil {
		t.Fatalf("verdict: %v", verdict)
	}
	n := 0
	for _, r := range rows {
		if !r.Reassociated {
			continue
		}
		n++
		if !strings.HasPrefix(r.Level, "CUDA") {
			t.Errorf("%s %s agrees only within the bound; only the CUDA levels fold in trees", r.Level, r.Semantics)
		}
	}
	if n == 0 {
		t.Fatal("no row agrees within the bound only: the sum is not a tree at the CUDA level")
	}
	var out bytes.Buffer
	PrintRows(&out, rows, verdict)
	if !strings.Contains(out.String(), "verdict: agree (float re-association)") || !strings.Contains(out.String(), "≈ 10.0") {
		t.Errorf("the table does not say so:\n%s", out.String())
	}
	if _, verdict := SideBySideWith(reg, p, nil, SideOptions{ExactFloats: true}); kind(verdict) != semantics.MismatchError {
		t.Errorf("--exact-floats: verdict %v, want a disagreement", verdict)
	}
}

// TestReassociationOnlyWhereFolded: a row within the bound of the first
// agrees only when its walk passes through a program that re-associates
// a float fold.
func TestReassociationOnlyWhereFolded(t *testing.T) {
	reg := NewRegistry()
	load := func(src string) lang.Stage {
		p, err := Load(reg, "x.fun", src, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return lang.Stage{Program: p}
	}
	sum := load("input (n : int) (xs : [n]float)\nlet (z : float) = 0.0\nlet (r : float) =\n  reduce (a : float) (b : float) = z over xs do\n    let (c : float) = a + b\n    in (c)\nin (r)\n")
	plain := load("input (x : float)\nlet (y : float) = x + x\nin (y)\n")
	first := Row{Level: "Remora", Semantics: "big", Result: &lang.Result{Lines: []string{"99.9999999999986"}, Source: true}}
	for _, c := range []struct {
		stage lang.Stage
		line  string
		agree bool
	}{
		{sum, "100.0", true},
		{plain, "100.0", false}, // no float fold: exact
		{sum, "100.1", false},   // beyond the bound
		{sum, "99.9999999999986", true},
	} {
		rows := []Row{first, {Level: "CUDA", Semantics: "sim", Result: &lang.Result{Lines: []string{c.line}, Source: true}, Stages: []lang.Stage{c.stage}}}
		err := agree(rows, nil, SideOptions{})
		if (err == nil) != c.agree {
			t.Errorf("%s through %s: %v, want agreement %v", c.line, c.stage.Program.Syntax(), err, c.agree)
		}
		if err := agree(rows, nil, SideOptions{ExactFloats: true}); c.line != first.Result.Lines[0] && err == nil {
			t.Errorf("%s with ExactFloats: agrees", c.line)
		}
	}
}

// TestGoldenLevelsFloatReassociation: test --levels counts the runs that
// agree within the bound, and with ExactFloats fails them.
func TestGoldenLevelsFloatReassociation(t *testing.T) {
	reg := NewRegistry()
	t.Parallel()
	dir := t.TempDir()
	src, err := os.ReadFile(filepath.Join("..", "examples", "remora", "float_reductions.remora"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "float_reductions.remora"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	o, err := RunGolden(reg, dir, &out, GoldenOptions{Levels: true})
	if err != nil || o.Failed != 0 || o.Reassociated == 0 || !strings.Contains(out.String(), "≈ agree (float re-association)") {
		t.Errorf("%+v, %v\n%s", o, err, out.String())
	}
	out.Reset()
	o, err = RunGolden(reg, dir, &out, GoldenOptions{Levels: true, ExactFloats: true})
	if err != nil || o.Failed == 0 || o.Reassociated != 0 {
		t.Errorf("ExactFloats: %+v, %v\n%s", o, err, out.String())
	}
}

// TestDialectTreeReduce: the dynamic dialect's reduce is tree-shaped, and
// its elaboration keeps the tree for a float +, so every level agrees
// with it exactly (no row is accepted within the re-association bound).
func TestDialectTreeReduce(t *testing.T) {
	reg := NewRegistry()
	t.Parallel()
	xs := strings.Repeat("0.1 0.7 0.3 ", 14)
	p, err := Load(reg, "tree.remora", "#lang remora/dynamic\n(reduce + 0 ["+xs+"])\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, verdict := SideBySide(reg, p, nil)
	if verdict != nil {
		t.Fatalf("verdict: %v", verdict)
	}
	for _, r := range rows[1:] {
		if !r.ran() {
			continue
		}
		if r.Reassociated || r.Err != nil || !slices.Equal(r.Result.Lines, rows[0].Result.Lines) {
			t.Errorf("%s %s: %v, Reassociated %v, err %v; want the dialect's tree exactly, %v", r.Level, r.Semantics, r.Result.Lines, r.Reassociated, r.Err, rows[0].Result.Lines)
		}
	}
}
