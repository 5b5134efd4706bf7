// Package spantest checks, in tests, the source spans of the syntax trees
// of FUN, FUNMEM and IMP: that [Pos, End) of a node is exactly its source
// (it parses back, alone, to a node that prints the same), that Pos <= End,
// and that every node lies within the nodes it is part of (Tree, FUN;
// FUNFiles and Check run them over a language's examples and goldens).
// For the s-expression dialects (Remora's), SExps checks the reader's
// spans and OneSExp that a span is exactly one s-expression, which is what
// a term elaborated from s-expressions spans (Terms checks a dialect's
// terms so). Focuses, FUNFocuses and SExpFocuses check the source spans
// of a run's steps.
package spantest

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Source is a program text to check, and where it comes from.
type Source struct{ Name, Src string }

// Sources are the programs of language lang (its directory name under
// examples/) to check, for a test run in the language's package: the
// examples, and the chunks of the package's testdata/parse.txt and
// testdata/check.txt (comment is the language's line comment).
func Sources(t *testing.T, lang, comment string) []Source {
	t.Helper()
	return SourcesOf(t, filepath.Join("..", "examples", lang, "*."+lang),
		[]string{filepath.Join("testdata", "parse.txt"), filepath.Join("testdata", "check.txt")}, comment)
}

// Check runs check on each of srcs, reports the problems it finds as
// errors, and fails the test if it checked no node at all.
func Check(t *testing.T, srcs []Source, check func(s Source) (problems []string, checked int)) {
	t.Helper()
	total := 0
	for _, s := range srcs {
		problems, n := check(s)
		total += n
		for _, p := range problems {
			t.Errorf("%s: %s", s.Name, p)
		}
	}
	t.Logf("%d nodes checked", total)
	if total == 0 {
		t.Fatal("no nodes checked")
	}
}

// FUNFiles checks (FUN) the spans of the programs of language lang
// (Sources) that parse, a FUN or FUNMEM, parse parsing one.
func FUNFiles(t *testing.T, lang string, parse func(file, src string) (*fun.Program, error), newParser func(text string) (*fun.Parser, error)) {
	t.Helper()
	Check(t, Sources(t, lang, "--"), func(s Source) ([]string, int) {
		prog, err := parse(s.Name, s.Src)
		if err != nil {
			return nil, 0
		}
		return FUN(s.Src, prog, newParser)
	})
}

// Node is a syntax node with a span.
type Node interface {
	Pos() semantics.Pos
	End() semantics.Pos
}

// Text is the text of src in [from, to): lines and columns count from 1,
// columns in runes, as semantics.Scan counts them.
func Text(src string, from, to semantics.Pos) (string, error) {
	a, err := offset(src, from)
	if err != nil {
		return "", err
	}
	b, err := offset(src, to)
	if err != nil {
		return "", err
	}
	if a > b {
		return "", fmt.Errorf("span %v-%v is backwards", from, to)
	}
	return src[a:b], nil
}

// offset is the byte offset of p in src (p may be just past the end of a
// line or of src).
func offset(src string, p semantics.Pos) (int, error) {
	if !p.IsValid() {
		return 0, fmt.Errorf("unknown position %v", p)
	}
	i := 0
	for line := 1; line < p.Line; line++ {
		j := strings.IndexByte(src[i:], '\n')
		if j < 0 {
			return 0, fmt.Errorf("position %v: the source has %d lines", p, line)
		}
		i += j + 1
	}
	for col := 1; col < p.Col; col++ {
		if i >= len(src) || src[i] == '\n' {
			return 0, fmt.Errorf("position %v is past the end of its line", p)
		}
		_, w := utf8.DecodeRuneInString(src[i:])
		i += w
	}
	return i, nil
}

// LessEq reports whether a comes at or before b.
func LessEq(a, b semantics.Pos) bool {
	return a.Line < b.Line || a.Line == b.Line && a.Col <= b.Col
}

// Within reports whether the span of inner lies within that of outer.
func Within(inner, outer Node) bool {
	return LessEq(outer.Pos(), inner.Pos()) && LessEq(inner.End(), outer.End())
}

// FUN checks the spans of a FUN or FUNMEM program parsed from src (Tree
// on its inputs and body). It returns the problems found and the number
// of nodes checked.
func FUN(src string, prog *fun.Program, newParser func(text string) (*fun.Parser, error)) (problems []string, checked int) {
	for _, in := range prog.Inputs {
		p, n := Tree(src, in, newParser)
		problems, checked = append(problems, p...), checked+n
	}
	p, n := Tree(src, prog.Body, newParser)
	return append(problems, p...), checked + n
}

