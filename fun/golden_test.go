package fun

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// This file is the harness of the chunked golden files testdata/parse.txt
// and testdata/check.txt. A chunked file holds FUN programs separated by
// lines that are exactly "---". A marker, "###" and what follows it up to
// the end of the line, is cut off the line before the chunk is parsed:
//
//	### "REGEX"        the chunk must fail with an error on this line whose
//	                   message ("RULE: msg", or just msg for a syntax error)
//	                   matches REGEX (taken literally between the first and
//	                   the last double quote of the marker)
//	### rules R1 R2    (check.txt) checking the chunk applies these rules
//	### paper          (check.txt) check in paper mode (no extensions)
//	### paren "TEXT"   (parse.txt) the scalar expression of the let on this
//	                   line, printed with every operator parenthesised, is TEXT
//	### BUG: TEXT      a known bug (reported, not yet fixed): the chunk
//	                   states what the paper asks; while the tool disagrees
//	                   the subtest is skipped with TEXT and the failure, and
//	                   once it agrees the subtest fails, asking for the
//	                   marker to be removed
//
// Markers on lines that are wholly comments are text, not markers. A chunk
// of nothing but comments and blank lines is a note, not a test.
// Each chunk is parsed as the file's base name, preceded by blank lines, so
// the positions in its errors are positions in the chunked file; its last
// line has no newline, so that an error at the end of file is on that line.

// goldenChunk is one program of a chunked golden file.
type goldenChunk struct {
	file    string         // base name of the chunked file, the programs' file name
	line    int            // line of the chunk's first line in the file
	src     string         // the chunk, markers cut, after line-1 newlines
	errLine int            // line of the expected error, 0 if none
	errRe   *regexp.Regexp // the expected error's message
	rules   []string       // rules the checker must apply
	parens  map[int]string // line → fully parenthesised scalar expression
	paper   bool           // check in paper mode
	bug     string         // known bug, "" if none
}

// name is the subtest's name: the line of the chunk's first non-blank line.
func (c *goldenChunk) name() string {
	lines := strings.Split(c.src, "\n")
	for i := c.line - 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "" {
			return fmt.Sprintf("line%d", i+1)
		}
	}
	return fmt.Sprintf("line%d", c.line)
}

// readChunks reads a chunked golden file. A malformed marker fails the test.
func readChunks(t *testing.T, path string) []*goldenChunk {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Base(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var chunks []*goldenChunk
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && lines[i] != "---" {
			continue
		}
		c, err := newChunk(file, start+1, lines[start:i])
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if c != nil {
			chunks = append(chunks, c)
		}
		start = i + 1
	}
	if len(chunks) == 0 {
		t.Fatalf("%s: no chunks", path)
	}
	return chunks
}

// newChunk builds the chunk of the given lines, the first of which is line
// first of the file; it returns nil for a chunk that is only a note.
func newChunk(file string, first int, lines []string) (*goldenChunk, error) {
	c := &goldenChunk{file: file, line: first, parens: map[int]string{}}
	code := false
	body := make([]string, len(lines))
	for i, l := range lines {
		n := first + i
		if k := strings.Index(l, "###"); k >= 0 && !strings.HasPrefix(strings.TrimSpace(l), "--") {
			if err := c.marker(n, strings.TrimSpace(l[k+3:])); err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			l = strings.TrimRight(l[:k], " \t")
		}
		body[i] = l
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, "--") {
			code = true
		}
	}
	if !code {
		if c.errRe != nil || c.rules != nil || len(c.parens) > 0 || c.bug != "" || c.paper {
			return nil, fmt.Errorf("line %d: markers in a chunk without code", first)
		}
		return nil, nil
	}
	c.src = strings.Repeat("\n", first-1) + strings.Join(body, "\n")
	return c, nil
}

