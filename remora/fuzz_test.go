package remora

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// FuzzRemora feeds arbitrary text through the typed dialect's pipeline:
// parse, the checker of Figs 7–8, then every expression of a program that
// checks by the big-step evaluator and by the small-step machine (10 000
// steps of fuel). Nothing may panic, and when the small-step run ends the
// two must agree: both fail, or both give the same value. Inputs over
// 4 KB are skipped, those with constants over 1000 only checked, and
// memory is capped at 64 MB. `go test` runs the seeds (the examples and
// the chunks of testdata); `go test -fuzz FuzzRemora ./remora` searches
// further.
func FuzzRemora(f *testing.F) {
	files, chunks := golden.Seeds("../examples/remora/*.remora", "testdata/parse.txt", "testdata/check.txt")
	for _, src := range files {
		f.Add(src)
	}
	for _, chunk := range chunks {
		f.Add(chunk)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		defer semantics.SetMaxMemory(semantics.MaxMemory())
		semantics.SetMaxMemory(64 << 20)
		p, _, err := ParseFile("fuzz.remora", src)
		if err != nil {
			return
		}
		if _, err := Check(p, nil); err != nil || fuzzTooBig(src) {
			return
		}
		for _, e := range p.Exprs {
			big, berr := EvalExpr(e, nil)
			small, _, serr := RunSmall(e, &semantics.RunOptions{Fuel: 10_000})
			var se *semantics.Error
			if errors.As(serr, &se) && se.Kind == semantics.FuelError {
				continue
			}
			if overMemory(berr) || overMemory(serr) {
				continue
			}
			switch {
			case (berr == nil) != (serr == nil):
				t.Fatalf("big-step %v %v, small-step %v %v\n%s", big, berr, small, serr, src)
			case berr == nil && big.String() != small.String():
				t.Fatalf("big-step %s, small-step %s\n%s", big, small, src)
			}
		}
	})
}

// overMemory: the run stopped at the memory cap, which the two
// semantics may reach at different points.
func overMemory(err error) bool {
	return err != nil && strings.Contains(err.Error(), "--max-memory")
}

var fuzzNumber = regexp.MustCompile(`[0-9]+`)

// fuzzTooBig: a constant over 1000 could ask for much work.
func fuzzTooBig(src string) bool {
	for _, n := range fuzzNumber.FindAllString(src, -1) {
		if v, err := strconv.Atoi(n); err != nil || v > 1000 {
			return true
		}
	}
	return false
}
