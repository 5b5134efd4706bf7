package semantics

import "testing"

// TestScanFloat checks that float literals scan as one Float token, that
// int literals scan as before, and that a literal too large for a float64
// is a syntax error.
func TestScanFloat(t *testing.T) {
	cases := []struct {
		src  string
		want []TokKind
		text []string
	}{
		{"1.5", []TokKind{Float}, []string{"1.5"}},
		{"3.0 + 2", []TokKind{Float, Punct, Int}, []string{"3.0", "+", "2"}},
		{"1e3", []TokKind{Float}, []string{"1e3"}},
		{"2.5e-3*x", []TokKind{Float, Punct, Ident}, []string{"2.5e-3", "*", "x"}},
		{"42", []TokKind{Int}, []string{"42"}},
		{"x1e2", []TokKind{Ident}, []string{"x1e2"}},
		{"1e", []TokKind{Int, Ident}, []string{"1", "e"}},
		{"7 e3", []TokKind{Int, Ident}, []string{"7", "e3"}},
	}
	for _, c := range cases {
		toks, err := Scan("f", c.src, nil)
		if err != nil {
			t.Errorf("Scan(%q): %v", c.src, err)
			continue
		}
		toks = toks[:len(toks)-1] // EOF
		if len(toks) != len(c.want) {
			t.Errorf("Scan(%q) = %v, want %d tokens", c.src, toks, len(c.want))
			continue
		}
		for i, tok := range toks {
			if tok.Kind != c.want[i] || tok.Text != c.text[i] {
				t.Errorf("Scan(%q) token %d = %v %q, want %v %q", c.src, i, tok.Kind, tok.Text, c.want[i], c.text[i])
			}
		}
	}
	toks, _ := Scan("f", "0.1", nil)
	if toks[0].F != 0.1 {
		t.Errorf("0.1 scans to %v", toks[0].F)
	}
	if _, err := Scan("f", "x + 1e400", nil); err == nil {
		t.Errorf("1e400 scanned")
	}
	if _, err := Scan("f", "3.", nil); err == nil {
		t.Errorf("3. scanned (the '.' is no operator)")
	}
}
