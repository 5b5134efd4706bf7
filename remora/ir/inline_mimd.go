package ir

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// MIMD: arrays of distinct functions, by defunctionalisation.
//
// §4.4 of "Remora Compiler — A Master's Project" refuses an array of
// different functions in function position, ([+ -] 10 3), because it is
// MIMD parallelism. Inline compiles it as Reynolds' defunctionalisation
// does a higher-order program: the array is a sum, an inlClosure whose
// alts are its distinct functions (each a closure, up to sameCode) and
// whose tag is an int array over the frame holding, at each position,
// the index of that position's function. The tag is a binding like the
// values the functions capture, so everything that moves those about —
// a MAP over the frame taking each cell (cells), replication (repFn), a
// MAP that makes the functions (mapFn) — moves it too. A function's
// captured values are arrays over the whole frame; at a position whose
// function is another they hold the value of a position of their own
// (any will do: that function does not run there).
//
// Where a function of the array is applied, in a MAP's cell, the tag is
// a scalar and the application is the CASE on it (the apply function of
// defunctionalisation) whose alternative k is the body of function k
// applied to the same arguments, inlined: each cell runs its own
// function, and the kernel that runs the cells branches on the tag. The
// arguments are evaluated once, before the CASE. A reduce, scan or fold
// whose operator is such a function gets the λ whose body is that CASE,
// closed over the tag.

// mergeDistinct makes one closure of the closures cs of a frame's
// elements (each an array of functions of frame inner): merge when they
// are the same code, else a sum of the distinct functions, with the tag
// and the functions' captured values as frames bound in lets.
func (in *inliner) mergeDistinct(e *remora.Frame, cs []*inlClosure, inner remora.Shape, lets *inlWrap) *inlClosure {
	same := true
	for _, c := range cs[1:] {
		same = same && in.sameCode(cs[0], c)
	}
	if same {
		return in.merge(e, cs, inner, lets)
	}
	// The functions, in order of first appearance; each element's own
	// functions (one, or a sum's) numbered among them.
	var reps []*inlClosure
	local := make([][]int, len(cs)) // element i's function j is reps[local[i][j]]
	for i, c := range cs {
		for _, f := range variants(c) {
			k := -1
			for r, rep := range reps {
				if in.sameCode(rep, f) {
					k = r
					break
				}
			}
			if k < 0 {
				k = len(reps)
				reps = append(reps, f)
			}
			local[i] = append(local[i], k)
		}
	}
	alts := make([]*inlClosure, len(reps))
	for k, rep := range reps {
		fs := make([]*inlClosure, len(cs))
		for i, c := range cs {
			fs[i] = rep // a filler where element i has no function k
			for j, g := range local[i] {
				if g == k {
					fs[i] = variants(c)[j]
				}
			}
		}
		alts[k] = in.merge(e, fs, inner, lets)
	}
	it := &remora.Arr{Elem: remora.Int, Shape: inner}
	tags := &remora.Frame{Pos: e.Pos, Dims: e.Dims, Type: &remora.Arr{Elem: remora.Int, Shape: remora.Dims(e.Dims...).Append(inner)}}
	for i, c := range cs {
		var t remora.Expr
		if c.alts == nil {
			t = &remora.Lit{Pos: e.Pos, V: remora.IntScalar(int64(local[i][0]))}
			if len(inner) > 0 {
				t = &remora.Rep{Pos: e.Pos, Frame: inner, E: t, Type: it}
			}
		} else {
			t = in.renumber(e.Pos, c.tag, local[i], inner)
		}
		tags.Elems = append(tags.Elems, t)
	}
	n := in.fresh("tag")
	lets.params = append(lets.params, remora.Param{Name: n, Type: tags.Type})
	lets.args = append(lets.args, tags)
	return &inlClosure{alts: alts, tag: &inlBinding{out: n, cell: &remora.Arr{Elem: remora.Int}, lifted: true}}
}

// variants are the functions of a closure: a sum's, or itself.
func variants(c *inlClosure) []*inlClosure {
	if c.alts != nil {
		return c.alts
	}
	return []*inlClosure{c}
}

