package dynamic

import (
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Arrays of functions given as arguments: the elaboration of an
// application in which an argument is an array of functions with a frame
// of its own — ((λ ((f 0) (x 0)) …) [g h] 5), or (reduce [+ *] 1 xs),
// whose operator has rank 0. The run time lifts over that frame like
// any other: each cell applies the function (or runs the primitive) with
// the one function of its position, [(… g …) (… h …)]. The elaboration
// does the same: one typed λ per position of the functions' frame, each
// elaborated with that position's functions bound statically, put in
// function position as a frame of λs and applied to the other
// arguments, so that the typed application lifts over the frames as the
// dialect does. A frame of distinct λs is MIMD, which the compile path
// defunctionalises (remora/ir/inline_mimd.go).

// fnFrames reports whether an argument is an array of functions with a
// non-empty frame for its parameter's rank.
func fnFrames(args []*aval, ranks []int) bool {
	for i, a := range args {
		if a.funs != nil {
			if f, _ := split(a.fshape, ranks[i]); len(f) > 0 {
				return true
			}
		}
	}
	return false
}

// mixesLamsAndPrims reports whether fn is an array of functions, of a
// constant frame, some of them λs and some primitives: each position is
// elaborated on its own (applyPerPosition), as neither a frame of typed
// primitives nor one of λs holds them all.
func mixesLamsAndPrims(fn *aval) bool {
	if _, ok := consts(fn.fshape); !ok || fn.percell {
		return false
	}
	lams := 0
	for _, c := range fn.funs {
		if c.lam != nil {
			lams++
		}
	}
	return lams > 0 && lams < len(fn.funs)
}

// constFrame is the constant shape of an array of functions' frame, or
// a refusal: the functions bound at each position must be known when
// the program is elaborated.
func (el *elaborator) constFrame(pos semantics.Pos, a *aval, f []remora.Nat) []int64 {
	fs, ok := consts(f)
	if !ok || a.percell {
		el.fail(pos, "an array of functions over a frame known only at run time (a λ returned them over a frame), one for each cell of the application: each cell applies its own function (MIMD), which is elaborated only for arrays written in the program")
	}
	return fs
}

// applyPerPosition elaborates the application of fn to args, frames
// agreeing within big, one typed λ per position of the functions' frame
// (the longest of fn's and the function arguments' frames).
func (el *elaborator) applyPerPosition(pos semantics.Pos, fn *aval, args []*aval, ranks []int, frames [][]remora.Nat, cells []ity, big []remora.Nat) *aval {
	fnF := el.constFrame(pos, fn, fn.fshape)
	ff := fnF
	argF := make([][]int64, len(args))
	for i, a := range args {
		if a.funs != nil {
			f, _ := split(a.fshape, ranks[i])
			argF[i] = el.constFrame(pos, a, f)
			if len(argF[i]) > len(ff) {
				ff = argF[i]
			}
		}
	}
	// at is the index, in an array of frame f (a prefix of ff), of the
	// cell at the position p of ff.
	at := func(p int, f []int64) int { return p / product(ff[len(f):]) }
	if product(ff) == 0 {
		el.fail(pos, "an empty array of functions is applied (nothing fixes its functions' types)")
	}
	var terms []string
	var ret ity
	var mzAt semantics.Pos
	mz := false
	for p := range product(ff) {
		c := fn.funs[at(p, fnF)]
		argsAt := make([]*aval, len(args))
		for i, a := range args {
			if a.funs == nil {
				argsAt[i] = a
				continue
			}
			_, cell := split(a.fshape, ranks[i])
			n := product(el.constFrame(pos, a, cell))
			j := at(p, argF[i])
			argsAt[i] = &aval{funs: a.funs[j*n : (j+1)*n], fshape: cell}
		}
		var term string
		var body *aval
		if c.prim != nil {
			var params []string
			inner := make([]*aval, len(args))
			for i, a := range argsAt {
				if a.funs != nil {
					inner[i] = a
					continue
				}
				x := el.fresh("x")
				if len(frames[i+1]) == 0 {
					b := *a // the whole argument: what is known of it holds
					b.term = x
					inner[i] = &b
				} else {
					inner[i] = like(x, cells[i], a) // a cell of a
				}
				params = append(params, "["+x+" "+cells[i].String()+"]")
			}
			body = el.prim(pos, &aval{funs: []*closure{c}}, inner, nil)
			term = "(fn (" + strings.Join(params, " ") + ") " + body.term + ")"
		} else {
			var isFun bool
			term, body, isFun = el.lambda(pos, c, argsAt, frames, cells)
			if isFun {
				el.fail(pos, "an array of λs that return functions, one for each cell of the application")
			}
		}
		if body.funs != nil {
			el.fail(pos, "an array of functions that return functions, one for each cell of the application")
		}
		if len(body.hide) > 0 {
			el.fail(pos, "an array of functions giving cells whose shapes are known only at run time")
		}
		if p > 0 && !body.typ.equal(ret) {
			el.fail(pos, "the functions in the array return %s and %s", ret, body.typ)
		}
		ret = body.typ
		if body.mz {
			mz, mzAt = true, body.mzAt
		}
		terms = append(terms, term)
	}
	call := "(" + nest(ff, terms)
	for _, a := range args {
		if a.funs == nil {
			call += " " + a.term
		}
	}
	call += ")"
	out := typedArray(call, ret.with(append(append([]remora.Nat{}, big...), ret.shape...)), nil)
	out.mz, out.mzAt = mz, mzAt
	return out
}

// An array of functions as the operator of the reduce and scan family.
// The family's parameters have rank all, so the array is applied whole
// inside the fold: ([+ *] acc x) lifts over the functions' frame F, and
// the accumulator becomes an array over it. For functions of scalar
// cells (rank 0), applying them to an accumulator or items replicated to
// the final shape R (the longest of F, the items' and the initial
// value's shapes) gives the same atoms at every step, so the typed fold
// gets its one accumulator type by replicating them first (each atom
// over R's trailing axes, as the lift does). Where a result shows the
// value before any function ran — a scan's or trace's initial value, an
// inclusive scan's first item, the base of a fold over no items — the
// dialect keeps its own shape, and the elaboration refuses unless it is
// already R.

// foldFnArray elaborates a fold of the family whose operator args[0] is
// an array of functions.
func (el *elaborator) foldFnArray(pos semantics.Pos, p *PrimDef, args []*aval) *aval {
	op := args[0]
	for _, c := range op.funs {
		for _, r := range c.ranks(2) {
			if r != 0 {
				el.fail(pos, "%s's operator is an array of functions whose cells are not scalars (ranks %s): only functions of rank 0 are elaborated there", p.Name, ranksString(c.ranks(2)))
			}
		}
	}
	arr := args[len(args)-1]
	el.needMajor(pos, p.Name, arr)
	shapeOf := func(a *aval) []int64 {
		ds, ok := consts(a.typ.shape)
		if !ok {
			el.fail(pos, "%s with an array of functions as its operator, over an array whose shape is known only at run time", p.Name)
		}
		return ds
	}
	ashape := shapeOf(arr)
	if ashape[0] == 0 {
		el.fail(pos, "%s of no items with an array of functions as its operator gives its base, of its own shape (not elaborated)", p.Name)
	}
	item := ashape[1:]
	r := el.constFrame(pos, op, op.fshape)
	longest := func(s []int64) {
		long, short := r, s
		if len(s) > len(r) {
			long, short = s, r
		}
		if !semantics.SameShape(short, long[:len(short)]) {
			el.fail(pos, "%s: the functions' frame %s and the shape %s do not agree: it would stop in lift", p.Name, shapeString(r), shapeString(s))
		}
		r = long
	}
	longest(item)
	var init *aval
	var ishape []int64
	if p.Fold.TakesInit() {
		init = args[1]
		if init.funs != nil {
			el.fail(pos, "%s's initial value is a function", p.Name)
		}
		ishape = shapeOf(init)
		longest(ishape)
	}
	opAcc := *op
	opAcc.foldOp = true
	out := append([]*aval{&opAcc}, args[1:]...)
	switch typed := p.Typed; {
	case init != nil && (typed == "scan-init" || typed == "trace" || typed == "trace-right") && !semantics.SameShape(ishape, r):
		el.fail(pos, "%s's result starts with its initial value, of shape %s, and goes on with accumulators of shape %s: it would stop in collapse", p.Name, shapeString(ishape), shapeString(r))
	case init == nil && !p.Tree && !semantics.SameShape(item, r):
		el.fail(pos, "%s's result starts with the first item, of shape %s, and goes on with accumulators of shape %s: it would stop in collapse", p.Name, shapeString(item), shapeString(r))
	case init != nil:
		out[1] = el.replicateTrailing(init, r[len(ishape):])
	}
	if p.Fold.ReplicatesInit() {
		// One type for the accumulator and the items.
		out[len(out)-1] = el.replicateTrailing(arr, r[len(item):])
	}
	return el.fold(pos, p, out)
}

// replicateTrailing is a with each atom replicated over the axes q
// added after its own, as the lift replicates a scalar cell: of shape
// a's ++ q.
func (el *elaborator) replicateTrailing(a *aval, q []int64) *aval {
	if len(q) == 0 {
		return a
	}
	x := el.fresh("x")
	atom := a.typ.with(nil)
	head := instantiation("replicate", []string{a.typ.atom()}, natsString(dimsOf(q)), a.typ.cix(nil))
	term := "((fn ([" + x + " " + atom.String() + "]) (" + head + " " + x + ")) " + a.term + ")"
	return typedArray(term, a.typ.with(append(append([]remora.Nat{}, a.typ.shape...), dimsOf(q)...)), nil)
}

// primArray is the dialect's term for fn, a primitive or an array of
// primitives of a constant frame (nil for anything else), so that
// foldKnown computes an application of an array of primitives to known
// arguments as the run time does, each position with its own primitive:
// ([* /] 6 3) is [18 2] even though / of two ints has no typed
// counterpart (it is exact).
func primArray(pos semantics.Pos, fn *aval) Expr {
	fs, ok := consts(fn.fshape)
	if !ok || fn.percell {
		return nil
	}
	var elems []Expr
	for _, c := range fn.funs {
		if c.prim == nil {
			return nil
		}
		elems = append(elems, &Prim{Pos: pos, Def: c.prim})
	}
	if len(elems) == 0 {
		return nil
	}
	if len(fs) == 0 {
		return elems[0]
	}
	return &Frame{Pos: pos, Dims: fs, Elems: elems}
}

// perPositionScalars reports whether an array of scalar primitives is
// elaborated one typed λ per position (applyPerPosition) rather than as
// a frame of typed primitives: when floats or exact rationals are
// involved, whose dialect values (exact zeros, ties of max and min, the
// conversions, the rationals' pairs) are kept by rewriting each
// primitive's application on its own.
func perPositionScalars(fn *aval, args []*aval) bool {
	if len(fn.funs) < 2 {
		return false
	}
	if _, ok := consts(fn.fshape); !ok || fn.percell {
		return false
	}
	for _, a := range args {
		if a.typ.elem == remora.KFloat || a.typ.elem == remora.KNum || a.mz {
			return true
		}
	}
	for _, c := range fn.funs {
		if _, ok := conversions[c.prim.Name]; ok {
			return true
		}
	}
	return false
}

// scalarFrames are the frames and rank-0 cell types of a scalar
// primitive's arguments, as applyPerPosition takes them.
func scalarFrames(fn *aval, args []*aval) ([]int, [][]remora.Nat, []ity) {
	ranks := make([]int, len(args))
	frames := [][]remora.Nat{fn.fshape}
	cells := make([]ity, len(args))
	for i, a := range args {
		frames = append(frames, a.typ.shape)
		cells[i] = a.typ.with(nil)
	}
	return ranks, frames, cells
}

// frameOfFunctions elaborates a frame whose elements are all functions
// or arrays of them, of one shape: one array of functions, the frame
// around their shape (a frame of frames of functions is a matrix of
// them, as a frame of arrays is).
func (el *elaborator) frameOfFunctions(e *Frame, vs []*aval) *aval {
	out := &aval{fshape: append(dimsOf(e.Dims), vs[0].fshape...)}
	for _, v := range vs {
		if v.percell {
			el.fail(e.Pos, "a frame of the functions a λ returned over a frame")
		}
		if !natsEqual(v.fshape, vs[0].fshape) {
			el.fail(e.Pos, "the frame's arrays of functions have shapes %s and %s: it would stop in collapse", natsString(vs[0].fshape), natsString(v.fshape))
		}
		out.funs = append(out.funs, v.funs...)
		out.pre = append(out.pre, v.pre...)
	}
	return out
}
