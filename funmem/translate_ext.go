package funmem

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
)

// TransformStm on the extension forms (docs/funmem.md, "Extensions"):
//
//   - assert is unchanged;
//   - a loop carries its arrays by reference with their supporting
//     information, as an if returns them: each array parameter gets a
//     block, an offset and strides as parameters before it, the initial
//     values and the body's results are preceded by their Support, and
//     the pattern binds the supporting variables too (T-MEM-RESULT's S);
//   - reduce and scan over ints keep their int operands; over arrays,
//     each operand (and a reduce's pattern) is a support group: its block,
//     offset and strides as parameters, bound from the value at run time
//     (the start, a row of xs, the previous accumulator);
//   - scan and filter make fresh arrays: s_alloc before them and the
//     pattern row-major in the new block (a filter's sized for all n rows,
//     an upper bound);
//   - redomap and scanomap are reduce and scan whose element is the map
//     body's value: their operands and patterns as reduce's and scan's,
//     the map body transformed as a kernel's.

// stmExt is TransformStm on an extension form, or nil when s is none.
func (t *transformer) stmExt(s *fun.Stm, gamma *typeEnv) []*fun.Stm {
	var exp fun.Exp // a fold's or filter's, its operands annotated
	switch e := s.Exp.(type) {
	case *fun.ReduceExp, *fun.ScanExp, *fun.FilterExp:
		ps, body := t.foldParams(fun.ExpParams(e), fun.ExpBody(e), gamma)
		exp = fun.WithParts(e, ps, body)
	}
	switch e := s.Exp.(type) {
	case *fun.AssertExp:
		return []*fun.Stm{s}
	case *fun.LoopExp:
		return t.loop(s, e, gamma)
	case *fun.ReduceExp:
		z := s.Pat[0]
		if z.Type.Rank() == 0 {
			return []*fun.Stm{{Let: s.Let, Pat: s.Pat, Exp: exp}}
		}
		return []*fun.Stm{{Let: s.Let, Pat: t.group(z), Exp: exp}}
	case *fun.ScanExp:
		return t.fresh(s, s.Pat[0], product(s.Pat[0].Type.Dims), nil, exp)
	case *fun.FilterExp:
		// The block holds all n rows of xs, an upper bound of the k kept.
		xs := gamma.get(e.Arr.Name)
		return t.fresh(s, s.Pat[1], product(xs.Dims), s.Pat[:1], exp)
	case *fun.RedomapExp:
		return t.redomap(s, e, gamma)
	}
	return nil
}

// redomap is TransformStm's redomap and scanomap: the operands as a
// reduce's (support groups over arrays), the map body transformed as a
// kernel's (i an int in its scope; its result is the element, in
// whatever memory the body made it, which the semantics binds to b with
// its support); the pattern as a reduce's (redomap) or a scan's, a fresh
// array (scanomap).
func (t *transformer) redomap(s *fun.Stm, e *fun.RedomapExp, gamma *typeEnv) []*fun.Stm {
	ps, op := t.foldParams(e.Params, e.Op, gamma)
	inner := gamma.child()
	inner.set(e.Var.Name, fun.Type{})
	stms, _ := t.stms(e.Map.Stms, inner)
	m := &fun.Body{Stms: stms, In: e.Map.In, Result: e.Map.Result, Rparen: e.Map.Rparen}
	exp := fun.WithBodies(e, ps, []*fun.Body{m, op})
	z := s.Pat[0]
	switch {
	case e.Scan:
		return t.fresh(s, z, product(z.Type.Dims), nil, exp)
	case z.Type.Rank() == 0:
		return []*fun.Stm{{Let: s.Let, Pat: s.Pat, Exp: exp}}
	}
	return []*fun.Stm{{Let: s.Let, Pat: t.group(z), Exp: exp}}
}

