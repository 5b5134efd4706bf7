package remora

import (
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
)

// evalJobs evaluates p with jobs goroutines and every map of two cells or
// more spread over them, and counts the maps that were.
func evalJobs(t *testing.T, p *Program, jobs int) (string, int) {
	t.Helper()
	var n atomic.Int64
	vs, err := Eval(p, &EvalOptions{Jobs: jobs, Engines: Engines{MinParallelCells: 2, OnParallel: func() { n.Add(1) }}})
	return fmt.Sprint(vs, err), int(n.Load())
}

// TestParallelMapsExamples evaluates every example on one goroutine and
// on four, with every map of two cells or more spread: the same values
// and errors.
func TestParallelMapsExamples(t *testing.T) {
	maps := 0
	forExamples(t, func(t *testing.T, p *Program) {
		seq, _ := evalJobs(t, p, 1)
		par, k := evalJobs(t, p, 4)
		if seq != par {
			t.Errorf("in order:      %s\non goroutines: %s", seq, par)
		}
		maps += k
	})
	if maps < 20 {
		t.Errorf("%d maps ran on goroutines over the examples: too few to test them", maps)
	}
}

// TestParallelMapsErrors: maps whose cells go wrong part way, on four
// goroutines: the error of the first cell by index, as in order.
func TestParallelMapsErrors(t *testing.T) {
	for _, bad := range [][]int{{40, 70}, {70, 40}, {0, 99}, {99, 98}, {3, 3}} {
		// index{int | [3] [] 1} over 100 positions, two of them outside
		// [0, 3), each naming itself in its error.
		var b strings.Builder
		b.WriteString("(index{int | [3] [] 1} [10 20 30] [")
		want := ""
		for p := range 100 {
			k := p % 3
			for j, at := range bad {
				if p == at {
					k = 5 + j
				}
			}
			if k >= 5 && want == "" {
				want = fmt.Sprintf("position [%d]", k)
			}
			fmt.Fprintf(&b, "[%d] ", k)
		}
		b.WriteString("])")
		p, _, err := ParseFile("par.remora", b.String())
		if err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		if _, err := Check(p, nil); err != nil {
			t.Fatalf("%v\n%s", err, b.String())
		}
		seq, _ := evalJobs(t, p, 1)
		par, k := evalJobs(t, p, 4)
		if seq != par || k == 0 || !strings.Contains(seq, want) {
			t.Errorf("cells %v go wrong:\nin order:      %s\non goroutines: %s (%d maps spread)", bad, seq, par, k)
		}
	}
}
