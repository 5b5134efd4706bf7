package imp_test

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
)

// TestEachStm: the translation's statement walk visits the statements
// fun.Stms does, in its order, on every FUNMEM example and on the FUNMEM
// stage of every FUN example in every compile mode; its walk of the
// bindings (walkBindings, which looks for ranks above fun.MaxCompileRank
// in place of fun.CheckCompileRank) visits every *fun.Param that
// fun.Inspect does.
func TestEachStm(t *testing.T) {
	var progs []*fun.Program
	mems, _ := filepath.Glob(filepath.Join("..", "examples", "funmem", "*.funmem"))
	for _, file := range mems {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if p, err := funmem.ParseFile(file, string(src)); err == nil {
			progs = append(progs, p)
		}
	}
	funs, _ := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	for _, file := range funs {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := check.Load(check.NewRegistry(), file, string(src), check.Options{})
		if err != nil {
			continue
		}
		for _, mode := range compileModes {
			stages, err := check.NewRegistry().Compile(l, "funmem", mode.opts)
			if err != nil {
				continue
			}
			if p, ok := stages[len(stages)-1].Program.Syntax().(*fun.Program); ok {
				progs = append(progs, p)
			}
		}
	}
	if len(progs) < 50 {
		t.Fatalf("only %d programs", len(progs))
	}
	stms := 0
	for _, p := range progs {
		var want, got []*fun.Stm
		fun.Stms(p.Body, func(s *fun.Stm) { want = append(want, s) })
		imp.EachStm(p.Body, func(s *fun.Stm) { got = append(got, s) })
		if !slices.Equal(got, want) {
			t.Errorf("%s: eachStm visits %d statements, fun.Stms %d (or in another order)", p.File, len(got), len(want))
		}
		stms += len(want)
		ps := map[*fun.Param]int{} // +1 for each visit by fun.Inspect, -1 by walkBindings
		fun.Inspect(p, func(n fun.Node) bool {
			if q, ok := n.(*fun.Param); ok {
				ps[q]++
			}
			return true
		})
		imp.WalkBindings(p, func(q *fun.Param) { ps[q]-- }, func(*fun.Ident) {})
		for q, n := range ps {
			if n != 0 {
				t.Errorf("%s: parameter %s visited %d more times by fun.Inspect than by walkBindings", p.File, q.Name.Name, n)
			}
		}
	}
	t.Logf("%d programs, %d statements", len(progs), stms)
}
