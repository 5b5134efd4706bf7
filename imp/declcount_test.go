package imp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestDeclCountBounds checks that declCount, the size the checker's scope
// and the engine's slots are made at, bounds the names a checked program
// uses: each example's compiled slots (every name its statements mention)
// are at most its inputs (a value and a block each) and declCount.
func TestDeclCountBounds(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "imp", "*.imp"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	checked := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseFile(file, string(src))
		if err != nil {
			continue // an example of a parse error
		}
		if err := Check(p, nil); err != nil {
			continue // an example of a type error
		}
		checked++
		m, _ := compile(p, Env{}, &semantics.Heap{}, &Options{})
		if n, bound := len(m.names), 2*len(p.Inputs)+declCount(p.Body); n > bound {
			t.Errorf("%s: %d names, declCount bound %d: %v", file, n, bound, m.names)
		}
	}
	if checked < 10 {
		t.Fatalf("only %d examples checked", checked)
	}
}
