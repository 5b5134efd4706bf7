package fun

import (
	"unicode/utf8"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Focus is the focus of a step of FUN's machine from prev to next
// (lang.Focus): the redex is the statement the step ran (or the in (…)
// that returned), the contractum what it bound (the {x = …} the printed
// configuration starts with) or, when the step entered a body (an if's
// branch, a kernel iteration), that body. The redex's source span is the
// statement's, or the in (…)'s.
func Focus(prev, next Config) lang.Focus {
	text, rest := next.layout()
	note := next.Bound()
	if note != "" {
		text = "{" + note + "} " + text // as Shown prints it
	}
	f := lang.Focus{Text: text, Lo: -1, Hi: -1}
	if pf := prev.top; pf != nil {
		if len(pf.stms) > 0 {
			f.Redex = PrintStm(pf.stms[0], true)
		} else {
			f.Redex = PrintBody(&Body{In: pf.body.In, Result: pf.body.Result}, true)
		}
		f.SetSource(RedexSpan(pf.stms, pf.body))
	}
	f.Lo, f.Hi = ContractumSpan(text, note, rest)
	return f
}

// RedexSpan is the source span of the redex of a frame that has stms
// left of body: the first statement's, or, when none is left, the in
// (…)'s that returns.
func RedexSpan(stms []*Stm, body *Body) (from, to Pos) {
	if len(stms) > 0 {
		return stms[0].Pos(), stms[0].End()
	}
	return body.In, body.End()
}

// Redex is where the next step from c reduces (semantics.Locator): the
// statement it runs or the in (…) it returns from, as Focus says; and
// the rule it applies, found by taking the step (configurations are
// persistent, and the machine counts nothing without Stats), or the rule
// it would be stuck in.
func (Machine) Redex(c Config) (Pos, string) {
	pf := c.top
	if pf == nil {
		return Pos{}, ""
	}
	from, _ := RedexSpan(pf.stms, pf.body)
	_, rule, err := Machine{}.Step(c)
	if e, ok := err.(*semantics.Error); ok {
		rule = e.Rule
	}
	return from, rule
}

// ContractumSpan is the span of a contractum in a printed configuration
// text: the {note} it starts with, when the step bound something; else,
// when the step entered a body, that body, which the configuration's
// printer wrote from rune rest to the end of the text (rest < 0 when the
// step entered none); else none.
func ContractumSpan(text, note string, rest int) (int, int) {
	switch {
	case note != "":
		return 0, utf8.RuneCountInString("{" + note + "}")
	case rest >= 0:
		return rest, utf8.RuneCountInString(text)
	}
	return -1, -1
}
