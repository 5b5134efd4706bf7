package imp

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/spantest"
	"github.com/arraysem/arraysem/semantics"
)

// TestSpans checks, for every example that parses (and every program of
// the parse and check golden files), that the span [Pos, End) of each
// statement and scalar expression is exactly its source, and that the
// parts of a statement lie within it.
func TestSpans(t *testing.T) {
	spantest.Check(t, spantest.Sources(t, "imp", "--"), func(s spantest.Source) ([]string, int) {
		prog, err := ParseFile(s.Name, s.Src)
		if err != nil {
			return nil, 0
		}
		return checkStmts(s.Src, prog.Body)
	})
}

// TestSpansEnds checks the end of each form of statement, parentheses and
// Unicode operators included.
func TestSpansEnds(t *testing.T) {
	src := `input n : int;
var a : int; var m : mem;
m <- alloc (n);
a <- ((n) + 1) · (2);
m[(a)] <- (a ≤ 3);
a <- m[a - 1];
skip;
if a then skip else a <- -(a) fi;
kernel i ≤ (n) do a <- i done;
for i ≤ n do a <- a + i done;
assert (a);
assert a > 0 "a \"is\" positive ≥ 1";
reduce a <- 0 for i <= n do var v : int; v <- i yield v combine x, y do var c : int; c <- x + y; yield c done;
scan m[i - 1] <- (1) for i <= n do yield i combine x, y do yield y done
return a
`
	prog, err := ParseFile("t.imp", src)
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := checkStmts(src, prog.Body)
	for _, p := range problems {
		t.Error(p)
	}
	want := []string{"var a : int", "var m : mem", "m <- alloc (n)", "a <- ((n) + 1) · (2)", "m[(a)] <- (a ≤ 3)",
		"a <- m[a - 1]", "skip", "if a then skip else a <- -(a) fi", "kernel i ≤ (n) do a <- i done",
		"for i ≤ n do a <- a + i done", "assert (a)", `assert a > 0 "a \"is\" positive ≥ 1"`,
		"reduce a <- 0 for i <= n do var v : int; v <- i yield v combine x, y do var c : int; c <- x + y; yield c done",
		"scan m[i - 1] <- (1) for i <= n do yield i combine x, y do yield y done"}
	if len(prog.Body) != len(want) {
		t.Errorf("%d statements, want %d", len(prog.Body), len(want))
	}
	for i, s := range prog.Body {
		if got, _ := spantest.Text(src, s.Pos(), s.End()); i >= len(want) || got != want[i] {
			t.Errorf("statement %d spans %q", i, got)
		}
	}
}

// checkStmts checks the statements ss of a program parsed from src, and
// the statements and scalar expressions inside them.
func checkStmts(src string, ss []Stmt) (problems []string, checked int) {
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	for _, s := range ss {
		checked++
		if !s.Pos().IsValid() || !s.End().IsValid() || !spantest.LessEq(s.Pos(), s.End()) {
			bad("%T: bad span %v-%v", s, s.Pos(), s.End())
			continue
		}
		text, err := spantest.Text(src, s.Pos(), s.End())
		if err != nil {
			bad("%T at %v: %v", s, s.Pos(), err)
			continue
		}
		if err := reparseStmt(s, text); err != nil {
			bad("%T at %v-%v, %q: %v", s, s.Pos(), s.End(), text, err)
		}
		var parts []fun.Node
		var nested []Stmt
		switch s := s.(type) {
		case *Decl:
			parts = append(parts, s.X)
		case *Assign:
			parts = append(parts, s.X, s.SE)
		case *Alloc:
			parts = append(parts, s.X, s.Size)
		case *Read:
			parts = append(parts, s.X, s.Y, s.Index)
		case *Write:
			parts = append(parts, s.X, s.Index, s.Value)
		case *If:
			parts = append(parts, s.Cond)
			nested = append(append(nested, s.Then...), s.Else...)
		case *Kernel:
			parts = append(parts, s.X, s.Bound)
			nested = s.Body
		case *For:
			parts = append(parts, s.X, s.Bound)
			nested = s.Body
		case *Assert:
			parts = append(parts, s.Cond)
		case *Reduce:
			parts = append(parts, s.Target)
		case *Scan:
			parts = append(parts, s.Block, s.Addr)
		}
		if f, ok := folds(s); ok {
			parts = append(parts, f.Neutral, f.X, f.Bound, f.Yield, f.A, f.B, f.Result)
			nested = append(append(nested, f.Body...), f.Combine...)
		}
		for _, n := range nested {
			parts = append(parts, n)
		}
		for _, part := range parts {
			if !spantest.Within(part.(spantest.Node), s) {
				bad("%T at %v-%v is not within its %T at %v-%v", part, part.(spantest.Node).Pos(), part.(spantest.Node).End(), s, s.Pos(), s.End())
			}
			if se, ok := part.(fun.SExp); ok {
				p, n := spantest.Tree(src, se, snippetParser)
				problems, checked = append(problems, p...), checked+n
			}
		}
		p, n := checkStmts(src, nested)
		problems, checked = append(problems, p...), checked+n
	}
	return problems, checked
}

