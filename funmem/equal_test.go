package funmem

import (
	"reflect"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
)

// TestSameTree: FUNMEM's SameTree (fun.Equal, its comparers made for
// each type, extension nodes included: allocations, LMADs, index
// functions) says what reflect.DeepEqual says of two FUNMEM programs: the
// examples and the checker's test programs, each parsed twice and once
// with a position moved, and the FUN examples translated, simplified and
// expanded (their variants often the same program).
func TestSameTree(t *testing.T) {
	files, chunks := golden.Seeds("../examples/funmem/*.funmem", "testdata/check.txt")
	var progs []*fun.Program
	for _, src := range append(files, chunks...) {
		p, err := ParseFile("t.funmem", src)
		if err != nil {
			continue
		}
		again, _ := ParseFile("t.funmem", src)
		moved, _ := ParseFile("t.funmem", src)
		moved.Body.In.Col++
		progs = append(progs, p, again, moved)
	}
	for _, p := range funExamples() {
		q := Transform(p)
		progs = append(progs, q, Simplify(q), MemoryExpand(q, GPU), MemoryExpand(q, CPU), MemoryExpand(Simplify(q), GPU), Transform(p))
	}
	equal := 0
	for i, p := range progs {
		for _, q := range progs[i:] {
			got, want := Language.(interface{ SameTree(a, b any) bool }).SameTree(p, q), reflect.DeepEqual(p, q)
			if got != want {
				t.Fatalf("SameTree says %v, reflect.DeepEqual %v, of\n%s\nand\n%s", got, want, Print(p), Print(q))
			}
			if got && p != q {
				equal++
			}
		}
	}
	if equal < len(progs)/3 {
		t.Fatalf("only %d equal pairs of %d programs: the test compares little that is equal", equal, len(progs))
	}
	t.Logf("%d programs, %d pairs equal", len(progs), equal)
}

// TestStmsSkipArrayMem: fun.Stms and fun.Bodies, which do not walk an
// array's annotation (ArrayMem is fun.Bodiless), find the statements and
// bodies a walk of every node finds, in the same order, on the FUNMEM
// examples and the FUN examples translated and expanded.
func TestStmsSkipArrayMem(t *testing.T) {
	files, chunks := golden.Seeds("../examples/funmem/*.funmem", "testdata/check.txt")
	var progs []*fun.Program
	for _, src := range append(files, chunks...) {
		if p, err := ParseFile("t.funmem", src); err == nil {
			progs = append(progs, p)
		}
	}
	funFiles, _ := golden.Seeds("../examples/fun/*.fun")
	for _, src := range funFiles {
		p, err := fun.ParseFile("t.fun", src)
		if err != nil || fun.CheckCompileRank(p, "TransformProgram") != nil {
			continue
		}
		if _, err := fun.Check(p, nil); err == nil {
			q := Transform(p)
			progs = append(progs, q, MemoryExpand(Simplify(q), CPU))
		}
	}
	stms, bodies := 0, 0
	for _, p := range progs {
		var got, want []*fun.Stm
		var gotB, wantB []*fun.Body
		fun.Stms(p.Body, func(s *fun.Stm) { got = append(got, s) })
		fun.Bodies(p.Body, func(b *fun.Body) { gotB = append(gotB, b) })
		fun.Inspect(p.Body, func(n fun.Node) bool {
			switch n := n.(type) {
			case *fun.Stm:
				want = append(want, n)
			case *fun.Body:
				wantB = append(wantB, n)
			}
			return true
		})
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(gotB, wantB) {
			t.Fatalf("fun.Stms finds %d statements and fun.Bodies %d bodies, a walk of every node %d and %d, in\n%s", len(got), len(gotB), len(want), len(wantB), Print(p))
		}
		stms += len(got)
		bodies += len(gotB)
	}
	if stms < 500 {
		t.Fatalf("only %d statements compared", stms)
	}
	t.Logf("%d programs, %d statements, %d bodies", len(progs), stms, bodies)
}
