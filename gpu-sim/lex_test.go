package gpusim

import (
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
)

// TestLexRandomText: on random text over the characters the emitted
// subset uses (and some it does not), lex gives an error or tokens in the
// order of their positions, each punctuation token its own text, ending
// with the end token.
func TestLexRandomText(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := []string{"==", "!=", "<=", ">=", "&&", "||", "++", "--", "(", ")", "{", "}", "[", "]", ";", ",", ".", "=", "<", ">",
		"!", "-", "+", "*", "&", "|", "/", "%", "x", "_y1", "int64_t", "12", "3LL", "1.5", "1e+21", " ", "\n", "\t", "\"a\\n\"", "\"\\101\"",
		"// c\n", "/* c */", "/*", "\"", "#", "é"}
	n := 20000
	if testing.Short() {
		n /= 10
	}
	lexed := 0
	for i := 0; i < n; i++ {
		var b strings.Builder
		for k := r.Intn(30); k > 0; k-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		src := b.String()
		toks, err := lex("f.cu", src, 1+r.Intn(5), nil)
		if err != nil {
			continue
		}
		lexed++
		if len(toks) == 0 || toks[len(toks)-1].kind != tEnd {
			t.Fatalf("lex(%q) = %v: no end token", src, toks)
		}
		for j, tk := range toks[:len(toks)-1] {
			if j > 0 {
				p, at := toks[j-1].pos(), tk.pos()
				if at.Line < p.Line || at.Line == p.Line && at.Col <= p.Col {
					t.Fatalf("lex(%q): token %d (%q) at %v, after %v", src, j, tk.text, at, p)
				}
			}
			switch tk.kind {
			case tID, tInt, tFloat, tStr:
			default:
				if tk.kind != tPunct || !slices.Contains(pieces[:25], tk.text) {
					t.Fatalf("lex(%q): a token of kind %v with text %q", src, tk.kind, tk.text)
				}
			}
		}
	}
	if lexed < n/10 {
		t.Errorf("%d of %d texts lexed: too few to test the tokens", lexed, n)
	}
}

// TestLexReusesTokens: lexing into a slice that held another text's
// tokens (Parse reuses them, tokenBufs) gives the tokens lexing into a new
// one gives, whether that text was longer or shorter, lexed or not.
func TestLexReusesTokens(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	pieces := []string{"==", "(", ")", "{", "}", "[", "]", ";", "x", "_y1", "int64_t", "12", "3LL", "1.5", " ", "\n", "\"a\\n\"", "// c\n", "#"}
	var reused []token
	for i := 0; i < 2000; i++ {
		var b strings.Builder
		for k := r.Intn(60); k > 0; k-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		src := b.String()
		want, werr := lex("f.cu", src, 3, nil)
		got, gerr := lex("f.cu", src, 3, reused)
		if (werr == nil) != (gerr == nil) || werr != nil && werr.Error() != gerr.Error() {
			t.Fatalf("lex(%q): error %v into a new slice, %v into a reused one", src, werr, gerr)
		}
		if werr == nil && !slices.Equal(want, got) {
			t.Fatalf("lex(%q) = %v into a new slice, %v into a reused one", src, want, got)
		}
		reused = got
	}
}

// TestParseTwice: a file parses the same after another file was parsed
// (Parse lexes into the tokens of files parsed before).
func TestParseTwice(t *testing.T) {
	long := cuda.Prelude + "\nint main() {\n    int64_t x = 1;\n    int64_t y = (x + 2);\n    return 0;\n}\n"
	short := cuda.Prelude + "\nint main() {\n    return 0;\n}\n"
	first, err := Parse("a.cu", short)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Parse("b.cu", long); err != nil {
		t.Fatal(err)
	}
	again, err := Parse("a.cu", short)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(first, again) {
		t.Errorf("a file parses differently after a longer one: %+v, then %+v", first.File, again.File)
	}
}

// TestLexPositions: on random text, each token's position (its line from
// the first line given, its column in bytes from 1) is where its text
// begins: an identifier, number or punctuation is there as it was read,
// a string begins with its quote.
func TestLexPositions(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	pieces := []string{"==", "(", ")", ";", "x", "_y1", "int64_t", "12", "3LL", "1.5", "1e+21", " ", "\n", "\t", "\r", "\"a\\n\"", "\"a\\\nb\"", "\"a b\"",
		"// c é\n", "/* c\n */", "é"}
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		for k := r.Intn(40); k > 0; k-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		src := b.String()
		toks, err := lex("f.cu", src, 4, nil)
		if err != nil {
			continue
		}
		starts := []int{0} // the offset of each line's first byte
		for j := 0; j < len(src); j++ {
			if src[j] == '\n' {
				starts = append(starts, j+1)
			}
		}
		for _, tk := range toks[:len(toks)-1] {
			at := starts[tk.pos().Line-4] + tk.pos().Col - 1
			want := tk.text
			if tk.kind == tStr {
				want = `"`
			}
			if !strings.HasPrefix(src[at:], want) {
				t.Fatalf("lex(%q): token %q at %d:%d, where the text is %q", src, tk.text, tk.pos().Line, tk.pos().Col, src[at:])
			}
		}
	}
}

// TestLexStrings: a string's token is its text, escapes decoded, whether
// it has none (read in place) or some; it ends at its line.
func TestLexStrings(t *testing.T) {
	for _, c := range []struct{ src, want, err string }{
		{`"f.fun:1:2: E-IMP: %lld"`, "f.fun:1:2: E-IMP: %lld", ""},
		{`""`, "", ""},
		{`"a\nb"`, "a\nb", ""},
		{`"\101\\x"`, "A\\x", ""},
		{`"a b" "c\"d"`, "a b", ""},
		{"\"ab\ncd\"", "", "unterminated string"},
		{`"ab`, "", "unterminated string"},
	} {
		toks, err := lex("f.cu", c.src, 1, nil)
		if c.err != "" {
			if err == nil || !strings.Contains(err.Error(), c.err) {
				t.Errorf("lex(%q): error %v, want %q", c.src, err, c.err)
			}
			continue
		}
		if err != nil || toks[0].kind != tStr || toks[0].text != c.want {
			t.Errorf("lex(%q) = %v (%v), want the string %q", c.src, toks, err, c.want)
		}
	}
}

// TestLexLimit: a token's line and column fit its int32s up to the
// longest text lex reads, and lex refuses one longer.
func TestLexLimit(t *testing.T) {
	if tooLong(maxLex-1, 1) || !tooLong(maxLex, 1) || !tooLong(maxLex-5, 10) || tooLong(1000, 5) {
		t.Errorf("tooLong does not hold at maxLex")
	}
	tk := token{line: maxLex, col: maxLex}
	if tk.pos() != (cuda.Pos{Line: 1<<31 - 1, Col: 1<<31 - 1}) {
		t.Errorf("the last position is %v", tk.pos())
	}
}
