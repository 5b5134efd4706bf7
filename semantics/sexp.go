package semantics

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// SKind is the kind of an s-expression.
type SKind int

// The kinds of s-expression. Remora, unlike Racket, gives ( and [ different
// meanings, so a list remembers its bracket; and it adds f{τ … | ι …}
// (Curly), the compiler paper's sugar for type and index application.
const (
	Atom   SKind = iota // a symbol or a number, in Text
	String              // "…", decoded into Text
	Char                // #\c, the character in Text
	List                // ( … ) or [ … ], with Bracket '(' or '['
	Curly               // Head{Left … | Right …}
)

// SExp is an s-expression with its span in the source, [Pos, End) as in
// go/ast: End is the position just after its last character (the closing
// bracket or brace, or the end of the atom, string or character token).
// The atoms a #A or #r form reads as (alit, rerank) were not written:
// they span the whole form, as the list they head does.
type SExp struct {
	Pos     Pos
	End     Pos
	Kind    SKind
	Text    string // Atom, String, Char
	Bracket byte   // List: '(' or '['
	List    []*SExp
	Head    *SExp   // Curly: what the braces follow, with no space between
	Left    []*SExp // Curly: before the bar (types)
	Right   []*SExp // Curly: after the bar (indices)
}

// IsAtom reports whether s is the symbol text.
func (s *SExp) IsAtom(text string) bool { return s.Kind == Atom && s.Text == text }

// IsList reports whether s is a list in the given bracket ('(' or '[').
func (s *SExp) IsList(bracket byte) bool { return s.Kind == List && s.Bracket == bracket }

// String prints s back in the reader's syntax.
func (s *SExp) String() string {
	var b strings.Builder
	s.write(&b)
	return b.String()
}

func (s *SExp) write(b *strings.Builder) {
	switch s.Kind {
	case Atom:
		b.WriteString(s.Text)
	case String:
		b.WriteString(QuoteString(s.Text))
	case Char:
		b.WriteString(QuoteChar([]rune(s.Text)[0]))
	case List:
		closer := byte(')')
		if s.Bracket == '[' {
			closer = ']'
		}
		b.WriteByte(s.Bracket)
		writeSeq(b, s.List)
		b.WriteByte(closer)
	case Curly:
		s.Head.write(b)
		b.WriteByte('{')
		writeSeq(b, s.Left)
		b.WriteString(" | ")
		writeSeq(b, s.Right)
		b.WriteByte('}')
	}
}

func writeSeq(b *strings.Builder, xs []*SExp) {
	for i, x := range xs {
		if i > 0 {
			b.WriteByte(' ')
		}
		x.write(b)
	}
}

// charNames are the named characters of Racket's #\ syntax that we read
// and print.
var charNames = map[string]rune{"space": ' ', "newline": '\n', "tab": '\t', "nul": 0, "null": 0, "return": '\r', "backspace": '\b', "delete": 0x7f}