// marker records the marker text m found on line n.
func (c *goldenChunk) marker(n int, m string) error {
	quoted := func(s string) (string, error) {
		i, j := strings.Index(s, `"`), strings.LastIndex(s, `"`)
		if i < 0 || j <= i {
			return "", fmt.Errorf("marker %q: want a double-quoted text", m)
		}
		return s[i+1 : j], nil
	}
	switch {
	case strings.HasPrefix(m, `"`):
		if c.errRe != nil {
			return fmt.Errorf("a second expected error in one chunk")
		}
		q, err := quoted(m)
		if err != nil {
			return err
		}
		re, err := regexp.Compile(q)
		if err != nil {
			return err
		}
		c.errLine, c.errRe = n, re
	case strings.HasPrefix(m, "rules "):
		c.rules = append(c.rules, strings.Fields(strings.TrimPrefix(m, "rules "))...)
	case m == "paper":
		c.paper = true
	case strings.HasPrefix(m, "paren "):
		q, err := quoted(m)
		if err != nil {
			return err
		}
		c.parens[n] = q
	case strings.HasPrefix(m, "BUG:"):
		c.bug = strings.TrimSpace(strings.TrimPrefix(m, "BUG:"))
	default:
		return fmt.Errorf("unknown marker %q", m)
	}
	return nil
}

// runChunks runs test on every chunk of path, one subtest per chunk. The
// test returns what went wrong (nil if nothing did), so that known bugs
// can be told apart from new failures.
func runChunks(t *testing.T, path string, test func(c *goldenChunk) error) {
	for _, c := range readChunks(t, path) {
		t.Run(c.name(), func(t *testing.T) {
			verdict(t, c.bug, fmt.Sprintf("%s:%d", c.file, c.line), test(c))
		})
	}
}

// verdict reports the outcome err of a test at where: an error fails the
// test, unless the test pins a known bug (bug != ""), which skips it while
// the bug is there and fails it once the bug is gone, so that its marker
// is removed.
func verdict(t *testing.T, bug, where string, err error) {
	t.Helper()
	switch {
	case bug == "" && err != nil:
		t.Errorf("%s: %v", where, err)
	case bug != "" && err != nil:
		t.Skipf("known bug: %s\n%s: %v", bug, where, err)
	case bug != "":
		t.Errorf("%s: marked as a known bug (%s) but passes: remove the marker", where, bug)
	}
}

// expectError checks err against the chunk's expected error: a
// *semantics.Error of the given kind, on the marker's line, whose "RULE:
// msg" (or msg) matches the marker's expression.
func (c *goldenChunk) expectError(err error, kind semantics.Kind) error {
	if err == nil {
		return fmt.Errorf("expected an error on line %d matching %q, got none", c.errLine, c.errRe)
	}
	var se *semantics.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("expected a *semantics.Error, got %T: %v", err, err)
	}
	if se.Kind != kind {
		return fmt.Errorf("expected a %s, got a %s: %v", kind, se.Kind, err)
	}
	if se.Pos.File != c.file || se.Pos.Line != c.errLine {
		return fmt.Errorf("expected the error at %s:%d, got %v", c.file, c.errLine, err)
	}
	msg := se.Msg
	if se.Rule != "" {
		msg = se.Rule + ": " + se.Msg
	}
	if !c.errRe.MatchString(msg) {
		return fmt.Errorf("expected an error matching %q, got %v", c.errRe, err)
	}
	return nil
}

// TestParseGolden runs testdata/parse.txt: a chunk with an expected error
// must fail to parse with it; any other must parse, print, and parse back
// to the same printed text and the same tree.
func TestParseGolden(t *testing.T) {
	runChunks(t, filepath.Join("testdata", "parse.txt"), func(c *goldenChunk) error {
		p, err := ParseFile(c.file, c.src)
		if c.errRe != nil {
			return c.expectError(err, semantics.SyntaxError)
		}
		if err != nil {
			return fmt.Errorf("parse: %v", err)
		}
		for line, want := range c.parens {
			got, ok := scalarOnLine(p.Body, line)
			if !ok {
				return fmt.Errorf("line %d: no let of a scalar expression starts on this line", line)
			}
			if got != want {
				return fmt.Errorf("line %d: parsed as %s, want %s", line, got, want)
			}
		}
		return roundTrip(c.file, p)
	})
}

// roundTrip checks that p prints to a text that parses back to the same
// tree (positions aside) and prints the same again.
func roundTrip(file string, p *Program) error {
	text := Print(p)
	q, err := ParseFile(file, text)
	if err != nil {
		return fmt.Errorf("the printed program does not parse: %v\n%s", err, text)
	}
	if again := Print(q); again != text {
		return fmt.Errorf("printing is not stable:\n%s\nthen\n%s", text, again)
	}
	if a, b := treeString(p), treeString(q); a != b {
		return fmt.Errorf("the printed program parses to another tree\nprinted:\n%sparsed:   %s\nreparsed: %s", text, a, b)
	}
	return nil
}

