package repl

import (
	"bytes"
	"strings"
	"testing"
)

// TestCUDALevel: :compile cuda prints the program without its prelude,
// saying so (--prelude prints it); switched to, the CUDA program runs in
// gpu-sim on :run, with the results the IMP program gives, and :step
// says it has no small-step semantics and what runs it.
func TestCUDALevel(t *testing.T) {
	var buf bytes.Buffer
	s := NewSession(&buf, Options{Args: map[string]string{"n": "4", "m": "2"}})
	defer s.stopStepper()
	exec := func(line string) string {
		buf.Reset()
		s.Exec(line)
		return buf.String()
	}
	imp := exec(":load ../examples/imp/kernel.imp")
	results := "[1 4 9 16]\n[[1 2] [2 4] [3 6] [4 8]]\n[7 7]\n"
	if !strings.HasSuffix(imp, results) {
		t.Fatalf(":load kernel.imp: %s", imp)
	}
	out := exec(":compile cuda")
	if strings.Contains(out, "arraysem prelude: begin") || !strings.Contains(out, "lines, left out: :compile cuda --prelude prints it)\n") || !strings.Contains(out, "__global__ void arraysem_kernel_1") {
		t.Errorf(":compile cuda prints the prelude, or not the kernels:\n%s", out)
	}
	if full := exec(":compile cuda --prelude"); !strings.Contains(full, "// ==== arraysem prelude: begin") || len(full) < 3*len(out) {
		t.Errorf(":compile cuda --prelude: %d bytes, without it %d", len(full), len(out))
	}
	exec(":compile cuda --switch")
	if got := exec(":run"); got != "CUDA has no small-step semantics: run by its semantics sim\n"+results {
		t.Errorf(":run of the CUDA level:\n%s", got)
	}
	if got := exec(":step"); got != "CUDA has no small-step semantics: :step runs it whole, by its semantics sim\n"+results {
		t.Errorf(":step of the CUDA level: %q", got)
	}
	if s.Errors() != 0 {
		t.Errorf("%d errors", s.Errors())
	}
}
