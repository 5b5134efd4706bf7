package tofun

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// caseIR lowers (CASE e e0 e1 …), the apply of a defunctionalised array
// of functions (remora/ir/inline_mimd.go): the tag, asserted to select an
// alternative as Remora's CASE rule is stuck otherwise, then a balanced
// tree of FUN ifs on it (log n deep), each alternative lowered in a
// branch of its own so that only the selected one runs. A branch returns
// its alternative materialised at the CASE's sizes, computed before the
// ifs, or one box as ifAtom returns it; in a MAP's body the ifs are in
// the kernel, which branches per cell.
func (l *lowerer) caseIR(b *block, en *env, e *remora.Case) *val {
	tv := l.expr(b, en, e.Tag)
	tag := l.get(b, tv, nil).name
	n := int64(len(e.Alts))
	if lit, ok := e.Tag.(*remora.Lit); !ok || lit.V.I[0] < 0 || lit.V.I[0] >= n {
		l.assert(b, bin(semantics.And, bin(semantics.Le, ic(0), sv(tag)), bin(semantics.Lt, sv(tag), ic(n))),
			fmt.Sprintf("CASE: the tag is not one of the %d alternatives", n))
	}
	t, k, sig := arrOf(e.Type, e.Pos)
	if k == remora.KBox {
		if len(t.Shape) > 0 {
			refuse(e.Pos, "a CASE whose alternatives are arrays of boxes", "FUN has no arrays of boxes")
		}
		var pick func(bb *block, lo, hi int) atom
		pick = func(bb *block, lo, hi int) atom {
			if lo == hi {
				return l.get(bb, l.expr(bb, en, e.Alts[lo]), nil)
			}
			mid := (lo + hi) / 2
			c := l.intLet(bb, "lo", bin(semantics.Le, sv(tag), ic(int64(mid))))
			return l.ifAtom(bb, c, k, sig,
				func(tb *block) atom { return pick(tb, lo, mid) },
				func(eb *block) atom { return pick(eb, mid+1, hi) })
		}
		return boxVal(sig, pick(b, 0, len(e.Alts)-1).box)
	}
	dims := l.shape(b, en, t.Shape, e.Pos)
	elem := elemOf(k)
	var pick func(bb *block, lo, hi int) string
	pick = func(bb *block, lo, hi int) string {
		if lo == hi {
			return l.materialise(bb, l.expr(bb, en, e.Alts[lo]), dims, e.Alts[lo].At())
		}
		mid := (lo + hi) / 2
		c := l.intLet(bb, "lo", bin(semantics.Le, sv(tag), ic(int64(mid))))
		tb, eb := bb.child(), bb.child()
		th, el := pick(tb, lo, mid), pick(eb, mid+1, hi)
		x := l.fresh("r")
		bb.let(&fun.IfExp{Cond: ident(c), Then: tb.body(th), Else: eb.body(el)}, param(x, funType(elem, dims)))
		return x
	}
	return &val{kind: k, dims: dims, name: pick(b, 0, len(e.Alts)-1)}
}
