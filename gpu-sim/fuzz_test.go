package gpusim_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
)

// FuzzParseRun: no text makes gpu-sim panic, whether it parses or not. The
// seeds are the planted files and their program parts cut at every tenth
// line (under go test only the seeds run; go test -fuzz explores).
func FuzzParseRun(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "*.cu"))
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(string(src))
		_, rest, _ := strings.Cut(string(src), cuda.PreludeEnd)
		lines := strings.Split(rest, "\n")
		for i := 0; i < len(lines); i += 10 {
			f.Add(cuda.Prelude + strings.Join(lines[:i], "\n"))
			f.Add(cuda.Prelude + strings.Join(lines[i:], "\n"))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		prog, err := gpusim.Parse("fuzz.cu", src)
		if err != nil {
			return
		}
		gpusim.Run(prog, []string{"n=3", "m=2"}, gpusim.Options{Block: 4, Fuel: 100000, MaxElems: 1 << 16})
	})
}