var posType = reflect.TypeOf(Pos{})

// treeString renders a syntax tree with its types and field names, leaving
// out positions, so that two trees are equal but for positions exactly when
// their strings are.
func treeString(x any) string {
	var b strings.Builder
	writeTree(&b, reflect.ValueOf(x))
	return b.String()
}

func writeTree(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		writeTree(b, v.Elem())
	case reflect.Struct:
		b.WriteString(v.Type().Name() + "{")
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.Type == posType {
				continue
			}
			b.WriteString(" " + f.Name + ":")
			writeTree(b, v.Field(i))
		}
		b.WriteString(" }")
	case reflect.Slice:
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			b.WriteString(" ")
			writeTree(b, v.Index(i))
		}
		b.WriteString(" ]")
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

// scalarOnLine finds the let statement starting on line whose expression
// is a scalar expression, anywhere in b, and renders it fully
// parenthesised.
func scalarOnLine(b *Body, line int) (string, bool) {
	for _, s := range b.Stms {
		if se, ok := s.Exp.(*ScalarExp); ok && s.Let.Line == line {
			return parenSExp(se.X), true
		}
		var inner []*Body
		switch e := s.Exp.(type) {
		case *IfExp:
			inner = []*Body{e.Then, e.Else}
		case *KernelExp:
			inner = []*Body{e.Body}
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
// pass and apply the rules its rules markers list.
func TestCheckGolden(t *testing.T) {
	runChunks(t, filepath.Join("testdata", "check.txt"), func(c *goldenChunk) error {
		_, counter, err := checkChunk(c)
		if c.errRe != nil {
			return c.expectError(err, semantics.TypeError)
		}
		if err != nil {
			return err
		}
		var missing []string
		for _, r := range c.rules {
			if counter[r] == 0 {
				missing = append(missing, r)
			}
		}
		if len(missing) > 0 {
			return fmt.Errorf("the checker did not apply %s (it applied %s)", strings.Join(missing, ", "), ruleList(counter))
		}
		return nil
	})
}

// checkChunk parses and type checks a chunk, counting the rules applied.
// A chunk that does not parse is an error of the test file, not of the
// checker, and is reported as such.
func checkChunk(c *goldenChunk) (*Info, semantics.Counter, error) {
	p, err := ParseFile(c.file, c.src)
	if err != nil {
		return nil, nil, fmt.Errorf("the chunk does not parse: %v", err)
	}
	counter := semantics.Counter{}
	info, err := Check(p, &CheckOptions{Paper: c.paper, Derive: true, Counter: counter})
	return info, counter, err
}

func ruleList(c semantics.Counter) string {
	var rs []string
	for r := range c {
		rs = append(rs, r)
	}
	sort.Strings(rs)
	return strings.Join(rs, " ")
}

// fig3Rules are the type rules of Fig 3 and the derived forms' rules.
var fig3Rules = []string{"T-CONST", "T-VAR", "T-OP", "T-SCALAR", "T-INDEX", "T-IF", "T-TRANSPOSE",
	"T-SLICE", "T-KERNEL", "T-RESULT", "T-STM", "T-PROG", "T-IOTA", "T-COPY"}

// TestCheckGoldenCoverage checks that check.txt exercises every rule of
// Fig 3 in a passing chunk, and every rule that can fail (all but T-CONST
// and T-OP, whose premises fail instead) in a failing one.
func TestCheckGoldenCoverage(t *testing.T) {
	passed := semantics.Counter{}
	failed := map[string]bool{}
	for _, c := range readChunks(t, filepath.Join("testdata", "check.txt")) {
		if c.bug != "" {
			continue
		}
		_, counter, err := checkChunk(c)
		var se *semantics.Error
		switch {
		case err == nil && c.errRe == nil:
			passed.Add(counter)
		case errors.As(err, &se) && c.errRe != nil:
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
			if err := roundTrip("deep.fun", p); err != nil {
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
			small, _, err := RunSmall(p, env, 0, nil, nil)
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
			if err := roundTrip("minus.fun", p); err != nil {
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
