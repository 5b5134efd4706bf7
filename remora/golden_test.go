package remora

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// The chunked golden files testdata/parse.txt and testdata/check.txt are
// read by package golden (internal/golden), which documents their format;
// a chunk of Remora's ";" comments alone is a note (Chunk.OnlyComments).

// reprint checks that an expression prints to a text that ParseExpr reads
// back to a term printing the same.
func reprint(e Expr) error {
	text := ExprString(e)
	again, err := ParseExpr("reprint", text)
	if err != nil {
		return fmt.Errorf("the printed term does not parse: %v\n%s", err, text)
	}
	if t2 := ExprString(again); t2 != text {
		return fmt.Errorf("printing is not stable:\n%s\nthen\n%s", text, t2)
	}
	return nil
}

// TestParseGolden runs testdata/parse.txt: a chunk with an expected error
// must fail to parse with it; any other must parse, and each of its
// expressions must print to a text that parses back to a term printing
// the same.
func TestParseGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "parse.txt"), ";", func(c *golden.Chunk) error {
		if c.OnlyComments() {
			return nil
		}
		p, _, err := ParseFile(c.File, c.Src)
		if c.ErrRe != nil {
			return c.ExpectError(err, semantics.SyntaxError)
		}
		if err != nil {
			return fmt.Errorf("parse: %v", err)
		}
		if len(p.Exprs) == 0 {
			return fmt.Errorf("no expressions")
		}
		for i, e := range p.Exprs {
			if err := reprint(e); err != nil {
				return fmt.Errorf("expression %d: %v", i+1, err)
			}
		}
		return nil
	})
}

// TestParseErrorPositions checks the positions (line and column) of a
// few syntax errors exactly, and that every syntax error is a
// *semantics.Error of kind SyntaxError with no rule.
func TestParseErrorPositions(t *testing.T) {
	for _, tc := range []struct {
		src       string
		line, col int
		msg       string
	}{
		{"(+ 1 2", 1, 1, "unclosed ( (want ))"},
		{"(+ 1\n  2]", 2, 4, "] closes the ( at 1:1 (want ))"},
		{"[1 2)", 1, 5, ") closes the [ at 1:1 (want ])"},
		{"f{int}", 1, 6, "braces need a | between types and indices, even when one side is empty: f{t | } or f{ | i}"},
		{"\"ab\\qc\"", 1, 5, `unknown escape \q in string`},
		{"(fn ([fn int]) fn)", 1, 7, "fn is a keyword, not a name"},
		{"(let [x 1]\n  (i-app f -1))", 2, 12, "an index is a natural number, got -1"},
		{"(frame [2] 1)", 1, 1, "frame [2] wants 2 elements, got 1"},
		{"(fn ([x (Arr int 3)]) 1)", 1, 18, "an array's index is a Shape, got the Nat 3"},
		{"(+ 1 2) (+ 3", 1, 9, "unclosed ( (want ))"},
	} {
		_, _, err := ParseFile("pos.remora", tc.src)
		var se *semantics.Error
		if !errors.As(err, &se) {
			t.Errorf("%q: want a *semantics.Error, got %v", tc.src, err)
			continue
		}
		if se.Kind != semantics.SyntaxError || se.Rule != "" || se.Pos.File != "pos.remora" || se.Pos.Line != tc.line || se.Pos.Col != tc.col || se.Msg != tc.msg {
			t.Errorf("%q: want a syntax error at pos.remora:%d:%d: %s, got %s %q: %v", tc.src, tc.line, tc.col, tc.msg, se.Kind, se.Rule, err)
		}
	}
}

