package gpusim_test

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
)

// The planted bugs are edits of the CUDA emitted for
// examples/imp/kernel.imp, one file each in testdata/planted: NAME.txt
// plants bug NAME. Keeping the edits, not edited copies of the emitted
// file (with its 40 KB prelude), means an emitter change reaches the
// planted programs by itself; an edit it invalidates (its old text no
// longer found exactly once) fails the tests, to be carried over by hand.
//
// An edit file is a list of hunks, each opened by a line "@@", applied in
// order. A hunk's lines start with ' ' (context, kept), '-' (removed) or
// '+' (added), as in a unified diff without line numbers: the ' ' and '-'
// lines, whole lines, must be found exactly once in the file, and become
// the ' ' and '+' lines. Lines starting with '#' (the explanation of the
// edit: why it plants the bug) and blank lines are skipped anywhere.
//
// gpu_test.go in the arraysem package plants race.txt and unsupported.txt
// the same way, with a copy of plant (test files of two packages cannot
// share code).

// plant applies the edit file edits (named file, for its errors) to src.
func plant(file, src, edits string) (string, error) {
	type hunk struct {
		line     int
		old, new []string
	}
	var hunks []*hunk
	for i, l := range strings.Split(edits, "\n") {
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case l == "@@":
			hunks = append(hunks, &hunk{line: i + 1})
		case len(hunks) > 0 && strings.Contains(" -+", l[:1]):
			h := hunks[len(hunks)-1]
			if l[0] != '+' {
				h.old = append(h.old, l[1:])
			}
			if l[0] != '-' {
				h.new = append(h.new, l[1:])
			}
		default:
			return "", fmt.Errorf("%s:%d: want @@, a comment, or in a hunk a line starting with ' ', '-' or '+'", file, i+1)
		}
	}
	if len(hunks) == 0 {
		return "", fmt.Errorf("%s: no hunk", file)
	}
	for _, h := range hunks {
		if len(h.old) == 0 {
			return "", fmt.Errorf("%s:%d: a hunk without ' ' or '-' lines has no place to go", file, h.line)
		}
		// The newlines around the text make it match whole lines only.
		old := "\n" + strings.Join(h.old, "\n") + "\n"
		text := "\n" + src
		if n := strings.Count(text, old); n != 1 {
			return "", fmt.Errorf("%s:%d: the hunk's old text is found %d times in the emitted kernel.imp, not once: has the emitter changed? carry the edit over", file, h.line, n)
		}
		new := "\n"
		for _, l := range h.new {
			new += l + "\n"
		}
		src = strings.Replace(text, old, new, 1)[1:]
	}
	return src, nil
}

