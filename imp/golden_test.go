package imp

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

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// This file is the harness of the chunked golden files testdata/parse.txt
// and testdata/check.txt, in the format of funmem/testdata
// (funmem/golden_test.go). A chunked file holds IMP programs separated by
// lines that are exactly "---". A marker, "###" and what follows it up to
// the end of the line, is cut off the line before the chunk is parsed:
//
//	### "REGEX"        the chunk must fail with an error on this line whose
//	                   message ("RULE: msg", or just msg for a syntax error)
//	                   matches REGEX (taken literally between the first and
//	                   the last double quote of the marker)
//	### rules R1 R2    (check.txt) checking the chunk applies these rules
//	### BUG: TEXT      a known bug (reported, not yet fixed): the chunk
//	                   states what is asked; while the tool disagrees the
//	                   subtest is skipped with TEXT and the failure, and
//	                   once it agrees the subtest fails, asking for the
//	                   marker to be removed
//
// Markers on lines that are wholly comments are text, not markers. A chunk
// of nothing but comments and blank lines is a note, not a test. Each chunk
// is parsed as the file's base name, preceded by blank lines, so that the
// positions in its errors are positions in the chunked file.

// impChunk is one program of a chunked golden file.
type impChunk struct {
	file    string         // base name of the chunked file
	line    int            // line of the chunk's first line in the file
	src     string         // the chunk, markers cut, after line-1 newlines
	errLine int            // line of the expected error, 0 if none
	errRe   *regexp.Regexp // the expected error's message
	rules   []string       // rules the checker must apply
	bug     string         // known bug, "" if none
}

// name is the subtest's name: the line of the chunk's first code line.
func (c *impChunk) name() string {
	lines := strings.Split(c.src, "\n")
	for i := c.line - 1; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, "--") {
			return fmt.Sprintf("line%d", i+1)
		}
	}
	return fmt.Sprintf("line%d", c.line)
}

// readImpChunks reads a chunked golden file; a malformed marker fails the
// test.
func readImpChunks(t *testing.T, path string) []*impChunk {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Base(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var chunks []*impChunk
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && lines[i] != "---" {
			continue
		}
		c, err := newImpChunk(file, start+1, lines[start:i])
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

// newImpChunk builds the chunk of the given lines, the first of which is
// line first of the file; it returns nil for a chunk that is only a note.
func newImpChunk(file string, first int, lines []string) (*impChunk, error) {
	c := &impChunk{file: file, line: first}
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
		if c.errRe != nil || c.rules != nil || c.bug != "" {
			return nil, fmt.Errorf("line %d: markers in a chunk without code", first)
		}
		return nil, nil
	}
	c.src = strings.Repeat("\n", first-1) + strings.Join(body, "\n")
	return c, nil
}

// marker records the marker text m found on line n.
func (c *impChunk) marker(n int, m string) error {
	switch {
	case strings.HasPrefix(m, `"`):
		if c.errRe != nil {
			return fmt.Errorf("a second expected error in one chunk")
		}
		i, j := strings.Index(m, `"`), strings.LastIndex(m, `"`)
		if j <= i {
			return fmt.Errorf("marker %q: want a double-quoted text", m)
		}
		re, err := regexp.Compile(m[i+1 : j])
		if err != nil {
			return err
		}
		c.errLine, c.errRe = n, re
	case strings.HasPrefix(m, "rules "):
		c.rules = append(c.rules, strings.Fields(strings.TrimPrefix(m, "rules "))...)
	case strings.HasPrefix(m, "BUG:"):
		c.bug = strings.TrimSpace(strings.TrimPrefix(m, "BUG:"))
	default:
		return fmt.Errorf("unknown marker %q", m)
	}
	return nil
}

// runImpChunks runs test on every chunk of path, one subtest per chunk.
func runImpChunks(t *testing.T, path string, test func(c *impChunk) error) {
	for _, c := range readImpChunks(t, path) {
		t.Run(c.name(), func(t *testing.T) {
			err := test(c)
			where := fmt.Sprintf("%s:%d", c.file, c.line)
			switch {
			case c.bug == "" && err != nil:
				t.Errorf("%s: %v", where, err)
			case c.bug != "" && err != nil:
				t.Skipf("known bug: %s\n%s: %v", c.bug, where, err)
			case c.bug != "":
				t.Errorf("%s: marked as a known bug (%s) but passes: remove the marker", where, c.bug)
			}
		})
	}
}

// expectError checks err against the chunk's expected error: a
// *semantics.Error of the given kind, on the marker's line, whose "RULE:
// msg" (or msg) matches the marker's expression.
func (c *impChunk) expectError(err error, kind semantics.Kind) error {
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
	runImpChunks(t, filepath.Join("testdata", "parse.txt"), func(c *impChunk) error {
		p, err := ParseFile(c.file, c.src)
		if c.errRe != nil {
			return c.expectError(err, semantics.SyntaxError)
		}
		if err != nil {
			return fmt.Errorf("parse: %v", err)
		}
		return impRoundTrip(c.file, p)
	})
}

// impRoundTrip checks that p prints to a text that parses back to the same
// tree (positions aside) and prints the same again.
func impRoundTrip(file string, p *Program) error {
	text := Print(p)
	q, err := ParseFile(file, text)
	if err != nil {
		return fmt.Errorf("the printed program does not parse: %v\n%s", err, text)
	}
	if again := Print(q); again != text {
		return fmt.Errorf("printing is not stable:\n%s\nthen\n%s", text, again)
	}
	if a, b := impTree(p), impTree(q); a != b {
		return fmt.Errorf("the printed program parses to another tree\nprinted:\n%sparsed:   %s\nreparsed: %s", text, a, b)
	}
	return nil
}

var impPosType = reflect.TypeOf(fun.Pos{})

// impTree renders a syntax tree with its types and field names, leaving
// out positions, so that two trees are equal but for positions exactly
// when their strings are.
func impTree(x any) string {
	var b strings.Builder
	writeImpTree(&b, reflect.ValueOf(x))
	return b.String()
}

func writeImpTree(b *strings.Builder, v reflect.Value) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		writeImpTree(b, v.Elem())
	case reflect.Struct:
		b.WriteString(v.Type().Name() + "{")
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if f.Type == impPosType {
				continue
			}
			b.WriteString(" " + f.Name + ":")
			writeImpTree(b, v.Field(i))
		}
		b.WriteString(" }")
	case reflect.Slice:
		if v.IsNil() {
			b.WriteString("nil")
			return
		}
		b.WriteString("[")
		for i := 0; i < v.Len(); i++ {
			b.WriteString(" ")
			writeImpTree(b, v.Index(i))
		}
		b.WriteString(" ]")
	case reflect.String:
		b.WriteString(strconv.Quote(v.String()))
	default:
		fmt.Fprintf(b, "%v", v.Interface())
	}
}

