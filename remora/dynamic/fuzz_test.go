package dynamic

import (
	"errors"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// FuzzDynamic feeds arbitrary text through the rank-annotated (dynamic)
// dialect: parse, then every expression by the big-step evaluator and by
// the small-step machine (10 000 steps of fuel). Nothing may panic, and
// when the small-step run ends the two must agree: both fail, or both
// give the same value. Inputs over 4 KB are skipped, those with
// constants over 1000 only parsed, and memory is capped at 64 MB.
// `go test` runs the seeds (the examples and the chunks of testdata);
// `go test -fuzz FuzzDynamic ./remora/dynamic` searches further.
func FuzzDynamic(f *testing.F) {
	files, chunks := golden.Seeds("../../examples/remora-dynamic/*.remora", "testdata/parse.txt", "testdata/infer.txt", "testdata/run.txt")
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
		if err != nil || fuzzTooBig(src) {
			return
		}
		for _, e := range p.Exprs {
			big, berr := EvalExpr(e, nil)
			small, _, serr := RunSmall(e, &semantics.RunOptions{Fuel: 10_000})
			if bounded(berr) || bounded(serr) {
				continue // a bound (fuel, depth), which the two semantics meet at different points
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

// bounded reports whether a run stopped at one of its bounds.
func bounded(err error) bool {
	var se *semantics.Error
	return errors.As(err, &se) && se.Kind == semantics.FuelError
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

// FuzzInfer feeds arbitrary text through the dialect's elaboration into
// the typed core (check --infer, and the compile path's Elaborate), with
// no filter on its constants: what the elaborator computes of a value is
// bounded by knownLimit whatever sizes the program names (issue 32, where
// (iota [99999999999]) ran the compiler out of memory and FuzzDynamic's
// filter kept it from being found). Nothing may panic, no error may be an
// internal one (a recovered panic, an elaboration that does not parse or
// type check), and elaborating one input may allocate at most 256 MB.
// `go test -fuzz FuzzInfer ./remora/dynamic` searches further.
func FuzzInfer(f *testing.F) {
	for _, src := range []string{
		"(iota [99999999999])",
		"(iota [9223372036854775807])",
		"(head (iota [4611686018427387904 4]))",
		"(length (reshape [20000 20000] [1]))",
		"(+ 1 (iota [400000000]))",
		"(reduce + 0 (iota [400000000]))",
		"(expt 3 1000000)",
		"(antibase [2 2] 9223372036854775807)",
		"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]",
	} {
		f.Add(src)
	}
	files, chunks := golden.Seeds("../../examples/remora-dynamic/*.remora", "testdata/infer.txt", "testdata/run.txt")
	for _, src := range append(files, chunks...) {
		f.Add(src)
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
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err = InferProgram(p)
		runtime.ReadMemStats(&after)
		if err != nil {
			msg := err.Error()
			if strings.Contains(msg, InternalError) || strings.Contains(msg, "the elaboration does not") {
				t.Fatalf("%v\n%s", err, src)
			}
		}
		if n := after.TotalAlloc - before.TotalAlloc; n > 256<<20 {
			t.Fatalf("elaborating allocated %s\n%s", semantics.Bytes(int64(n)), src)
		}
	})
}