// emitKernel is the CUDA of examples/imp/kernel.imp, emitted now, as
// `arraysem compile examples/imp/kernel.imp --to cuda` prints it (and
// examples/cuda/kernel.cu holds it).
func emitKernel(t *testing.T) string {
	t.Helper()
	const name = "examples/imp/kernel.imp" // the name its error sites print
	src, err := os.ReadFile(filepath.Join("..", filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	p, err := imp.ParseFile(name, string(src))
	if err == nil {
		err = imp.Check(p, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	f, err := cuda.Emit(p, cuda.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.String()
}

// plantedAll is every planted program, by name (race for
// testdata/planted/race.txt).
func plantedAll(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join("testdata", "planted", "*.txt"))
	if len(files) == 0 {
		t.Fatal("no testdata/planted/*.txt")
	}
	kernel := emitKernel(t)
	out := map[string]string{}
	for _, f := range files {
		edits, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		src, err := plant(f, kernel, string(edits))
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimSuffix(filepath.Base(f), ".txt")] = src
	}
	return out
}

// plantedCase is a run of a planted program, on n=4 m=2.
type plantedCase struct {
	name  string // the edit file's base name
	block int    // gpu-sim's Options.Block
	kind  string // the error's Kind; "" when the run must succeed
	msg   string // a regular expression for the error
	out   string // the output of a run that succeeds
}

// TestPlanted runs the planted programs and wants gpu-sim to catch each
// bug: the kind of error and its message (the edit files say why each
// edit plants its bug). Every planted file must have a case here.
func TestPlanted(t *testing.T) {
	planted := plantedAll(t)
	cases := []plantedCase{
		{"race", 0, "race", `race\.cu:\d+:\d+: data race in arraysem_kernel_1: thread 2 \(block 0, thread 2\) writes address 0x[0-9a-f]+, which thread 1 \(block 0, thread 1\) wrote`, ""},
		{"oob", 0, "out-of-bounds", `oob\.cu:\d+:\d+: out-of-bounds access: thread 3 \(block 0, thread 3\) writes address 0x[0-9a-f]+, element 4 of allocation #\d+ \(cudaMalloc at line \d+, 32 bytes`, ""},
		{"uninit", 0, "uninitialised", `uninit\.cu:\d+:\d+: thread 3 \(block 0, thread 3\) reads address 0x[0-9a-f]+ \(element 3 of allocation #\d+ \(cudaMalloc at line \d+, 32 bytes at 0x[0-9a-f]+\)\), which nothing has written`, ""},
		{"divergent", 0, "divergence", `divergent\.cu:\d+:\d+: barrier divergence in arraysem_kernel_1, block 0: thread 1 \(block 0, thread 1\) waits at this __syncthreads, which thread 0 \(block 0, thread 0\) never reaches`, ""},
		{"barrier", 2, "", "", "[1 4 9 16]\n[[1 2] [2 4] [3 6] [4 8]]\n[7 7]\n"},
		{"barrier", 0, "divergence", `barrier divergence .* which thread 4 \(block 0, thread 4\) never reaches \(it returned\)`, ""},
		{"unsupported", 0, "unsupported", `unsupported\.cu:\d+:5: unsupported construct "while"`, ""},
	}
	for name := range planted {
		if !slices.ContainsFunc(cases, func(c plantedCase) bool { return c.name == name }) {
			t.Errorf("testdata/planted/%s.txt: no case of TestPlanted runs it", name)
		}
	}
	for _, c := range cases {
		src, ok := planted[c.name]
		if !ok {
			t.Errorf("%s: no testdata/planted/%s.txt", c.name, c.name)
			continue
		}
		file := c.name + ".cu"
		prog, err := gpusim.Parse(file, src)
		if err == nil {
			var out string
			out, _, err = gpusim.Run(prog, []string{"n=4", "m=2"}, gpusim.Options{Block: c.block})
			if c.kind == "" {
				if err != nil || out != c.out {
					t.Errorf("%s: got %q, %v; want %q", file, out, err, c.out)
				}
				continue
			}
		}
		var se *gpusim.Error
		if !errors.As(err, &se) || se.Kind != c.kind || !regexp.MustCompile(c.msg).MatchString(se.Error()) {
			t.Errorf("%s: got %v; want a %s error matching %s", file, err, c.kind, c.msg)
		}
	}
}

var flagUpdateBarrier = flag.Bool("update-barrier", false, "rewrite testdata/barrier.cu: the planted barrier program")

// TestPlantedBarrierFile: testdata/barrier.cu is the planted barrier
// program, exactly, for cuda's TestHostBarrier, which builds it with
// clang and reads it from here; it is the last copy left, to go when that
// test plants testdata/planted/barrier.txt itself.
func TestPlantedBarrierFile(t *testing.T) {
	path := filepath.Join("testdata", "barrier.cu")
	want := plantedAll(t)["barrier"]
	if *flagUpdateBarrier {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is not the CUDA of kernel.imp with testdata/planted/barrier.txt applied (go test ./gpu-sim -run TestPlantedBarrierFile -update-barrier rewrites it)", path)
	}
}

// TestPlantEdits: plant applies hunks in order, whole lines only, and
// refuses an edit whose old text is not found exactly once.
func TestPlantEdits(t *testing.T) {
	src := "a\nbb\nb\nc\n"
	for _, c := range []struct{ edits, want, err string }{
		{"# why\n@@\n b\n+x\n@@\n-c\n+d\n", "a\nbb\nb\nx\nd\n", ""},
		{"@@\n-bb\n-b\n", "a\nc\n", ""},
		{"@@\n-z\n+y\n", "", "found 0 times"},
		{"@@\n-a\n+c\n@@\n-c\n", "", "found 2 times"},
		{"@@\n+y\n", "", "no place to go"},
		{"-a\n", "", "want @@"},
		{"# nothing\n", "", "no hunk"},
	} {
		got, err := plant("e.txt", src, c.edits)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: got %q, %v; want an error saying %q", c.edits, got, err, c.err)
			}
		} else if err != nil || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.edits, got, err, c.want)
		}
	}
}
