package semantics

import "testing"

// TestSuggest: the names users mistype get the name they meant, and a
// name close to nothing gets no suggestion.
func TestSuggest(t *testing.T) {
	commands := []string{"run", "step", "check", "compile", "gpu-sim", "gpu-check", "test", "side-by-side", "prove", "cover", "repl", "bench", "demo"}
	for _, c := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"rnu", commands, "run"},
		{"rn", commands, "run"},
		{"compiel", commands, "compile"},
		{"sidebyside", commands, "side-by-side"},
		{"side", commands, "side-by-side"},
		{"gpusim", commands, "gpu-sim"},
		{"frobnicate", commands, ""},
		{"x", commands, ""},
		{"ag", []string{"arg", "fuel", "semantics"}, "arg"},
		{"semantic", []string{"arg", "fuel", "semantics"}, "semantics"},
		{"reduce-int", []string{"reduce", "reduce-init", "reduce/zero"}, "reduce-init"},
		{"to-level", []string{"to", "stages", "passes"}, "to"},
		{"dot", []string{"not", "iota", "total"}, ""},
		{"y", []string{"%", "x"}, ""},
		{"total", []string{"iota", "totl"}, "totl"},
		{"total", []string{"iota"}, ""},
		{"gpusim", commands, "gpu-sim"},
		{"run", commands, ""}, // the name itself is never suggested
		{"", commands, ""},
	} {
		if got := Suggest(c.name, c.cands); got != c.want {
			t.Errorf("Suggest(%q) = %q, want %q", c.name, got, c.want)
		}
	}
	for _, c := range []struct {
		a, b string
		d    int
	}{{"", "", 0}, {"abc", "", 3}, {"rnu", "run", 1}, {"kitten", "sitting", 3}, {"ca", "abc", 3}, {"λx", "λy", 1}} {
		if got := editDistance(c.a, c.b); got != c.d {
			t.Errorf("editDistance(%q, %q) = %d, want %d", c.a, c.b, got, c.d)
		}
	}
}
