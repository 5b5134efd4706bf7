package imp_test

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

const simplifiedMark = "-- simplified:"

// TestSimplifyGolden runs testdata/simplify.txt (its header says what a
// chunk holds): the simplified program is the one expected, type checks,
// parses back, and the program and it give every case what it expects,
// under every semantics of IMP.
func TestSimplifyGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "simplify.txt"), "--", func(c *golden.Chunk) error {
		src, want, ok := strings.Cut(c.Src, "\n"+simplifiedMark+"\n")
		if !ok {
			return fmt.Errorf("no %q line", simplifiedMark)
		}
		p, err := imp.ParseFile(c.File, src)
		if err != nil {
			return err
		}
		if err := imp.Check(p, nil); err != nil {
			return err
		}
		q := imp.Simplify(p)
		if err := imp.Check(q, nil); err != nil {
			return fmt.Errorf("the simplified program does not check: %v", err)
		}
		got := imp.Print(q)
		if strings.TrimSpace(got) != strings.TrimSpace(want) {
			return fmt.Errorf("simplified:\n%s\nwant:\n%s", got, want)
		}
		if err := golden.RoundTrip(c.File, q, imp.Print, imp.ParseFile); err != nil {
			return err
		}
		spec, err := check.ParseSpec(src, "--")
		if err != nil || len(spec.Cases) == 0 {
			return fmt.Errorf("no cases: %v", err)
		}
		reg := check.NewRegistry()
		for name, text := range map[string]string{"program": src, "simplified": got} {
			l, err := check.Load(reg, c.File, text, check.Options{Lang: imp.Language.Name()})
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			for _, k := range spec.Cases {
				for _, sem := range l.Semantics() {
					r, err := l.Run(lang.RunOptions{Semantics: sem, Args: k.Args})
					if msg := expect(k, r, err); msg != "" {
						return fmt.Errorf("%s, case of line %d, %s: %s", name, c.Line+k.Line-1, sem, msg)
					}
				}
			}
		}
		return nil
	})
}

// expect is what is wrong with a run's outcome for case k: "" when it
// gives the values, or goes wrong with the error (in a rule: a stuck
// state), that k expects.
func expect(k *check.Case, r *lang.Result, err error) string {
	if k.Error != nil {
		var se *semantics.Error
		if !errors.As(err, &se) || !se.Kind.Stuck() || !k.Error.MatchString(err.Error()) {
			return fmt.Sprintf("want a stuck state matching %q, got %v", k.Error, err)
		}
		return ""
	}
	if err != nil {
		return "unexpected error: " + err.Error()
	}
	if got, want := strings.Join(r.Lines, " "), strings.Join(k.Output, " "); got != want {
		return fmt.Sprintf("got { %s }, want { %s }", got, want)
	}
	return ""
}
