// Package golden reads the chunked golden test files of the languages
// (their testdata/parse.txt, testdata/check.txt, …). A chunked file holds
// programs separated by lines that are exactly "---". A marker, "###" and what follows it up to
// the end of the line, is cut off the line before the chunk is parsed:
//
//	### "REGEX"        the chunk must fail with an error on this line whose
//	                   message ("RULE: msg", or just msg for a syntax error)
//	                   matches REGEX (taken literally between the first and
//	                   the last double quote of the marker)
//	### rules R1 R2    checking the chunk applies these rules
//	### paper          check in paper mode (no extensions)
//	### paren "TEXT"   the scalar expression of the let on this line,
//	                   printed with every operator parenthesised, is TEXT
//	### BUG: TEXT      a known bug (reported, not yet fixed): the chunk
//	                   states what the paper asks; while the tool disagrees
//	                   the subtest is skipped with TEXT and the failure, and
//	                   once it agrees the subtest fails, asking for the
//	                   marker to be removed
//
// Markers on lines that are wholly comments (starting with the
// language's comment prefix, which the caller passes: "--" for FUN, FUNMEM
// and IMP, ";" for Remora) are text, not markers. A chunk
// of nothing but comments and blank lines is a note, not a test.
// Each chunk is parsed as the file's base name, preceded by blank lines, so
// the positions in its errors are positions in the chunked file; its last
// line has no newline, so that an error at the end of file is on that line.
package golden

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// Chunk is one program of a chunked golden file.
type Chunk struct {
	File    string         // base name of the chunked file, the programs' file name
	Line    int            // line of the chunk's first line in the file
	Src     string         // the chunk, markers cut, after line-1 newlines
	ErrLine int            // line of the expected error, 0 if none
	ErrRe   *regexp.Regexp // the expected error's message
	Rules   []string       // rules the checker must apply
	Parens  map[int]string // line → fully parenthesised scalar expression
	Paper   bool           // check in paper mode
	Bug     string         // known bug, "" if none
	Comment string         // the language's line-comment prefix
}

// Name is the subtest's name: the line of the chunk's first code line.
func (c *Chunk) Name() string {
	lines := strings.Split(c.Src, "\n")
	for i := c.Line - 1; i < len(lines); i++ {
		if t := strings.TrimSpace(lines[i]); t != "" && !strings.HasPrefix(t, c.Comment) {
			return fmt.Sprintf("line%d", i+1)
		}
	}
	return fmt.Sprintf("line%d", c.Line)
}

// OnlyComments reports whether the chunk is a note: only comment lines
// and blank ones, no program.
func (c *Chunk) OnlyComments() bool {
	for _, l := range strings.Split(c.Src, "\n") {
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, c.Comment) {
			return false
		}
	}
	return true
}

