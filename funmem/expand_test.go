package funmem_test

import (
	"flag"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/internal/passtest"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

var update = flag.Bool("update", false, "rewrite the expected parts of testdata/expand.txt")

// expandedMark separates a chunk's FUN program from what MemoryExpand
// makes of it.
const expandedMark = "-- expanded:"

// TestMemoryExpandGolden runs testdata/expand.txt. A chunk is a FUN
// program with a -- == block of cases, then a line "-- expanded:", the
// program after TransformProgram, the simplifier, MemoryExpand in the GPU
// layout and the simplifier (--expand's path), and a line "-- left in
// kernels:" with the allocations still inside kernels (AllocsInKernels).
// That program must be the one written there; in both layouts, with and
// without the simplifier, the expanded program must type check, print and
// parse back, be valid (Def 3.1, funmem.CheckValidity) and give every
// case the FUN program's values (or get stuck too), those the case
// expects. With -update the expected parts are rewritten.
func TestMemoryExpandGolden(t *testing.T) {
	path := filepath.Join("testdata", "expand.txt")
	if *update {
		rewriteExpanded(t, path)
	}
	for _, c := range golden.Read(t, path, "--") {
		if c.OnlyComments() {
			continue
		}
		t.Run(c.Name(), func(t *testing.T) {
			src, want := passtest.Expected(t, c, expandedMark)
			p := loadChunk(t, c.File, src)
			if got := renderExpanded(p); strings.TrimSpace(got) != strings.TrimSpace(want) {
				t.Errorf("%s:%d: the expanded program differs (go test ./funmem -run TestMemoryExpandGolden -update rewrites it)\ngot:\n%s\nwant:\n%s", c.File, c.Line, got, want)
			}
			spec, err := check.ParseSpec(src, "--")
			if err != nil {
				t.Fatal(err)
			}
			if len(spec.Cases) == 0 {
				t.Fatalf("%s:%d: no -- == cases", c.File, c.Line)
			}
			for _, layout := range []funmem.Layout{funmem.GPU, funmem.CPU} {
				for _, raw := range []bool{false, true} {
					q := expanded(p, layout, raw)
					where := fmt.Sprintf("%s:%d (%v layout, raw %v)", c.File, c.Line, layout, raw)
					for _, msg := range expandedAgrees(where, p, q, spec.Cases) {
						t.Error(msg)
					}
				}
			}
		})
	}
}

// loadChunk parses and type checks a chunk's FUN program.
func loadChunk(t *testing.T, file, src string) *fun.Program {
	t.Helper()
	p, err := fun.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

// expanded is --expand's path from FUN to FUNMEM: TransformProgram, the
// simplifier, MemoryExpand, the simplifier (raw: without the simplifier).
func expanded(p *fun.Program, layout funmem.Layout, raw bool) *fun.Program {
	q := funmem.Transform(p)
	if !raw {
		q = funmem.Simplify(q)
	}
	q = funmem.MemoryExpand(q, layout)
	if !raw {
		q = funmem.Simplify(q)
	}
	return q
}

// renderExpanded is the expected part of a chunk: the GPU layout's
// expanded program, and the allocations left in kernels.
func renderExpanded(p *fun.Program) string {
	q := expanded(p, funmem.GPU, false)
	var left []string
	for _, at := range funmem.AllocsInKernels(q) {
		left = append(left, fmt.Sprintf("%d:%d", at.Line, at.Col))
	}
	if len(left) == 0 {
		left = []string{"none"}
	}
	return funmem.Print(q) + "-- left in kernels: " + strings.Join(left, " ") + "\n"
}

// expandedAgrees checks q, p expanded, on the cases: it type checks,
// prints back, is valid, and runs as p does (and as each case expects).
func expandedAgrees(where string, p, q *fun.Program, cases []*check.Case) []string {
	if _, err := funmem.Check(q, nil); err != nil {
		return []string{fmt.Sprintf("%s: the expanded program does not type check: %v\n%s", where, err, funmem.Print(q))}
	}
	if err := golden.RoundTrip(q.File, q, funmem.Print, funmem.ParseFile); err != nil {
		return []string{fmt.Sprintf("%s: the expanded program does not print back: %v", where, err)}
	}
	lp, err := fun.Language.Adopt(p.File, p, lang.LoadOptions{})
	if err != nil {
		return []string{err.Error()}
	}
	lq, err := funmem.Language.Adopt(q.File, q, lang.LoadOptions{})
	if err != nil {
		return []string{err.Error()}
	}
	var msgs []string
	for _, c := range cases {
		at := fmt.Sprintf("%s, case at line %d", where, c.Line)
		rp, errp := lp.Run(lang.RunOptions{Semantics: "big", Args: c.Args})
		for _, sem := range []string{"heap", "small"} {
			rq, errq := lq.Run(lang.RunOptions{Semantics: sem, Args: c.Args})
			switch {
			case errp == nil && errq == nil:
				if a, b := strings.Join(rp.Lines, " "), strings.Join(rq.Lines, " "); a != b {
					msgs = append(msgs, fmt.Sprintf("%s: %s gives { %s }, FUN { %s }", at, sem, b, a))
				}
				if c.Error == nil && strings.Join(rq.Lines, " ") != strings.Join(c.Output, " ") {
					msgs = append(msgs, fmt.Sprintf("%s: %s gives { %s }, the case expects { %s }", at, sem, strings.Join(rq.Lines, " "), strings.Join(c.Output, " ")))
				}
			case errp != nil && errq != nil:
				if errKind(errp) != errKind(errq) {
					msgs = append(msgs, fmt.Sprintf("%s: %s goes wrong with %v, FUN with %v", at, sem, errq, errp))
				}
			case errq != nil:
				msgs = append(msgs, fmt.Sprintf("%s: %s goes wrong (%v), FUN gives { %s }", at, sem, errq, strings.Join(rp.Lines, " ")))
			default:
				msgs = append(msgs, fmt.Sprintf("%s: %s gives { %s }, FUN goes wrong (%v)", at, sem, strings.Join(rq.Lines, " "), errp))
			}
		}
		if errp == nil {
			if _, err := funmem.CheckValidity(q, c.Args); err != nil {
				msgs = append(msgs, fmt.Sprintf("%s: %v", at, err))
			}
		}
	}
	return msgs
}

// errKind is an error's kind (stuck, race, bad input, …).
func errKind(err error) string {
	if se, ok := err.(*semantics.Error); ok {
		return fmt.Sprint(se.Kind)
	}
	return "other"
}

// rewriteExpanded rewrites, in the chunked file at path, the part of
// every chunk after its mark line (added when missing) with what the test
// gets, until the file stays as it is (passtest.RewriteStable).
func rewriteExpanded(t *testing.T, path string) {
	passtest.RewriteStable(t, path, expandedMark, func(t *testing.T, path string) map[int]string {
		got := map[int]string{}
		for _, c := range golden.Read(t, path, "--") {
			if c.OnlyComments() {
				continue
			}
			src, _, _ := strings.Cut(c.Src, "\n"+expandedMark+"\n")
			got[c.Line] = renderExpanded(loadChunk(t, c.File, src))
		}
		return got
	})
}