// QuoteChar prints r in the #\ syntax.
func QuoteChar(r rune) string {
	for name, c := range charNames {
		if c == r && name != "null" {
			return `#\` + name
		}
	}
	if !unicode.IsGraphic(r) {
		return fmt.Sprintf(`#\u%04X`, r)
	}
	return `#\` + string(r)
}

// QuoteString prints s as a string literal: ", \ and control characters
// are escaped.
func QuoteString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"', '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			switch {
			case unicode.IsGraphic(r):
				b.WriteRune(r)
			case r > 0xFFFF:
				fmt.Fprintf(&b, `\U%08X`, r)
			default:
				fmt.Fprintf(&b, `\u%04X`, r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ReadSExps reads every s-expression of src. Comments run from ; to the
// end of the line; #| … |# and #; (which skips the next datum) are
// comments too. A first line "#lang NAME" is not an s-expression: its NAME
// is returned as lang. Nesting deeper than MaxDepth is an error.
func ReadSExps(file, src string) (sexps []*SExp, lang string, err error) {
	r := &sreader{file: file, src: src, line: 1, col: 1}
	defer func() {
		if e := recover(); e != nil {
			se, ok := e.(*Error)
			if !ok {
				panic(e)
			}
			sexps, err = nil, se
		}
	}()
	r.skipSpace()
	if strings.HasPrefix(r.src[r.i:], "#lang") {
		r.advance(len("#lang"))
		start := r.i
		for r.i < len(r.src) && r.src[r.i] != '\n' {
			r.advance(1)
		}
		lang = strings.TrimSpace(r.src[start:r.i])
		if lang == "" {
			r.fail(r.pos(), "#lang wants a language name")
		}
	}
	for {
		r.skipSpace()
		if r.i >= len(r.src) {
			return sexps, lang, nil
		}
		sexps = append(sexps, r.read(0))
	}
}

type sreader struct {
	file      string
	src       string
	i         int
	line, col int
}

func (r *sreader) pos() Pos { return Pos{File: r.file, Line: r.line, Col: r.col} }

func (r *sreader) fail(p Pos, format string, args ...any) {
	panic(Errorf(p, SyntaxError, "", format, args...))
}

func (r *sreader) advance(n int) {
	for k := 0; k < n && r.i < len(r.src); {
		c, w := utf8.DecodeRuneInString(r.src[r.i:])
		r.i += w
		k += w
		if c == '\n' {
			r.line++
			r.col = 1
		} else {
			r.col++
		}
	}
}

func (r *sreader) peek() rune {
	if r.i >= len(r.src) {
		return -1
	}
	c, _ := utf8.DecodeRuneInString(r.src[r.i:])
	return c
}

func (r *sreader) skipSpace() {
	for r.i < len(r.src) {
		c := r.peek()
		switch {
		case unicode.IsSpace(c):
			r.advance(1)
		case c == ';':
			for r.i < len(r.src) && r.src[r.i] != '\n' {
				r.advance(1)
			}
		case strings.HasPrefix(r.src[r.i:], "#|"):
			p := r.pos()
			end := strings.Index(r.src[r.i+2:], "|#")
			if end < 0 {
				r.fail(p, "unterminated #| comment")
			}
			r.advance(end + 4)
		case strings.HasPrefix(r.src[r.i:], "#;"):
			r.advance(2)
			r.skipSpace()
			if r.i >= len(r.src) {
				r.fail(r.pos(), "#; at the end of the file comments out nothing")
			}
			r.read(0)
		default:
			return
		}
	}
}

// delimiter reports whether c ends an atom.
func delimiter(c rune) bool {
	return c < 0 || unicode.IsSpace(c) || strings.ContainsRune("()[]{}\";|", c)
}

func (r *sreader) read(depth int) *SExp {
	if depth >= MaxDepth {
		r.fail(r.pos(), "nesting deeper than %d levels", MaxDepth)
	}
	p := r.pos()
	c := r.peek()
	var s *SExp
	switch {
	case c == '(' || c == '[':
		r.advance(1)
		closer := ')'
		if c == '[' {
			closer = ']'
		}
		s = &SExp{Pos: p, Kind: List, Bracket: byte(c)}
		for {
			r.skipSpace()
			d := r.peek()
			switch {
			case d < 0:
				r.fail(p, "unclosed %c (want %c)", c, closer)
			case d == closer:
				r.advance(1)
			case d == ')' || d == ']':
				r.fail(r.pos(), "%c closes the %c at %d:%d (want %c)", d, c, p.Line, p.Col, closer)
			default:
				s.List = append(s.List, r.read(depth+1))
				continue
			}
			break
		}
	case c == ')' || c == ']' || c == '}':
		r.fail(p, "unexpected %c", c)
	case c == '{' || c == '|':
		r.fail(p, "unexpected %c (braces follow a name with no space: f{τ … | ι …})", c)
	case c == '"':
		s = &SExp{Pos: p, Kind: String, Text: r.readString(p)}
	case strings.HasPrefix(r.src[r.i:], `#\`):
		s = &SExp{Pos: p, Kind: Char, Text: string(r.readChar(p))}
	case strings.HasPrefix(r.src[r.i:], "#A(") || strings.HasPrefix(r.src[r.i:], "#r("):
		s = r.readHashForm(p, depth)
	default:
		start := r.i
		for !delimiter(r.peek()) {
			r.advance(1)
		}
		s = &SExp{Pos: p, Kind: Atom, Text: r.src[start:r.i]}
	}
	if !s.End.IsValid() {
		s.End = r.pos()
	}
	if r.peek() == '{' {
		s = r.readCurly(s, depth)
	}
	return s
}

