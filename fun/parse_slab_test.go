package fun

import (
	"fmt"
	"os"
	"path/filepath"
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

// TestBodyLists reads every example and a program of more statements and
// results than a block of lists holds: each body's statements and results
// print back as read, each list has capacity its length (an append to it
// copies rather than writing into the next body's list), and the lists
// share no element.
func TestBodyLists(t *testing.T) {
	var srcs []string
	files, err := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(b))
	}
	var big strings.Builder
	big.WriteString("fun (n : int) =>\n")
	var res []string
	for i := range 3 * slabSize {
		fmt.Fprintf(&big, "let (x%d : int) = n + %d\n", i, i)
		fmt.Fprintf(&big, "let (k%d : [n]int) = kernel i <= n do let (y : int) = i + x%d in (y, y)\n", i, i)
		res = append(res, fmt.Sprintf("x%d", i))
	}
	fmt.Fprintf(&big, "in (%s)\n", strings.Join(res, ", "))
	srcs = append(srcs, big.String())
	for _, src := range srcs {
		p, err := ParseFile("t.fun", src)
		if err != nil {
			continue // the examples of errors
		}
		want := Print(p)
		stms := map[**Stm]bool{}
		results := map[**Ident]bool{}
		Inspect(p, func(n Node) bool {
			b, ok := n.(*Body)
			if !ok {
				return true
			}
			if cap(b.Stms) != len(b.Stms) || cap(b.Result) != len(b.Result) {
				t.Fatalf("a body's lists have room past their ends (%d of %d, %d of %d)", len(b.Stms), cap(b.Stms), len(b.Result), cap(b.Result))
			}
			for i := range b.Stms {
				if stms[&b.Stms[i]] {
					t.Fatal("two bodies share a statement's place")
				}
				stms[&b.Stms[i]] = true
			}
			for i := range b.Result {
				if results[&b.Result[i]] {
					t.Fatal("two bodies share a result's place")
				}
				results[&b.Result[i]] = true
			}
			return true
		})
		if src == big.String() { // each statement in its body, in order
			top := p.Body
			if len(top.Stms) != 6*slabSize || len(top.Result) != 3*slabSize {
				t.Fatalf("%d statements and %d results at the top", len(top.Stms), len(top.Result))
			}
			for i, s := range top.Stms {
				if i%2 == 1 {
					k := s.Exp.(*KernelExp)
					if len(k.Body.Stms) != 1 || k.Body.Stms[0].Pat[0].Name.Name != "y" || len(k.Body.Result) != 2 {
						t.Fatalf("kernel %d's body: %s", i/2, PrintExp(k))
					}
				} else if name := s.Pat[0].Name.Name; name != fmt.Sprintf("x%d", i/2) || top.Result[i/2].Name != name {
					t.Fatalf("statement %d binds %s", i, name)
				}
			}
		}
		q, err := ParseFile("t.fun", want)
		if err != nil || Print(q) != want {
			t.Fatalf("does not read back: %v", err)
		}
	}
}
