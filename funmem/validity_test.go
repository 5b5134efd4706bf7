package funmem

import (
	"strings"
	"testing"
)

// TestValidityOverAllocation: Def 3.1 is decided on each result as its
// LMAD reads its block (ERRATA M11): a block larger than the result is
// valid; a result that reads the wrong cells of its block is not.
func TestValidityOverAllocation(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`input (n : int)
let (n1 : int) = n + 1
let (m : mem) = alloc n1
let (xs : [n] @ m -> R(n)) = iota n
in (m, xs)
`, ""},
		{`input (n : int)
let (n1 : int) = n + 1
let (m : mem) = alloc n1
let (xs : [n] @ m -> R(n)) = iota n
let (ys : [n] @ m -> 1 + {(n : 1)}) = iota n
in (m, xs)
`, "invalid: result xs: element [2]: value-based 2, heap-based 1"},
	} {
		p, err := ParseFile("t.funmem", tc.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := Check(p, nil); err != nil {
			t.Fatal(err)
		}
		_, err = CheckValidity(p, map[string]string{"n": "3"})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.src, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: got %v, want %q", tc.src, err, tc.want)
		}
	}
}
