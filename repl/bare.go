package repl

import (
	"errors"
	"strings"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/semantics"
)

// A bare scalar expression typed at a FUN or IMP prompt (1 + 2, 2.0 *
// 1.5) is not a program of either language, whose text is statements
// ending with the results; the session evaluates it as the program of
// one binding that returns it, as an int or else as a float.

// bareForm is a one-binding program made of an expression, and where the
// expression starts in it (line, and the columns before it).
type bareForm struct {
	text       string
	line, cols int
}

// bareForms are the one-binding programs that make the expression expr
// a program of the language name, the int one first; none for a
// language without them (Remora's expressions are programs already).
func bareForms(name, expr string) []bareForm {
	expr = strings.TrimSpace(expr)
	var forms []bareForm
	for _, t := range []string{"int", "float"} {
		switch name {
		case fun.Language.Name():
			head := "let (it : " + t + ") = "
			forms = append(forms, bareForm{head + expr + "\nin (it)", 1, len(head)})
		case imp.Language.Name():
			forms = append(forms, bareForm{"var it : " + t + ";\nit <- " + expr + ";\nreturn it", 2, len("it <- ")})
		}
	}
	return forms
}

// bareExpression makes src, which did not load as a program, the
// session's program when it is a bare expression, and reports whether
// it was one. An expression that parses but does not type check (x + 1,
// x unbound) gets the checker's error, placed in the text as typed, not
// the program parser's.
func (s *Session) bareExpression(src string) (ok bool, err error) {
	var first error
	for _, f := range bareForms(s.lang, src) {
		if _, err := check.Load(s.reg, stdinFile, f.text, check.Options{Lang: s.lang}); err != nil {
			var se *semantics.Error
			if first == nil && errors.As(err, &se) && se.Kind == semantics.TypeError {
				moved := *se
				if moved.Pos.Line == f.line && moved.Pos.Col > f.cols {
					moved.Pos.Line, moved.Pos.Col = 1, moved.Pos.Col-f.cols
				}
				first = &moved
			}
			continue
		}
		s.printf("(a bare expression, evaluated as %s)\n", strings.Join(strings.Fields(f.text), " "))
		return true, s.load(stdinFile, f.text, false, 0)
	}
	return first != nil, first
}
