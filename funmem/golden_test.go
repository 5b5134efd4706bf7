package funmem

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
// with an expected error must fail type checking with it, any other must
// pass and apply the rules its rules markers list.
func TestCheckGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "check.txt"), "--", func(c *golden.Chunk) error {
		_, counter, err := checkMemChunk(c)
		if c.ErrRe != nil {
			if err := c.ExpectError(err, semantics.TypeError); err != nil {
				return err
			}
			return golden.ExpectFailedDerivation(err, TMemProg.Name)
		}
		if err != nil {
			return err
		}
		return c.ExpectRules(counter)
	})
}

// checkMemChunk parses and type checks a chunk, counting the rules
// applied. A chunk that does not parse is an error of the test file.
func checkMemChunk(c *golden.Chunk) (*Info, semantics.Counter, error) {
	p, err := ParseFile(c.File, c.Src)
	if err != nil {
		return nil, nil, fmt.Errorf("the chunk does not parse: %v", err)
	}
	counter := semantics.Counter{}
	info, err := Check(p, &CheckOptions{Paper: c.Paper, Derive: true, Counter: counter})
	if err == nil && info.Derivation == nil {
		return info, counter, fmt.Errorf("the checker accepted the chunk but built no derivation")
	}
	return info, counter, err
}

// fig8Rules are the type rules of Fig 8, the derived forms' rules, and the
// scalar rules of Fig 3 that Fig 8 reuses.
var fig8Rules = []string{"T-MEM-SCALAR", "T-MEM-ALLOC", "T-MEM-INDEX", "T-MEM-IF", "T-MEM-TRANSPOSE",
	"T-MEM-SLICE", "T-MEM-KERNEL", "T-MEM-RESULT", "T-MEM-STM", "T-MEM-LMAD", "T-MEM-INT",
	"T-MEM-ARRAY", "T-MEM-PROG", "T-MEM-IOTA", "T-MEM-COPY", "T-CONST", "T-VAR", "T-OP"}

// axiomRules are the rules that cannot fail on their own: T-MEM-INT and
// T-CONST are axioms, and T-OP fails only in its premises (T-VAR).
var axiomRules = map[string]bool{"T-MEM-INT": true, "T-CONST": true, "T-OP": true}

// TestCheckGoldenCoverage checks that check.txt exercises every rule of
// Fig 8 in a passing chunk, and every rule that can fail in a failing one.
func TestCheckGoldenCoverage(t *testing.T) {
	passed := semantics.Counter{}
	failed := map[string]bool{}
	for _, c := range golden.Read(t, filepath.Join("testdata", "check.txt"), "--") {
		if c.Bug != "" {
			continue
		}
		_, counter, err := checkMemChunk(c)
		var se *semantics.Error
		switch {
		case err == nil && c.ErrRe == nil:
			passed.Add(counter)
		case errors.As(err, &se) && c.ErrRe != nil:
			failed[se.Rule] = true
		}
	}
	for _, r := range fig8Rules {
		if passed[r] == 0 {
			t.Errorf("no passing chunk of check.txt applies %s", r)
		}
		if !axiomRules[r] && !failed[r] {
			t.Errorf("no failing chunk of check.txt fails in %s", r)
		}
	}
}

// TestCheckGoldenParses checks that every chunk of check.txt parses and
// prints back (check.txt is parser input too).
func TestCheckGoldenParses(t *testing.T) {
	for _, c := range golden.Read(t, filepath.Join("testdata", "check.txt"), "--") {
		p, err := ParseFile(c.File, c.Src)
		if err != nil {
			t.Errorf("%s:%d: %v", c.File, c.Line, err)
			continue
		}
		if err := golden.RoundTrip(c.File, p, Print, ParseFile); err != nil {
			t.Errorf("%s:%d: %v", c.File, c.Line, err)
		}
	}
}
