package fun_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/lang"
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
		rewriteStable(t, path, slicedMark, sliceChunks)
	}
	for _, c := range golden.Read(t, path, "--") {
		t.Run(c.Name(), func(t *testing.T) {
			src, want := expected(t, c, slicedMark)
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
func sliceChunk(t *testing.T, file, src string) (*fun.Program, *fun.Program, *fun.SliceReport) {
	t.Helper()
	p, err := fun.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	q, rep := fun.SliceSizes(p)
	return p, q, rep
}

// render is the expected part of a chunk: the program, then the report as
// comments.
func render(q *fun.Program, rep *fun.SliceReport) string {
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

// rewrite replaces, in the chunked file, the part of each chunk after its
// mark line ("-- sliced:", "-- fused:"; added when missing) by what the
// test got, by the chunk's first line. The golden files of the passes
// (slice.txt, fuse.txt) share it.
// rewriteStable rewrites the golden file at path with what chunks
// computes of it until the file stays as it is: a rewritten expected part
// of another length moves the chunks after it, and the positions in their
// notes.
func rewriteStable(t *testing.T, path, mark string, chunks func(*testing.T, string) map[int]string) {
	for round := 0; round < 4; round++ {
		before, _ := os.ReadFile(path)
		rewrite(t, path, mark, chunks(t, path))
		if after, _ := os.ReadFile(path); string(after) == string(before) {
			return
		}
	}
}

// expected splits a golden chunk at its mark line into the program and
// the expected part.
func expected(t *testing.T, c *golden.Chunk, mark string) (src, want string) {
	t.Helper()
	src, want, ok := strings.Cut(c.Src, "\n"+mark+"\n")
	if !ok {
		t.Fatalf("%s:%d: no %q line", c.File, c.Line, mark)
	}
	return src, want
}

func rewrite(t *testing.T, path, mark string, got map[int]string) {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var out []string
	start := 0
	flush := func(end int) {
		chunk := lines[start:end]
		body := chunk
		for i, l := range chunk {
			if l == mark {
				body = chunk[:i]
				break
			}
		}
		out = append(out, body...)
		if g, ok := got[start+1]; ok {
			for len(out) > 0 && strings.TrimSpace(out[len(out)-1]) == "" {
				out = out[:len(out)-1]
			}
			out = append(out, mark)
			out = append(out, strings.Split(strings.TrimSuffix(g, "\n"), "\n")...)
		}
	}
	for i, l := range lines {
		if l == "---" {
			flush(i)
			out = append(out, "---")
			start = i + 1
		}
	}
	flush(len(lines))
	if err := os.WriteFile(path, []byte(strings.Join(out, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// sameRuns runs each case on p and on q (its sliced program), under both
// semantics, and says where they differ: in their values, in whether they
// get stuck, or from what the case expects (strict: a stuck case's error
// must match the case's pattern after slicing too). It also checks q's
// printed form, and when FUN counts costs, the report's overhead bound.
func sameRuns(p, q *fun.Program, rep *fun.SliceReport, cases []*check.Case, strict bool) []string {
	errOf := func(_, errq error) error { return errq }
	if !strict {
		errOf = nil
	}
	return runsAgree(p, q, "sliced", cases, errOf, func(where string, countsCosts bool, sp, sq *semantics.Stats) []string {
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

// runsAgree checks q, what a pass (done: "sliced", "fused") made of p:
// that it type checks and prints back, and that each case, run on p and on
// q under both semantics, gives the same values (and the case's), or gets
// stuck in both with errors of one kind. errOf, when set, picks the error
// (of p's run or q's) that must match the case's expected pattern; costs
// says what is wrong with the cost counters of a pair of runs that ended
// (nil when a run gave none).
func runsAgree(p, q *fun.Program, done string, cases []*check.Case, errOf func(errp, errq error) error, costs func(where string, countsCosts bool, sp, sq *semantics.Stats) []string) []string {
	var msgs []string
	where := func(c *check.Case, sem string) string { return fmt.Sprintf("%s:%d (%s)", p.File, c.Line, sem) }
	if _, err := fun.Check(q, nil); err != nil {
		return []string{fmt.Sprintf("%s: the %s program does not type check: %v\n%s", p.File, done, err, fun.Print(q))}
	}
	if err := golden.RoundTrip(p.File, q, fun.Print, fun.ParseFile); err != nil {
		return []string{fmt.Sprintf("%s: the %s program does not print back: %v", p.File, done, err)}
	}
	lp, err := fun.Language.Adopt(p.File, p, lang.LoadOptions{})
	if err != nil {
		return []string{err.Error()}
	}
	lq, err := fun.Language.Adopt(q.File, q, lang.LoadOptions{})
	if err != nil {
		return []string{err.Error()}
	}
	for _, c := range cases {
		for _, sem := range []string{"big", "small"} {
			var sp, sq semantics.Stats
			rp, errp := lp.Run(lang.RunOptions{Semantics: sem, Args: c.Args, RunOptions: semantics.RunOptions{Stats: &sp}})
			rq, errq := lq.Run(lang.RunOptions{Semantics: sem, Args: c.Args, RunOptions: semantics.RunOptions{Stats: &sq}})
			switch {
			case errp == nil && errq == nil:
				if a, b := strings.Join(rp.Lines, " "), strings.Join(rq.Lines, " "); a != b {
					msgs = append(msgs, fmt.Sprintf("%s: %s gives { %s }, the program { %s }", where(c, sem), done, b, a))
				}
				if c.Error == nil && strings.Join(rq.Lines, " ") != strings.Join(c.Output, " ") {
					msgs = append(msgs, fmt.Sprintf("%s: %s gives { %s }, the case expects { %s }", where(c, sem), done, strings.Join(rq.Lines, " "), strings.Join(c.Output, " ")))
				}
				pp, qq := &sp, &sq
				if rp.Stats == nil || rq.Stats == nil {
					pp, qq = nil, nil
				}
				msgs = append(msgs, costs(where(c, sem), lang.CountsCosts(lq, sem), pp, qq)...)
			case errp != nil && errq != nil:
				if errOf != nil && c.Error != nil {
					if e := errOf(errp, errq); !c.Error.MatchString(e.Error()) {
						msgs = append(msgs, fmt.Sprintf("%s: gets stuck with %v, the case expects %q", where(c, sem), e, c.Error))
					}
				}
				if kind(errp) != kind(errq) {
					msgs = append(msgs, fmt.Sprintf("%s: %s gets stuck with %v, the program with %v", where(c, sem), done, errq, errp))
				}
			case errq != nil:
				msgs = append(msgs, fmt.Sprintf("%s: %s gets stuck (%v), the program gives { %s }", where(c, sem), done, errq, strings.Join(rp.Lines, " ")))
			default:
				msgs = append(msgs, fmt.Sprintf("%s: %s gives { %s }, the program gets stuck (%v)", where(c, sem), done, strings.Join(rq.Lines, " "), errp))
			}
		}
	}
	return msgs
}

// kind is an error's kind (stuck, bad input, …).
func kind(err error) string {
	if se, ok := err.(*semantics.Error); ok {
		return fmt.Sprint(se.Kind)
	}
	return "other"
}

// TestSliceExamples slices every program of examples/fun that type
// checks, and runs its -- == cases on it and on the sliced program.
func TestSliceExamples(t *testing.T) {
	eachExample(t, func(t *testing.T, p *fun.Program, spec *check.Spec) {
		before := fun.Print(p)
		q, rep := fun.SliceSizes(p)
		for _, msg := range sameRuns(p, q, rep, spec.Cases, true) {
			t.Error(msg)
		}
		if fun.Print(p) != before {
			t.Error("SliceSizes changed its input")
		}
	})
}

// eachExample runs f on every program of examples/fun that parses and
// type checks, with its -- == cases: the passes' example tests.
func eachExample(t *testing.T, f func(t *testing.T, p *fun.Program, spec *check.Spec)) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			p, err := fun.ParseFile(filepath.Base(file), string(src))
			if err != nil {
				t.Skip("does not parse (an example of an error)")
			}
			if _, err := fun.Check(p, nil); err != nil {
				t.Skip("does not type check (an example of an error)")
			}
			spec, err := check.ParseSpec(string(src), "--")
			if err != nil {
				t.Fatal(err)
			}
			f(t, p, spec)
		})
	}
}

// TestSliceKeepsInput checks that the pass does not change the program it
// is given, and gives the same result twice.
func TestSliceKeepsInput(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "fun", "matmul.fun"))
	if err != nil {
		t.Fatal(err)
	}
	p, err := fun.ParseFile("matmul.fun", string(src))
	if err != nil {
		t.Fatal(err)
	}
	before := fun.Print(p)
	q1, r1 := fun.SliceSizes(p)
	q2, r2 := fun.SliceSizes(p)
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
