package fun_test

import (
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/spantest"
	"github.com/arraysem/arraysem/semantics"
)

// TestSpans checks, for every example that parses (and every program of
// the parse and check golden files), that the span [Pos, End) of each
// statement, body, binding, expression and scalar expression is exactly
// its source, and that children lie within their parents.
func TestSpans(t *testing.T) {
	spantest.FUNFiles(t, "fun", fun.ParseFile, newParser)
}

// TestSpansParens checks spans where parentheses, negative constants and
// Unicode operators make a node's text differ from its children's.
func TestSpansParens(t *testing.T) {
	src := `input (n : int)
let (a : int) = ((n + 1)) * (2 - n)
let (b : int) = -(a) + - 5 - -a
let (c : int) = (((a)))
let (d : int) = a ≤ (b·c) ∧ (0 ≠ 1)
let (e : int) = - (a * (b))
let (z : [n]) = kernel i <= n do let (y : int) = (i * (a + 007)) in (y)
in ( z , e )
`
	prog, err := fun.ParseFile("t.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	problems, n := spantest.FUN(src, prog, newParser)
	for _, p := range problems {
		t.Error(p)
	}
	if n < 40 {
		t.Errorf("only %d nodes checked", n)
	}
	s := prog.Body.Stms[0]
	if got, _ := spantest.Text(src, s.Exp.Pos(), s.Exp.End()); got != "((n + 1)) * (2 - n)" {
		t.Errorf("the first expression spans %q", got)
	}
}

func newParser(text string) (*fun.Parser, error) {
	toks, err := semantics.Scan("snippet", text, fun.Ops)
	if err != nil {
		return nil, err
	}
	return &fun.Parser{S: &semantics.TokenStream{Toks: toks}}, nil
}

// TestFocusSource checks that every step's focus gives the redex's source
// span: the text there parses back to the redex the focus prints (a
// statement, or the in (…) of a body that returned).
func TestFocusSource(t *testing.T) {
	src := `input (n : int)
let (a : int) = (n + 1) * 2
let (c : int) = a > 3
let (b : [n]) =
  if c then
    let (z : [n]) = kernel i <= n do let (y : int) = i * a in ( y )
    in (z)
  else let (z : [n]) = iota n in (z)
in (a, b)
`
	fs := spantest.Focuses(t, fun.Language, "t.fun", src, map[string]string{"n": "2"})
	spantest.FUNFocuses(t, src, fs, newParser, 10)
}

// TestSpansExt checks the spans of the extension forms, their parameters
// and bodies, and of an assert's condition and message, among others.
func TestSpansExt(t *testing.T) {
	src := `input (n : int) (xs : [n]) (t : int)
let (k2 : int) (zs : [k2]) = loop ( k : int ) (ys : [k]) = ( n , xs ) for i <= t do in ( k , ys )
let (s : int) = reduce (a : int) (b : int) = t over xs do let (c : int) = a + b in (c)
let (ps : [n]) = scan (a2 : int) (b2 : int) = t over xs do in (b2)
let (m : int) (fs : [m]) = filter (x : int) over xs do let (keep : int) = (x > 0) in (keep)
let (ok : int) = assert ((n + 1)) "a \"message\" -- with \\ escapes"
let (ok2 : int) = assert (n)
in (zs, s, ps, fs, ok, ok2)
`
	prog, err := fun.ParseFile("t.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	problems, n := spantest.FUN(src, prog, newParser)
	for _, p := range problems {
		t.Error(p)
	}
	if n < 60 {
		t.Errorf("only %d nodes checked", n)
	}
	for i, want := range map[int]string{
		4: `assert ((n + 1)) "a \"message\" -- with \\ escapes"`,
		5: "assert (n)",
	} {
		e := prog.Body.Stms[i].Exp
		if got, _ := spantest.Text(src, e.Pos(), e.End()); got != want {
			t.Errorf("statement %d's expression spans %q", i+1, got)
		}
	}
}

// TestFocusSourceExt checks the steps' focuses in the iterations of the
// extension forms.
func TestFocusSourceExt(t *testing.T) {
	src := `input (n : int) (xs : [n])
let (s : int) = loop (acc : int) = (n) for i <= n do let (y : int) = acc + i in (y)
let (r : int) = reduce (a : int) (b : int) = s over xs do let (c : int) = a + b in (c)
let (k : int) (ys : [k]) = filter (x : int) over xs do let (keep : int) = x > 1 in (keep)
let (ok : int) = assert k "k"
in (s, r, ys)
`
	fs := spantest.Focuses(t, fun.Language, "t.fun", src, map[string]string{"xs": "[1 2]"})
	spantest.FUNFocuses(t, src, fs, newParser, 17)
}
