package remora

import (
	"strings"
	"testing"
)

// TestChainMadeLazily: the δ that unfolds a scan of n items into its
// chain makes the first link and leaves the others to be made when β
// reaches them (chain.go), while the configuration, printed, is the whole
// chain; and each β makes one link more.
func TestChainMadeLazily(t *testing.T) {
	e, err := ParseExpr("scan.remora", "(iscan{int | 999 [] []} + iota{ | [1000]})")
	if err != nil {
		t.Fatal(err)
	}
	if e, _, _, err = CheckExpr(e, nil); err != nil {
		t.Fatal(err)
	}
	// made counts the links reachable through λ bodies without making
	// any.
	made := func(e Expr) int {
		n := 0
		for {
			a, ok := e.(*App)
			if !ok {
				return n
			}
			l, ok := a.Fn.(*Lam)
			if !ok {
				return n
			}
			n++
			e = l.Body
		}
	}
	s := Load(e)
	for i := 0; i < 10 && made(Term(s)) == 0; i++ { // to the unfolding δ
		if s, _, err = Contexts.Step(s); err != nil {
			t.Fatal(err)
		}
	}
	if n := made(Term(s)); n != 1 {
		t.Fatalf("after the unfolding δ, %d links are made; want 1", n)
	}
	if n := strings.Count(ExprString(Term(s)), "(fn ("); n != 999 {
		t.Errorf("the configuration prints %d links; want the whole chain's 999", n)
	}
	betas := 0
	for !Contexts.Final(s) && betas < 3 {
		var rule string
		if s, rule, err = Contexts.Step(s); err != nil {
			t.Fatal(err)
		}
		if rule == RuleBeta.Name {
			betas++
			if n := made(Term(s)); n != 1 {
				t.Fatalf("after β %d, %d links are made; want 1", betas, n)
			}
		}
	}
}
