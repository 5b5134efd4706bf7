package check

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
)

// copyExamples copies example files into a fresh directory.
func copyExamples(t *testing.T, files ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range files {
		src, err := os.ReadFile(filepath.Join("..", "examples", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(f)), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// levelCounts are an outcome's counts by level.
func levelCounts(out Outcome) map[string]LevelOutcome {
	m := map[string]LevelOutcome{}
	for _, lv := range out.Levels {
		m[lv.Level] = lv
	}
	return m
}

// TestGoldenLevels: with Levels, each case also runs at every level its
// file compiles to and passes there; a case FUN gets stuck in runs on in
// IMP and CUDA (no bounds checks), counted apart; without it, nothing
// changes.
func TestGoldenLevels(t *testing.T) {
	// fig2 has outputs only; slice.fun has a case stuck in E-SLICE, where
	// IMP and CUDA run on; fig7.funmem has a semantics: line for the value
	// semantics, which its FUNMEM levels must respect.
	dir := copyExamples(t, "fun/fig2.fun", "fun/slice.fun", "funmem/fig7.funmem")
	var plain bytes.Buffer
	base, err := RunGolden(NewRegistry(), dir, &plain, GoldenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if base.Failed > 0 || len(base.Levels) > 0 || strings.Contains(plain.String(), "level") {
		t.Fatalf("without Levels: %+v\n%s", base, plain.String())
	}
	var w bytes.Buffer
	out, err := RunGolden(NewRegistry(), dir, &w, GoldenOptions{Levels: true, Verbose: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Failed > 0 {
		t.Fatalf("failures at the levels:\n%s", w.String())
	}
	counts := levelCounts(out)
	for _, name := range []string{"FUNMEM after Simplify", "IMP after Simplify", "CUDA after EmitCUDA", "FUNMEM expanded (gpu) after Simplify", "IMP expanded (cpu) after Simplify", "CUDA expanded (gpu) after EmitCUDA"} {
		if counts[name].Passed == 0 {
			t.Errorf("no check passed at %s:\n%s", name, w.String())
		}
	}
	if out.Caveats == 0 || counts["FUNMEM after Simplify"].Caveats > 0 {
		t.Errorf("expected IMP and CUDA, and not FUNMEM, to run on where FUN is stuck: %+v", out.Levels)
	}
	if out.Passed <= base.Passed {
		t.Errorf("%d checks with Levels, %d without", out.Passed, base.Passed)
	}
	for _, want := range []string{"IMP expanded (gpu) after Simplify", "passed  failed  ran on", "(IMP after Simplify big): runs on where FUN source big goes wrong", "checks no bounds"} {
		if !strings.Contains(w.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, w.String())
		}
	}
}

// TestGoldenLevelsBrokenPass: a registered pass that changes a program's
// meaning fails its cases at the levels it makes, naming the level and
// the pass.
func TestGoldenLevelsBrokenPass(t *testing.T) {
	dir := t.TempDir()
	src := "-- ==\n-- input { n=1 }\n-- output { 2 }\ninput (n : int)\nlet (m : int) = n + 1\nin (m)\n"
	if err := os.WriteFile(filepath.Join(dir, "inc.fun"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	broken := lang.Pass{Name: "OffByOne", From: "funmem", To: "funmem", Doc: "adds one, wrongly",
		Label: func(lang.Options) string { return "off by one" },
		Run: func(any, lang.Options) (any, []string, error) {
			p, err := funmem.ParseFile("t.funmem", "input (n : int)\nlet (m : int) = n + 2\nin (m)\n")
			return p, nil, err
		}}
	reg := withPass(broken)
	{
		var w bytes.Buffer
		out, err := RunGolden(reg, dir, &w, GoldenOptions{Levels: true})
		if err != nil {
			t.Fatal(err)
		}
		report := w.String()
		if out.Failed == 0 || levelCounts(out)["FUNMEM off by one after OffByOne"].Failed == 0 {
			t.Fatalf("no failure at the broken level: %+v\n%s", out, report)
		}
		for _, want := range []string{"FAIL ", "inc.fun:2 (FUNMEM off by one after OffByOne heap): expected output { 2 }, got { 3 }",
			"the first stage that differs is the output of OffByOne (funmem → funmem)"} {
			if !strings.Contains(report, want) {
				t.Errorf("report lacks %q:\n%s", want, report)
			}
		}
	}
}

// TestGoldenLevelsWrongTree: a pass that hands its target another
// language's tree is a broken pass, not one declining the program: the
// file fails (it was noted, and the run passed).
func TestGoldenLevelsWrongTree(t *testing.T) {
	dir := t.TempDir()
	src := "-- ==\n-- input { n=1 }\n-- output { 2 }\ninput (n : int)\nlet (m : int) = n + 1\nin (m)\n"
	if err := os.WriteFile(filepath.Join(dir, "inc.fun"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	wrong := lang.Pass{Name: "WrongTree", From: "imp", To: "imp", Doc: "returns a FUNMEM tree, wrongly",
		Run: func(any, lang.Options) (any, []string, error) {
			p, err := funmem.ParseFile("t.funmem", "input (n : int)\nin (n)\n")
			return p, nil, err
		}}
	reg := withPass(wrong)
	{
		var w bytes.Buffer
		out, err := RunGolden(reg, dir, &w, GoldenOptions{Levels: true})
		if err != nil {
			t.Fatal(err)
		}
		if out.Failed == 0 || !strings.Contains(w.String(), "FAIL ") || !strings.Contains(w.String(), "WrongTree") {
			t.Errorf("a pass handing IMP a FUNMEM tree fails nothing: %+v\n%s", out, w.String())
		}
	}
}

// TestGoldenLevelsNoneRan: where no case runs at another level because
// the source fails its case, the report says so, and does not say that
// FUN compiles to no other level.
func TestGoldenLevelsNoneRan(t *testing.T) {
	dir := t.TempDir()
	src := "-- ==\n-- input { n=1 }\n-- output { 3 }\ninput (n : int)\nlet (m : int) = n + 1\nin (m)\n"
	if err := os.WriteFile(filepath.Join(dir, "inc.fun"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var w bytes.Buffer
	out, err := RunGolden(NewRegistry(), dir, &w, GoldenOptions{Levels: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Failed != 3 || len(out.Levels) != 0 || !strings.Contains(w.String(), "levels: no case ran at another level\n") {
		t.Errorf("%+v\n%s", out, w.String())
	}
}
