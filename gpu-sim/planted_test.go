package gpusim_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	gpusim "github.com/arraysem/arraysem/gpu-sim"
)

// TestPlanted runs hand-edited copies of the emitted kernel.imp
// (examples/cuda/kernel.cu with one bug planted in each by an edit of a
// line or two, said by its first line) and wants gpu-sim to catch the bug:
// the kind of error and its message. uninit.cu deletes sq_mem's
// cudaMemset and launches kernel 1 with bound - 1, so the last element of
// sq_mem is never written and kernel 4's last thread reads it: the only
// way to an uninitialised read, as the emitter zeroes every block.
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
		{"uninit.cu", 0, "uninitialised", `uninit\.cu:\d+:\d+: thread 3 \(block 0, thread 3\) reads address 0x[0-9a-f]+ \(element 3 of allocation #\d+ \(cudaMalloc at line \d+, 32 bytes at 0x[0-9a-f]+\)\), which nothing has written`, ""},
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

// TestPlantedCurrent: every planted file is examples/cuda/kernel.cu (kept
// what the emitter prints today by the arraysem package's
// TestCudaExamplesCurrent) but for its first line and its planted edit, a
// few lines; so a change of the emitter must be carried into them (the
// edit reapplied to the regenerated kernel.cu, e.g. with diff and patch).
func TestPlantedCurrent(t *testing.T) {
	want, err := os.ReadFile(filepath.Join("..", "examples", "cuda", "kernel.cu"))
	if err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "*.cu"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		_, body, _ := strings.Cut(string(src), "\n")
		count := map[string]int{}
		for _, l := range strings.Split(string(want), "\n") {
			count[l]++
		}
		added := 0
		for _, l := range strings.Split(body, "\n") {
			if count[l] > 0 {
				count[l]--
			} else {
				added++
			}
		}
		removed := 0
		for _, k := range count {
			removed += k
		}
		if added > 6 || removed > 6 {
			t.Errorf("%s: %d lines added to examples/cuda/kernel.cu and %d removed; a planted file changes a few (regenerate it)", f, added, removed)
		}
	}
}
