package semantics

import (
	"math"
	"math/bits"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// TokKind is the kind of a token of the ALGOL-like syntaxes (FUN, FUNMEM,
// IMP). Keywords are scanned as identifiers; parsers tell them apart.
type TokKind int

// The token kinds.
const (
	EOF TokKind = iota
	Ident
	Int
	Punct // operators and delimiters; Text is the ASCII spelling
	Float // a float literal (an extension): digits with a fraction or an exponent, as ScanNumber delimits it
	// Str is a string literal (an extension: assert's message), "…" on
	// one line with the escapes \" and \\ only; Text is the literal as
	// written, quotes included (Unquote reads it).
	Str
)

// Token is a scanned token with its position.
type Token struct {
	Kind TokKind
	Text string  // the identifier, digits or ASCII operator spelling
	Val  int64   // for Int
	F    float64 // for Float: the literal's value, rounded to nearest
	Big  bool    // an Int of 2^63, which only the literal -9223372036854775808 may use
	Pos  Pos
}

// String describes the token for error messages.
func (t Token) String() string {
	switch t.Kind {
	case EOF:
		return "end of file"
	case Ident:
		return strconv.Quote(t.Text)
	case Int, Float, Str:
		return t.Text
	}
	return "'" + t.Text + "'"
}

// unicodeOps maps the Unicode spellings of the papers to ASCII ones. ⊕, the
// papers' metavariable for any operator, is read as +.
var unicodeOps = map[rune]string{
	'≤': "<=", '≥': ">=", '≠': "!=", '←': "<-", '→': "->", '⊕': "+", '·': "*", '×': "*", '∧': "&&", '∨': "||",
}

// Scan splits src into tokens. ops lists the multi-character operators of
// the language (e.g. "<=", "&&"); single characters of ()[]{},:;=+-*/%<>@!
// are always operators. Comments run from "--" to the end of the line.
func Scan(file, src string, ops []string) ([]Token, error) {
	// Programs the translations print run about one token to every 3
	// to 4 bytes (FUN 3.1, FUNMEM 3.3, IMP 4.1 on the generated
	// programs): room for that at once, rather than by doubling (the
	// property campaigns read thousands of printed programs back).
	return scan(make([]Token, 0, len(src)/3+8), file, src, ops)
}

// tokenPool holds the token slices of streams released by their parsers
// (*[]Token, emptied), for ScanStream.
var tokenPool sync.Pool

// ScanStream is a TokenStream over Scan(file, src, ops), its tokens in a
// slice that an earlier stream released, when there is one: a parser that
// keeps no token once it has parsed (they are values: it copies their
// text and positions) calls Release when done, and the next program read
// scans into the same memory (the property campaigns read thousands of
// printed programs back, and their tokens were a tenth of the bytes they
// allocated).
func ScanStream(file, src string, ops []string) (*TokenStream, error) {
	var toks []Token
	if b, ok := tokenPool.Get().(*[]Token); ok {
		toks = (*b)[:0]
	} else {
		toks = make([]Token, 0, len(src)/3+8)
	}
	toks, err := scan(toks, file, src, ops)
	if err != nil {
		return nil, err
	}
	return &TokenStream{Toks: toks}, nil
}

// Release gives the stream's tokens back for ScanStream to reuse: s and
// its tokens must not be used afterwards. (They are cleared, so that the
// pool keeps no source text alive.)
func (s *TokenStream) Release() {
	if s.Toks == nil {
		return
	}
	toks := s.Toks
	clear(toks)
	toks = toks[:0]
	s.Toks = nil
	tokenPool.Put(&toks)
}

// scan is Scan, appending the tokens to toks.
func scan(toks []Token, file, src string, ops []string) ([]Token, error) {
	line, col := 1, 1
	// depth counts open brackets, so that input nested past MaxDepth is
	// refused as it is read, not after all of it is scanned (two million
	// parentheses would take seconds and a gigabyte before the parser's
	// own bound fired; every bracket is a level of the parser's nesting).
	depth := 0
	i := 0
	// adv moves past n bytes, counting lines and (in runes) columns.
	// Printed programs are ASCII: a byte is a rune, decoded only when it
	// is not.
	adv := func(n int) {
		for k := 0; k < n; {
			if c := src[i]; c < utf8.RuneSelf {
				if c == '\n' {
					line++
					col = 1
				} else {
					col++
				}
				i++
				k++
				continue
			}
			_, w := utf8.DecodeRuneInString(src[i:])
			col++
			i += w
			k += w
		}
	}
	// opStart marks the ASCII bytes one of ops begins with: a delimiter
	// that begins none ("(", ";", …, most of them) is not looked up in ops.
	// opsAt lists by bits, for each ASCII byte, the positions in ops of
	// the operators that begin with it: only those are tried at that
	// byte, not all of ops (a delimiter that begins none, "(", ";", …,
	// most of them, tries none). Past 64 operators, which no language
	// has, every byte tries all of ops.
	var opsAt [utf8.RuneSelf]uint64
	few := len(ops) <= 64
	for k, op := range ops {
		if few && op != "" && op[0] < utf8.RuneSelf {
			opsAt[op[0]] |= 1 << k
		}
	}
	for i < len(src) {
		r, w := rune(src[i]), 1
		if r >= utf8.RuneSelf {
			r, w = utf8.DecodeRuneInString(src[i:])
		} else if r == ' ' {
			// A run of spaces (a line's indentation) at once.
			j := i + 1
			for j < len(src) && src[j] == ' ' {
				j++
			}
			col += j - i
			i = j
			continue
		} else if byteClass[r] == spaceByte {
			// Blanks, most of the bytes between tokens, at once.
			if r == '\n' {
				line++
				col = 1
			} else {
				col++
			}
			i++
			continue
		}
		pos := Pos{File: file, Line: line, Col: col}
		switch {
		case r == utf8.RuneError && w == 1:
			return nil, Errorf(pos, SyntaxError, "", "invalid UTF-8 encoding")
		case r >= utf8.RuneSelf && isSpace(r): // an ASCII blank is skipped above
			adv(w)
		case r == '-' && strings.HasPrefix(src[i:], "--"):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			adv(j)
		case r == '"':
			n, err := scanString(src[i:], pos)
			if err != nil {
				return nil, err
			}
			toks = append(toks, Token{Kind: Str, Text: src[i : i+n], Pos: pos})
			adv(n)
		case r < utf8.RuneSelf && byteClass[r] == letterByte || r >= utf8.RuneSelf && isLetter(r):
			j, ascii := i, true
			for j < len(src) {
				if c := src[j]; c < utf8.RuneSelf {
					// ASCII, as printed programs are: by the table.
					if !identByte[c] {
						break
					}
					j++
					continue
				}
				r2, w2 := utf8.DecodeRuneInString(src[j:])
				if !(isLetter(r2) || isDigit(r2)) {
					break
				}
				j += w2
				ascii = false
			}
			toks = push(toks, Ident, src[i:j], pos)
			if ascii { // no newline, a column a byte
				col += j - i
				i = j
			} else {
				adv(j - i)
			}
		case r >= '0' && r <= '9':
			// ScanNumber delimits the literal as --arg values are read, so
			// a literal means the same in a program and on the command line.
			// Digits alone are an Int, exactly as before floats.
			n, isFloat := ScanNumber(src[i:])
			if isFloat {
				f, err := ParseFloatLiteral(src[i : i+n])
				if err != nil {
					return nil, Errorf(pos, SyntaxError, "", "%v", err)
				}
				toks = append(toks, Token{Kind: Float, Text: src[i : i+n], F: f, Pos: pos})
				adv(n)
				continue
			}
			j := i + n
			var v int64
			var err error
			if n <= 18 { // cannot overflow: the digits' value at once
				for k := i; k < j; k++ {
					v = v*10 + int64(src[k]-'0')
				}
			} else {
				v, err = strconv.ParseInt(src[i:j], 10, 64)
			}
			big := false
			if err != nil {
				// 2^63 fits only negated; the parser decides (Token.Big).
				if u, uerr := strconv.ParseUint(src[i:j], 10, 64); uerr != nil || u != 1<<63 {
					return nil, Errorf(pos, SyntaxError, "", "integer %s does not fit in 64 bits", src[i:j])
				}
				v, big = math.MinInt64, true
			}
			toks = push(toks, Int, src[i:j], pos)
			toks[len(toks)-1].Val, toks[len(toks)-1].Big = v, big
			col += n // digits only: a column a byte
			i = j
		default:
			if r >= utf8.RuneSelf {
				if a, ok := unicodeOps[r]; ok {
					toks = append(toks, Token{Kind: Punct, Text: a, Pos: pos})
					adv(w)
					continue
				}
			}
			matched := ""
			switch {
			case r < utf8.RuneSelf && few:
				for m := opsAt[r]; m != 0; m &= m - 1 {
					op := ops[bits.TrailingZeros64(m)]
					if len(op) > len(matched) && strings.HasPrefix(src[i:], op) {
						matched = op
					}
				}
			default:
				for _, op := range ops {
					if len(op) > len(matched) && op[0] == src[i] && strings.HasPrefix(src[i:], op) {
						matched = op
					}
				}
			}
			if matched == "" && r < utf8.RuneSelf && byteClass[r] == delimByte {
				matched = src[i : i+1] // ASCII: the text itself, not a new string
			}
			if matched == "" {
				return nil, Errorf(pos, SyntaxError, "", "unexpected character %q", r)
			}
			if len(matched) == 1 {
				switch matched[0] {
				case '(', '[', '{':
					if depth++; depth > MaxDepth {
						return nil, Errorf(pos, SyntaxError, "", "nesting deeper than %d levels", MaxDepth)
					}
				case ')', ']', '}':
					depth = max(depth-1, 0)
				}
			}
			toks = push(toks, Punct, matched, pos)
			adv(len(matched))
		}
	}
	toks = append(toks, Token{Kind: EOF, Pos: Pos{File: file, Line: line, Col: col}})
	return toks, nil
}

// push appends the token of kind k, text and position pos to toks,
// writing its fields in place (the commonest tokens, identifiers and
// delimiters: a Token built aside and copied in cost the scanner a third
// of its time).
func push(toks []Token, k TokKind, text string, pos Pos) []Token {
	if len(toks) == cap(toks) {
		toks = slices.Grow(toks, 1)
	}
	toks = toks[:len(toks)+1]
	t := &toks[len(toks)-1]
	t.Kind, t.Text, t.Val, t.F, t.Big, t.Pos = k, text, 0, 0, false, pos
	return toks
}

// byteClass sorts the ASCII bytes for scan: blanks (isSpace's), letters
// and _ (an identifier's start), the one-character delimiters of every
// language (()[]{},:;=+-*/%<>@!), and the rest.
var byteClass = func() (t [utf8.RuneSelf]uint8) {
	for c := range t {
		switch r := rune(c); {
		case isSpace(r):
			t[c] = spaceByte
		case isLetter(r) || r == '_':
			t[c] = letterByte
		case strings.ContainsRune("()[]{},:;=+-*/%<>@!", r):
			t[c] = delimByte
		}
	}
	return t
}()

// The classes of byteClass.
const (
	otherByte = iota
	spaceByte
	letterByte
	delimByte
)

// identByte holds the ASCII bytes an identifier continues with: letters,
// digits, _ and '.
var identByte = func() (t [utf8.RuneSelf]bool) {
	for c := range t {
		t[c] = isLetter(rune(c)) || isDigit(rune(c)) || c == '_' || c == '\''
	}
	return t
}()

// isSpace, isLetter and isDigit are unicode.IsSpace, IsLetter and
// IsDigit, ASCII answered at once.
func isSpace(r rune) bool {
	if r < utf8.RuneSelf {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\v' || r == '\f'
	}
	return unicode.IsSpace(r)
}

func isLetter(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z'
	}
	return unicode.IsLetter(r)
}

