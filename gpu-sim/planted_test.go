package gpusim_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	gpusim "github.com/arraysem/arraysem/gpu-sim"
)

// TestPlanted runs hand-edited copies of the emitted kernel.imp (one bug
// planted in each, said by its first line) and wants gpu-sim to catch the
// bug: the kind of error and its message.
func TestPlanted(t *testing.T) {
	for _, c := range []struct {
		file  string
		block int
		kind  string
		msg   string // a regular expression; "" when the run must succeed
		out   string
	}{
		{"race.cu", 0, "race", `race\.cu:\d+:\d+: data race in arraysem_kernel_1: thread 2 \(block 0, thread 2\) writes address 0x[0-9a-f]+, which thread 1 \(block 0, thread 1\) wrote`, ""},
		{"oob.cu", 0, "out-of-bounds", `oob\.cu:\d+:\d+: out-of-bounds access: thread 3 \(block 0, thread 3\) writes address 0x[0-9a-f]+, element 4 of allocation #\d+ \(cudaMalloc at line \d+, 32 bytes`, ""},
		{"divergent.cu", 0, "divergence", `divergent\.cu:\d+:\d+: barrier divergence in arraysem_kernel_1, block 0: thread 1 \(block 0, thread 1\) waits at this __syncthreads, which thread 0 \(block 0, thread 0\) never reaches`, ""},
		{"barrier.cu", 2, "", "", "[1 4 9 16]\n[[1 2] [2 4] [3 6] [4 8]]\n[7 7]\n"},
		{"barrier.cu", 0, "divergence", `barrier divergence .* which thread 4 \(block 0, thread 4\) never reaches \(it returned\)`, ""},
		{"unsupported.cu", 0, "unsupported", `unsupported\.cu:\d+:5: unsupported construct "while"`, ""},
	} {
		src, err := os.ReadFile(filepath.Join("testdata", c.file))
		if err != nil {
			t.Fatal(err)
		}
		prog, err := gpusim.Parse(c.file, string(src))
		if err == nil {
			var out string
			out, _, err = gpusim.Run(prog, []string{"n=4", "m=2"}, gpusim.Options{Block: c.block})
			if c.kind == "" {
				if err != nil || out != c.out {
					t.Errorf("%s: got %q, %v; want %q", c.file, out, err, c.out)
				}
				continue
			}
		}
		var se *gpusim.Error
		if !errors.As(err, &se) || se.Kind != c.kind || !regexp.MustCompile(c.msg).MatchString(se.Error()) {
			t.Errorf("%s: got %v; want a %s error matching %s", c.file, err, c.kind, c.msg)
		}
	}
}
