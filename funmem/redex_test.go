package funmem_test

import (
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/internal/golden"
)

// TestRedexIsTheNextStep: along the small-step runs of the examples'
// cases, HeapMachine.Redex (what running out of fuel reports) names the
// rule the next step then applies, and asking changes nothing: the
// configuration prints the same before and after (the heap and a
// kernel's or fold's state change in place, so Redex must not step).
func TestRedexIsTheNextStep(t *testing.T) {
	cases, err := check.ExampleCases(check.NewRegistry(), "funmem", filepath.Join("..", "examples", "funmem"))
	if err != nil {
		t.Fatal(err)
	}
	steps := 0
	for _, k := range cases {
		p := k.Program.Syntax().(*fun.Program)
		env, h, err := funmem.BindInputs(p, k.Args)
		if err != nil {
			continue
		}
		n, err := golden.RedexIsTheNextStep(funmem.HeapMachine{}, funmem.InitialHeap(p, env, h), 5000)
		if err != nil {
			t.Fatalf("%s: %v", k.Where, err)
		}
		steps += n
	}
	if steps < 1000 {
		t.Errorf("only %d steps checked", steps)
	}
}