func isDigit(r rune) bool {
	if r < utf8.RuneSelf {
		return '0' <= r && r <= '9'
	}
	return unicode.IsDigit(r)
}

// TokenStream is a cursor over scanned tokens with the helpers every
// recursive-descent parser here needs. It also bounds nesting depth, so that
// no input can overflow the Go stack of a parser, checker or evaluator.
type TokenStream struct {
	Toks  []Token
	I     int
	depth int
}

// MaxDepth is the deepest nesting of bodies and parentheses a parser accepts.
const MaxDepth = 1000

// Peek is the current token.
func (s *TokenStream) Peek() Token { return s.Toks[s.I] }

// PeekAt is the token n ahead of the current one (EOF past the end).
func (s *TokenStream) PeekAt(n int) Token {
	if s.I+n < len(s.Toks) {
		return s.Toks[s.I+n]
	}
	return s.Toks[len(s.Toks)-1]
}

// Next consumes and returns the current token.
func (s *TokenStream) Next() Token {
	t := s.Toks[s.I]
	if t.Kind != EOF {
		s.I++
	}
	return t
}

// Is reports whether the current token is the operator or keyword text.
func (s *TokenStream) Is(text string) bool {
	t := &s.Toks[s.I] // not a copy of the token: parsers ask this of every token, often
	return (t.Kind == Punct || t.Kind == Ident) && t.Text == text
}

