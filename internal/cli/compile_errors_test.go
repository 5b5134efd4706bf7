package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestCompileRefusalsArePositioned: a pass that refuses a program at a
// place in it says so in one line, file:line:col: RULE: message, as every
// other error does, not "arraysem: PASS: file:line:col: …" (issue 32).
func TestCompileRefusalsArePositioned(t *testing.T) {
	deep := strings.Repeat("[", 33) + "1" + strings.Repeat("]", 33)
	for _, c := range []struct {
		name, src, to, want string
	}{
		{"deep.remora", "#lang remora/dynamic\n" + deep + "\n", "fun",
			"deep.remora:2:1: Lower: k_68 is an array of rank 33: the compile path takes arrays of rank up to 32"},
		{"arity.remora", "#lang remora/dynamic\n(reduce + (iota [4]))\n", "fun",
			"arity.remora:2:1: infer: the function takes 3 arguments, got 2"},
		{"stride.funmem", "input (n : int)\nlet (b : mem) = alloc n\nlet (xs : [n] @ b -> 0 + {(n : 1.5)}) = iota n\nlet (c : mem) = alloc n\nlet (ys : [n] @ c -> R(n)) = copy xs\nin (c, ys)\n", "cuda",
			"stride.funmem:3:32: T-MEM-LMAD: the LMAD 0 + {(n : 1.5)} holds 1.5, a float"},
	} {
		path := writeFile(t, c.name, c.src)
		_, errs, status := run(t, "compile", path, "--to", c.to)
		errs = strings.ReplaceAll(errs, filepath.Dir(path)+string(filepath.Separator), "")
		if status != 2 || !strings.HasPrefix(errs, c.want) || strings.Count(errs, "\n") != 1 {
			t.Errorf("%s: status %d\n%s", c.name, status, errs)
		}
	}
}