// Read reads a chunked golden file of a language whose line comments
// start with comment. A malformed marker fails the test.
func Read(t *testing.T, path, comment string) []*Chunk {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Base(path)
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var chunks []*Chunk
	start := 0
	for i := 0; i <= len(lines); i++ {
		if i < len(lines) && lines[i] != "---" {
			continue
		}
		c, err := newChunk(file, comment, start+1, lines[start:i])
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
func newChunk(file, comment string, first int, lines []string) (*Chunk, error) {
	c := &Chunk{File: file, Line: first, Parens: map[int]string{}, Comment: comment}
	code := false
	body := make([]string, len(lines))
	for i, l := range lines {
		n := first + i
		if k := strings.Index(l, "###"); k >= 0 && !strings.HasPrefix(strings.TrimSpace(l), comment) {
			if err := c.marker(n, strings.TrimSpace(l[k+3:])); err != nil {
				return nil, fmt.Errorf("line %d: %v", n, err)
			}
			l = strings.TrimRight(l[:k], " \t")
		}
		body[i] = l
		if t := strings.TrimSpace(l); t != "" && !strings.HasPrefix(t, comment) {
			code = true
		}
	}
	if !code {
		if c.ErrRe != nil || c.Rules != nil || len(c.Parens) > 0 || c.Bug != "" || c.Paper {
			return nil, fmt.Errorf("line %d: markers in a chunk without code", first)
		}
		return nil, nil
	}
	c.Src = strings.Repeat("\n", first-1) + strings.Join(body, "\n")
	return c, nil
}

// marker records the marker text m found on line n.
func (c *Chunk) marker(n int, m string) error {
	quoted := func(s string) (string, error) {
		i, j := strings.Index(s, `"`), strings.LastIndex(s, `"`)
		if i < 0 || j <= i {
			return "", fmt.Errorf("marker %q: want a double-quoted text", m)
		}
		return s[i+1 : j], nil
	}
	switch {
	case strings.HasPrefix(m, `"`):
		if c.ErrRe != nil {
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
		c.ErrLine, c.ErrRe = n, re
	case strings.HasPrefix(m, "rules "):
		c.Rules = append(c.Rules, strings.Fields(strings.TrimPrefix(m, "rules "))...)
	case m == "paper":
		c.Paper = true
	case strings.HasPrefix(m, "paren "):
		q, err := quoted(m)
		if err != nil {
			return err
		}
		c.Parens[n] = q
	case strings.HasPrefix(m, "BUG:"):
		c.Bug = strings.TrimSpace(strings.TrimPrefix(m, "BUG:"))
	default:
		return fmt.Errorf("unknown marker %q", m)
	}
	return nil
}

// Run runs test on every chunk of path (a file of a language whose line
// comments start with comment), one subtest per chunk. The
// test returns what went wrong (nil if nothing did), so that known bugs
// can be told apart from new failures.
func Run(t *testing.T, path, comment string, test func(c *Chunk) error) {
	for _, c := range Read(t, path, comment) {
		t.Run(c.Name(), func(t *testing.T) {
			Verdict(t, c.Bug, fmt.Sprintf("%s:%d", c.File, c.Line), test(c))
		})
	}
}

// Verdict reports the outcome err of a test at where: an error fails the
// test, unless the test pins a known bug (bug != ""), which skips it while
// the bug is there and fails it once the bug is gone, so that its marker
// is removed.
func Verdict(t *testing.T, bug, where string, err error) {
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

// ExpectError checks err against the chunk's expected error: a
// *semantics.Error of the given kind, on the marker's line, whose "RULE:
// msg" (or msg) matches the marker's expression.
func (c *Chunk) ExpectError(err error, kind semantics.Kind) error {
	if err == nil {
		return fmt.Errorf("expected an error on line %d matching %q, got none", c.ErrLine, c.ErrRe)
	}
	var se *semantics.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("expected a *semantics.Error, got %T: %v", err, err)
	}
	if se.Kind != kind {
		return fmt.Errorf("expected a %s, got a %s: %v", kind, se.Kind, err)
	}
	if se.Pos.File != c.File || se.Pos.Line != c.ErrLine {
		return fmt.Errorf("expected the error at %s:%d, got %v", c.File, c.ErrLine, err)
	}
	msg := se.Msg
	if se.Rule != "" {
		msg = se.Rule + ": " + se.Msg
	}
	if !c.ErrRe.MatchString(msg) {
		return fmt.Errorf("expected an error matching %q, got %v", c.ErrRe, err)
	}
	return nil
}

// ExpectFailedDerivation checks the derivation a checker's error carries
// when derivations are asked for (check --derive): rooted at the rule
// root (any rule when root is ""), its failing leaf the error's rule, ✗
// and its message. An error of the rule root itself (an input
// declaration's, before any body) may carry none.
func ExpectFailedDerivation(err error, root string) error {
	var se *semantics.Error
	if !errors.As(err, &se) {
		return fmt.Errorf("expected a *semantics.Error, got %T: %v", err, err)
	}
	d := semantics.PartialDerivation(err)
	if d == nil {
		if se.Rule == root {
			return nil
		}
		return fmt.Errorf("%v: no derivation down to the failing rule", err)
	}
	leaf := "✗ " + se.Msg + "   [" + se.Rule + "]"
	if (root != "" && d.Rule != root) || !strings.Contains(d.String(), leaf+"\n") {
		return fmt.Errorf("%v: the derivation does not end in %q under %s:\n%s", err, leaf, root, d)
	}
	return nil
}

var posType = reflect.TypeOf(semantics.Pos{})

// Tree renders a syntax tree with its types and field names, leaving
// out positions, so that two trees are equal but for positions exactly when
// their strings are.
func Tree(x any) string {
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

// RoundTrip checks that p prints to a text that parses back to the same
// tree (positions aside) and prints the same again.
func RoundTrip[P any](file string, p P, print func(P) string, parse func(file, src string) (P, error)) error {
	text := print(p)
	q, err := parse(file, text)
	if err != nil {
		return fmt.Errorf("the printed program does not parse: %v\n%s", err, text)
	}
	if again := print(q); again != text {
		return fmt.Errorf("printing is not stable:\n%s\nthen\n%s", text, again)
	}
	if a, b := Tree(p), Tree(q); a != b {
		return fmt.Errorf("the printed program parses to another tree\nprinted:\n%sparsed:   %s\nreparsed: %s", text, a, b)
	}
	return nil
}

// ExpectRules checks that counter applied every rule of the chunk's
// rules markers.
func (c *Chunk) ExpectRules(counter semantics.Counter) error {
	var missing []string
	for _, r := range c.Rules {
		if counter[r] == 0 {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		return fmt.Errorf("the checker did not apply %s (it applied %s)", strings.Join(missing, ", "), RuleList(counter))
	}
	return nil
}

// RuleList renders the rules a counter saw, sorted.
func RuleList(c semantics.Counter) string {
	return strings.Join(slices.Sorted(maps.Keys(c)), " ")
}

// Seeds are a fuzz target's seed inputs: the whole files pattern matches
// (the examples), and the chunks of the golden files (split at ---,
// markers and all: the fuzz target decides what it makes of them).
func Seeds(pattern string, goldenFiles ...string) (files, chunks []string) {
	paths, _ := filepath.Glob(pattern)
	for _, p := range paths {
		if src, err := os.ReadFile(p); err == nil {
			files = append(files, string(src))
		}
	}
	for _, p := range goldenFiles {
		src, _ := os.ReadFile(p)
		chunks = append(chunks, strings.Split(string(src), "\n---\n")...)
	}
	return files, chunks
}

// RedexIsTheNextStep runs m from c, at most limit steps, checking what
// running out of fuel reports (semantics.Locator): at each configuration
// Redex names the rule the next step then applies, and asking changes
// nothing (the configuration prints the same before and after: a machine
// whose state changes in place must not step to find out). It returns the
// steps checked; a stuck state ends the run (its rule may be the check's,
// not the construct's).
func RedexIsTheNextStep[C fmt.Stringer, M interface {
	semantics.Machine[C]
	semantics.Locator[C]
}](m M, c C, limit int) (int, error) {
	n := 0
	for ; n < limit && !m.Final(c); n++ {
		before := c.String()
		_, want := m.Redex(c)
		if after := c.String(); after != before {
			return n, fmt.Errorf("Redex changed the configuration\n%s\nto\n%s", before, after)
		}
		next, rule, err := m.Step(c)
		if err != nil {
			break
		}
		if rule != want {
			return n, fmt.Errorf("step %d applies %s, Redex said %s, at %s", n+1, rule, want, before)
		}
		c = next
	}
	return n, nil
}

// HoldsOnCases checks a property on n cases: prop(i) says how case i
// breaks it ("" when it holds), or returns an error for a case it cannot
// run (inputs the program refuses), which is left out. It fails t at each
// break, named by where(i), and when fewer than least cases ran.
func HoldsOnCases(t *testing.T, n int, where func(i int) string, prop func(i int) (string, error), least int) {
	t.Helper()
	ran := 0
	for i := range n {
		d, err := prop(i)
		if err != nil {
			continue
		}
		ran++
		if d != "" {
			t.Errorf("%s: %s", where(i), d)
		}
	}
	if ran < least {
		t.Errorf("only %d cases run", ran)
	}
	t.Logf("%d cases", ran)
}
