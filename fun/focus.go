package fun

import (
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/lang"
)

// Focus is the focus of a step of FUN's machine from prev to next
// (lang.Focus): the redex is the statement the step ran (or the in (…)
// that returned), the contractum what it bound (the {x = …} the printed
// configuration starts with) or, when the step entered a body (an if's
// branch, a kernel iteration), that body. The redex's source span is the
// statement's, or the in (…)'s.
func Focus(prev, next Config) lang.Focus {
	f := lang.Focus{Text: next.Shown(), Lo: -1, Hi: -1}
	if pf := prev.top; pf != nil {
		if len(pf.stms) > 0 {
			f.Redex = PrintStm(pf.stms[0], true)
			f.SetSource(pf.stms[0].Pos(), pf.stms[0].End())
		} else {
			f.Redex = PrintBody(&Body{In: pf.body.In, Result: pf.body.Result}, true)
			f.SetSource(pf.body.In, pf.body.End())
		}
	}
	f.Lo, f.Hi = ContractumSpan(f.Text, next.Bound(), next.top != nil && len(next.Bound()) == 0, func() string {
		return PrintBody(&Body{Stms: next.top.stms, In: next.top.body.In, Result: next.top.body.Result}, true)
	})
	return f
}

// ContractumSpan is the span of a contractum in a printed configuration
// text: the {note} it starts with, when the step bound something; else,
// when body is true, the innermost body, which ends the text (rest prints
// it); else none.
func ContractumSpan(text, note string, body bool, rest func() string) (int, int) {
	switch {
	case note != "":
		return 0, utf8.RuneCountInString("{" + note + "}")
	case body:
		r := rest()
		if !strings.HasSuffix(text, r) {
			return -1, -1
		}
		n := utf8.RuneCountInString(text)
		return n - utf8.RuneCountInString(r), n
	}
	return -1, -1
}