// TestParseExprAndType checks the one-expression and one-type entry
// points: ParseExpr wants exactly one expression, ParseType one type.
func TestParseExprAndType(t *testing.T) {
	for _, src := range []string{"", "1 2", "; only a comment"} {
		if _, err := ParseExpr("x", src); err == nil || !strings.Contains(err.Error(), "want one expression") {
			t.Errorf("ParseExpr(%q): want an error about one expression, got %v", src, err)
		}
		if _, err := ParseType("x", src); err == nil || !strings.Contains(err.Error(), "want one type") {
			t.Errorf("ParseType(%q): want an error about one type, got %v", src, err)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{"int", "int"},
		{"[int]", "int"},
		{"(Arr int [])", "int"},
		{"[float 2 3]", "[float 2 3]"},
		{"(Arr [int 3] [2])", "(Arr [int 3] [2])"},
		{"[[int 3] 2]", "(Arr [int 3] [2])"},
		{"(-> ([int 3] bool) [char 2])", "(-> ([int 3] bool) [char 2])"},
		{"(→ (int) int)", "(-> (int) int)"},
		{"(∀ (t) [t 2])", "(Forall (t) [t 2])"},
		{"(Π (d @s) [int d @s])", "(Pi (d @s) [int d @s])"},
		{"(Σ (d) [int (+ d 1)])", "(Sigma (d) [int (+ d 1)])"},
		{"[int (+ 1 d d)]", "[int (+ d d 1)]"},
		{"[int (++ [1] @s [2 3]) @t]", "[int 1 @s 2 3 @t]"},
	} {
		ty, err := ParseType("x", tc.src)
		if err != nil {
			t.Errorf("ParseType(%q): %v", tc.src, err)
			continue
		}
		if got := TypeString(ty); got != tc.want {
			t.Errorf("ParseType(%q) prints %s, want %s", tc.src, got, tc.want)
		}
		// A scalar array type prints as its atom type, which means the
		// scalar array in an array position (§4.2).
		back, err := ParseType("x", TypeString(ty))
		if err != nil || !Equal(CanonArr(back), CanonArr(ty)) {
			t.Errorf("ParseType(%q): %s does not read back to an equal type (%v)", tc.src, TypeString(ty), err)
		}
	}
}

// TestTypeEquivalence checks ≅ (Equal): nested and flat array types, atom
// types as scalar arrays, and bound variables up to renaming (keeping
// their sort).
func TestTypeEquivalence(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		eq   bool
	}{
		{"(Arr [int 3] [2])", "[int 2 3]", true},
		{"[[int 3] 2]", "[int 2 3]", true},
		{"(Arr (Arr int [3]) [2])", "(Arr int [2 3])", true},
		{"[int 2 3]", "[int 3 2]", false},
		{"[int 6]", "[int 2 3]", false},
		{"[int (+ d 1)]", "[int (+ 1 d)]", true},
		{"[int (+ d e)]", "[int (+ e d)]", true},
		{"[int (++ @s [2])]", "[int @s 2]", true},
		{"[int @s @t]", "[int @t @s]", false},
		{"(Forall (t) [t 2])", "(Forall (u) [u 2])", true},
		{"(Forall (t u) (-> (t) u))", "(Forall (u t) (-> (u) t))", true},
		{"(Forall (t u) (-> (t) u))", "(Forall (t u) (-> (u) t))", false},
		{"(Pi (d) [int d])", "(Pi (e) [int e])", true},
		{"(Pi (d) [int d])", "(Pi (@s) [int @s])", false},
		{"(Sigma (@s) [int @s 2])", "(Sigma (@t) (Arr [int 2] @t))", true},
		{"(-> ((Arr [int 3] [2])) int)", "(-> ([int 2 3]) [int])", true},
		{"(-> (int) int)", "(-> (int int) int)", false},
		{"int", "float", false},
		{"bool", "char", false},
	} {
		a, err1 := ParseType("a", tc.a)
		b, err2 := ParseType("b", tc.b)
		if err1 != nil || err2 != nil {
			t.Errorf("%s, %s: %v %v", tc.a, tc.b, err1, err2)
			continue
		}
		if got := Equal(a, b); got != tc.eq {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.eq)
		}
		if got := Equal(b, a); got != tc.eq {
			t.Errorf("Equal(%s, %s) = %v, want %v", tc.b, tc.a, got, tc.eq)
		}
	}
	// In an array position an atom type is the scalar array of it.
	for _, src := range []string{"[int]", "(Arr int [])", "(Arr (Arr int []) [])"} {
		ty, err := ParseType("x", src)
		if err != nil {
			t.Fatal(err)
		}
		if !Equal(CanonArr(ty), CanonArr(Int)) {
			t.Errorf("CanonArr(%s) = %s, want the scalar array of int", src, TypeString(CanonArr(ty)))
		}
	}
}

