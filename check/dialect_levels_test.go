package check

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// TestDialectLevels runs testdata/dialect_levels.txt: dynamic-dialect
// programs down the compile path, each compiled level checked against
// the interpreter (see the file's header): the same lines, the 64-bit
// overflow refusal, going wrong alike, or the compile path declining.
func TestDialectLevels(t *testing.T) {
	t.Parallel()
	golden.Run(t, filepath.Join("testdata", "dialect_levels.txt"), ";", func(c *golden.Chunk) error {
		var want []string
		verdict := ""
		for _, l := range strings.Split(c.Src, "\n") {
			if s, ok := strings.CutPrefix(l, "; ⇒ "); ok {
				want = append(want, s)
			}
			if s, ok := strings.CutPrefix(l, "; levels: "); ok {
				verdict = s
			}
		}
		if verdict == "" && c.ErrRe == nil {
			return nil // a note
		}
		// The chunk starts after line-1 newlines: the #lang line takes
		// the first, so positions stay those of the chunked file.
		src := "#lang remora/dynamic\n" + strings.TrimPrefix(c.Src, "\n")
		reg := NewRegistry()
		p, err := Load(reg, strings.TrimSuffix(c.File, ".txt")+".remora", src, Options{})
		if err != nil {
			return fmt.Errorf("load: %v", err)
		}
		levels, err := reg.Levels(p)
		if err != nil {
			return err
		}
		if c.ErrRe != nil {
			// The first pass that declines it (Elaborate, Inline, Lower).
			var d error
			for _, lv := range levels[1:] {
				if lv.Declined != nil {
					d = lv.Declined
					break
				}
			}
			if d == nil {
				return fmt.Errorf("compiled to every level; want it declined with %q", c.ErrRe)
			}
			var se *semantics.Error
			if !errors.As(d, &se) || se.Pos.Line != c.ErrLine || !c.ErrRe.MatchString(se.Msg) {
				return fmt.Errorf("declined with %v; want line %d and %q", d, c.ErrLine, c.ErrRe)
			}
			return nil
		}
		src0, err := p.Run(lang.RunOptions{})
		switch {
		case verdict == "stuck" && err == nil:
			return fmt.Errorf("the interpreter gives %v; want it stuck", src0.Lines)
		case verdict != "stuck" && err != nil:
			return fmt.Errorf("the interpreter: %v", err)
		case err == nil && !slices.Equal(src0.Lines, want):
			return fmt.Errorf("the interpreter gives %q, want %q", src0.Lines, want)
		}
		var refuse *regexp.Regexp
		either := false
		if re, ok := strings.CutPrefix(verdict, "refuse "); ok {
			refuse = regexp.MustCompile(re)
		}
		if re, ok := strings.CutPrefix(verdict, "agree or refuse "); ok {
			refuse, either = regexp.MustCompile(re), true
		}
		runs := 0
		for _, lv := range levels[1:] {
			if lv.Declined != nil {
				return fmt.Errorf("%s declined: %v", lv.Name, lv.Declined)
			}
			for _, sem := range lv.Program().Semantics() {
				row := run(lv.Stages, sem, nil)
				runs++
				where := lv.Name + " " + sem
				switch {
				case verdict == "agree" || either && row.Err == nil:
					if row.Err != nil {
						return fmt.Errorf("%s: %v", where, row.Err)
					}
					if !slices.Equal(row.Result.Lines, want) {
						return fmt.Errorf("%s gives %q, want %q", where, row.Result.Lines, want)
					}
				case verdict == "stuck":
					if kind(row.Err) != semantics.StuckError {
						return fmt.Errorf("%s: %v; want it stuck", where, outcome(row))
					}
					// Where the interpreter is: the construct's line and
					// column in the source, at every level.
					var se, want *semantics.Error
					if errors.As(row.Err, &se) && errors.As(err, &want) && (se.Pos.Line != want.Pos.Line || se.Pos.Col != want.Pos.Col) &&
						// A simulator's error quotes the program's.
						(se.Pos.IsValid() || !strings.Contains(row.Err.Error(), fmt.Sprintf(":%d:%d: ", want.Pos.Line, want.Pos.Col))) {
						return fmt.Errorf("%s: stuck at %d:%d, the interpreter at %d:%d: %v", where, se.Pos.Line, se.Pos.Col, want.Pos.Line, want.Pos.Col, row.Err)
					}
				case refuse != nil:
					if kind(row.Err) != semantics.OverflowError || !refuse.MatchString(row.Err.Error()) {
						return fmt.Errorf("%s: %v; want the overflow error %q", where, outcome(row), refuse)
					}
				default:
					return fmt.Errorf("unknown verdict %q", verdict)
				}
			}
		}
		if runs < 20 {
			return fmt.Errorf("only %d runs below the dialect", runs)
		}
		return nil
	})
}

// outcome is a row's error or its lines, for messages.
func outcome(r Row) string {
	if r.Err != nil {
		return r.Err.Error()
	}
	return fmt.Sprintf("%q", r.Result.Lines)
}