// Tree checks the spans of the nodes of a FUN tree (of a FUN, FUNMEM or
// IMP program parsed from src) rooted at root: every statement, body,
// binding, expression and scalar expression parses back from its text, by
// the parser newParser returns for a text, to a node that prints the
// same; Pos <= End; and each node of the tree (names included) lies
// within every node it is part of. It returns the problems found and the
// number of nodes checked.
func Tree(src string, root fun.Node, newParser func(text string) (*fun.Parser, error)) (problems []string, checked int) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	fun.Inspect(root, func(n fun.Node) bool {
		sn, ok := n.(Node)
		if !ok {
			return true
		}
		checked++
		if !sn.Pos().IsValid() || !sn.End().IsValid() {
			bad("%T at %v: span %v-%v is not known", n, sn.Pos(), sn.Pos(), sn.End())
			return true
		}
		if !LessEq(sn.Pos(), sn.End()) {
			bad("%T: Pos %v is after End %v", n, sn.Pos(), sn.End())
		}
		fun.Inspect(n, func(m fun.Node) bool {
			if sm, ok := m.(Node); ok && m != n && !Within(sm, sn) {
				bad("%T at %v-%v is not within its %T at %v-%v", m, sm.Pos(), sm.End(), n, sn.Pos(), sn.End())
			}
			return true
		})
		text, err := Text(src, sn.Pos(), sn.End())
		if err != nil {
			bad("%T at %v: %v", n, sn.Pos(), err)
			return true
		}
		if err := reparse(n, text, newParser); err != nil {
			bad("%T at %v-%v, %q: %v", n, sn.Pos(), sn.End(), text, err)
		}
		return true
	})
	return problems, checked
}

// reparse parses text as a node of n's kind and compares the prints.
func reparse(n fun.Node, text string, newParser func(string) (*fun.Parser, error)) error {
	p, err := newParser(text)
	if err != nil {
		return err
	}
	var got, want string
	switch n := n.(type) {
	case *fun.Ident:
		// A type's size is placed at its '[' (for errors): only names
		// written where they stand are compared.
		r := []rune(n.Name)
		if text != n.Name && text != "["+string(r[:len(r)-1]) {
			return fmt.Errorf("the name %s spans other text", n.Name)
		}
		return nil
	case *fun.Stm:
		if !p.S.Is("let") {
			return fmt.Errorf("does not start with let")
		}
		s, err := p.Stm()
		if err != nil {
			return err
		}
		got, want = fun.PrintStm(s, true), fun.PrintStm(n, true)
	case *fun.Body:
		b, err := p.Body()
		if err != nil {
			return err
		}
		got, want = fun.PrintBody(b, true), fun.PrintBody(n, true)
	case *fun.Param:
		q, err := p.Param()
		if err != nil {
			return err
		}
		got, want = fun.PrintParam(q), fun.PrintParam(n)
	case fun.Exp:
		e, err := p.Exp()
		if err != nil {
			return err
		}
		got, want = fun.PrintExp(e), fun.PrintExp(n)
	case fun.SExp:
		e, err := p.SExp()
		if err != nil {
			return err
		}
		got, want = fun.PrintSExp(e), fun.PrintSExp(n)
	default:
		return fmt.Errorf("no parser for a %T", n)
	}
	if t := p.S.Peek(); t.Kind != semantics.EOF {
		return fmt.Errorf("text is left after the node: %s", t)
	}
	if got != want {
		return fmt.Errorf("parses back to %q, not %q", got, want)
	}
	return nil
}

// Focuses loads program src of language l, runs it to the end by its
// stepper with inputs args, and returns the focus of every step.
func Focuses(t *testing.T, l lang.Language, file, src string, args map[string]string) []lang.Focus {
	t.Helper()
	p, err := l.Load(file, src, lang.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, err := p.Start(lang.RunOptions{Args: args})
	if err != nil {
		t.Fatal(err)
	}
	var out []lang.Focus
	for {
		_, done, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return out
		}
		f, ok := s.Focus()
		if !ok {
			t.Fatalf("step %d has no focus", s.Steps())
		}
		out = append(out, f)
	}
}