// reparseStmt parses text as one statement and compares the prints.
func reparseStmt(s Stmt, text string) error {
	fp, err := snippetParser(text)
	if err != nil {
		return err
	}
	p := &parser{Parser: *fp}
	got, err := p.stmt()
	if err != nil {
		return err
	}
	if t := p.S.Peek(); t.Kind != semantics.EOF {
		return fmt.Errorf("text is left after the statement: %s", t)
	}
	if g, w := PrintStmt(got), PrintStmt(s); g != w {
		return fmt.Errorf("parses back to %q, not %q", g, w)
	}
	return nil
}

func snippetParser(text string) (*fun.Parser, error) {
	toks, err := semantics.Scan("snippet", text, Ops)
	if err != nil {
		return nil, err
	}
	return &fun.Parser{S: &semantics.TokenStream{Toks: toks}, Keywords: keywords}, nil
}

// TestFocusSource checks that every step's focus gives the redex's source
// span: the statement it ran, the done of a kernel whose iteration ended,
// the return at the end; none at the end of an if's branch.
func TestFocusSource(t *testing.T) {
	src := `input n : int;
var a : int; var m : mem;
m <- alloc (n);
a <- (n + 1) * 2;
if a then a <- a - 1 else skip fi;
kernel i <= n do
  m[i - 1] <- i * a
done;
return a
`
	fs := spantest.Focuses(t, Language, "t.imp", src, map[string]string{"n": "2"})
	var got []string
	for i, f := range fs {
		if !f.From.IsValid() {
			got = append(got, "-")
			if f.Redex != "the end of the branch" {
				t.Errorf("step %d (%s) has no source span", i+1, f.Redex)
			}
			continue
		}
		text, err := spantest.Text(src, f.From, f.To)
		if err != nil {
			t.Errorf("step %d (%s): %v", i+1, f.Redex, err)
			continue
		}
		got = append(got, text)
		switch text {
		case "done", "return":
			continue
		}
		fp, err := snippetParser(text)
		if err != nil {
			t.Fatal(err)
		}
		p := &parser{Parser: *fp}
		s, err := p.stmt()
		if err != nil || PrintStmt(s) != f.Redex {
			t.Errorf("step %d: the source span %v-%v holds %q, but the redex is %q", i+1, f.From, f.To, text, f.Redex)
		}
	}
	want := []string{"var a : int", "var m : mem", "m <- alloc (n)", "a <- (n + 1) * 2", "if a then a <- a - 1 else skip fi",
		"a <- a - 1", "-", "kernel i <= n do\n  m[i - 1] <- i * a\ndone", "m[i - 1] <- i * a", "done", "m[i - 1] <- i * a", "done", "return"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("the steps' source spans are\n%q\nwant\n%q", got, want)
	}
}

// TestFocusSourceExtensions: a for iteration's end spans its done, a fold
// part's end the variable it yields, and every other step its statement.
func TestFocusSourceExtensions(t *testing.T) {
	src := `input n : int;
var s : int;
for i <= n do s <- s + i done;
assert s "s";
reduce s <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done;
return s
`
	fs := spantest.Focuses(t, Language, "t.imp", src, map[string]string{"n": "1"})
	var got []string
	for i, f := range fs {
		text, err := spantest.Text(src, f.From, f.To)
		if err != nil {
			t.Errorf("step %d (%s): %v", i+1, f.Redex, err)
			continue
		}
		got = append(got, text)
	}
	want := []string{"var s : int", "for i <= n do s <- s + i done", "s <- s + i", "done", `assert s "s"`,
		"reduce s <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done",
		"i", "var c : int", "c <- a + b", "c", "return"}
	if strings.Join(got, " | ") != strings.Join(want, " | ") {
		t.Errorf("the steps' source spans are\n%q\nwant\n%q", got, want)
	}
}
