package fun

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestEqualIsDeepEqual: Equal says what reflect.DeepEqual says of two
// programs: of each example with itself parsed again, with its copy, and
// with a copy changed in one place (a name, a position, a statement
// dropped), and of the examples with each other.
func TestEqualIsDeepEqual(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var progs []*Program
	for _, f := range files {
		if strings.HasPrefix(filepath.Base(f), "err_") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseFile(f, string(src))
		if err != nil {
			continue
		}
		again, _ := ParseFile(f, string(src))
		progs = append(progs, p, again, CloneProgram(p))
		renamed := CloneProgram(p)
		Idents(renamed, func(x *Ident) {
			if x.Name == renamed.Body.Result[0].Name {
				x.Name += "'"
			}
		})
		moved := CloneProgram(p)
		moved.Body.In.Col++
		progs = append(progs, renamed, moved)
		if len(p.Body.Stms) > 0 {
			dropped := CloneProgram(p)
			dropped.Body.Stms = dropped.Body.Stms[1:]
			progs = append(progs, dropped)
		}
	}
	equal := 0
	for i, p := range progs {
		for _, q := range progs[i:] {
			got, want := Equal(p, q), reflect.DeepEqual(p, q)
			if got != want {
				t.Fatalf("Equal says %v, reflect.DeepEqual %v, of\n%s\nand\n%s", got, want, Print(p), Print(q))
			}
			if got {
				equal++
			}
		}
	}
	if equal <= len(progs) {
		t.Fatalf("only %d equal pairs among %d programs: the test compares nothing equal", equal, len(progs))
	}
}
