package tofun

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The FUN side of the translation: blocks of statements being built, fresh
// names, and small constructors for FUN's syntax. FUN is in A-normal form
// and refuses shadowing, so every value the translation makes is bound by
// its own let to a name no other binding has.

// block is a FUN body under construction: its statements so far, the block
// it is nested in (a kernel's, a branch's or a fold's body is nested in the
// body that holds the form), and the size variables already bound in it.
type block struct {
	l      *lowerer // whose pos the statements are placed at
	parent *block
	stms   []*fun.Stm
	// sizes maps a size, written as its constant and the FUN variables it
	// sums (sizeKey), to the int variable bound to it here, so that one
	// size has one variable in a scope: FUN compares sizes by name.
	sizes map[string]string
}

func (b *block) child() *block { return &block{l: b.l, parent: b} }

// size finds the variable bound to a size key in b or a block around it.
func (b *block) size(key string) (string, bool) {
	for ; b != nil; b = b.parent {
		if x, ok := b.sizes[key]; ok {
			return x, true
		}
	}
	return "", false
}

func (b *block) noteSize(key, x string) {
	if b.sizes == nil {
		b.sizes = map[string]string{}
	}
	b.sizes[key] = x
}

// let appends the statement let pat = e, placed at the Remora construct
// being lowered (see stamp).
func (b *block) let(e fun.Exp, pat ...*fun.Param) {
	st := stamp{b.l.pos}
	for _, p := range pat {
		st.param(p)
	}
	st.exp(e)
	b.stms = append(b.stms, &fun.Stm{Let: st.pos, Pat: pat, Exp: e})
}

// body closes the block with in (results…).
func (b *block) body(results ...string) *fun.Body {
	rs := make([]*fun.Ident, len(results))
	st := stamp{b.l.pos}
	for i, r := range results {
		rs[i] = ident(r)
		st.ident(rs[i])
	}
	return &fun.Body{Stms: b.stms, In: st.pos, Result: rs}
}

// stamp places the FUN syntax made for a Remora construct at that
// construct's position, so that FUN's type errors and stuck states (a
// division by zero, a failed assert) point into the Remora source. It
// fills only positions not yet set: nested bodies were placed as they
// were built.
type stamp struct{ pos semantics.Pos }

func (st stamp) at(p *semantics.Pos) {
	if !p.IsValid() {
		*p = st.pos
	}
}

func (st stamp) ident(x *fun.Ident) {
	if x != nil {
		st.at(&x.NamePos)
	}
}

func (st stamp) idents(xs []*fun.Ident) {
	for _, x := range xs {
		st.ident(x)
	}
}

func (st stamp) param(p *fun.Param) {
	st.at(&p.Lparen)
	st.at(&p.Rparen)
	st.ident(p.Name)
	st.idents(p.Type.Dims)
}

func (st stamp) sexp(e fun.SExp) {
	switch e := e.(type) {
	case fun.Var:
		st.ident(e.Ident)
	case *fun.Const:
		st.at(&e.ValuePos)
	case *fun.FloatConst:
		st.at(&e.ValuePos)
	case *fun.BinOp:
		st.at(&e.OpPos)
		st.sexp(e.L)
		st.sexp(e.R)
	case *fun.UnOp:
		st.at(&e.OpPos)
		st.sexp(e.X)
	case *fun.Call:
		st.at(&e.NamePos)
		st.sexp(e.Arg)
	}
}

func (st stamp) exp(e fun.Exp) {
	switch e := e.(type) {
	case *fun.ScalarExp:
		st.sexp(e.X)
	case *fun.IndexExp:
		st.ident(e.Arr)
		st.idents(e.Idx)
	case *fun.SliceExp:
		st.ident(e.Arr)
		for _, s := range e.Slices {
			st.ident(s.Off)
			st.ident(s.Size)
		}
	case *fun.IfExp:
		st.at(&e.If)
		st.ident(e.Cond)
	case *fun.KernelExp:
		st.at(&e.Kernel)
		st.ident(e.Var)
		st.ident(e.Bound)
	case *fun.IotaExp:
		st.at(&e.Keyword)
		st.ident(e.N)
	case *fun.LoopExp:
		st.at(&e.Loop)
		st.at(&e.Lparen)
		st.at(&e.Rparen)
		for _, p := range e.Params {
			st.param(p)
		}
		st.idents(e.Init)
		st.ident(e.Var)
		st.ident(e.Bound)
	case *fun.ReduceExp:
		st.at(&e.Keyword)
		st.fold(e.Params, e.Ne, e.Arr)
	case *fun.ScanExp:
		st.at(&e.Keyword)
		st.fold(e.Params, e.Ne, e.Arr)
	case *fun.FilterExp:
		st.at(&e.Keyword)
		st.fold(e.Params, nil, e.Arr)
	case *fun.AssertExp:
		st.at(&e.Keyword)
		st.sexp(e.Cond)
	}
}

func (st stamp) fold(ps []*fun.Param, ne, arr *fun.Ident) {
	for _, p := range ps {
		st.param(p)
	}
	st.ident(ne)
	st.ident(arr)
}

// namer hands out FUN names: a Remora name, its characters outside FUN's
// identifiers replaced by _, and a number no other name has (FUN refuses
// shadowing, and Remora names such as d-1, int->float or box%3 are not FUN
// identifiers).
type namer struct{ n int }

func (nm *namer) fresh(base string) string {
	nm.n++
	var b strings.Builder
	for i, r := range base {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r == '_':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('v')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		b.WriteByte('v')
	}
	return strings.TrimRight(b.String(), "_") + "_" + strconv.Itoa(nm.n)
}

func ident(x string) *fun.Ident { return &fun.Ident{Name: x} }

func idents(xs []string) []*fun.Ident {
	out := make([]*fun.Ident, len(xs))
	for i, x := range xs {
		out[i] = ident(x)
	}
	return out
}

// funType is the FUN type of an array of elem with the given sizes.
func funType(elem semantics.Elem, dims []string) fun.Type {
	return fun.Type{Dims: idents(dims), Elem: elem}
}

func param(x string, t fun.Type) *fun.Param { return &fun.Param{Name: ident(x), Type: t} }

var intType = fun.Type{}

func sv(x string) fun.SExp { return fun.Var{Ident: ident(x)} }
func ic(k int64) fun.SExp  { return &fun.Const{Value: k} }
func bin(op semantics.Op, l, r fun.SExp) fun.SExp {
	return &fun.BinOp{Op: op, L: l, R: r}
}

// sizeKey names a size: the constant and the (sorted) FUN variables it sums.
func sizeKey(c int64, vars []string) string {
	return fmt.Sprint(c, vars)
}

func cat(a []string, b ...string) []string {
	out := make([]string, 0, len(a)+len(b))
	return append(append(out, a...), b...)
}
