package funmem_test

import (
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/check"
)

// TestRedomapAtEveryLevel runs the golden example of redomap and scanomap
// and testdata/redomap_levels.fun as `arraysem test --levels` does: every
// input of their test blocks under every semantics of FUN, of FUNMEM
// (TransformProgram, and MemoryExpand in both layouts), of IMP
// (FunMemToImp) and of CUDA (gpu-sim), each giving the block's output.
// The second file has the names the map and operator bodies both bind,
// which IMP's for over arrays must rename apart.
func TestRedomapAtEveryLevel(t *testing.T) {
	for _, file := range []string{filepath.Join("..", "examples", "fun", "redomap.fun"), filepath.Join("testdata", "redomap_levels.fun")} {
		fails, checks := check.RunGoldenFileLevels(check.NewRegistry(), file)
		for _, f := range fails {
			t.Error(f)
		}
		if checks < 30 {
			t.Errorf("%s: %d checks, want every level's", file, checks)
		}
	}
}