// FUNFocuses checks the focuses of the steps of a FUN or FUNMEM program
// parsed from src: each one's source span holds its redex (the text there
// parses back, by the parser newParser returns, to a statement or a body
// that prints as the redex); the contractum is a {note} or a body, printed
// whole; and there were want steps.
func FUNFocuses(t *testing.T, src string, fs []lang.Focus, newParser func(string) (*fun.Parser, error), want int) {
	t.Helper()
	if len(fs) != want {
		t.Errorf("%d steps, want %d", len(fs), want)
	}
	for i, f := range fs {
		if rs := []rune(f.Text); f.Lo >= 0 {
			// The contractum: what the step bound, {…}, or the body it
			// entered, printed whole.
			m := string(rs[f.Lo:f.Hi])
			if !strings.HasPrefix(m, "{") || !strings.HasSuffix(m, "}") {
				if p, err := newParser(m); err != nil {
					t.Errorf("step %d: contractum %q: %v", i+1, m, err)
				} else if b, err := p.Body(); err != nil || fun.PrintBody(b, true) != m || p.S.Peek().Kind != semantics.EOF {
					t.Errorf("step %d: the contractum %q of %q is not a body", i+1, m, f.Text)
				}
			}
		}
		text, err := Text(src, f.From, f.To)
		if err != nil {
			t.Errorf("step %d (%s): %v", i+1, f.Redex, err)
			continue
		}
		p, err := newParser(text)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if p.S.Is("let") {
			s, err := p.Stm()
			if err != nil {
				t.Errorf("step %d: %q: %v", i+1, text, err)
				continue
			}
			got = fun.PrintStm(s, true)
		} else {
			b, err := p.Body()
			if err != nil {
				t.Errorf("step %d: %q: %v", i+1, text, err)
				continue
			}
			got = fun.PrintBody(b, true)
		}
		if got != f.Redex {
			t.Errorf("step %d: the source span %v-%v holds %q, but the redex is %q", i+1, f.From, f.To, got, f.Redex)
		}
	}
}

// SourcesOf are the programs of a language to check, for a test run in
// the language's package: the files matching the glob examples (relative
// to the package's directory), and the chunks of the golden files goldens
// (comment is the language's line comment). A golden file that does not
// exist is skipped; a glob that matches nothing fails the test.
func SourcesOf(t *testing.T, examples string, goldens []string, comment string) []Source {
	t.Helper()
	files, _ := filepath.Glob(examples)
	if len(files) == 0 {
		t.Fatalf("no examples match %s", examples)
	}
	var out []Source
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, Source{file, string(src)})
	}
	for _, path := range goldens {
		if _, err := os.Stat(path); err != nil {
			continue
		}
		for _, c := range golden.Read(t, path, comment) {
			out = append(out, Source{fmt.Sprintf("%s:%d", path, c.Line), c.Src})
		}
	}
	return out
}

// Span is a source span [From, To).
type Span struct{ From, To semantics.Pos }

// SExps checks the spans of the s-expressions sexps that semantics.ReadSExps
// read from src, nested ones included: each is known, Pos <= End, lies
// within the s-expression it is part of, and its text [Pos, End) reads
// back, alone, as one s-expression that prints the same and ends exactly
// at the end of the text (OneSExp). An s-expression spanning exactly what
// its parent spans was not written (the alit and rerank atoms that #A and
// #r forms read as): it is not read back alone. It returns the spans of
// all the s-expressions, the problems found and the number checked.
func SExps(src string, sexps []*semantics.SExp) (spans map[Span]bool, problems []string, checked int) {
	spans = map[Span]bool{}
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	var walk func(s, parent *semantics.SExp)
	walk = func(s, parent *semantics.SExp) {
		checked++
		spans[Span{s.Pos, s.End}] = true
		switch {
		case !s.Pos.IsValid() || !s.End.IsValid():
			bad("%s at %v: span %v-%v is not known", s, s.Pos, s.Pos, s.End)
		case !LessEq(s.Pos, s.End):
			bad("%s: Pos %v is after End %v", s, s.Pos, s.End)
		case parent != nil && !(LessEq(parent.Pos, s.Pos) && LessEq(s.End, parent.End)):
			bad("%s at %v-%v is not within %s at %v-%v", s, s.Pos, s.End, parent, parent.Pos, parent.End)
		case parent != nil && s.Pos == parent.Pos && s.End == parent.End:
			// Made by the reader, not written.
		default:
			if got, err := OneSExp(src, s.Pos, s.End); err != nil {
				bad("%s at %v-%v: %v", s, s.Pos, s.End, err)
			} else if got.String() != s.String() {
				bad("%s at %v-%v reads back as %s", s, s.Pos, s.End, got)
			}
		}
		for _, xs := range [][]*semantics.SExp{s.List, s.Left, s.Right} {
			for _, x := range xs {
				walk(x, s)
			}
		}
		if s.Head != nil {
			walk(s.Head, s)
		}
	}
	for _, s := range sexps {
		walk(s, nil)
	}
	return spans, problems, checked
}

// OneSExp reads the text of src in [from, to) as s-expressions: it must be
// exactly one, ending at the end of the text, which it returns.
func OneSExp(src string, from, to semantics.Pos) (*semantics.SExp, error) {
	text, err := Text(src, from, to)
	if err != nil {
		return nil, err
	}
	ss, _, err := semantics.ReadSExps("", text)
	if err != nil {
		return nil, fmt.Errorf("%q does not read: %v", text, err)
	}
	if len(ss) != 1 {
		return nil, fmt.Errorf("%q reads as %d s-expressions, not one", text, len(ss))
	}
	end := semantics.Pos{Line: 1 + strings.Count(text, "\n"), Col: 1 + utf8.RuneCountInString(text[strings.LastIndexByte(text, '\n')+1:])}
	if ss[0].Pos != (semantics.Pos{Line: 1, Col: 1}) || ss[0].End != end {
		return nil, fmt.Errorf("%q reads as %s, spanning %v-%v of it, not all of it", text, ss[0], ss[0].Pos, ss[0].End)
	}
	return ss[0], nil
}

