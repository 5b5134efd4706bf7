package fuse_test

import (
	"flag"
	"fmt"
	"github.com/arraysem/arraysem/fun/fuse"
	"github.com/arraysem/arraysem/internal/passtest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// fusedMark separates a chunk of testdata/fuse.txt from what Fuse makes
// of it.
const fusedMark = "-- fused:"

// fuseUpdating reports whether the expected parts of testdata/fuse.txt are
// to be rewritten: go test ./fun -run TestFuseGolden -update (the flag
// slice_test.go defines), or FUSE_UPDATE=1 in the environment.
func fuseUpdating() bool {
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		return true
	}
	return os.Getenv("FUSE_UPDATE") == "1"
}

// A chunk of testdata/fuse.txt is a FUN program with a -- == block of
// cases (check.ParseSpec's format), then a line "-- fused:", the program
// Fuse makes of it (as fun.Print prints it), and its report as comments.
// In the program, a producer's line may end in a comment that states the
// decision expected about it, which the report must contain on that line:
//
//	-- fused            fused (into anything)
//	-- kept             kept, for a reason that is no case of Fig 9
//	-- kept (case N)    kept, for case N of Fig 9
//
// and a comment line "-- unsafe: N …" runs the pass fusing in those cases
// of Fig 9 anyway (FuseOptions.Unsafe), which must then cost more
// operations in some case, once FUN counts them.
var intentRe = regexp.MustCompile(`--\s*(fused|kept)(?:\s*\(case (\d)\))?\s*$`)

// TestFuseGolden runs testdata/fuse.txt. The fused program must be the one
// expected, type check, print and parse back, and give every case the
// values the program gives (or get stuck where it does), those the case
// expects; its cost counters must be no larger (when FUN counts them).
// With -update the expected parts are rewritten.
func TestFuseGolden(t *testing.T) {
	path := filepath.Join("testdata", "fuse.txt")
	if fuseUpdating() {
		passtest.RewriteStable(t, path, fusedMark, fuseChunks)
	}
	for _, c := range golden.Read(t, path, "--") {
		t.Run(c.Name(), func(t *testing.T) {
			src, want := passtest.Expected(t, c, fusedMark)
			p, q, rep, opts := fuseChunk(t, c.File, src)
			if out := fuseRender(q, rep); strings.TrimSpace(out) != strings.TrimSpace(want) {
				t.Errorf("%s:%d: fused program and report differ (go test ./fun -run TestFuseGolden -update rewrites them)\ngot:\n%s\nwant:\n%s", c.File, c.Line, out, want)
			}
			for _, msg := range fuseIntents(src, rep) {
				t.Errorf("%s: %s", c.File, msg)
			}
			spec, err := check.ParseSpec(src, "--")
			if err != nil {
				t.Fatal(err)
			}
			if len(spec.Cases) == 0 {
				t.Fatalf("%s:%d: no -- == cases", c.File, c.Line)
			}
			for _, msg := range fuseSameRuns(p, q, spec.Cases, len(opts.Unsafe) > 0) {
				t.Error(msg)
			}
		})
	}
}

// fuseChunks fuses the program of every chunk of a chunked file: what
// each chunk's expected part should be, by the line the chunk starts on.
func fuseChunks(t *testing.T, path string) map[int]string {
	got := map[int]string{}
	for _, c := range golden.Read(t, path, "--") {
		src, _, _ := strings.Cut(c.Src, "\n"+fusedMark+"\n")
		_, q, rep, _ := fuseChunk(t, c.File, src)
		got[c.Line] = fuseRender(q, rep)
	}
	return got
}

// fuseChunk parses, checks and fuses a chunk's program, with the options
// its "-- unsafe:" line asks for.
func fuseChunk(t *testing.T, file, src string) (*fun.Program, *fun.Program, *fuse.Report, fuse.Options) {
	t.Helper()
	p, err := fun.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	var opts fuse.Options
	for _, l := range strings.Split(src, "\n") {
		if rest, ok := strings.CutPrefix(strings.TrimSpace(l), "-- unsafe:"); ok {
			for _, w := range strings.Fields(rest) {
				k, err := strconv.Atoi(w)
				if err != nil {
					t.Fatalf("bad unsafe line %q", l)
				}
				opts.Unsafe = append(opts.Unsafe, k)
			}
		}
	}
	q, rep := fuse.Fuse(p, opts)
	return p, q, rep, opts
}

// fuseRender is the expected part of a chunk: the fused program, then the
// report as comments.
func fuseRender(q *fun.Program, rep *fuse.Report) string {
	var b strings.Builder
	b.WriteString(fun.Print(q))
	if len(rep.Notes) == 0 {
		b.WriteString("-- notes: none\n")
		return b.String()
	}
	b.WriteString("-- notes:\n")
	for _, n := range rep.Notes {
		b.WriteString("--   " + n.String() + "\n")
	}
	return b.String()
}

