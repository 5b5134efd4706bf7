package imp

import (
	"fmt"
	"unicode/utf8"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
)

// Focus is the focus of a step of IMP's machine from prev to next
// (lang.Focus): the redex is the statement the step ran; the contractum is
// what it bound or wrote (the {x = …} or {ℓ1[0] ← …} the printed
// configuration starts with), or the body the step entered (an if's
// branch, a kernel iteration), and nothing when the step bound nothing. The
// redex's source span is the statement's; at the end of a kernel or for
// iteration, its done; at the end of a fold's part, the variable it
// yields; at the end of the program, its return;
// none at the end of an if's branch (the frame does not keep the if).
func Focus(prev, next *Config) lang.Focus {
	text, rest := next.layout()
	note := next.Bound()
	if note != "" {
		text = "{" + note + "} " + text // as Shown prints it
		if rest >= 0 {
			rest += utf8.RuneCountInString("{" + note + "} ")
		}
	}
	f := lang.Focus{Text: text, Lo: -1, Hi: -1}
	if pf := prev.top; pf != nil {
		var from, to fun.Pos
		f.Redex, from, to = redexOf(pf)
		f.SetSource(from, to)
	}
	entered := !next.done && next.top != nil && prev.top != nil && next.top.next == prev.top
	if !entered {
		rest = -1
	}
	f.Lo, f.Hi = fun.ContractumSpan(text, note, rest)
	return f
}

// redexOf is the redex of the next step from frame pf, printed, and its
// source span (zero when it has none): the statement it runs; at the end
// of a kernel or for iteration, its done; at the end of a fold's part,
// the variable it yields; at the end of the program, its return; none at
// the end of an if's branch (the frame does not keep the if).
func redexOf(pf *frame) (redex string, from, to fun.Pos) {
	switch {
	case len(pf.stms) > 0:
		return PrintStmt(pf.stms[0]), pf.stms[0].Pos(), pf.stms[0].End()
	case pf.k != nil:
		return fmt.Sprintf("the end of iteration %d of kernel %s <= %d", pf.i, pf.k.s.X.Name, pf.k.m), pf.k.s.Done, pf.k.s.End()
	case pf.loop != nil:
		return fmt.Sprintf("the end of iteration %d of for %s <= %d", pf.i, pf.loop.s.X.Name, pf.loop.n), pf.loop.s.Done, pf.loop.s.End()
	case pf.fold != nil && !pf.comb:
		return fmt.Sprintf("yield %s of element %d of %s", pf.fold.f.Yield.Name, pf.i, keywordOf(pf.fold.s)), pf.fold.f.Yield.Pos(), pf.fold.f.Yield.End()
	case pf.fold != nil:
		return fmt.Sprintf("yield %s of the combine after element %d of %s", pf.fold.f.Result.Name, pf.i, keywordOf(pf.fold.s)), pf.fold.f.Result.Pos(), pf.fold.f.Result.End()
	case pf.next != nil:
		return "the end of the branch", fun.Pos{}, fun.Pos{}
	case pf.prog != nil:
		return "the end of the program", pf.prog.RetPos, shift(pf.prog.RetPos, len("return"))
	}
	return "the end of the program", fun.Pos{}, fun.Pos{}
}

// Redex is where the next step from c reduces (semantics.Locator): the
// redex Focus shows, where it has a source span; and the rule that step
// applies, read off the frame and the statement without taking the step
// (a step changes the environment and the heap in place).
func (Machine) Redex(c *Config) (fun.Pos, string) {
	if c.done || c.top == nil {
		return fun.Pos{}, ""
	}
	_, from, _ := redexOf(c.top)
	return from, nextRule(c.top)
}

// nextRule is the rule of the next step from frame f, as Step and exec
// choose it.
func nextRule(f *frame) string {
	if len(f.stms) == 0 {
		switch {
		case f.next == nil, f.loop == nil && f.fold == nil && f.k == nil:
			return EImpSeq.Name
		case f.loop != nil:
			return IFor.Name
		case f.fold != nil:
			return f.fold.rule
		}
		return EImpKernel.Name
	}
	switch s := f.stms[0].(type) {
	case *Skip:
		return EImpSkip.Name
	case *Decl:
		switch s.Type {
		case Mem:
			return EImpDecMem.Name
		case Float:
			return EImpDecFloat.Name
		}
		return EImpDecInt.Name
	case *Assign:
		if y, ok := s.SE.(fun.Var); ok {
			if v, ok := f.env[y.Name]; ok && v.Mem {
				return EImpAssignMem.Name
			}
		}
		return EImpAssignInt.Name
	case *Alloc:
		return EImpAlloc.Name
	case *Read:
		return EImpRead.Name
	case *Write:
		return EImpWrite.Name
	case *Assert:
		return IAssert.Name
	case *If:
		rule, _, err := choose(f.env, s)
		if err != nil {
			return EImpIfTrue.Name
		}
		return rule
	case *Kernel:
		return EImpKernel.Name
	case *For:
		return IFor.Name
	case *Reduce:
		return IReduce.Name
	case *Scan:
		return IScan.Name
	}
	return ""
}
