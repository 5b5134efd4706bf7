package harness_test

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/lang"
)

var update = flag.Bool("update", false, "rewrite testdata/examples.txt with the programs of today's examples")

const root = "../.."

// names are the programs' names from the repository root.
func names(t *testing.T) []string {
	t.Helper()
	ps, err := harness.Examples(check.NewRegistry(), root)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range ps {
		out = append(out, strings.TrimPrefix(filepath.ToSlash(p.Name), root+"/"))
	}
	return out
}

// TestExamplesListed: every program of testdata/examples.txt (an example,
// and for FUN and FUNMEM its layout) is still among those the differential
// runs test (gpu-sim's TestExamples, cuda's TestExamplesOnClang,
// gpu-check). A new example may be missing from the list (go test
// -update adds it); one that disappears, or stops reaching IMP, fails.
func TestExamplesListed(t *testing.T) {
	got := names(t)
	file := filepath.Join("testdata", "examples.txt")
	if *update {
		text := "# The programs of the examples that the differential runs test; go test -update rewrites it.\n" + strings.Join(got, "\n") + "\n"
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, n := range got {
		have[n] = true
	}
	listed := 0
	for _, l := range strings.Split(string(data), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		listed++
		if !have[l] {
			t.Errorf("%s is no longer tested against the interpreter", l)
		}
	}
	if listed < 80 {
		t.Errorf("testdata/examples.txt lists %d programs; it should list every example's", listed)
	}
	t.Logf("%d programs listed, %d tested", listed, len(got))
}

// TestEveryExampleAccounted: each example file is a checker example (its
// name starts with err_, and the checker refuses it), a file of
// harness.Excluded that indeed does not compile to IMP, or a program of
// Examples (in both layouts for FUN and FUNMEM).
func TestEveryExampleAccounted(t *testing.T) {
	have := map[string]bool{}
	for _, n := range names(t) {
		have[n] = true
	}
	excluded := 0
	for _, d := range []string{"imp", "fun", "funmem"} {
		files, err := filepath.Glob(filepath.Join(root, "examples", d, "*."+d))
		if err != nil || len(files) == 0 {
			t.Fatalf("no examples in %s: %v", d, err)
		}
		for _, f := range files {
			rel := strings.TrimPrefix(filepath.ToSlash(f), root+"/")
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			l, err := check.Load(check.NewRegistry(), f, string(src), check.Options{})
			if strings.HasPrefix(filepath.Base(f), "err_") {
				if err == nil {
					t.Errorf("%s: named err_ but the checker accepts it", rel)
				}
				continue
			}
			if err != nil {
				t.Errorf("%s: the checker refuses it, so no backend tests it: %v", rel, err)
				continue
			}
			if why := harness.Exclusion(f); why != "" {
				excluded++
				if _, err := check.NewRegistry().Compile(l, "imp", lang.Options{}.With("expand").WithString("layout", "gpu")); err == nil || !strings.Contains(err.Error(), why) {
					t.Errorf("%s is excluded (%s), but compiling it to IMP gives %v; remove it from harness.Excluded", rel, why, err)
				}
				continue
			}
			if d == "imp" {
				if !have[rel] {
					t.Errorf("%s is not among the programs tested", rel)
				}
				continue
			}
			// Each layout compiles the file to a program tested: its own,
			// or one it gives alike with the other ("--layout gpu, cpu").
			for _, lay := range []string{"gpu", "cpu"} {
				if !slices.ContainsFunc(slices.Collect(maps.Keys(have)), func(n string) bool {
					lays, ok := strings.CutPrefix(n, rel+" (--expand --layout ")
					return ok && slices.Contains(strings.Split(strings.TrimSuffix(lays, ")"), ", "), lay)
				}) {
					t.Errorf("%s --expand --layout %s is not among the programs tested", rel, lay)
				}
			}
		}
	}
	if excluded != len(harness.Excluded) {
		t.Errorf("%d of the %d files of harness.Excluded were found", excluded, len(harness.Excluded))
	}
}

// TestCompileFailureIsAnError: a FUN file that passes the checker but does
// not reach IMP makes Programs fail, unless it is excluded.
func TestCompileFailureIsAnError(t *testing.T) {
	src, err := os.ReadFile(filepath.Join(root, "examples", "funmem", "inputs.funmem"))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), "copy.funmem")
	if err := os.WriteFile(f, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := harness.Programs(check.NewRegistry(), []string{f}); err == nil || !strings.Contains(err.Error(), "does not compile to IMP and CUDA") {
		t.Errorf("a copy of inputs.funmem: got %v; want an error", err)
	}
	ps, err := harness.Programs(check.NewRegistry(), []string{filepath.Join(root, "examples", "funmem", "inputs.funmem")})
	if err != nil || len(ps) != 0 {
		t.Errorf("the excluded inputs.funmem: got %d programs, %v; want none and no error", len(ps), err)
	}
}

var (
	corpus  = flag.String("corpus", "", "write programs of the FUN generator (GenerateFUN) into this directory, for gpu-check DIR --nvcc on a GPU")
	corpusN = flag.Int("corpus-n", 200, "how many programs -corpus writes (seeds 1 to N)")
)

