package gpusim_test

import (
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/internal/planted"
)

// The planted bugs: package planted applies the edits of
// testdata/planted/NAME.txt (its doc describes the format) to the CUDA of
// examples/imp/kernel.imp, emitted now.

// plantedAll is every planted program, by name (race for
// testdata/planted/race.txt).
func plantedAll(t *testing.T) map[string]string {
	t.Helper()
	names, err := planted.Names("..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, name := range names {
		src, err := planted.Program("..", name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = src
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
		{"race", 0, "race", `^examples/imp/kernel\.imp:35:3: gpu-sim race: data race in arraysem_kernel_1: thread 2 \(block 0, thread 2\) writes address 0x[0-9a-f]+, which thread 1 \(block 0, thread 1\) wrote`, ""},
		{"oob", 0, "out-of-bounds", `^examples/imp/kernel\.imp:35:3: gpu-sim out-of-bounds: out-of-bounds access: thread 3 \(block 0, thread 3\) writes address 0x[0-9a-f]+, element 4 of allocation #\d+ \(cudaMalloc at examples/imp/kernel\.imp:31:1, 32 bytes`, ""},
		{"uninit", 0, "uninitialised", `^examples/imp/kernel\.imp:64:3: gpu-sim uninitialised: thread 3 \(block 0, thread 3\) reads address 0x[0-9a-f]+ \(element 3 of allocation #\d+ \(cudaMalloc at examples/imp/kernel\.imp:31:1, 32 bytes at 0x[0-9a-f]+\)\), which nothing has written`, ""},
		{"divergent", 0, "divergence", `^divergent\.cu:\d+:\d+: gpu-sim divergence: barrier divergence in arraysem_kernel_1, block 0: thread 1 \(block 0, thread 1\) waits at this __syncthreads, which thread 0 \(block 0, thread 0\) never reaches`, ""},
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

// TestPlantEdits: planted.Apply applies hunks in order, whole lines only, and
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
		got, err := planted.Apply("e.txt", src, c.edits)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("%q: got %q, %v; want an error saying %q", c.edits, got, err, c.err)
			}
		} else if err != nil || got != c.want {
			t.Errorf("%q: got %q, %v; want %q", c.edits, got, err, c.want)
		}
	}
}
