package fun

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
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
		for line, want := range c.Parens {
			got, ok := scalarOnLine(p.Body, line)
			if !ok {
				return fmt.Errorf("line %d: no let of a scalar expression starts on this line", line)
			}
			if got != want {
				return fmt.Errorf("line %d: parsed as %s, want %s", line, got, want)
			}
		}
		return golden.RoundTrip(c.File, p, Print, ParseFile)
	})
}

// scalarOnLine finds the let statement starting on line whose expression
// is a scalar expression (or an assert's condition), anywhere in b, and
// renders it fully parenthesised.
func scalarOnLine(b *Body, line int) (string, bool) {
	for _, s := range b.Stms {
		if se, ok := s.Exp.(*ScalarExp); ok && s.Let.Line == line {
			return parenSExp(se.X), true
		}
		if a, ok := s.Exp.(*AssertExp); ok && s.Let.Line == line {
			return parenSExp(a.Cond), true
		}
		var inner []*Body
		switch e := s.Exp.(type) {
		case *IfExp:
			inner = []*Body{e.Then, e.Else}
		default:
			if b := ExpBody(e); b != nil {
				inner = []*Body{b}
			}
		}
		for _, ib := range inner {
			if got, ok := scalarOnLine(ib, line); ok {
				return got, true
			}
		}
	}
	return "", false
}

// parenSExp renders a scalar expression with every operator application in
// parentheses.
func parenSExp(e SExp) string {
	switch e := e.(type) {
	case *Const:
		return strconv.FormatInt(e.Value, 10)
	case *FloatConst:
		return semantics.FormatFloat(e.Value)
	case *Call:
		return e.Func.String() + "(" + parenSExp(e.Arg) + ")"
	case Var:
		return e.Name
	case *UnOp:
		return "(" + e.Op.String() + parenSExp(e.X) + ")"
	case *BinOp:
		return "(" + parenSExp(e.L) + " " + e.Op.String() + " " + parenSExp(e.R) + ")"
	}
	return fmt.Sprintf("?%T", e)
}

// TestCheckGolden runs testdata/check.txt: every chunk must parse; a chunk
// with an expected error must fail type checking with it, any other must
// pass and apply the rules its rules markers list. A failing chunk's error
// carries the derivation down to the rule that failed (check --derive):
// rooted at T-PROG where the body was reached, its failing leaf the
// error's rule, ✗ and its message.
func TestCheckGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "check.txt"), "--", func(c *golden.Chunk) error {
		_, counter, err := checkChunk(c)
		if c.ErrRe != nil {
			if err := c.ExpectError(err, semantics.TypeError); err != nil {
				return err
			}
			return golden.ExpectFailedDerivation(err, TProg.Name)
		}
		if err != nil {
			return err
		}
		return c.ExpectRules(counter)
	})
}

// checkChunk parses and type checks a chunk, counting the rules applied.
// A chunk that does not parse is an error of the test file, not of the
// checker, and is reported as such.
func checkChunk(c *golden.Chunk) (*Info, semantics.Counter, error) {
	p, err := ParseFile(c.File, c.Src)
	if err != nil {
		return nil, nil, fmt.Errorf("the chunk does not parse: %v", err)
	}
	counter := semantics.Counter{}
	info, err := Check(p, &CheckOptions{Paper: c.Paper, Derive: true, Counter: counter})
	return info, counter, err
}

// fig3Rules are the type rules of Fig 3, the derived forms' rules and
// the extension forms'.
var fig3Rules = []string{"T-CONST", "T-VAR", "T-OP", "T-SCALAR", "T-INDEX", "T-IF", "T-TRANSPOSE",
	"T-SLICE", "T-KERNEL", "T-RESULT", "T-STM", "T-PROG", "T-IOTA", "T-COPY",
	TLoop.Name, TReduce.Name, TScan.Name, TFilter.Name, TAssert.Name, TFloat.Name, TCall.Name}

// TestCheckGoldenCoverage checks that check.txt exercises every rule of
// Fig 3 and of the extensions in a passing chunk, and every rule that can fail (all but T-CONST
// and T-OP, whose premises fail instead) in a failing one.
func TestCheckGoldenCoverage(t *testing.T) {
	passed := semantics.Counter{}
	failed := map[string]bool{}
	for _, c := range golden.Read(t, filepath.Join("testdata", "check.txt"), "--") {
		if c.Bug != "" {
			continue
		}
		_, counter, err := checkChunk(c)
		var se *semantics.Error
		switch {
		case err == nil && c.ErrRe == nil:
			passed.Add(counter)
		case errors.As(err, &se) && c.ErrRe != nil:
			failed[se.Rule] = true
		}
	}
	for _, r := range fig3Rules {
		if passed[r] == 0 {
			t.Errorf("no passing chunk of check.txt applies %s", r)
		}
		if r != "T-CONST" && r != "T-OP" && !failed[r] {
			t.Errorf("no failing chunk of check.txt fails in %s", r)
		}
	}
}

