package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
)

// Focus is the focus of a step of the heap machine from prev to next
// (lang.Focus), as FUN's: the redex is the statement the step ran (or the
// in (…) that returned), the contractum what it bound or the body it
// entered; the redex's source span is the statement's, or the in (…)'s.
func Focus(prev, next *Config) lang.Focus {
	text, rest := next.layout()
	f := lang.Focus{Text: text, Lo: -1, Hi: -1}
	if pf := prev.top; pf != nil {
		if len(pf.stms) > 0 {
			f.Redex = fun.PrintStm(pf.stms[0], true)
		} else {
			f.Redex = fun.PrintBody(&fun.Body{In: pf.body.In, Result: pf.body.Result}, true)
		}
		f.SetSource(fun.RedexSpan(pf.stms, pf.body))
	}
	f.Lo, f.Hi = fun.ContractumSpan(text, next.note, rest)
	return f
}

// Redex is where the next step from c reduces (semantics.Locator): the
// statement it runs or the in (…) it returns from, as Focus says.
func (HeapMachine) Redex(c *Config) fun.Pos {
	if pf := c.top; pf != nil {
		from, _ := fun.RedexSpan(pf.stms, pf.body)
		return from
	}
	return fun.Pos{}
}
