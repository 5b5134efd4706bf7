package semantics

import (
	"math"
	"math/rand"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestScanInts checks the scanner's own reading of short literals (up to
// 18 digits, which cannot overflow) against strconv's, which it uses for
// the longer ones: every length, leading zeros, the largest values.
func TestScanInts(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	lits := []string{"0", "00", "007", "999999999999999999", "1000000000000000000", "9223372036854775807",
		"0000000000000000001", "9223372036854775808", "9999999999999999999", "00000000000000000000000042"}
	for n := 1; n <= 20; n++ {
		for k := 0; k < 20; k++ {
			var b strings.Builder
			for d := 0; d < n; d++ {
				b.WriteByte(byte('0' + r.Intn(10)))
			}
			lits = append(lits, b.String())
		}
	}
	for _, lit := range lits {
		toks, err := Scan("f", "x "+lit+" y", nil)
		want, perr := strconv.ParseInt(lit, 10, 64)
		switch {
		case lit == "9223372036854775808":
			if err != nil || !toks[1].Big || toks[1].Val != math.MinInt64 {
				t.Fatalf("%s scans as %v (%v), want 2^63 marked Big", lit, toks, err)
			}
		case perr != nil:
			if err == nil || !strings.Contains(err.Error(), "does not fit in 64 bits") {
				t.Fatalf("%s scans as %v (%v), want it refused", lit, toks, err)
			}
		case err != nil:
			t.Fatalf("%s: %v", lit, err)
		default:
			if tok := toks[1]; tok.Kind != Int || tok.Val != want || tok.Text != lit || tok.Big || tok.Pos.Col != 3 || toks[2].Pos.Col != 4+len(lit) {
				t.Fatalf("%s scans as %+v (then %+v), want the int %d", lit, tok, toks[2], want)
			}
		}
	}
}

// TestScanByteClasses checks the scanner's table of ASCII bytes against
// the predicates it stands for: each byte between two identifiers is a
// blank (unicode.IsSpace), part of the identifier (letters, digits, _,
// '), a delimiter, the start of one of ops, or refused.
func TestScanByteClasses(t *testing.T) {
	ops := []string{"<=", "&&", "->"}
	for c := rune(0); c < 128; c++ {
		src := "a" + string(c) + "b"
		toks, err := Scan("f", src, ops)
		switch {
		case c == '"':
			if err == nil {
				t.Errorf("%q: an unterminated string scans", src)
			}
		case unicode.IsSpace(c):
			if err != nil || len(toks) != 3 || toks[1].Text != "b" {
				t.Errorf("%q: %v %v, want a blank", src, toks, err)
			}
		case unicode.IsLetter(c) || unicode.IsDigit(c) || c == '_' || c == '\'':
			if err != nil || len(toks) != 2 || toks[0].Text != src {
				t.Errorf("%q: %v %v, want one identifier", src, toks, err)
			}
		case strings.ContainsRune("()[]{},:;=+-*/%<>@!", c):
			if err != nil || len(toks) != 4 || toks[1].Kind != Punct || toks[1].Text != string(c) {
				t.Errorf("%q: %v %v, want the delimiter", src, toks, err)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), "unexpected character") {
				t.Errorf("%q: %v %v, want it refused", src, toks, err)
			}
		}
	}
	// An operator is taken whole, whether or not its first byte is a
	// delimiter of its own; one of another language's is not.
	for _, c := range []struct {
		src   string
		texts []string
	}{
		{"a<=b", []string{"a", "<=", "b"}},
		{"a&&b", []string{"a", "&&", "b"}},
		{"a->b", []string{"a", "->", "b"}},
		{"a<-b", []string{"a", "<", "-", "b"}},
		{"a--b", []string{"a"}},
	} {
		toks, err := Scan("f", c.src, ops)
		if err != nil {
			t.Fatalf("%q: %v", c.src, err)
		}
		var got []string
		for _, tok := range toks[:len(toks)-1] {
			got = append(got, tok.Text)
		}
		if strings.Join(got, " ") != strings.Join(c.texts, " ") {
			t.Errorf("%q scans as %q, want %q", c.src, got, c.texts)
		}
	}
	if _, err := Scan("f", "a | b", ops); err == nil {
		t.Errorf("a lone | scans")
	}
}

// TestScanOpsByFirstByte checks the scanner's operators by first byte
// (opsAt) against trying every operator at every byte, which it does past
// 64 operators: random texts of operator bytes, letters and blanks (runs
// of spaces among them, skipped at once) scan to the same tokens and
// positions with IMP's operators and with the same list padded past 64
// by operators no text has. The longest operator wins, the first listed
// of the same length.
func TestScanOpsByFirstByte(t *testing.T) {
	ops := []string{"<-", "<=", ">=", "==", "!=", "&&", "||", "+!", "-!", "*!", "/!", "<-<", "=>"}
	padded := append([]string(nil), ops...)
	for len(padded) <= 64 {
		padded = append(padded, "~"+strconv.Itoa(len(padded)))
	}
	render := func(toks []Token) string {
		var b strings.Builder
		for _, tok := range toks {
			b.WriteString(tok.Text + "@" + tok.Pos.String() + " ")
		}
		return b.String()
	}
	r := rand.New(rand.NewSource(1))
	const alphabet = "<->=!&|+*/ab1 ;()\n\t  "
	for k := 0; k < 3000; k++ {
		var b strings.Builder
		for n := r.Intn(30); n > 0; n-- {
			b.WriteByte(alphabet[r.Intn(len(alphabet))])
		}
		src := b.String()
		fast, err1 := Scan("f", src, ops)
		all, err2 := Scan("f", src, padded)
		if (err1 == nil) != (err2 == nil) || err1 != nil && err1.Error() != err2.Error() {
			t.Fatalf("%q: errors %v and %v", src, err1, err2)
		}
		if render(fast) != render(all) {
			t.Fatalf("%q scans as\n%s\nby first byte, as\n%s\ntrying every operator", src, render(fast), render(all))
		}
	}
	toks, err := Scan("f", "a<-<b  <-c <= d\n    e==>f", ops)
	if err != nil {
		t.Fatal(err)
	}
	want := "a@f:1:1 <-<@f:1:2 b@f:1:5 <-@f:1:8 c@f:1:10 <=@f:1:12 d@f:1:15 e@f:2:5 ==@f:2:6 >@f:2:8 f@f:2:9 @f:2:10 "
	if got := render(toks); got != want {
		t.Errorf("tokens\n got %s\nwant %s", got, want)
	}
}
