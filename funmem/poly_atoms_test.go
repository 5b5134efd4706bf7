package funmem

import (
	"maps"
	"math/rand"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestMergeAtomsShares checks mergeAtoms, which gives back one of its
// lists when the merge would hold what it holds, against merging into a
// copy of a (b's expression where both name a factor), on random lists
// whose names and expressions overlap: the same factor for each name.
func TestMergeAtomsShares(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	names := []string{"a", "b", "c", "d"}
	exps := map[string][]fun.SExp{}
	for _, x := range names {
		exps[x] = []fun.SExp{fun.Named(x), fun.Named(x)} // two occurrences of each
	}
	list := func() []atom {
		var out []atom
		for _, i := range r.Perm(len(names))[:r.Intn(len(names)+1)] {
			x := names[i]
			out = append(out, atom{x, exps[x][r.Intn(2)]})
		}
		return out
	}
	asMap := func(as []atom) map[string]fun.SExp {
		m := map[string]fun.SExp{}
		for _, a := range as {
			if _, dup := m[a.name]; dup {
				t.Fatalf("%s twice in %v", a.name, as)
			}
			m[a.name] = a.e
		}
		return m
	}
	shared := 0
	for range 20000 {
		a, b := list(), list()
		want := asMap(a)
		maps.Copy(want, asMap(b))
		got := mergeAtoms(a, b)
		if !maps.Equal(asMap(got), want) {
			t.Fatalf("mergeAtoms(%v, %v) = %v", a, b, got)
		}
		if len(a) > 0 && len(b) > 0 && (&got[0] == &a[0] || &got[0] == &b[0]) {
			shared++
		}
	}
	if shared < 1000 {
		t.Fatalf("%d merges gave back a list: the test compares little", shared)
	}
}