// nest builds a program whose body nests depth levels of the given kind.
func nest(kind string, depth int) string {
	var b strings.Builder
	b.WriteString("input (n : int) (c : int)\n")
	switch kind {
	case "kernel", "if":
		for i := 0; i < depth; i++ {
			if kind == "kernel" {
				fmt.Fprintf(&b, "let (y%d : [n]) = kernel i%d <= n do\n", i, i)
			} else {
				fmt.Fprintf(&b, "let (y%d : int) = if c then\n", i)
			}
		}
		b.WriteString("in (c)\n")
		for i := depth - 1; i >= 0; i-- {
			if kind == "if" {
				b.WriteString("else in (n)\n")
			}
			if i == 0 {
				fmt.Fprintf(&b, "in (y%d)\n", i)
			} else {
				b.WriteString("in (c)\n")
			}
		}
	case "paren":
		fmt.Fprintf(&b, "let (x : int) = %s1%s\nin (x)\n", strings.Repeat("(", depth), strings.Repeat(")", depth))
	case "minus":
		fmt.Fprintf(&b, "let (x : int) = %sc\nin (x)\n", strings.Repeat("- ", depth))
	}
	return b.String()
}

// TestParseDeepNesting checks that nesting far past the parser's limit is
// a syntax error, not a stack overflow, and that nesting well within it
// parses, prints back, type checks and runs under both semantics.
func TestParseDeepNesting(t *testing.T) {
	for _, kind := range []string{"kernel", "if", "paren", "minus"} {
		t.Run(kind, func(t *testing.T) {
			_, err := ParseFile("deep.fun", nest(kind, 2000))
			var se *semantics.Error
			if !errors.As(err, &se) || se.Kind != semantics.SyntaxError || !strings.Contains(se.Msg, "nesting deeper than") {
				t.Fatalf("2000 levels: want a syntax error about nesting, got %v", err)
			}
			p, err := ParseFile("deep.fun", nest(kind, 200))
			if err != nil {
				t.Fatalf("200 levels: %v", err)
			}
			if err := golden.RoundTrip("deep.fun", p, Print, ParseFile); err != nil {
				t.Fatalf("200 levels: %v", err)
			}
			if _, err := Check(p, nil); err != nil {
				t.Fatalf("200 levels: %v", err)
			}
			env, err := BindInputs(p, map[string]string{"n": "1", "c": "1"})
			if err != nil {
				t.Fatal(err)
			}
			big, _, err := Eval(p, env, nil)
			if err != nil {
				t.Fatalf("200 levels, big-step: %v", err)
			}
			small, _, err := RunSmall(p, env, nil)
			if err != nil {
				t.Fatalf("200 levels, small-step: %v", err)
			}
			if fmt.Sprint(big) != fmt.Sprint(small) {
				t.Fatalf("200 levels: big-step gives %v, small-step %v", big, small)
			}
		})
	}
}

// TestPrintDeepMinus checks the round trip of a chain of unary minuses
// that the parser accepts: its printed form must parse back too.
func TestPrintDeepMinus(t *testing.T) {
	for _, depth := range []int{10, 499, 600, 900} {
		t.Run(fmt.Sprint(depth), func(t *testing.T) {
			p, err := ParseFile("minus.fun", nest("minus", depth))
			if err != nil {
				t.Fatalf("%d minuses: %v", depth, err)
			}
			if err := golden.RoundTrip("minus.fun", p, Print, ParseFile); err != nil {
				t.Errorf("%d minuses: %v", depth, err)
			}
		})
	}
}

// TestParseBadBytes checks text that cannot be written into parse.txt:
// invalid UTF-8 and control characters are syntax errors at their place.
func TestParseBadBytes(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
		msg  string
	}{
		{"let (x : int) = 1\n\xff in (x)", 2, "invalid UTF-8 encoding"},
		{"let (x : int) = 1\nin (x)\x00", 2, `unexpected character '\x00'`},
		{"let (x\u200b : int) = 1\nin (x)", 1, `unexpected character '\u200b'`},
	} {
		_, err := ParseFile("bytes.fun", tc.src)
		var se *semantics.Error
		if !errors.As(err, &se) || se.Kind != semantics.SyntaxError || se.Pos.Line != tc.line || se.Msg != tc.msg {
			t.Errorf("%q: want a syntax error on line %d: %s, got %v", tc.src, tc.line, tc.msg, err)
		}
	}
}
