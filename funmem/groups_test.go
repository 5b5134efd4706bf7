package funmem

import (
	"reflect"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestGroupsByMaps checks Groups, which scans its parameters, against
// groupsByMaps, the maps it was written with, on every form's parameters
// and every pattern of the expanded seeds, and on patterns that bind a
// name twice.
func TestGroupsByMaps(t *testing.T) {
	var lists [][]*fun.Param
	for _, q := range transformedSeeds(t) {
		for _, p := range []*fun.Program{q, MemoryExpand(q, GPU), Simplify(MemoryExpand(q, CPU))} {
			fun.Stms(p.Body, func(s *fun.Stm) {
				lists = append(lists, s.Pat, fun.ExpParams(s.Exp))
			})
		}
	}
	arrays := 0
	for _, ps := range lists {
		// ps, and ps with its first name given to the last parameter too.
		cases := [][]*fun.Param{ps}
		if len(ps) > 1 {
			dup := append([]*fun.Param(nil), ps...)
			last := *dup[len(dup)-1]
			last.Name = &fun.Ident{Name: ps[0].Name.Name}
			dup[len(dup)-1] = &last
			cases = append(cases, dup)
		}
		for _, c := range cases {
			got, want := Groups(c), groupsByMaps(c)
			if len(got) != len(want) || len(got) > 0 && !reflect.DeepEqual(got, want) {
				t.Fatalf("Groups(%v) = %v, with maps %v", c, got, want)
			}
			for _, g := range got {
				if g.IsArray() {
					arrays++
				}
			}
		}
	}
	if arrays < 20 {
		t.Fatalf("%d groups of arrays compared: the test compares little", arrays)
	}
}

func groupsByMaps(ps []*fun.Param) []Group {
	if !anySupportForm(ps) {
		// No array in support form (int operands, or arrays the checker
		// refuses): every parameter is an operand of its own, and the
		// maps below would stay empty.
		var out []Group
		if len(ps) > 0 {
			out = make([]Group, len(ps))
			for i := range ps {
				out[i] = Group{Operand: i}
			}
		}
		return out
	}
	index := map[string]int{}
	for i, p := range ps {
		index[p.Name.Name] = i
	}
	supp := map[string]bool{}
	groups := map[int]Group{}
	for i, p := range ps {
		g, ok := supportFormByMap(p, index)
		if !ok {
			continue
		}
		groups[i] = g
		supp[g.Block], supp[g.Off] = true, true
		for _, s := range g.Strides {
			supp[s] = true
		}
	}
	var out []Group
	for i, p := range ps {
		if supp[p.Name.Name] {
			continue
		}
		g, ok := groups[i]
		if !ok {
			g = Group{Operand: i}
		}
		out = append(out, g)
	}
	return out
}

// supportFormByMap is supportForm as written with a map: it reads p's
// type as an array in support form over the parameters index names.
func supportFormByMap(p *fun.Param, index map[string]int) (Group, bool) {
	a := ArrayOf(p.Type)
	if a == nil || a.Index.IsRowMajor() {
		return Group{}, false
	}
	name := func(e fun.SExp) (string, bool) {
		v, ok := e.(fun.Var)
		if !ok {
			return "", false
		}
		_, in := index[v.Name]
		return v.Name, in && v.Name != p.Name.Name
	}
	g := Group{Operand: index[p.Name.Name], Block: a.Block.Name}
	if _, ok := index[g.Block]; !ok {
		return Group{}, false
	}
	var ok bool
	if g.Off, ok = name(a.Index.Offset); !ok {
		return Group{}, false
	}
	for _, d := range a.Index.Dims {
		s, ok := name(d.Stride)
		if !ok {
			return Group{}, false
		}
		g.Strides = append(g.Strides, s)
	}
	return g, true
}
