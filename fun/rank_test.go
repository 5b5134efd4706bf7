package fun

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestCheckCompileRank: the compile path takes arrays of rank up to
// MaxCompileRank and refuses a deeper one at its binding (issue 32).
func TestCheckCompileRank(t *testing.T) {
	dims := func(r int) string { return strings.Repeat("[n]", r) }
	for _, c := range []struct {
		src  string
		want string // "" when taken; else the error
	}{
		{"input (n : int) (xs : " + dims(32) + ")\nin (xs)", ""},
		{"input (n : int) (xs : " + dims(33) + ")\nin (xs)", "r.fun:1:17: T: xs is an array of rank 33: the compile path takes arrays of rank up to 32"},
		{"input (n : int)\nlet (ys : " + dims(40) + ") = iota n\nin (n)", "r.fun:2:5: T: ys is an array of rank 40"},
		{"input (n : int)\nlet (ys : [n]) =\n  kernel i <= n do\n    let (z : " + dims(33) + ") = iota n\n    in (i)\nin (ys)", "r.fun:4:9: T: z is an array of rank 33"},
		{"input (n : int) (xs : [n])\nlet (s : [n]) =\n  loop (a : " + dims(33) + ") = (xs) for i <= n do\n    let (x : int) = xs[i]\n    in (a)\nin (s)", "r.fun:3:8: T: a is an array of rank 33"},
	} {
		p, err := ParseFile("r.fun", c.src)
		if err != nil {
			t.Fatal(err)
		}
		err = CheckCompileRank(p, "T")
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.src, err)
		case c.want != "" && (err == nil || !strings.HasPrefix(err.Error(), c.want)):
			t.Errorf("%s: got %v, want %s…", c.src, err, c.want)
		case c.want != "" && err.(*semantics.Error).Kind.ExitStatus() != 2:
			t.Errorf("%s: %v is not bad input", c.src, err)
		}
	}
}