// TestCheckGolden runs testdata/check.txt: every chunk must parse; a chunk
// with an expected error must fail checking with it, any other must pass
// and apply the rules its rules markers list.
func TestCheckGolden(t *testing.T) {
	runImpChunks(t, filepath.Join("testdata", "check.txt"), func(c *impChunk) error {
		counter, err := checkImpChunk(c)
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
			return fmt.Errorf("the checker did not apply %s (it applied %s)", strings.Join(missing, ", "), impRuleList(counter))
		}
		return nil
	})
}

// checkImpChunk parses and checks a chunk, counting the rules applied. A
// chunk that does not parse is an error of the test file.
func checkImpChunk(c *impChunk) (semantics.Counter, error) {
	p, err := ParseFile(c.file, c.src)
	if err != nil {
		return nil, fmt.Errorf("the chunk does not parse: %v", err)
	}
	counter := semantics.Counter{}
	return counter, Check(p, counter)
}

func impRuleList(c semantics.Counter) string {
	var rs []string
	for r := range c {
		rs = append(rs, r)
	}
	sort.Strings(rs)
	return strings.Join(rs, " ")
}

// TestCheckGoldenCoverage checks that check.txt fails in both of the
// checker's rules, IMP-SCOPE and IMP-TYPE, and has passing chunks.
func TestCheckGoldenCoverage(t *testing.T) {
	failed := map[string]bool{}
	passed := 0
	for _, c := range readImpChunks(t, filepath.Join("testdata", "check.txt")) {
		if c.bug != "" {
			continue
		}
		_, err := checkImpChunk(c)
		var se *semantics.Error
		switch {
		case err == nil && c.errRe == nil:
			passed++
		case errors.As(err, &se) && c.errRe != nil:
			failed[se.Rule] = true
		}
	}
	for _, r := range []string{"IMP-SCOPE", "IMP-TYPE"} {
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
	for _, c := range readImpChunks(t, filepath.Join("testdata", "check.txt")) {
		p, err := ParseFile(c.file, c.src)
		if err != nil {
			t.Errorf("%s:%d: %v", c.file, c.line, err)
			continue
		}
		if err := impRoundTrip(c.file, p); err != nil {
			t.Errorf("%s:%d: %v", c.file, c.line, err)
			continue
		}
		q, _ := ParseFile(c.file, Print(p))
		e1, e2 := Check(p, nil), Check(q, nil)
		if (e1 == nil) != (e2 == nil) || (e1 != nil && ruleOf(e1)+msgOf(e1) != ruleOf(e2)+msgOf(e2)) {
			t.Errorf("%s:%d: checking the printed program gives %v, the chunk %v", c.file, c.line, e2, e1)
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
