package funmem

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/spantest"
	"github.com/arraysem/arraysem/semantics"
)

// TestSpans checks, for every example that parses (and every program of
// the parse and check golden files), that the span [Pos, End) of each
// statement, body, binding, expression (alloc included) and scalar
// expression (those of LMADs included) is exactly its source, and that
// children lie within their parents.
func TestSpans(t *testing.T) {
	spantest.FUNFiles(t, "funmem", ParseFile, snippetParser)
}

// TestSpansAlloc checks the span of alloc of a parenthesized size.
func TestSpansAlloc(t *testing.T) {
	src := "input (n : int)\nlet (m : mem) = alloc ((n) * 2)\nlet (k : mem) = alloc (n)\nin (n)\n"
	prog, err := ParseFile("t.funmem", src)
	if err != nil {
		t.Fatal(err)
	}
	problems, _ := spantest.FUN(src, prog, snippetParser)
	for _, p := range problems {
		t.Error(p)
	}
	for i, want := range []string{"alloc ((n) * 2)", "alloc (n)"} {
		e := prog.Body.Stms[i].Exp
		if got, _ := spantest.Text(src, e.Pos(), e.End()); got != want {
			t.Errorf("alloc %d spans %q, want %q", i, got, want)
		}
	}
}

// TestFocusSource checks that every step's focus gives the redex's source
// span (fig7.funmem: an if, allocs, iota and copy).
func TestFocusSource(t *testing.T) {
	file := filepath.Join("..", "examples", "funmem", "fig7.funmem")
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	fs := spantest.Focuses(t, Language, file, string(src), map[string]string{"xsize": "3", "ysize": "4", "zcond": "1"})
	spantest.FUNFocuses(t, string(src), fs, snippetParser, 7)
}

func snippetParser(text string) (*fun.Parser, error) {
	toks, err := semantics.Scan("snippet", text, Ops)
	if err != nil {
		return nil, err
	}
	return newParser(&semantics.TokenStream{Toks: toks}), nil
}