// Term is a term of a Remora dialect, elaborated from s-expressions.
type Term interface {
	At() semantics.Pos
	End() semantics.Pos
}

// Dialect is what Terms needs to know of a Remora dialect whose terms
// are E.
type Dialect[E Term] struct {
	// Parse elaborates a program's s-expressions into its terms.
	Parse func(file string, sexps []*semantics.SExp) ([]E, error)
	// Children are e's subterms, and whether each must lie within e's
	// span (a Let's Body follows its binding, outside the Let's span).
	Children func(e E) (kids []E, within []bool)
	// WrittenAs reports whether s, the s-expression e spans, is a form
	// e can be elaborated from.
	WrittenAs func(e E, s *semantics.SExp) bool
	// String prints e for the problems found.
	String func(e E) string
}

// Terms checks the spans of the s-expressions (SExps) and of the terms of
// each of srcs that reads and parses: every term's span is known, in
// order, exactly one s-expression of the file (so its text reads as one
// s-expression spanning all of it) of a form the term can come from, and
// lies within its parent's where Children says it must. It reports at
// most 10 problems a source, and fails if fewer than 50 programs or 1000
// terms were checked.
func Terms[E Term](t *testing.T, srcs []Source, d Dialect[E]) {
	t.Helper()
	files, terms := 0, 0
	for _, s := range srcs {
		sexps, _, err := semantics.ReadSExps(s.Name, s.Src)
		if err != nil {
			continue
		}
		spans, problems, _ := SExps(s.Src, sexps)
		if es, err := d.Parse(s.Name, sexps); err == nil {
			files++
			for _, e := range es {
				d.check(s.Src, spans, e, &problems, &terms)
			}
		}
		for i, pr := range problems {
			if i == 10 {
				t.Errorf("%s: … %d more", s.Name, len(problems)-i)
				break
			}
			t.Errorf("%s: %s", s.Name, pr)
		}
	}
	if files < 50 || terms < 1000 {
		t.Errorf("checked %d terms of %d programs: too few", terms, files)
	}
	t.Logf("checked %d terms of %d programs", terms, files)
}

// check checks the span of e, a term of a program read from src whose
// s-expressions span spans, and those of its subterms.
func (d Dialect[E]) check(src string, spans map[Span]bool, e E, problems *[]string, checked *int) {
	bad := func(format string, args ...any) { *problems = append(*problems, fmt.Sprintf(format, args...)) }
	*checked++
	from, to := e.At(), e.End()
	switch {
	case !from.IsValid() || !to.IsValid():
		bad("%T %s at %v: span %v-%v is not known", e, d.String(e), from, from, to)
	case !LessEq(from, to):
		bad("%T %s: Pos %v is after End %v", e, d.String(e), from, to)
	case !spans[Span{From: from, To: to}]:
		bad("%T %s: span %v-%v is no s-expression's", e, d.String(e), from, to)
	default:
		if s, err := OneSExp(src, from, to); err != nil {
			bad("%T %s at %v-%v: %v", e, d.String(e), from, to, err)
		} else if !d.WrittenAs(e, s) {
			bad("%T %s at %v-%v is written %s, no form of its kind", e, d.String(e), from, to, s)
		}
	}
	cs, within := d.Children(e)
	for i, c := range cs {
		if within[i] && !(LessEq(from, c.At()) && LessEq(c.End(), to)) {
			bad("%T %s at %v-%v is not within its %T at %v-%v", c, d.String(c), c.At(), c.End(), e, from, to)
		}
		d.check(src, spans, c, problems, checked)
	}
}

// SExpFocuses runs program src of a Remora dialect l to the end
// (Focuses) and checks that the source span of each step that has one is
// one s-expression of src. It returns the focuses and how many have a
// span.
func SExpFocuses(t *testing.T, l lang.Language, file, src string) (fs []lang.Focus, spanned int) {
	t.Helper()
	sexps, _, err := semantics.ReadSExps(file, src)
	if err != nil {
		t.Fatal(err)
	}
	spans, _, _ := SExps(src, sexps)
	fs = Focuses(t, l, file, src, nil)
	for i, f := range fs {
		if !f.From.IsValid() {
			continue
		}
		spanned++
		if !spans[Span{From: f.From, To: f.To}] {
			t.Errorf("step %d: the source span %v-%v of %s is no s-expression's", i+1, f.From, f.To, f.Redex)
		}
	}
	return fs, spanned
}
