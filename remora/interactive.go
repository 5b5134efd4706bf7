package remora

import (
	"slices"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Split reads text typed at a prompt into its top-level definitions and
// expressions, and the names the definitions define (lang.Interactive).
func (language) Split(file, src string) (defs, exprs, names []string, err error) {
	return SplitDefinitions(file, src, "define")
}

// Assemble makes a typed program of definitions, one a line, and text.
func (language) Assemble(defs []string, text string) (string, int) {
	return AssembleDefinitions("", defs, text)
}

// AssembleDefinitions makes a program's text of a header, definitions (one
// a line) and text, and the line the text starts on.
func AssembleDefinitions(header string, defs []string, text string) (string, int) {
	prefix := header
	for _, d := range defs {
		prefix += d + "\n"
	}
	return prefix + text + "\n", strings.Count(prefix, "\n")
}

// Incomplete reports whether brackets are left open.
func (language) Incomplete(src string) bool { return OpenBrackets(src) > 0 }

// SplitDefinitions splits Remora text (either dialect's) into its
// definitions (forms headed by one of keywords) and expressions, as text,
// with the defined names.
func SplitDefinitions(file, src string, keywords ...string) (defs, exprs, names []string, err error) {
	sexps, _, err := semantics.ReadSExps(file, src)
	if err != nil {
		return nil, nil, nil, err
	}
	for _, x := range sexps {
		if x.IsList('(') && len(x.List) > 0 && slices.ContainsFunc(keywords, x.List[0].IsAtom) {
			defs = append(defs, x.String())
			if len(x.List) > 1 {
				names = append(names, definedName(x.List[1]))
			}
		} else {
			exprs = append(exprs, x.String())
		}
	}
	return defs, exprs, names, nil
}

// definedName is the name a define's head defines: x, (f args…) or x{…}.
func definedName(h *semantics.SExp) string {
	if h.Kind == semantics.List && len(h.List) > 0 {
		h = h.List[0]
	}
	if h.Kind == semantics.Curly {
		h = h.Head
	}
	return h.String()
}

// OpenBrackets counts the brackets not yet closed in Remora text, outside
// strings, characters and comments.
func OpenBrackets(src string) int {
	n := 0
	inStr, esc := false, false
	rs := []rune(src)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case inStr:
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
		case c == '"':
			inStr = true
		case c == ';':
			for i < len(rs) && rs[i] != '\n' {
				i++
			}
		case c == '#' && i+1 < len(rs) && rs[i+1] == '\\':
			i += 2
		case c == '(' || c == '[' || c == '{':
			n++
		case c == ')' || c == ']' || c == '}':
			n--
		}
	}
	return n
}