// fuseIntents checks the decisions the program's comments expect against
// the report.
func fuseIntents(src string, rep *fuse.Report) []string {
	var msgs []string
	byLine := map[int][]fuse.Note{}
	for _, n := range rep.Notes {
		byLine[n.Pos.Line] = append(byLine[n.Pos.Line], n)
	}
	for i, l := range strings.Split(src, "\n") {
		line := i + 1
		if strings.HasPrefix(strings.TrimSpace(l), "--") {
			continue
		}
		m := intentRe.FindStringSubmatch(l)
		notes := byLine[line]
		if m == nil {
			for _, n := range notes {
				msgs = append(msgs, fmt.Sprintf("line %d: a note without an expected decision (end the line in -- fused or -- kept): %s", line, n.Msg))
			}
			continue
		}
		if len(notes) == 0 {
			msgs = append(msgs, fmt.Sprintf("line %d: expected %s, but no note is on this line", line, strings.TrimSpace(m[0][2:])))
		}
		fig, _ := strconv.Atoi(m[2])
		for _, n := range notes {
			if n.Fused != (m[1] == "fused") || (m[1] == "kept" && n.Case != fig) {
				msgs = append(msgs, fmt.Sprintf("line %d: expected %s, but: %s", line, strings.TrimSpace(m[0][2:]), n.Msg))
			}
		}
	}
	return msgs
}

// fuseSameRuns runs each case on p and on q (its fused program), under
// both semantics, and says where they differ: in their values, in whether
// they get stuck, from what the case expects, or (when FUN counts costs)
// in a cost counter of q above p's. With unsafe (the pass was told to
// duplicate work) q must instead run more operations than p in some case.
func fuseSameRuns(p, q *fun.Program, cases []*check.Case, unsafe bool) []string {
	counted, costlier := false, false
	msgs := passtest.RunsAgree(p, q, "fused", cases, func(errp, _ error) error { return errp }, func(where string, _ bool, sp, sq *semantics.Stats) []string {
		if sp == nil || sq == nil {
			return nil
		}
		counted = true
		costlier = costlier || sq.Ops > sp.Ops
		if unsafe {
			return nil
		}
		return fuseCosts(where, *sp, *sq)
	})
	if unsafe && counted && !costlier {
		msgs = append(msgs, fmt.Sprintf("%s: fused in an unsafe case, but no case runs more operations", p.File))
	}
	return msgs
}

// fuseCosts says which cost counters of a fused run (q) exceed the
// unfused run's (p).
func fuseCosts(where string, p, q semantics.Stats) []string {
	var msgs []string
	for _, c := range []struct {
		name string
		p, q int64
	}{{"operations", p.Ops, q.Ops}, {"words", p.Words, q.Words}, {"peak words", p.PeakWords, q.PeakWords}, {"kernel launches", p.Kernels, q.Kernels}} {
		if c.q > c.p {
			msgs = append(msgs, fmt.Sprintf("%s: fused costs %d %s, the program %d", where, c.q, c.name, c.p))
		}
	}
	return msgs
}

// TestFuseExamples fuses every program of examples/fun that type checks,
// and runs its -- == cases on it and on the fused program.
func TestFuseExamples(t *testing.T) {
	passtest.EachExample(t, "../..", func(t *testing.T, p *fun.Program, spec *check.Spec) {
		before := fun.Print(p)
		q, _ := fuse.Fuse(p, fuse.Options{})
		for _, msg := range fuseSameRuns(p, q, spec.Cases, false) {
			t.Error(msg)
		}
		if fun.Print(p) != before {
			t.Error("Fuse changed its input")
		}
		// A second pass finds nothing more.
		r, rep := fuse.Fuse(q, fuse.Options{})
		if fun.Print(r) != fun.Print(q) || rep.Fused() > 0 {
			t.Errorf("fusing the fused program again changes it:\n%s", rep)
		}
	})
}

// TestFuseAPI checks what Fuse promises beside fusing: a program that does
// not type check comes back unchanged with an empty report, the report
// prints one note a line as file:line:col: message, and fusing does not
// change the program it is given.
func TestFuseAPI(t *testing.T) {
	bad, err := fun.ParseFile("bad.fun", "let (x : [n]) = iota n\nin (x)\n")
	if err != nil {
		t.Fatal(err)
	}
	q, rep := fuse.Fuse(bad, fuse.Options{})
	if q != bad || len(rep.Notes) != 0 || rep.String() != "" {
		t.Errorf("an ill-typed program: got %p (want %p) and notes %q", q, bad, rep)
	}
	src := "input (n : int) (xs : [n])\nlet (ys : [n]) = kernel i <= n do\n  let (v : int) = xs[i]\n  let (w : int) = v + 1\n  in (w)\n" +
		"let (zero : int) = 0\nlet (s : int) = reduce (a : int) (b : int) = zero over ys do\n  let (c : int) = a + b\n  in (c)\nin (s)\n"
	p, err := fun.ParseFile("api.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	q, rep = fuse.Fuse(p, fuse.Options{})
	if fun.Print(p) != fun.Print(fun.CloneProgram(p)) || !strings.Contains(fun.Print(p), "reduce") {
		t.Error("Fuse changed its input")
	}
	want := "api.fun:2:18: fused ys (kernel) into s (reduce at 7:17), making a redomap\n"
	if rep.String() != want || rep.Fused() != 1 || !rep.Notes[0].Fused || rep.Notes[0].Var != "ys" {
		t.Errorf("report:\n%s\nwant:\n%s", rep, want)
	}
	if !strings.Contains(fun.Print(q), "redomap (a : int) (b : int) = zero for i <= n do") {
		t.Errorf("fused:\n%s", fun.Print(q))
	}
}
