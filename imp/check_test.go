package imp

import (
	"maps"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// TestCheckDerivation: for every example of examples/imp and every chunk
// of testdata/check.txt, check --derive's typing derivation is rooted
// at IMP-PROG and has a node Γ ⊢ s ⊣ Γ' by the rule of s's form for each
// statement s, nested bodies included (and IMP-SKIP's for each empty
// body), and nothing else of that form; building it counts the rules as
// a plain check does; and a plain check builds nothing, on an error
// either.
func TestCheckDerivation(t *testing.T) {
	type program struct {
		where string
		p     *Program
		paper bool
	}
	var programs []program
	files, err := filepath.Glob(filepath.Join("..", "examples", "imp", "*.imp"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		p, err := ParseFile(f, string(src))
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		programs = append(programs, program{f, p, false})
	}
	for _, c := range golden.Read(t, filepath.Join("testdata", "check.txt"), "--") {
		p, err := ParseFile(c.File, c.Src)
		if err != nil {
			t.Fatalf("%s:%d: %v", c.File, c.Line, err)
		}
		programs = append(programs, program{c.File + ":" + strconv.Itoa(c.Line), p, c.Paper})
	}
	passed, failed := 0, 0
	for _, x := range programs {
		plain, derived := semantics.Counter{}, semantics.Counter{}
		d0, err0 := CheckDerivation(x.p, CheckOptions{Paper: x.paper, Counter: plain})
		d, err := CheckDerivation(x.p, CheckOptions{Paper: x.paper, Derive: true, Counter: derived})
		if (err0 == nil) != (err == nil) || (err != nil && err0.Error() != err.Error()) {
			t.Errorf("%s: checking with the derivation gives %v, without %v", x.where, err, err0)
			continue
		}
		if d0 != nil || semantics.PartialDerivation(err0) != nil {
			t.Errorf("%s: a plain check built a derivation", x.where)
		}
		if err != nil {
			failed++
			continue // the golden test holds failing chunks to their partial derivation
		}
		passed++
		if !maps.Equal(plain, derived) {
			t.Errorf("%s: building the derivation counts %s, a plain check %s", x.where, golden.RuleList(derived), golden.RuleList(plain))
		}
		if d == nil || d.Rule != ImpProg.Name {
			t.Errorf("%s: the derivation is not rooted at %s:\n%v", x.where, ImpProg.Name, d)
			continue
		}
		want := map[string]int{}
		empty := func(ss []Stmt) {
			if len(ss) == 0 {
				want[ImpSkip.Name+" skip"]++
			}
		}
		empty(x.p.Body)
		WalkStmts(x.p.Body, func(s Stmt) {
			want[stmtRule(s).Name+" "+stmtHead(s)]++
			switch s := s.(type) {
			case *If:
				empty(s.Then)
				empty(s.Else)
			case *Kernel:
				empty(s.Body)
			case *For:
				empty(s.Body)
			case *Reduce:
				empty(s.Body)
				empty(s.Combine)
			case *Scan:
				empty(s.Body)
				empty(s.Combine)
			}
		})
		got := map[string]int{}
		var walk func(*semantics.Derivation)
		walk = func(n *semantics.Derivation) {
			if _, rhs, ok := strings.Cut(n.Conclusion, " ⊢ "); ok && n.Rule != ImpSeq.Name {
				if head, _, ok := strings.Cut(rhs, " ⊣ "); ok {
					got[n.Rule+" "+head]++
				}
			}
			for _, p := range n.Premises {
				walk(p)
			}
		}
		walk(d)
		if !maps.Equal(want, got) {
			t.Errorf("%s: the derivation's statement nodes are\n%v\nnot one per statement,\n%v\n%v", x.where, got, want, d)
		}
	}
	if passed == 0 || failed == 0 {
		t.Errorf("%d programs pass and %d fail: the test wants both", passed, failed)
	}
}