// TestCheckGolden runs testdata/check.txt: every chunk must parse; a chunk
// with an expected error must fail type checking with it, any other must
// pass and apply the rules its rules markers list.
func TestCheckGolden(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "check.txt"), ";", func(c *golden.Chunk) error {
		if c.OnlyComments() {
			return nil
		}
		info, counter, err := checkChunk(c)
		if c.ErrRe != nil {
			if err := c.ExpectError(err, semantics.TypeError); err != nil {
				return err
			}
			return golden.ExpectFailedDerivation(err, "")
		}
		if err != nil {
			return err
		}
		if err := expectTypes(c, info); err != nil {
			return err
		}
		return c.ExpectRules(counter)
	})
}

// typeLine is the prefix of a comment line giving the type of the
// program's next result.
const typeLine = "; ⊢ "

// expectTypes checks the types the checker found against the chunk's
// "; ⊢ τ" lines: each gives the type of the first result (top-level
// expression that is not a definition) starting after it.
func expectTypes(c *golden.Chunk, info *Info) error {
	sexps, _, err := semantics.ReadSExps(c.File, c.Src)
	if err != nil {
		return err
	}
	var results []*semantics.SExp
	for _, s := range sexps {
		if !isDefine(s) {
			results = append(results, s)
		}
	}
	if len(results) != len(info.Types) {
		return fmt.Errorf("%d results, %d types", len(results), len(info.Types))
	}
	for n, l := range strings.Split(c.Src, "\n") {
		l = strings.TrimSpace(l)
		if !strings.HasPrefix(l, typeLine) {
			continue
		}
		line := n + 1
		want, err := ParseType(c.File, strings.TrimPrefix(l, typeLine))
		if err != nil {
			return fmt.Errorf("line %d: bad type: %v", line, err)
		}
		i := 0
		for i < len(results) && results[i].Pos.Line <= line {
			i++
		}
		if i == len(results) {
			return fmt.Errorf("line %d: no result after the type line", line)
		}
		if got := info.Types[i]; !Equal(got, CanonArr(want)) {
			return fmt.Errorf("line %d: the result has type %s, want %s", results[i].Pos.Line, TypeString(got), TypeString(want))
		}
	}
	return nil
}

// checkChunk parses and type checks a chunk, counting the rules applied.
// A chunk that does not parse is an error of the test file, not of the
// checker, and is reported as such.
func checkChunk(c *golden.Chunk) (*Info, semantics.Counter, error) {
	p, _, err := ParseFile(c.File, c.Src)
	if err != nil {
		return nil, nil, fmt.Errorf("the chunk does not parse: %v", err)
	}
	counter := semantics.Counter{}
	info, err := Check(p, &CheckOptions{Derive: true, Counter: counter})
	if err == nil && (len(info.Derivations) != len(p.Exprs) || len(info.Types) != len(p.Exprs)) {
		return nil, nil, fmt.Errorf("%d expressions, %d types, %d derivations", len(p.Exprs), len(info.Types), len(info.Derivations))
	}
	return info, counter, err
}

// figs78Rules are the type, kind and sort rules of Figs 7–8 as check.go
// names them, with the typed dialect's T-LIFT, T-REIFY and T-RESHAPE and
// the compiler IR's T-MAP and T-REP (T-REP's premises fail instead).
var figs78Rules = []string{
	"T-NUM", "T-FLOAT", "T-BOOL", "T-CHAR", "T-VAR", "T-PRIM", "T-ARRAY", "T-ABST", "T-APP",
	"T-TABST", "T-TAPP", "T-IABST", "T-IAPP", "T-PACK", "T-UNPACK", "T-LIFT", "T-REIFY", "T-RESHAPE", "T-MAP", "T-REP", "T-CASE",
	"K-BASE", "K-VAR", "K-ARRAY", "K-FUN", "K-UNIV", "K-DPROD", "K-DSUM",
	"S-NAT", "S-VAR", "S-SHAPE", "S-PLUS", "S-APPEND",
}

