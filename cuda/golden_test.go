package cuda_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// emitChunk parses, checks and emits one chunk of testdata/emit.txt.
func emitChunk(c *golden.Chunk) (*imp.Program, *cuda.File, error) {
	p, err := imp.ParseFile(c.File, c.Src)
	if err != nil {
		return nil, nil, fmt.Errorf("parse: %v", err)
	}
	if err := imp.Check(p, nil); err != nil {
		return nil, nil, fmt.Errorf("check: %v", err)
	}
	f, err := cuda.Emit(p, cuda.Options{})
	return p, f, err
}

// TestEmitGolden runs testdata/emit.txt: a chunk with an expected error
// must be refused by Emit with it; any other must emit a file that gpu-sim
// runs to the interpreter's verdict.
func TestEmitGolden(t *testing.T) {
	t.Parallel()
	golden.Run(t, filepath.Join("testdata", "emit.txt"), "--", func(c *golden.Chunk) error {
		p, f, err := emitChunk(c)
		if c.ErrRe != nil {
			return c.ExpectError(err, semantics.InputError)
		}
		if err != nil {
			return err
		}
		prog, err := gpusim.Parse("emit.cu", f.String())
		if err != nil {
			return err
		}
		return simAgrees(prog, harness.Interpret(p, nil), nil, gpusim.Options{})
	})
}

// goldenPrograms are the chunks of testdata/emit.txt that emit, for the
// clang tests.
func goldenPrograms(t *testing.T) []*harness.Program {
	var out []*harness.Program
	for _, c := range golden.Read(t, filepath.Join("testdata", "emit.txt"), "--") {
		if c.ErrRe != nil {
			continue
		}
		p, f, err := emitChunk(c)
		if err != nil {
			t.Fatalf("%s:%d: %v", c.File, c.Line, err)
		}
		out = append(out, &harness.Program{Name: fmt.Sprintf("%s:%d", c.File, c.Line), Imp: p, CUDA: f.String(), Cases: []map[string]string{{}}})
	}
	return out
}