// renumber is the tag array (over inner) of an element that is a sum,
// its functions numbered as the frame numbers them: to[j] for j.
func (in *inliner) renumber(pos semantics.Pos, tag *inlBinding, to []int, inner remora.Shape) remora.Expr {
	it := &remora.Arr{Elem: remora.Int, Shape: inner}
	var v remora.Expr = &remora.Var{Pos: pos, Name: tag.out}
	identity := true
	for j, k := range to {
		identity = identity && j == k
	}
	remap := func(x remora.Expr) remora.Expr {
		c := &remora.Case{Pos: pos, Tag: x, Type: &remora.Arr{Elem: remora.Int}}
		for _, k := range to {
			c.Alts = append(c.Alts, &remora.Lit{Pos: pos, V: remora.IntScalar(int64(k))})
		}
		return c
	}
	switch {
	case !tag.lifted:
		if !identity {
			v = remap(v)
		}
		if len(inner) > 0 {
			v = &remora.Rep{Pos: pos, Frame: inner, E: v, Type: it}
		}
	case !identity:
		t := in.fresh("t")
		v = &remora.Map{Pos: pos, Frame: inner, Params: []remora.Param{{Name: t, Type: &remora.Arr{Elem: remora.Int}}}, Args: []remora.Expr{v},
			Body: remap(&remora.Var{Pos: pos, Name: t}), Type: it}
	}
	return v
}

// mergeSums merges sums of the same functions (merge): their tags, and
// each function's captured values, become frames.
func (in *inliner) mergeSums(e *remora.Frame, cs []*inlClosure, inner remora.Shape, lets *inlWrap) *inlClosure {
	out := &inlClosure{alts: make([]*inlClosure, len(cs[0].alts))}
	for k := range out.alts {
		fs := make([]*inlClosure, len(cs))
		for i, c := range cs {
			fs[i] = c.alts[k]
		}
		out.alts[k] = in.merge(e, fs, inner, lets)
	}
	same := true
	for _, c := range cs {
		same = same && !c.tag.lifted && c.tag.out == cs[0].tag.out
	}
	if same {
		out.tag = cs[0].tag
		return out
	}
	it := &remora.Arr{Elem: remora.Int, Shape: inner}
	tags := &remora.Frame{Pos: e.Pos, Dims: e.Dims, Type: &remora.Arr{Elem: remora.Int, Shape: remora.Dims(e.Dims...).Append(inner)}}
	for _, c := range cs {
		var v remora.Expr = &remora.Var{Pos: e.Pos, Name: c.tag.out}
		if !c.tag.lifted && len(inner) > 0 {
			v = &remora.Rep{Pos: e.Pos, Frame: inner, E: v, Type: it}
		}
		tags.Elems = append(tags.Elems, v)
	}
	n := in.fresh("tag")
	lets.params = append(lets.params, remora.Param{Name: n, Type: tags.Type})
	lets.args = append(lets.args, tags)
	out.tag = &inlBinding{out: n, cell: &remora.Arr{Elem: remora.Int}, lifted: true}
	return out
}

// sameAlts reports whether two closures, one of them a sum, are sums of
// the same functions in the same order.
func sameAlts(in *inliner, a, b *inlClosure) bool {
	if a.alts == nil || b.alts == nil || len(a.alts) != len(b.alts) {
		return false
	}
	for i := range a.alts {
		if !in.sameCode(a.alts[i], b.alts[i]) {
			return false
		}
	}
	return true
}

// describeSum names a sum's functions for an error.
func (in *inliner) describeSum(c *inlClosure) string {
	ds := make([]string, len(c.alts))
	for i, a := range c.alts {
		ds[i] = in.describe(a)
	}
	return "an array of the distinct functions " + strings.Join(ds, ", ")
}

// tagVar is the tag of a sum applied in a cell: a scalar int variable.
func (in *inliner) tagVar(c *inlClosure, pos semantics.Pos) remora.Expr {
	if c.tag.cell == nil || len(c.tag.cell.Shape) > 0 {
		inlineErr(pos, "internal: the tag of %s is not a scalar", in.describeSum(c))
	}
	return &remora.Var{Pos: pos, Name: c.tag.out}
}

