// Package passtest holds what the tests of FUN's passes (fun/slice,
// fun/fuse) share: their chunked golden files with a program and what the
// pass made of it (Expected, RewriteStable), the comparison of a pass's
// program with its input on the cases of a test block (RunsAgree), and
// the examples they run on (EachExample). Only tests import it.
package passtest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// RewriteStable rewrites the golden file at path with what chunks
// computes of it until the file stays as it is: a rewritten expected part
// of another length moves the chunks after it, and the positions in their
// notes.
func RewriteStable(t *testing.T, path, mark string, chunks func(*testing.T, string) map[int]string) {
	for round := 0; round < 4; round++ {
		before, _ := os.ReadFile(path)
		rewrite(t, path, mark, chunks(t, path))
		if after, _ := os.ReadFile(path); string(after) == string(before) {
			return
		}
	}
}

// Expected splits a golden chunk at its mark line into the program and
// the expected part.
func Expected(t *testing.T, c *golden.Chunk, mark string) (src, want string) {
	t.Helper()
	src, want, ok := strings.Cut(c.Src, "\n"+mark+"\n")
	if !ok {
		t.Fatalf("%s:%d: no %q line", c.File, c.Line, mark)
	}
	return src, want
}

// rewrite replaces, in the chunked file, the part of each chunk after its
// mark line ("-- sliced:", "-- fused:"; added when missing) by what the
// test got, by the chunk's first line.
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

// RunsAgree checks q, what a pass (done: "sliced", "fused") made of p:
// that it type checks and prints back, and that each case, run on p and on
// q under both semantics, gives the same values (and the case's), or gets
// stuck in both with errors of one kind. errOf, when set, picks the error
// (of p's run or q's) that must match the case's expected pattern; costs
// says what is wrong with the cost counters of a pair of runs that ended
// (nil when a run gave none).
func RunsAgree(p, q *fun.Program, done string, cases []*check.Case, errOf func(errp, errq error) error, costs func(where string, countsCosts bool, sp, sq *semantics.Stats) []string) []string {
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

// EachExample runs f on every program of examples/fun that parses and
// type checks, with its -- == cases: the passes' example tests (root is
// the repository's root).
func EachExample(t *testing.T, root string, f func(t *testing.T, p *fun.Program, spec *check.Spec)) {
	files, err := filepath.Glob(filepath.Join(root, "examples", "fun", "*.fun"))
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
