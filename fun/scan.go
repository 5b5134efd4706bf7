package fun

import (
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/semantics"
)

// Scan is semantics.Scan extended with the string literals of assert's
// message (an extension): "text", with \" and \\ the only escapes, on one
// line. A literal is one token of kind Punct whose Text is the literal as
// written, quotes included (no operator starts with a quote, so a parser
// tells it apart; StringLit reads it). "--" inside a literal starts no
// comment, and a quote inside a comment starts no literal.
//
// It blanks each literal out of the source (one space per rune, so that
// every other token keeps its line and column), scans the rest with
// semantics.Scan, and puts the literals back in among the tokens.
func Scan(file, src string, ops []string) ([]semantics.Token, error) {
	if !strings.Contains(src, `"`) {
		return semantics.Scan(file, src, ops)
	}
	var lits []semantics.Token
	var blanked strings.Builder
	line, col := 1, 1
	for i := 0; i < len(src); {
		r, w := utf8.DecodeRuneInString(src[i:])
		switch {
		case strings.HasPrefix(src[i:], "--"):
			j := strings.IndexByte(src[i:], '\n')
			if j < 0 {
				j = len(src) - i
			}
			blanked.WriteString(src[i : i+j])
			col += utf8.RuneCountInString(src[i : i+j])
			i += j
		case r == '"':
			pos := semantics.Pos{File: file, Line: line, Col: col}
			j := i + 1
			for {
				if j >= len(src) || src[j] == '\n' {
					return nil, semantics.Errorf(pos, semantics.SyntaxError, "", "string literal not terminated on its line")
				}
				if src[j] == '\\' {
					if j+1 < len(src) && (src[j+1] == '"' || src[j+1] == '\\') {
						j += 2
						continue
					}
					at := semantics.Pos{File: file, Line: line, Col: col + utf8.RuneCountInString(src[i:j])}
					return nil, semantics.Errorf(at, semantics.SyntaxError, "", `unknown escape in a string literal (only \" and \\)`)
				}
				j++
				if src[j-1] == '"' {
					break
				}
			}
			text := src[i:j]
			if !utf8.ValidString(text) {
				return nil, semantics.Errorf(pos, semantics.SyntaxError, "", "invalid UTF-8 encoding")
			}
			n := utf8.RuneCountInString(text)
			lits = append(lits, semantics.Token{Kind: semantics.Punct, Text: text, Pos: pos})
			blanked.WriteString(strings.Repeat(" ", n))
			col += n
			i = j
		default:
			blanked.WriteString(src[i : i+w])
			if r == '\n' {
				line, col = line+1, 1
			} else {
				col++
			}
			i += w
		}
	}
	toks, err := semantics.Scan(file, blanked.String(), ops)
	if err != nil {
		return nil, err
	}
	out := make([]semantics.Token, 0, len(toks)+len(lits))
	for _, t := range toks {
		for len(lits) > 0 && before(lits[0].Pos, t.Pos) {
			out = append(out, lits[0])
			lits = lits[1:]
		}
		out = append(out, t)
	}
	return out, nil
}

// before reports whether p comes before q in the same file.
func before(p, q Pos) bool { return p.Line < q.Line || p.Line == q.Line && p.Col < q.Col }

// IsStringLit reports whether t is a string literal token of Scan.
func IsStringLit(t semantics.Token) bool {
	return t.Kind == semantics.Punct && strings.HasPrefix(t.Text, `"`)
}

// StringLit is the text of a string literal token of Scan, unquoted.
func StringLit(t semantics.Token) string {
	body := t.Text[1 : len(t.Text)-1]
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(body)
}

// QuoteString writes s as a string literal that Scan reads back as s.
func QuoteString(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