// Accept consumes the current token if it is text.
func (s *TokenStream) Accept(text string) bool {
	if s.Is(text) {
		s.I++
		return true
	}
	return false
}

// Expect consumes the operator or keyword text, or fails.
func (s *TokenStream) Expect(text string) (Token, error) {
	if s.Is(text) {
		return s.Next(), nil
	}
	return Token{}, s.Errorf("expected '%s', found %s", text, s.Peek())
}

// Errorf is a syntax error at the current token.
func (s *TokenStream) Errorf(format string, args ...any) *Error {
	return Errorf(s.Peek().Pos, SyntaxError, "", format, args...)
}

// Enter counts one level of nesting and fails past MaxDepth; Leave undoes it.
func (s *TokenStream) Enter() error {
	s.depth++
	if s.depth > MaxDepth {
		return s.Errorf("nesting deeper than %d levels", MaxDepth)
	}
	return nil
}

// Leave ends a level of nesting begun by Enter.
func (s *TokenStream) Leave() { s.depth-- }

// String names a token kind for messages.
func (k TokKind) String() string {
	return [...]string{"end of file", "identifier", "integer", "operator", "float", "string"}[k]
}

// scanString is the length in bytes of the string literal at the start of
// src (which begins with '"'), quotes included. A literal ends on its line;
// \" and \\ are its only escapes. Errors are at the opening quote, pos.
func scanString(src string, pos Pos) (int, error) {
	for j := 1; ; {
		if j >= len(src) || src[j] == '\n' {
			return 0, Errorf(pos, SyntaxError, "", "string literal not terminated on its line")
		}
		switch src[j] {
		case '"':
			return j + 1, nil
		case '\\':
			if j+1 >= len(src) || (src[j+1] != '"' && src[j+1] != '\\') {
				return 0, Errorf(pos, SyntaxError, "", `unknown escape in a string literal (only \" and \\)`)
			}
			j += 2
			continue
		}
		r, w := utf8.DecodeRuneInString(src[j:])
		if r == utf8.RuneError && w == 1 {
			return 0, Errorf(pos, SyntaxError, "", "invalid UTF-8 encoding in a string literal")
		}
		j += w
	}
}

// Unquote is the text of a Str token's literal, its escapes undone.
func Unquote(lit string) string {
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(lit[1 : len(lit)-1])
}

// Quote writes s as a string literal that Scan and Unquote read back as s.
// (s must not hold a newline: a literal ends on its line.)
func Quote(s string) string {
	return `"` + quoter.Replace(s) + `"`
}

// quoter escapes what Quote escapes; a Replacer is safe to share.
var quoter = strings.NewReplacer(`\`, `\\`, `"`, `\"`)
