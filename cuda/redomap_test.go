package cuda_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
)

// redomapFile holds FUN's redomap and scanomap where the emitter puts
// their folds: on the host, a parallel fold whose element part is the
// translated map body (statements, an if, a loop, an assert, a kernel and
// its allocation, a reduce, all inside the thread); inside a kernel's
// thread, a sequential fold; and over arrays, a for on the host.
var redomapFile = filepath.Join("testdata", "redomap.fun")

// redomapPrograms are the file compiled to IMP in both layouts of
// MemoryExpand and emitted, with the inputs of its test block.
func redomapPrograms(t *testing.T) []*harness.Program {
	t.Helper()
	ps, err := harness.Programs(check.NewRegistry(), []string{redomapFile})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) == 0 || len(ps) > 2 {
		t.Fatalf("%d programs from %s", len(ps), redomapFile) // a layout each, or one both give
	}
	for _, p := range ps {
		if !strings.Contains(p.CUDA, "arraysem_reduce_") || !strings.Contains(p.CUDA, "arraysem_scan_") {
			t.Errorf("%s: no parallel reduce and scan in the emitted file", p.Name)
		}
	}
	return ps
}

// TestRedomapInSim: the redomap file, emitted, prints in gpu-sim what the
// interpreter prints (or is stuck on the failing assert in a map body, as
// it is), with blocks of 1, 3 and 32 threads and three schedules, and no
// race.
func TestRedomapInSim(t *testing.T) {
	t.Parallel()
	agreeInSim(t, redomapPrograms(t), simRuns{blocks: []int{1, 3, 32}, seed: 11})
}

// TestRedomapOnClang: the redomap file, emitted, compiles to PTX and,
// under the sanitizers, on the host prints what the interpreter prints,
// with blocks of 2 and 256 threads; the failing assert prints its
// message.
func TestRedomapOnClang(t *testing.T) {
	t.Parallel()
	clangBuilds(t)
	agreeOnClang(t, "redomap", redomapPrograms(t), clangRuns{blocks: []string{"2", "256"},
		also: func(t *testing.T, p *harness.Program, args map[string]string, want harness.Expect, got cuda.Outcome) {
			if want.Status != 0 && !strings.Contains(got.Stderr, "no element below -5") {
				t.Errorf("%s %v: stderr %q lacks the assert's message", p.Name, harness.Args(args), got.Stderr)
			}
		}})
}
