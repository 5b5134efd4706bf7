package imp

import (
	"errors"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"

	"github.com/arraysem/arraysem/semantics"
)

// The chunked golden files testdata/parse.txt and testdata/check.txt are
// read by package golden (internal/golden), which documents their format.

// TestParseGolden runs testdata/parse.txt: a chunk with an expected error
// must fail to parse with it; any other must parse, print, and parse back
// to the same printed text and the same tree.
func TestParseGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "parse.txt"), "--", func(c *golden.Chunk) error {
		p, err := ParseFile(c.File, c.Src)
		if c.ErrRe != nil {
			return c.ExpectError(err, semantics.SyntaxError)
		}
		if err != nil {
			return fmt.Errorf("parse: %v", err)
		}
		return golden.RoundTrip(c.File, p, Print, ParseFile)
	})
}

// TestCheckGolden runs testdata/check.txt: every chunk must parse; a chunk
// with an expected error must fail checking with it, any other must pass
// and apply the rules its rules markers list. A failing chunk's error
// carries the derivation down to the rule that failed (check --derive):
// rooted at IMP-PROG, its failing leaf the error's rule, ✗ and its
// message.
func TestCheckGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "check.txt"), "--", func(c *golden.Chunk) error {
		counter, err := checkImpChunk(c)
		if c.ErrRe != nil {
			if err := c.ExpectError(err, semantics.TypeError); err != nil {
				return err
			}
			return golden.ExpectFailedDerivation(err, ImpProg.Name)
		}
		if err != nil {
			return err
		}
		return c.ExpectRules(counter)
	})
}

// checkImpChunk parses and checks a chunk, building its derivation and
// counting the rules applied. A chunk that does not parse is an error of
// the test file.
func checkImpChunk(c *golden.Chunk) (semantics.Counter, error) {
	p, err := ParseFile(c.File, c.Src)
	if err != nil {
		return nil, fmt.Errorf("the chunk does not parse: %v", err)
	}
	counter := semantics.Counter{}
	return counter, CheckWith(p, CheckOptions{Paper: c.Paper, Derive: true, Counter: counter})
}

// TestCheckGoldenCoverage checks that check.txt fails in each of the
// checker's rules, IMP-SCOPE, IMP-TYPE and the extensions' (which refuse
// their forms in paper mode), and has passing chunks.
func TestCheckGoldenCoverage(t *testing.T) {
	failed := map[string]bool{}
	passed := 0
	for _, c := range golden.Read(t, filepath.Join("testdata", "check.txt"), "--") {
		if c.Bug != "" {
			continue
		}
		_, err := checkImpChunk(c)
		var se *semantics.Error
		switch {
		case err == nil && c.ErrRe == nil:
			passed++
		case errors.As(err, &se) && c.ErrRe != nil:
			failed[se.Rule] = true
		}
	}
	for _, r := range []string{ImpScope.Name, ImpType.Name, ImpFor.Name, ImpAssert.Name, ImpReduce.Name, ImpScan.Name, ImpFloat.Name} {
		if !failed[r] {
			t.Errorf("no failing chunk of check.txt fails in %s", r)
		}
	}
	if passed == 0 {
		t.Errorf("no chunk of check.txt passes")
	}
}

// TestCheckGoldenParses checks that every chunk of check.txt parses and
// prints back (check.txt is parser input too), and that checking the
// printed program gives the same verdict (printing keeps scopes).
func TestCheckGoldenParses(t *testing.T) {
	for _, c := range golden.Read(t, filepath.Join("testdata", "check.txt"), "--") {
		p, err := ParseFile(c.File, c.Src)
		if err != nil {
			t.Errorf("%s:%d: %v", c.File, c.Line, err)
			continue
		}
		if err := golden.RoundTrip(c.File, p, Print, ParseFile); err != nil {
			t.Errorf("%s:%d: %v", c.File, c.Line, err)
			continue
		}
		q, _ := ParseFile(c.File, Print(p))
		e1, e2 := Check(p, nil), Check(q, nil)
		if (e1 == nil) != (e2 == nil) || (e1 != nil && ruleOf(e1)+msgOf(e1) != ruleOf(e2)+msgOf(e2)) {
			t.Errorf("%s:%d: checking the printed program gives %v, the chunk %v", c.File, c.Line, e2, e1)
		}
	}
}

func ruleOf(err error) string {
	var se *semantics.Error
	if errors.As(err, &se) {
		return se.Rule
	}
	return ""
}

func msgOf(err error) string {
	var se *semantics.Error
	if errors.As(err, &se) {
		return se.Msg
	}
	return err.Error()
}