// readHashForm reads the array-literal and reranking notations of
// Remora's Racket implementation, as the forms they abbreviate:
// #A(d …)(atom …) is (alit (d …) atom …), and #r(r …)e is
// (rerank (r …) e). No other dialect gives them a meaning.
func (r *sreader) readHashForm(p Pos, depth int) *SExp {
	tag := r.src[r.i+1]
	r.advance(2)
	head := r.read(depth + 1)
	if tag == 'A' {
		if !strings.HasPrefix(r.src[r.i:], "(") {
			r.fail(r.pos(), "#A(dims …) wants its atoms in parentheses right after it: #A(2 2)(0 1 2 3)")
		}
		atoms := r.read(depth + 1)
		end := r.pos()
		return &SExp{Pos: p, End: end, Kind: List, Bracket: '(', List: append([]*SExp{{Pos: p, End: end, Kind: Atom, Text: "alit"}, head}, atoms.List...)}
	}
	if delimiter(r.peek()) && r.peek() != '(' && r.peek() != '[' {
		r.fail(r.pos(), "#r(ranks …) wants the function right after it: #r(1 1)+")
	}
	f := r.read(depth + 1)
	end := r.pos()
	return &SExp{Pos: p, End: end, Kind: List, Bracket: '(', List: []*SExp{{Pos: p, End: end, Kind: Atom, Text: "rerank"}, head, f}}
}

func (r *sreader) readCurly(head *SExp, depth int) *SExp {
	p := r.pos()
	r.advance(1)
	s := &SExp{Pos: head.Pos, Kind: Curly, Head: head}
	bar := false
	for {
		r.skipSpace()
		switch d := r.peek(); {
		case d < 0:
			r.fail(p, "unclosed {")
		case d == '|':
			if bar {
				r.fail(r.pos(), "a second | in braces")
			}
			bar = true
			r.advance(1)
			continue
		case d == '}':
			if !bar {
				r.fail(r.pos(), "braces need a | between types and indices, even when one side is empty: f{t | } or f{ | i}")
			}
			r.advance(1)
			s.End = r.pos()
			return s
		default:
			x := r.read(depth + 1)
			if bar {
				s.Right = append(s.Right, x)
			} else {
				s.Left = append(s.Left, x)
			}
		}
	}
}

func (r *sreader) readString(p Pos) string {
	r.advance(1)
	var b strings.Builder
	for {
		c := r.peek()
		switch c {
		case -1:
			r.fail(p, "unterminated string")
		case '"':
			r.advance(1)
			return b.String()
		case '\\':
			r.advance(1)
			e := r.peek()
			switch e {
			case 'n':
				b.WriteRune('\n')
			case 't':
				b.WriteRune('\t')
			case 'r':
				b.WriteRune('\r')
			case '"', '\\':
				b.WriteRune(e)
			case 'u', 'U':
				// \uXXXX or \UXXXXXXXX, a fixed number of digits as in Go,
				// so that a digit after the escape stays a character.
				n := 4
				if e == 'U' {
					n = 8
				}
				r.advance(1)
				b.WriteRune(r.readHex(p, n))
				continue
			default:
				r.fail(r.pos(), "unknown escape \\%c in string", e)
			}
			r.advance(1)
		default:
			b.WriteRune(c)
			r.advance(1)
		}
	}
}

func (r *sreader) readHex(p Pos, n int) rune {
	start := r.i
	for k := 0; k < n && strings.ContainsRune("0123456789abcdefABCDEF", r.peek()) && r.peek() >= 0; k++ {
		r.advance(1)
	}
	if r.i-start != n {
		r.fail(p, "a \\u escape wants 4 hex digits, \\U 8; got %q", r.src[start:r.i])
	}
	var v rune
	if _, err := fmt.Sscanf(r.src[start:r.i], "%x", &v); err != nil || !utf8.ValidRune(v) {
		r.fail(p, "bad \\u escape %q", r.src[start:r.i])
	}
	return v
}

func (r *sreader) readChar(p Pos) rune {
	r.advance(2)
	c := r.peek()
	if c < 0 {
		r.fail(p, `#\ at the end of the file`)
	}
	r.advance(1)
	// A letter followed by more letters is a name (#\space) or a \u escape.
	start := r.i - utf8.RuneLen(c)
	for !delimiter(r.peek()) {
		r.advance(1)
	}
	word := r.src[start:r.i]
	if utf8.RuneCountInString(word) == 1 {
		return c
	}
	if v, ok := charNames[word]; ok {
		return v
	}
	if word[0] == 'u' || word[0] == 'U' {
		var v rune
		if _, err := fmt.Sscanf(word[1:], "%x", &v); err == nil && utf8.ValidRune(v) {
			return v
		}
	}
	r.fail(p, `unknown character #\%s`, word)
	return 0
}
