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
// statement it runs or the in (…) it returns from, as Focus says; and
// the rule that step applies, read off the frame and the statement
// without taking the step (a step changes the heap and the kernel's and
// the fold's state in place).
func (HeapMachine) Redex(c *Config) (fun.Pos, string) {
	pf := c.top
	if pf == nil {
		return fun.Pos{}, ""
	}
	from, _ := fun.RedexSpan(pf.stms, pf.body)
	return from, nextRule(pf)
}

// nextRule is the rule of the next step from frame f, as Step and ret
// choose it.
func nextRule(f *frame) string {
	if len(f.stms) == 0 {
		switch {
		case f.next == nil:
			return EMemProg.Name
		case f.x != nil:
			return f.x.rule
		case f.k == nil:
			return EStms.Name
		}
		return EMemKernel.Name
	}
	switch e := f.stms[0].Exp.(type) {
	case *fun.IfExp:
		rule, _, err := chooseBranch(f.env, e)
		if err != nil {
			return EMemIfT.Name
		}
		return rule
	case *fun.KernelExp:
		return EMemKernel.Name
	case *fun.LoopExp:
		return EMemLoop.Name
	case *fun.ReduceExp:
		return EMemReduce.Name
	case *fun.ScanExp:
		return EMemScan.Name
	case *fun.FilterExp:
		return EMemFilter.Name
	case *fun.RedomapExp:
		return redomapRule(e)
	case *fun.AssertExp:
		return EMemAssert.Name
	case *fun.ScalarExp:
		return EMemScalar.Name
	case *AllocExp:
		return EMemAlloc.Name
	case *fun.IndexExp:
		return EMemIndex.Name
	case *fun.SliceExp:
		return EMemSlice.Name
	case *fun.TransposeExp:
		return EMemTranspose.Name
	case *fun.IotaExp:
		return EMemIota.Name
	case *fun.CopyExp:
		return EMemCopy.Name
	}
	return ""
}