// cannotFail are the rules with no premise of their own that can fail:
// the literals, primitives, the structural kind rules and the sort rules
// of constants, sums and shapes (their premises fail instead).
var cannotFail = map[string]bool{
	"T-NUM": true, "T-FLOAT": true, "T-BOOL": true, "T-CHAR": true, "T-PRIM": true, "T-REP": true,
	"K-BASE": true, "K-ARRAY": true, "K-FUN": true, "K-UNIV": true, "K-DPROD": true, "K-DSUM": true,
	"S-NAT": true, "S-SHAPE": true, "S-PLUS": true, "S-APPEND": true,
}

// TestCheckGoldenCoverage checks that check.txt exercises every rule of
// Figs 7–8 in a passing chunk, and every rule that can fail in a failing
// one.
func TestCheckGoldenCoverage(t *testing.T) {
	passed := semantics.Counter{}
	failed := map[string]bool{}
	for _, c := range golden.Read(t, filepath.Join("testdata", "check.txt"), ";") {
		if c.Bug != "" || c.OnlyComments() {
			continue
		}
		_, counter, err := checkChunk(c)
		var se *semantics.Error
		switch {
		case err == nil && c.ErrRe == nil:
			passed.Add(counter)
		case errors.As(err, &se) && c.ErrRe != nil && se.Kind == semantics.TypeError:
			failed[se.Rule] = true
		}
	}
	for _, r := range figs78Rules {
		if passed[r] == 0 {
			t.Errorf("no passing chunk of check.txt applies %s", r)
		}
		if !cannotFail[r] && !failed[r] {
			t.Errorf("no failing chunk of check.txt fails in %s", r)
		}
	}
	for r := range failed {
		if !contains(figs78Rules, r) {
			t.Errorf("a failing chunk of check.txt fails in %q, which is not a rule of Figs 7–8", r)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestParseDeepNesting checks that nesting far past the reader's limit is
// a syntax error, not a stack overflow, and that nesting well within it
// parses, prints back, type checks and runs to the same value under both
// semantics.
func TestParseDeepNesting(t *testing.T) {
	nest := func(depth int) string {
		return strings.Repeat("(+ 1 ", depth) + "0" + strings.Repeat(")", depth)
	}
	_, _, err := ParseFile("deep.remora", nest(2000))
	var se *semantics.Error
	if !errors.As(err, &se) || se.Kind != semantics.SyntaxError || !strings.Contains(se.Msg, "nesting deeper than") {
		t.Fatalf("2000 levels: want a syntax error about nesting, got %v", err)
	}
	_, _, err = ParseFile("deep.remora", strings.Repeat("[", 2000)+strings.Repeat("]", 2000))
	if !errors.As(err, &se) || se.Kind != semantics.SyntaxError || !strings.Contains(se.Msg, "nesting deeper than") {
		t.Fatalf("2000 brackets: want a syntax error about nesting, got %v", err)
	}
	p, _, err := ParseFile("deep.remora", nest(200))
	if err != nil {
		t.Fatalf("200 levels: %v", err)
	}
	if err := reprint(p.Exprs[0]); err != nil {
		t.Fatalf("200 levels: %v", err)
	}
	if _, err := Check(p, nil); err != nil {
		t.Fatalf("200 levels: %v", err)
	}
	big, err := EvalExpr(p.Exprs[0], nil)
	if err != nil {
		t.Fatalf("200 levels, big-step: %v", err)
	}
	small, _, err := RunSmall(p.Exprs[0], nil)
	if err != nil {
		t.Fatalf("200 levels, small-step: %v", err)
	}
	if big.String() != "200" || small.String() != "200" {
		t.Fatalf("200 levels: big-step %s, small-step %s, want 200", big, small)
	}
}