// appSum inlines the application of a sum in a cell: the arguments once,
// bound in a let (a function argument is bound statically, its prelude
// put around), then the CASE on the tag whose alternative k is function
// k applied to them, inlined as app inlines an application.
func (in *inliner) appSum(e *remora.App, env *inlEnv, f *inlFn) inlResult {
	c := f.c
	pre := f.pre
	var params []remora.Param
	var args []remora.Expr
	benv := env
	vars := make([]remora.Expr, len(e.Args))
	for i, a := range e.Args {
		// A name no program has (it has a space): the arguments as the
		// alternatives see them.
		name := fmt.Sprintf(" arg%d", i)
		vars[i] = &remora.Var{Pos: a.At(), EndPos: a.End(), Name: name}
		r := in.inline(a, env)
		if r.fn != nil {
			for _, alt := range c.alts {
				if lam, ok := alt.term.(*remora.Lam); ok && i < len(lam.Params) {
					in.valueRestriction(alt.env.arr(lam.Params[i].Type), a)
				}
			}
			pre = inlConcat(pre, r.fn.pre)
			benv = benv.bind(name, &inlBinding{fn: r.fn.c, frame: r.fn.frame})
			continue
		}
		n := in.fresh("arg")
		params = append(params, remora.Param{Name: n, Type: r.t})
		args = append(args, r.e)
		benv = benv.bind(name, &inlBinding{out: n, cell: r.t})
	}
	k, t := in.caseOf(e.Pos, e.EndPos, c, vars, benv, e.Type)
	return inlResult{e: inlWrapAll(inlConcat(pre, inlLet(e.Pos, params, args)), k, t), t: t}
}

// caseOf is the CASE on the tag of the sum c whose alternative k is
// function k applied to the arguments vars (variables of benv), inlined,
// and its type. t is the application's type, when known.
func (in *inliner) caseOf(pos, end semantics.Pos, c *inlClosure, vars []remora.Expr, benv *inlEnv, t *remora.Arr) (*remora.Case, *remora.Arr) {
	k := &remora.Case{Pos: pos, EndPos: end, Tag: in.tagVar(c, pos)}
	for i, alt := range c.alts {
		name := fmt.Sprintf(" fn%d", i)
		app := &remora.App{Pos: pos, EndPos: end, Fn: &remora.Var{Pos: pos, Name: name}, Args: vars, Type: t}
		r := in.app(app, benv.bind(name, &inlBinding{fn: alt}))
		if r.fn != nil {
			inlineErr(pos, "%s returns functions, which cannot be compiled (a CASE chooses among arrays)", in.describeSum(c))
		}
		if k.Type != nil && !remora.Equal(r.t, k.Type) {
			inlineErr(pos, "internal: the functions of %s return %s and %s", in.describeSum(c), remora.TypeString(k.Type), remora.TypeString(r.t))
		}
		k.Type = r.t
		k.Alts = append(k.Alts, r.e)
	}
	return k, k.Type
}

// operatorSum is the operator of a reduce, scan or fold that is a sum:
// the λ of the functions' parameter types whose body is the CASE on the
// tag, closed over it.
func (in *inliner) operatorSum(c *inlClosure, pos semantics.Pos) remora.Expr {
	var pts []*remora.Arr
	switch a := c.alts[0]; {
	case a.prim != nil:
		ft, ok := remora.Instantiate(a.prim.Def.Type, a.indices, a.types).(*remora.Fn)
		if !ok {
			inlineErr(pos, "the operator %s is not instantiated", in.describe(a))
		}
		for _, p := range ft.Params {
			pts = append(pts, remora.CanonArr(p))
		}
	default:
		lam, ok := a.term.(*remora.Lam)
		if !ok {
			inlineErr(pos, "the operator %s is not instantiated", in.describe(a))
		}
		for _, p := range lam.Params {
			pts = append(pts, a.env.arr(p.Type))
		}
	}
	l := &remora.Lam{Pos: pos}
	benv := &inlEnv{}
	vars := make([]remora.Expr, len(pts))
	for i, pt := range pts {
		if isFnAtom(pt.Elem) {
			inlineErr(pos, "the operator %s takes functions, which cannot be compiled", in.describeSum(c))
		}
		x := in.fresh("x")
		l.Params = append(l.Params, remora.Param{Name: x, Type: pt})
		name := fmt.Sprintf(" arg%d", i)
		benv = benv.bind(name, &inlBinding{out: x, cell: pt})
		vars[i] = &remora.Var{Pos: pos, Name: name}
	}
	l.Body, l.Ret = in.caseOf(pos, semantics.Pos{}, c, vars, benv, nil)
	return l
}

// caseIR inlines a CASE of the IR (Inline's own output, read back).
func (in *inliner) caseIR(e *remora.Case, env *inlEnv) inlResult {
	tag := in.ordinary(e.Tag, env, "a CASE's tag")
	k := &remora.Case{Pos: e.Pos, EndPos: e.EndPos, Tag: tag.e}
	for _, a := range e.Alts {
		r := in.ordinary(a, env, "a CASE's alternative")
		k.Alts = append(k.Alts, r.e)
		k.Type = r.t
	}
	return inlResult{e: k, t: k.Type}
}
