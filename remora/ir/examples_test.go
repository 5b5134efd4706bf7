package ir

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/remora"
)

// forExamples runs f, as a subtest, on every program of examples/remora
// that parses and type checks (the err_ files whose error is a type error
// are left out; those that go wrong at run time are kept), checked.
func forExamples(t *testing.T, f func(t *testing.T, p *remora.Program)) {
	t.Helper()
	files, _ := filepath.Glob("../../examples/remora/*.remora")
	if len(files) == 0 {
		t.Fatal("no examples found")
	}
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, _, err := remora.ParseFile(file, string(src))
		if err != nil {
			continue
		}
		if _, err := remora.Check(p, nil); err != nil {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) { f(t, p) })
	}
}
