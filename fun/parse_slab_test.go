package fun

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestParserSlabs reads an expression with more names, constants and
// operators than a slab holds: each node is its own, as read (a slab that
// handed out a node twice, or lost one, would print another expression),
// and the names keep their positions.
func TestParserSlabs(t *testing.T) {
	n := 3*slabSize + 5
	terms := make([]string, n)
	for i := range terms {
		terms[i] = fmt.Sprintf("x%d * %d", i, i)
	}
	src := strings.Join(terms, " + ")
	s, err := semantics.ScanStream("slab.fun", src, Ops)
	if err != nil {
		t.Fatal(err)
	}
	p := &Parser{S: s}
	e, err := p.SExp()
	if err != nil {
		t.Fatal(err)
	}
	if got := PrintSExp(e); got != src {
		t.Fatalf("read back as\n%s\nwant\n%s", got, src)
	}
	seen := map[*Ident]bool{}
	var walk func(SExp)
	walk = func(e SExp) {
		switch e := e.(type) {
		case Var:
			if seen[e.Ident] {
				t.Fatalf("name %s shares its node", e.Name)
			}
			seen[e.Ident] = true
			if want := strings.Index(src, e.Name+" "); e.NamePos.Col != want+1 {
				t.Errorf("%s at column %d, want %d", e.Name, e.NamePos.Col, want+1)
			}
		case *BinOp:
			walk(e.L)
			walk(e.R)
		}
	}
	walk(e)
	if len(seen) != n {
		t.Fatalf("%d distinct names, want %d", len(seen), n)
	}
}
