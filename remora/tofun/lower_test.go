package tofun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// runLowered checks a lowered program with FUN's checker, prints it and
// reads it back (the printed program is what the later levels get), runs
// it by FUN's big-step and small-step semantics, which must agree, and
// decodes its results.
func runLowered(prog *fun.Program, types []*remora.Arr) ([]string, error) {
	src := fun.Print(prog)
	if _, err := fun.Check(prog, nil); err != nil {
		return nil, fmt.Errorf("FUN's checker refuses the lowered program: %v\n%s", err, src)
	}
	q, err := fun.ParseFile("lowered.fun", src)
	if err != nil {
		return nil, fmt.Errorf("the printed program does not parse back: %v\n%s", err, src)
	}
	if _, err := fun.Check(q, nil); err != nil {
		return nil, fmt.Errorf("FUN's checker refuses the printed program: %v\n%s", err, src)
	}
	// The big-step runs the tree Lower made (its positions are the Remora
	// program's), the small-step the printed program read back.
	vals, _, err := fun.Eval(prog, nil, nil)
	small, _, serr := fun.RunSmall(q, nil, nil)
	if (err == nil) != (serr == nil) {
		return nil, fmt.Errorf("FUN's big-step (%v) and small-step (%v) disagree\n%s", err, serr, src)
	}
	if err != nil {
		return nil, &runError{err}
	}
	for i := range vals {
		if !semantics.Equal(vals[i], small[i]) {
			return nil, fmt.Errorf("FUN's big-step and small-step disagree on result %d: %s and %s\n%s", i+1, vals[i], small[i], src)
		}
	}
	lines, err := Decode(types, vals)
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, src)
	}
	return lines, nil
}

// runError is a lowered program that went wrong when run.
type runError struct{ err error }

func (e *runError) Error() string { return "FUN run: " + e.err.Error() }
func (e *runError) Unwrap() error { return e.err }

// expected reads the chunk's "; ⇒ line" comments, in order; "; ⇒ stuck"
// says the program goes wrong when run.
func expected(src string) (lines []string, stuck bool) {
	for _, l := range strings.Split(src, "\n") {
		if _, rest, ok := strings.Cut(l, "; ⇒ "); ok {
			rest = strings.TrimSpace(rest)
			if rest == "stuck" {
				stuck = true
				continue
			}
			lines = append(lines, rest)
		}
	}
	return lines, stuck
}

// compare lowers the checked program p, runs it, and compares its lines
// with remora's big-step evaluator on p and with want (when given): the
// same values, or both going wrong.
func compare(p *remora.Program, want []string, stuck bool) error {
	prog, err := Lower(p)
	if err != nil {
		return err
	}
	got, ferr := runLowered(prog, p.Types)
	if ferr != nil {
		if _, ok := ferr.(*runError); !ok {
			return ferr
		}
	}
	vs, rerr := remora.Eval(p, nil)
	switch {
	case rerr != nil && ferr != nil:
		if !stuck && want != nil {
			return fmt.Errorf("both went wrong, but the chunk expects values: remora: %v; %v", rerr, ferr)
		}
		// FUN's statements are placed at the Remora constructs they were
		// made for: both go wrong at the same place.
		var re, fe *semantics.Error
		if !errors.As(rerr, &re) || !errors.As(ferr, &fe) || re.Pos.File != fe.Pos.File || re.Pos.Line != fe.Pos.Line {
			return fmt.Errorf("both went wrong, but not on one line: remora: %v; %v", rerr, ferr)
		}
		return nil
	case rerr != nil:
		return fmt.Errorf("remora went wrong (%v) but FUN gave %q\n%s", rerr, got, fun.Print(prog))
	case ferr != nil:
		return fmt.Errorf("FUN went wrong (%v) but remora gave %q\n%s", ferr, remora.ValueLines(vs), fun.Print(prog))
	}
	if stuck {
		return fmt.Errorf("expected both to go wrong, got %q", got)
	}
	rl := remora.ValueLines(vs)
	if strings.Join(got, "\n") != strings.Join(rl, "\n") {
		return fmt.Errorf("FUN gave %q, remora %q\n%s", got, rl, fun.Print(prog))
	}
	if want != nil && strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("got %q, the chunk expects %q", got, want)
	}
	return nil
}

// lowerChunk runs one chunk of an IR golden file: parsed and checked,
// refused by Lower on the marker's line when it has one, else lowered and
// compared (see compare) with its "; ⇒" lines, which it must give when
// needLines is set.
func lowerChunk(c *golden.Chunk, needLines bool) error {
	p, _, err := remora.ParseFile(c.File, c.Src)
	if err != nil {
		return err
	}
	if _, err := remora.Check(p, nil); err != nil {
		return err
	}
	if c.ErrRe != nil {
		_, err := Lower(p)
		return c.ExpectError(err, semantics.TypeError)
	}
	want, stuck := expected(c.Src)
	if needLines && want == nil && !stuck {
		return fmt.Errorf("the chunk gives no expected lines")
	}
	return compare(p, want, stuck)
}

// TestLowerGolden runs testdata/lower.txt: every chunk is a Remora IR
// program that parses and type checks; it is lowered to FUN, checked by
// FUN's checker, printed and read back, run, and decoded, and its lines
// must be the chunk's "; ⇒" lines and remora's evaluator's; a chunk with
// an error marker must be refused by Lower on that line.
func TestLowerGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "lower.txt"), ";", func(c *golden.Chunk) error { return lowerChunk(c, true) })
}

// TestLowerExamples runs testdata/examples.txt, programs of
// examples/remora written by hand in the inlined IR, as TestLowerGolden
// runs lower.txt; and Lower on every program of examples/remora that type
// checks, as it is: it must compute what remora's evaluator computes (or
// go wrong as it does), or refuse it (most refusals are functions, which
// Inline removes: TestCompilePathExamples runs the whole path).
func TestLowerExamples(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "examples.txt"), ";", func(c *golden.Chunk) error { return lowerChunk(c, false) })
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "remora", "*.remora"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p, _, err := remora.ParseFile(f, string(src))
			if err != nil {
				return
			}
			if _, err := remora.Check(p, nil); err != nil {
				return // an example of a type error
			}
			err = compare(p, nil, false)
			var se *semantics.Error
			if err != nil && !(errors.As(err, &se) && se.Rule == Rule && !strings.HasPrefix(se.Msg, InternalError)) {
				t.Error(err)
			}
		})
	}
}
