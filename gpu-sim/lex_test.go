package gpusim

import (
	"fmt"
	"math/rand"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/semantics"
)

// TestLexAsBefore: lex gives the tokens and errors it gave before its
// punctuation became a switch and its slice was sized at once, on random
// text over the characters the emitted subset uses (and some it does not).
func TestLexAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	pieces := []string{"==", "!=", "<=", ">=", "&&", "||", "++", "--", "(", ")", "{", "}", "[", "]", ";", ",", ".", "=", "<", ">",
		"!", "-", "+", "*", "&", "|", "/", "%", "x", "_y1", "int64_t", "12", "3LL", "1.5", "1e+21", " ", "\n", "\t", "\"a\\n\"", "\"\\101\"",
		"// c\n", "/* c */", "/*", "\"", "#", "é"}
	n := 20000
	if testing.Short() {
		n /= 10
	}
	for i := 0; i < n; i++ {
		var b strings.Builder
		for k := r.Intn(30); k > 0; k-- {
			b.WriteString(pieces[r.Intn(len(pieces))])
		}
		src := b.String()
		line := 1 + r.Intn(5)
		oldToks, oldErr := oldLex("f.cu", src, line)
		toks, err := lex("f.cu", src, line)
		if fmt.Sprint(oldErr) != fmt.Sprint(err) || !reflect.DeepEqual(oldToks, toks) && (len(oldToks) > 0 || len(toks) > 0) {
			t.Fatalf("lex(%q) = %v, %v; before %v, %v", src, toks, err, oldToks, oldErr)
		}
	}
}

// oldLex is lex as it was.
func oldLex(name, src string, line int) ([]token, error) {
	var toks []token
	col := 1
	i := 0
	adv := func(n int) {
		for k := 0; k < n; k++ {
			if src[i] == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
		}
	}
	for i < len(src) {
		c := src[i]
		pos := cuda.Pos{Line: line, Col: col}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			adv(1)
		case strings.HasPrefix(src[i:], "//"):
			for i < len(src) && src[i] != '\n' {
				adv(1)
			}
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				return nil, &Error{File: name, Pos: pos, Kind: "unsupported", Msg: "unsupported construct: unterminated comment"}
			}
			adv(end + 4)
		case c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
			j := i
			for j < len(src) && (src[j] == '_' || src[j] >= 'a' && src[j] <= 'z' || src[j] >= 'A' && src[j] <= 'Z' || src[j] >= '0' && src[j] <= '9') {
				j++
			}
			toks = append(toks, token{"id", src[i:j], pos})
			adv(j - i)
		case c >= '0' && c <= '9':
			// An integer (with LL), or a float literal as the emitter
			// prints one: digits, a fraction, an exponent (1.5, 1e+21).
			if n, isFloat := semantics.ScanNumber(src[i:]); isFloat {
				toks = append(toks, token{"float", src[i : i+n], pos})
				adv(n)
				continue
			}
			j := i
			for j < len(src) && src[j] >= '0' && src[j] <= '9' {
				j++
			}
			text := src[i:j]
			if strings.HasPrefix(src[j:], "LL") {
				j += 2
			}
			toks = append(toks, token{"int", text, pos})
			adv(j - i)
		case c == '"':
			var b strings.Builder
			j := i + 1
			for j < len(src) && src[j] != '"' {
				if src[j] == '\n' {
					break
				}
				if src[j] == '\\' && j+1 < len(src) {
					j++
					switch {
					case src[j] == 'n':
						b.WriteByte('\n')
					case src[j] >= '0' && src[j] <= '7' && j+2 < len(src):
						k, _ := strconv.ParseUint(src[j:j+3], 8, 8)
						b.WriteByte(byte(k))
						j += 2
					default:
						b.WriteByte(src[j])
					}
					j++
					continue
				}
				b.WriteByte(src[j])
				j++
			}
			if j >= len(src) || src[j] != '"' {
				return nil, &Error{File: name, Pos: pos, Kind: "unsupported", Msg: "unsupported construct: unterminated string"}
			}
			toks = append(toks, token{"str", b.String(), pos})
			adv(j + 1 - i)
		default:
			op := ""
			for _, o := range []string{"==", "!=", "<=", ">=", "&&", "||", "++", "(", ")", "{", "}", "[", "]", ";", ",", ".", "=", "<", ">", "!", "-", "+", "*", "&"} {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				return nil, &Error{File: name, Pos: pos, Kind: "unsupported", Msg: fmt.Sprintf("unsupported construct: character %q", c)}
			}
			toks = append(toks, token{op, op, pos})
			adv(len(op))
		}
	}
	return append(toks, token{pos: cuda.Pos{Line: line, Col: col}}), nil
}