// fresh is s_alloc of size se, then the statement binding pre (ints)
// and p, an array row-major in the new block.
func (t *transformer) fresh(s *fun.Stm, p *fun.Param, size fun.SExp, pre []*fun.Param, exp fun.Exp) []*fun.Stm {
	m := t.names.fresh(p.Name.Name + "_mem")
	alloc := &fun.Stm{Let: s.Let, Pat: []*fun.Param{{Lparen: p.Lparen, Name: m, Type: Mem()}}, Exp: &AllocExp{Alloc: s.Let, Size: size}}
	pat := append(append([]*fun.Param(nil), pre...), &fun.Param{Lparen: p.Lparen, Name: p.Name, Type: rowMajorIn(p.Type, m), Rparen: p.Rparen})
	return []*fun.Stm{alloc, {Let: s.Let, Pat: pat, Exp: exp}}
}

// group is an array binding x : [x1]…[xn] as a support group: (x_mem :
// mem) (x_off : int) (x_stride1 : int) … (x : [x1]…[xn] @ x_mem -> x_off
// + {(x1 : x_stride1) …}). An int binding stays as it is.
func (t *transformer) group(x *fun.Param) []*fun.Param {
	if x.Type.Rank() == 0 {
		return []*fun.Param{x}
	}
	roles := []string{"mem", "off"}
	for i := range x.Type.Dims {
		roles = append(roles, fmt.Sprintf("stride%d", i+1))
	}
	var supp []*fun.Param
	for j, r := range roles {
		typ := fun.Type{}
		if j == 0 {
			typ = Mem()
		}
		supp = append(supp, &fun.Param{Lparen: x.Lparen, Name: t.names.fresh(x.Name.Name + "_" + r), Type: typ, Rparen: x.Rparen})
	}
	return append(supp, &fun.Param{Lparen: x.Lparen, Name: x.Name, Type: supportedType(x.Type, supp), Rparen: x.Rparen})
}

// foldParams gives the operands of a reduce, scan or filter their
// support groups, and transforms the body in their scope.
func (t *transformer) foldParams(ps []*fun.Param, b *fun.Body, gamma *typeEnv) ([]*fun.Param, *fun.Body) {
	var out []*fun.Param
	inner := gamma.child()
	for _, p := range ps {
		for _, q := range t.group(p) {
			out = append(out, q)
			inner.set(q.Name.Name, q.Type)
		}
	}
	stms, _ := t.stms(b.Stms, inner)
	return out, &fun.Body{Stms: stms, In: b.In, Result: b.Result, Rparen: b.Rparen}
}

// loop is TransformStm's loop: the arrays it carries are carried with
// their supporting information (the IfExp case's Support, for the initial
// values, the body's results and the pattern).
func (t *transformer) loop(s *fun.Stm, e *fun.LoopExp, gamma *typeEnv) []*fun.Stm {
	var before []*fun.Stm
	var params, pat []*fun.Param
	var init []*fun.Ident
	var groups [][]*fun.Param
	inner := gamma.child()
	for j, y := range e.Params {
		x := e.Init[j]
		sx, xsupp := t.support(gamma.get(x.Name))
		before = append(before, sx...)
		gy, gp := t.group(y), t.group(s.Pat[j])
		for _, v := range xsupp {
			init = append(init, v.id)
		}
		init = append(init, x)
		params = append(params, gy...)
		pat = append(pat, gp...)
		groups = append(groups, gy)
	}
	for _, q := range params {
		inner.set(q.Name.Name, q.Type)
	}
	inner.set(e.Var.Name, fun.Type{})
	stms, g := t.stms(e.Body.Stms, inner)
	var res []*fun.Ident
	for j, r := range e.Body.Result {
		sr, rsupp := t.support(g.get(r.Name))
		stms = append(stms, sr...)
		if len(rsupp) > 0 && len(groups[j]) > 1 && mutant.On("funmem-loop-stale-support") {
			rsupp[0].id = groups[j][0].Name // mutant: the result's support names the parameter's block
		}
		for _, v := range rsupp {
			res = append(res, v.id)
		}
		res = append(res, r)
	}
	body := &fun.Body{Stms: stms, In: e.Body.In, Result: res, Rparen: e.Body.Rparen}
	loop := &fun.LoopExp{Loop: e.Loop, Params: params, Lparen: e.Lparen, Init: init, Rparen: e.Rparen, Var: e.Var, Bound: e.Bound, Body: body}
	return append(before, &fun.Stm{Let: s.Let, Pat: pat, Exp: loop})
}