// TestWriteCorpus writes the generated corpus when -corpus is given:
//
//	go test ./cuda/harness -run TestWriteCorpus -corpus /tmp/gen -corpus-n 1000
//	./arraysem gpu-check /tmp/gen --nvcc
func TestWriteCorpus(t *testing.T) {
	if *corpus == "" {
		t.Skip("-corpus DIR writes the generated programs")
	}
	if err := os.MkdirAll(*corpus, 0o755); err != nil {
		t.Fatal(err)
	}
	for seed := int64(1); seed <= int64(*corpusN); seed++ {
		path := filepath.Join(*corpus, fmt.Sprintf("gen_%d.fun", seed))
		src, err := harness.GenerateFUN(check.NewRegistry(), seed, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("%d programs in %s", *corpusN, *corpus)
}

// TestGenerateFUN: a generated file reads as an example does: one input,
// the FUN interpreter's verdict, two programs, and the IMP interpreter
// agrees with the verdict on both.
func TestGenerateFUN(t *testing.T) {
	dir := t.TempDir()
	for seed := int64(1); seed <= 8; seed++ {
		path := filepath.Join(dir, fmt.Sprintf("gen_%d.fun", seed))
		src, err := harness.GenerateFUN(check.NewRegistry(), seed, path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		spec, err := check.ParseSpec(src, "--")
		if err != nil || len(spec.Cases) != 1 {
			t.Fatalf("seed %d: %v, %d cases\n%s", seed, err, len(spec.Cases), src)
		}
		c := spec.Cases[0]
		ps, err := harness.Programs(check.NewRegistry(), []string{path})
		// One program per layout, or one for both when they compile
		// the file alike.
		if err != nil || len(ps) != 2 && (len(ps) != 1 || !strings.HasSuffix(ps[0].Name, "(--expand --layout gpu, cpu)")) {
			t.Fatalf("seed %d: %d programs, %v", seed, len(ps), err)
		}
		for _, p := range ps {
			got := harness.Interpret(p.Imp, c.Args)
			switch {
			case c.Error != nil && got.Status == 0:
				t.Errorf("%s: FUN is stuck (%s), IMP prints %q", p.Name, c.Error, got.Lines)
			case c.Error == nil && strings.Join(got.Lines, " ") != strings.Join(c.Output, " "):
				t.Errorf("%s: FUN prints %q, IMP %q (%s)", p.Name, c.Output, got.Lines, got.Err)
			}
		}
	}
}

// TestRefusedFile: a file the checker refuses is skipped only when its
// test block expects the error (the err_ examples); otherwise Programs
// says why, so gpu-check does not pass over a broken file in silence.
func TestRefusedFile(t *testing.T) {
	dir := t.TempDir()
	broken := "input n : int; kernel i <= n do"
	for _, c := range []struct{ name, src, err string }{
		{"broken.imp", broken, "broken.imp:1:"},
		{"expected.imp", "-- ==\n-- error: expected 'done'\n" + broken, ""},
	} {
		f := filepath.Join(dir, c.name)
		if err := os.WriteFile(f, []byte(c.src), 0o644); err != nil {
			t.Fatal(err)
		}
		ps, err := harness.Programs(check.NewRegistry(), []string{f})
		switch {
		case c.err == "" && (err != nil || len(ps) != 0):
			t.Errorf("%s: got %d programs, %v; want it skipped", c.name, len(ps), err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err) || strings.Contains(err.Error(), "\n")):
			t.Errorf("%s: got %v; want one line with %q", c.name, err, c.err)
		}
	}
}

// TestLoadRemora: a Remora example reaches IMP through the compile path
// (a program per layout, whose IMP run prints what the Remora interpreter
// prints, booleans as 0/1), and one that a pass declines is said, with the
// pass and the construct, not an error.
func TestLoadRemora(t *testing.T) {
	dir := filepath.Join(root, "examples", "remora")
	ps, declined, err := harness.Load(check.NewRegistry(), []string{filepath.Join(dir, "rp2_lerp.remora"), filepath.Join(dir, "rp_fig2_curry_closures.remora")})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 2 {
		t.Fatalf("rp2_lerp.remora: %d programs, want one per layout", len(ps))
	}
	if got := harness.Interpret(ps[0].Imp, ps[0].Cases[0]); len(got.Lines) != 3 || got.Lines[0] != "[32.25 43.5 142.5]" {
		t.Errorf("rp2_lerp.remora at IMP: %v", got)
	}
	why := declined[filepath.Join(dir, "rp_fig2_curry_closures.remora")]
	if !strings.Contains(why, "Inline") || !strings.Contains(why, "the result is a function") {
		t.Errorf("rp_fig2_curry_closures.remora: declined %q; want Inline's refusal of a function result", why)
	}
}

// TestCompareWithin: floats within the bound agree, as float
// re-association, only when the program re-associates a float fold; an
// int, a far float or a sanitizer's report never does.
func TestCompareWithin(t *testing.T) {
	want := harness.Expect{Lines: []string{"9.99999999999998", "[1 2]"}}
	for _, c := range []struct {
		out     string
		stderr  string
		reassoc bool
		verdict string
	}{
		{"9.99999999999998\n[1 2]\n", "", false, "ok"},
		{"10.0\n[1 2]\n", "", true, harness.Reassociated},
		{"10.0\n[1 2]\n", "", false, "DISAGREE"},
		{"10.1\n[1 2]\n", "", true, "DISAGREE"},
		{"10.0\n[1 3]\n", "", true, "DISAGREE"},
		{"10.0\n[1 2]\n", "runtime error: x", true, "DISAGREE"},
	} {
		got := cuda.Outcome{Stdout: c.out, Stderr: c.stderr}
		if v, d := harness.CompareWithin(want, got, c.reassoc); v != c.verdict {
			t.Errorf("%q (reassoc %v): %s %s, want %s", c.out, c.reassoc, v, d, c.verdict)
		}
	}
}
