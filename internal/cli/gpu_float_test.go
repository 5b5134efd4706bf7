package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestGpuCheckFloatReassociation: gpu-check accepts a float sum that the
// CUDA level folds as a tree within the bound, saying so, and
// --exact-floats does not.
func TestGpuCheckFloatReassociation(t *testing.T) {
	dir := t.TempDir()
	src, err := os.ReadFile("examples/remora/float_reductions.remora")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "float_reductions.remora"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	out, errs, status := run(t, "gpu-check", dir)
	if status != 0 || !strings.Contains(out, "ok (float re-association)") || !strings.Contains(out, "within a relative 1e-9") {
		t.Errorf("gpu-check: status %d, %s\n%s", status, errs, out)
	}
	out, _, status = run(t, "gpu-check", dir, "--exact-floats")
	if status != 1 || !strings.Contains(out, "DISAGREE") {
		t.Errorf("gpu-check --exact-floats: status %d\n%s", status, out)
	}
}

// TestFloatSumParallel: a float sum compiles to a parallel reduction
// (more than one block of gpu-sim's threads) whose result is within the
// bound of the interpreter's.
func TestFloatSumParallel(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "sum.remora")
	if err := os.WriteFile(f, []byte("(reduce{float | 9999 [] []} +. (*. 0.1 (int->float iota{ | [10000]})))\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	want, errs, status := run(t, "run", f)
	if status != 0 {
		t.Fatalf("run: %s", errs)
	}
	cu := writeCU(t, f, "--to", "cuda")
	out, errs, status := run(t, "gpu-sim", cu, "--stats")
	if status != 0 {
		t.Fatalf("gpu-sim: %s", errs)
	}
	m := regexp.MustCompile(`(?m)^arraysem_reduce_1_blocks\s+\d+\s+(\d+)`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no parallel reduction:\n%s", out)
	}
	if threads, _ := strconv.Atoi(m[1]); threads <= 256 {
		t.Errorf("the reduction runs %d threads: one block", threads)
	}
	got := strings.SplitN(out, "\n", 2)[0]
	if !semantics.CloseLines([]string{strings.TrimSpace(want)}, []string{got}) {
		t.Errorf("gpu-sim gives %s, the interpreter %s", got, want)
	}
}
