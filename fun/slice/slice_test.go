package slice_test

import (
	"flag"
	"fmt"
	"github.com/arraysem/arraysem/fun/slice"
	"github.com/arraysem/arraysem/internal/passtest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

var update = flag.Bool("update", false, "rewrite the expected parts of testdata/slice.txt")

// slicedMark separates a chunk's program from what SliceSizes makes of it.
const slicedMark = "-- sliced:"

// TestSliceGolden runs testdata/slice.txt. A chunk is a FUN program with a
// -- == block of cases, then a line "-- sliced:", the program SliceSizes
// makes of it (as fun.Print prints it), and the report as comments: the
// notes, the overhead and the kept allocations. The sliced program must
// be the one expected, type check, print and parse back, and give every
// case the same values as the program (or get stuck too), those the case
// expects. With -update the expected parts are rewritten.
func TestSliceGolden(t *testing.T) {
	path := filepath.Join("testdata", "slice.txt")
	if *update {
		passtest.RewriteStable(t, path, slicedMark, sliceChunks)
	}
	for _, c := range golden.Read(t, path, "--") {
		t.Run(c.Name(), func(t *testing.T) {
			src, want := passtest.Expected(t, c, slicedMark)
			p, q, rep := sliceChunk(t, c.File, src)
			if out := render(q, rep); strings.TrimSpace(out) != strings.TrimSpace(want) {
				t.Errorf("%s:%d: sliced program and report differ (go test ./fun -run TestSliceGolden -update rewrites them)\ngot:\n%s\nwant:\n%s", c.File, c.Line, out, want)
			}
			spec, err := check.ParseSpec(src, "--")
			if err != nil {
				t.Fatal(err)
			}
			if len(spec.Cases) == 0 {
				t.Fatalf("%s:%d: no -- == cases", c.File, c.Line)
			}
			for _, msg := range sameRuns(p, q, rep, spec.Cases, true) {
				t.Error(msg)
			}
		})
	}
}

// sliceChunks slices the program of every chunk of a chunked file: what
// each chunk's expected part should be, by the line the chunk starts on.
func sliceChunks(t *testing.T, path string) map[int]string {
	got := map[int]string{}
	for _, c := range golden.Read(t, path, "--") {
		src, _, _ := strings.Cut(c.Src, "\n"+slicedMark+"\n")
		_, q, rep := sliceChunk(t, c.File, src)
		got[c.Line] = render(q, rep)
	}
	return got
}

// sliceChunk parses, checks and slices a chunk's program.
func sliceChunk(t *testing.T, file, src string) (*fun.Program, *fun.Program, *slice.Report) {
	t.Helper()
	p, err := fun.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	q, rep := slice.Sizes(p)
	return p, q, rep
}

// render is the expected part of a chunk: the program, then the report as
// comments.
func render(q *fun.Program, rep *slice.Report) string {
	var b strings.Builder
	b.WriteString(fun.Print(q))
	b.WriteString("-- notes:\n")
	for _, n := range rep.Notes {
		b.WriteString("--   " + n.String() + "\n")
	}
	fmt.Fprintf(&b, "-- overhead: %d\n", rep.Overhead)
	var kept []string
	for _, k := range rep.Kept {
		kept = append(kept, fmt.Sprintf("%d:%d", k.Line, k.Col))
	}
	if len(kept) == 0 {
		kept = []string{"none"}
	}
	b.WriteString("-- kept: " + strings.Join(kept, " ") + "\n")
	return b.String()
}

// sameRuns runs each case on p and on q (its sliced program), under both
// semantics, and says where they differ: in their values, in whether they
// get stuck, or from what the case expects (strict: a stuck case's error
// must match the case's pattern after slicing too). It also checks q's
// printed form, and when FUN counts costs, the report's overhead bound.
func sameRuns(p, q *fun.Program, rep *slice.Report, cases []*check.Case, strict bool) []string {
	errOf := func(_, errq error) error { return errq }
	if !strict {
		errOf = nil
	}
	return passtest.RunsAgree(p, q, "sliced", cases, errOf, func(where string, countsCosts bool, sp, sq *semantics.Stats) []string {
		if sp == nil || sq == nil {
			if countsCosts {
				return []string{where + ": FUN counts costs, but the run gave no counters"}
			}
			return nil
		}
		var msgs []string
		if sq.Ops > sp.Ops+rep.Overhead {
			msgs = append(msgs, fmt.Sprintf("%s: sliced runs %d operations, more than the program's %d and the overhead %d", where, sq.Ops, sp.Ops, rep.Overhead))
		}
		if sq.Words > sp.Words {
			msgs = append(msgs, fmt.Sprintf("%s: sliced allocates %d words, the program %d", where, sq.Words, sp.Words))
		}
		return msgs
	})
}

// TestSliceExamples slices every program of examples/fun that type
// checks, and runs its -- == cases on it and on the sliced program.
func TestSliceExamples(t *testing.T) {
	passtest.EachExample(t, "../..", func(t *testing.T, p *fun.Program, spec *check.Spec) {
		before := fun.Print(p)
		q, rep := slice.Sizes(p)
		for _, msg := range sameRuns(p, q, rep, spec.Cases, true) {
			t.Error(msg)
		}
		if fun.Print(p) != before {
			t.Error("SliceSizes changed its input")
		}
	})
}

// TestSliceKeepsInput checks that the pass does not change the program it
// is given, and gives the same result twice.
func TestSliceKeepsInput(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "examples", "fun", "matmul.fun"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := fun.ParseFile("matmul.fun", string(src))
	if err != nil {
		t.Fatal(err)
	}
	before := fun.Print(p)
	q1, r1 := slice.Sizes(p)
	q2, r2 := slice.Sizes(p)
	if fun.Print(p) != before {
		t.Error("SliceSizes changed its input")
	}
	if fun.Print(q1) != fun.Print(q2) || r1.String() != r2.String() {
		t.Error("SliceSizes gave two results for one program")
	}
	if !regexp.MustCompile(`sliced h1`).MatchString(r1.String()) {
		t.Errorf("matmul.fun: h1 not sliced:\n%s", r1)
	}
}
