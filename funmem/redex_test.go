package funmem_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/funmem"
)

// TestRedexIsTheNextStep: along the small-step runs of the examples'
// cases, HeapMachine.Redex (what running out of fuel reports) names the
// rule the next step then applies, and asking changes nothing: the
// configuration prints the same before and after (the heap and a
// kernel's or fold's state change in place, so Redex must not step).
func TestRedexIsTheNextStep(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "funmem", "*.funmem"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	var m funmem.HeapMachine
	steps := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := funmem.ParseFile(file, string(src))
		if err != nil || func() error { _, err := funmem.Check(p, nil); return err }() != nil {
			continue // a checker example
		}
		spec, err := check.ParseSpec(string(src), "--")
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range spec.Cases {
			env, h, err := funmem.BindInputs(p, k.Args)
			if err != nil {
				continue
			}
			c := funmem.InitialHeap(p, env, h)
			for n := 0; n < 5000 && !m.Final(c); n++ {
				before := c.String()
				_, want := m.Redex(c)
				if after := c.String(); after != before {
					t.Fatalf("%s:%d: Redex changed the configuration\n%s\nto\n%s", file, k.Line, before, after)
				}
				next, rule, err := m.Step(c)
				if err != nil {
					break // stuck: its rule may be the check's, not the construct's
				}
				if rule != want {
					t.Fatalf("%s:%d: step %d applies %s, Redex said %s, at %s", file, k.Line, n+1, rule, want, before)
				}
				c = next
				steps++
			}
		}
	}
	if steps < 1000 {
		t.Errorf("only %d steps checked", steps)
	}
}
