package fuse_test

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/fun/fuse"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestFuseCopyPropagation: Fuse ends with copy propagation. The copies it
// made are gone (their uses renamed), the copies the program wrote stay,
// the result gives the same values, and every fused example still checks.
func TestFuseCopyPropagation(t *testing.T) {
	src := `input (n : int) (xs : [n])
let (ys : [n]) = kernel i <= n do
    let (v : int) = xs[i]
    let (w : int) = v * v
    in (w)
let (zs : [n]) = kernel j <= n do
    let (u : int) = ys[j]
    let (kept : int) = u
    let (t : int) = kept + 1
    in (t)
in (zs)
`
	p, err := fun.ParseFile("cp.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := fuse.Fuse(p, fuse.Options{})
	if _, err := fun.Check(q, nil); err != nil {
		t.Fatalf("%v\n%s", err, fun.Print(q))
	}
	got := fun.Print(q)
	if strings.Contains(got, "let (u : int)") || !strings.Contains(got, "let (kept : int) = w") {
		t.Errorf("fusion's copy of ys[j] should go and the written copy stay:\n%s", got)
	}
	env, err := fun.BindInputs(p, map[string]string{"n": "3", "xs": "[1 2 3]"})
	if err != nil {
		t.Fatal(err)
	}
	a, _, errA := fun.Eval(p, env, nil)
	b, _, errB := fun.Eval(q, env, nil)
	if errA != nil || errB != nil || a[0].String() != b[0].String() {
		t.Errorf("values differ: %v %v / %v %v", a, errA, b, errB)
	}
	files, _ := filepath.Glob("../../examples/fun/*.fun")
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := fun.ParseFile(f, string(data))
		if err != nil {
			continue // the examples of parse errors
		}
		if _, err := fun.Check(p, nil); err != nil {
			continue
		}
		q, _ := fuse.Fuse(p, fuse.Options{})
		if _, err := fun.Check(q, nil); err != nil {
			t.Errorf("%s: %v\n%s", f, err, fun.Print(q))
		}
	}
}
