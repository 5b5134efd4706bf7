package dynamic

import (
	"slices"
	"strings"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// apply elaborates an application: the frames as the run-time lift finds
// them, then each function at its cell types.
func (el *elaborator) apply(pos semantics.Pos, fn *aval, args []*aval) *aval {
	return el.applyShaped(pos, fn, args, nil)
}

// applyShaped is apply with apply/shape's shape for an empty frame
// (nil: none).
func (el *elaborator) applyShaped(pos semantics.Pos, fn *aval, args []*aval, emptyShape []int64) *aval {
	empty := fn.funs == nil && hasZero(fn.typ.shape)
	if fn.funs == nil && !empty {
		el.fail(pos, "cannot apply an array of %s atoms: it would stop in β", fn.typ.elem)
	}
	s := el.scope(pos)
	s.pre = append(s.pre, fn.pre...)
	opened := make([]*aval, len(args))
	for i, a := range args {
		if a.funs != nil {
			s.pre = append(s.pre, a.pre...)
			b := *a
			b.pre = nil
			opened[i] = &b
			continue
		}
		opened[i] = s.open(a) // a box's sizes are bound around the application
	}
	if empty {
		// An empty array applies nothing: the result has its shape (the
		// dialect's empty frame, ERRATA R10).
		return s.close(el.emptyResult(fn.typ.shape, append([]*aval{fn}, opened...)))
	}
	return s.close(el.apply1(pos, fn, opened, emptyShape))
}

// frames are an application's frames: the function array's, then each
// argument's (nil for a function argument), and the biggest.
func (el *elaborator) frames(pos semantics.Pos, fn *aval, args []*aval, ranks []int) ([][]remora.Nat, []ity, []remora.Nat) {
	frames := [][]remora.Nat{fn.fshape}
	cells := make([]ity, len(args))
	for i, a := range args {
		if a.funs != nil {
			// A function argument is bound statically where it is one
			// cell; a frame of functions, each of which a cell of the
			// application takes, has a frame like any argument
			// (applyPerPosition, infer_mimd.go).
			f, _ := split(a.fshape, ranks[i])
			frames = append(frames, f)
			continue
		}
		if ranks[i] != All && a.typ.rank() < ranks[i] {
			el.fail(pos, "argument %d has rank %d, below its cell rank %d: it would stop in lift", i+1, a.typ.rank(), ranks[i])
		}
		f, c := split(a.typ.shape, ranks[i])
		frames = append(frames, f)
		cells[i] = a.typ.with(c)
	}
	for _, c := range fn.funs {
		for _, cp := range c.caps {
			f, _ := split(cp.arr.typ.shape, cp.cell.rank())
			frames = append(frames, f)
		}
	}
	big := frames[0]
	for _, f := range frames {
		if len(f) > len(big) {
			big = f
		}
	}
	for i, f := range frames {
		if natsEqual(f, big[:len(f)]) {
			continue
		}
		if mismatch(f, big) {
			el.fail(pos, "frames %s and %s do not agree: it would stop in lift", natsString(big), natsString(f))
		}
		if i == 0 || i > len(args) {
			el.fail(pos, "frames %s and %s are known only at run time and may not agree (the dialect checks them as it runs)", natsString(big), natsString(f))
		}
		// An argument whose frame is known only at run time: read at
		// the biggest frame, once the two are checked equal.
		a := args[i-1]
		args[i-1] = el.cast(a, append(append([]remora.Nat{}, big[:len(f)]...), cells[i-1].shape...))
		frames[i] = big[:len(f)]
	}
	return frames, cells, big
}

// mismatch reports whether frame f cannot be a prefix of big whatever
// the run time gives: some constant dimensions differ.
func mismatch(f, big []remora.Nat) bool {
	for i, d := range f {
		if d.IsConst() && big[i].IsConst() && d.Const != big[i].Const {
			return true
		}
	}
	return false
}

// cast is a read at the shape want, of a's atoms in order, stuck (a
// division by zero) unless each dimension of a is want's: the dialect's
// check that frames agree, where they are known only at run time.
func (el *elaborator) cast(a *aval, want []remora.Nat) *aval {
	ok := "#t"
	for i, d := range a.typ.shape {
		if !d.Equal(want[i]) {
			ok = "(and " + ok + " (= " + natTerm(d) + " " + natTerm(want[i]) + "))"
		}
	}
	x, j := el.fresh("x"), el.fresh("j")
	read := "((fn ([" + j + " int]) " + atFlat(x, a.typ, j) + ") iota{ | " + natsString(want) + "})"
	term := "(let [" + x + " " + a.term + "] (let [" + el.fresh("_") + " (/! 1 (bool->int " + ok + "))] " + read + "))"
	out := like(term, a.typ.with(want), a)
	out.ragged = a.ragged
	return out
}

// apply1 applies a static function array to arguments none of which
// stands for a box (scope.open).
func (el *elaborator) apply1(pos semantics.Pos, fn *aval, args []*aval, emptyShape []int64) *aval {
	c0 := fn.funs[0]
	ranks := c0.ranks(len(args))
	for _, c := range fn.funs[1:] {
		if !slices.Equal(c.ranks(len(args)), ranks) {
			el.fail(pos, "the functions in the array take cells of ranks %s and %s: it would stop in lift", ranksString(ranks), ranksString(c.ranks(len(args))))
		}
	}
	if len(args) != len(ranks) {
		el.fail(pos, "the function takes %s, got %d: it would stop in β", semantics.Plural(len(ranks), "argument"), len(args))
	}
	frames, cells, big := el.frames(pos, fn, args, ranks)
	if fnFrames(args, ranks) || mixesLamsAndPrims(fn) {
		return el.applyPerPosition(pos, fn, args, ranks, frames, cells, big) // infer_mimd.go
	}
	if hasZero(big) {
		// The dialect maps over no cells: the result has the frame's
		// shape (ERRATA R10), or apply/shape's.
		shape := big
		if emptyShape != nil {
			if product(emptyShape) != 0 {
				el.fail(pos, "apply/shape: the frame %s is empty, so the result's shape cannot be %s (it has atoms): it would stop in map", natsString(big), shapeString(emptyShape))
			}
			shape = dimsOf(emptyShape)
		}
		return el.emptyResult(shape, args)
	}
	if emptyShape != nil && symbolic(big) {
		el.fail(pos, "apply/shape over a frame known only at run time: the result's shape would depend on whether it is empty")
	}
	for i, a := range args {
		if a.funs == nil && a.ragged > 0 && ranks[i] != 0 && len(cells[i].shape) > 0 {
			what := "a λ's parameter of rank " + strings.Trim(ranksString(ranks[i:i+1]), "()")
			if c0.prim != nil {
				what = c0.prim.Name
			}
			el.notRagged(pos, what, a)
		}
	}
	scalarFrame := len(big) == 0
	var r *aval
	if c0.prim != nil {
		r = el.applyPrims(pos, fn, args, frames, cells, big)
	} else {
		r = el.applyLams(pos, fn, args, frames, cells, big)
	}
	if r.funs != nil {
		return r
	}
	// Cells that are not scalars, over a frame that may be empty at run
	// time: there the dialect's shape is the frame's (aval.ragged).
	if !scalarFrame && symbolic(big) && r.typ.rank() > len(big) {
		r.ragged = len(big)
	}
	for _, a := range args {
		if a.funs == nil && a.ragged > 0 && (r.ragged == 0 || a.ragged < r.ragged) {
			r.ragged = a.ragged
		}
	}
	return r
}

// applyPrims applies a primitive, or a frame of scalar primitives.
func (el *elaborator) applyPrims(pos semantics.Pos, fn *aval, args []*aval, frames [][]remora.Nat, cells []ity, big []remora.Nat) *aval {
	c0 := fn.funs[0]
	if len(fn.funs) > 1 || len(fn.fshape) > 0 {
		if fn.percell {
			el.fail(pos, "an array of %s primitives returned by a λ over a frame", c0.prim.Name)
		}
		for _, c := range fn.funs {
			if c.prim == nil || c.prim.Op == nil {
				el.fail(pos, "an array of functions mixing λs and primitives, or of non-scalar primitives")
			}
		}
	}
	if c0.prim.Op == nil {
		el.mustBeDefinite(pos, args...)
	}
	if c0.prim.Op != nil || len(big) == 0 {
		return el.prim(pos, fn, args, big)
	}
	// A primitive with a parameter of a smaller rank than its argument
	// (rotate's shift, subvector's offset), lifted over a frame: the
	// typed core lifts it through a λ taking the cells. An argument
	// that is one whole cell keeps what is known of it.
	var params, as []string
	inner := make([]*aval, len(args))
	for i, a := range args {
		if a.funs != nil {
			inner[i] = a
			continue
		}
		x := el.fresh("x")
		if len(frames[i+1]) == 0 {
			b := *a
			b.term = x
			inner[i] = &b
		} else {
			inner[i] = like(x, cells[i], a)
		}
		params = append(params, "["+x+" "+cells[i].String()+"]")
		as = append(as, a.term)
	}
	body, nk := tryKnown(func() *aval { return el.prim(pos, fn, inner, nil) })
	if nk != nil {
		// A cell the elaboration compiles only where it is known: the
		// whole application, by the dialect's own rule, where the
		// arguments are.
		if v := el.foldKnown(pos, fn, args); v != nil {
			return v
		}
		panic(nk)
	}
	term := "((fn (" + strings.Join(params, " ") + ") " + body.term + ") " + strings.Join(as, " ") + ")"
	if len(body.hide) > 0 {
		return el.collapseBoxes(pos, big, term, body.typ, body.hide)
	}
	return &aval{term: term, typ: body.typ.with(append(append([]remora.Nat{}, big...), body.typ.shape...))}
}

// applyLams applies λs, each elaborated at the cell types to the same
// result type; a λ that returns a function is inlined (curried).
func (el *elaborator) applyLams(pos semantics.Pos, fn *aval, args []*aval, frames [][]remora.Nat, cells []ity, big []remora.Nat) *aval {
	var fterms []string
	var ret ity
	var known *remora.Value
	var nats []remora.Nat
	var hide []string
	var mzAt semantics.Pos
	mz, zero, nonzero := false, true, true
	for k, c := range fn.funs {
		if c.lam == nil {
			el.fail(pos, "an array of functions mixing λs and primitives")
		}
		term, body, isFun := el.lambda(pos, c, args, frames, cells)
		if isFun {
			if len(fn.funs) > 1 {
				el.fail(pos, "an array of λs that return functions")
			}
			return el.curried(pos, c, args, frames, cells, big)
		}
		if len(body.hide) > 0 && len(fn.funs) > 1 {
			el.fail(pos, "an array of λs giving cells whose shapes are known only at run time")
		}
		if k > 0 && !body.typ.equal(ret) {
			el.fail(pos, "the functions in the array return %s and %s", ret, body.typ)
		}
		ret, known, nats, hide = body.typ, body.known, body.nats, body.hide
		if body.mz {
			mz, mzAt = true, body.mzAt
		}
		zero, nonzero = zero && body.zero, nonzero && body.nonzero
		fterms = append(fterms, term)
	}
	scalarFrame := len(big) == 0
	if len(fn.funs) > 1 || !scalarFrame {
		known, nats = nil, nil
	}
	var as []string
	for _, c := range fn.funs[:1] {
		for _, cp := range c.caps {
			as = append(as, cp.arr.term)
		}
	}
	for _, a := range args {
		if a.funs == nil {
			as = append(as, a.term)
		}
	}
	var head string
	if fs, ok := consts(fn.fshape); ok && !fn.percell {
		head = nest(fs, fterms)
	} else {
		head = fterms[0]
	}
	call := "(" + head
	if len(as) > 0 {
		call += " " + strings.Join(as, " ")
	}
	call += ")"
	if len(hide) > 0 && !scalarFrame {
		// Cells whose shapes are known only at run time, over a frame:
		// the dialect's collapse.
		return el.collapseBoxes(pos, big, call, ret, hide)
	}
	out := typedArray(call, ret.with(append(append([]remora.Nat{}, big...), ret.shape...)), known)
	out.mz, out.mzAt, out.zero, out.nonzero = mz, mzAt, zero, nonzero
	if scalarFrame && len(fn.funs) == 1 {
		// The λ's body is the application's value: a box standing for
		// a run-time shape stays one (its hidden variables are the
		// body's, bound inside the box).
		out.nats, out.hide = nats, hide
	}
	return out
}

// lambda elaborates a λ at its parameters' cell types: a function
// argument is bound statically, and so is what is known of an argument
// that is one whole cell (its frame is empty). isFun: the λ returns a
// function (the caller inlines it instead, curried).
func (el *elaborator) lambda(pos semantics.Pos, c *closure, args []*aval, frames [][]remora.Nat, cells []ity) (string, *aval, bool) {
	if el.inlining++; el.inlining > maxInlining {
		el.fail(pos, "λs applied inside their own application more than %d deep: a recursion (such as a function applied to itself), and the compile path takes none", maxInlining)
	}
	defer func() { el.inlining-- }()
	env := c.env
	var params []string
	for _, cp := range c.caps {
		x := el.fresh(cp.name)
		env = &ienv{parent: env, name: cp.name, val: like(x, cp.cell, cp.arr)}
		params = append(params, "["+x+" "+cp.cell.String()+"]")
	}
	for i, p := range c.lam.Params {
		a := args[i]
		if a.funs != nil {
			env = &ienv{parent: env, name: p.Name, val: a}
			continue
		}
		x := el.fresh(p.Name)
		var v *aval
		if len(frames[i+1]) == 0 {
			b := *a
			b.term = x
			v = &b
		} else {
			v = like(x, cells[i], a) // a cell of a
		}
		env = &ienv{parent: env, name: p.Name, val: v}
		params = append(params, "["+x+" "+cells[i].String()+"]")
	}
	body := el.elab(c.lam.Body, env)
	if body.funs != nil {
		return "", body, true
	}
	return "(fn (" + strings.Join(params, " ") + ") " + body.term + ")", body, false
}

// curried applies a λ that returns a function (Fig 2's curry-add):
// inlined, its parameters bound to the arguments (computed first, as
// the dialect computes them: aval.pre). Over a frame the function it
// returns is an array, one per cell, each capturing its cells of the
// arguments: one closure (percell) that takes them as extra parameters
// where it is applied (closure conversion).
func (el *elaborator) curried(pos semantics.Pos, c *closure, args []*aval, frames [][]remora.Nat, cells []ity, big []remora.Nat) *aval {
	if len(c.caps) > 0 {
		el.fail(pos, "a λ returned over a frame that returns a function again")
	}
	var pre []string
	env := c.env
	var caps []capture
	for i, p := range c.lam.Params {
		a := args[i]
		if a.funs != nil {
			env = &ienv{parent: env, name: p.Name, val: a}
			continue
		}
		b := *a
		if !isName(a.term) {
			x := el.fresh(p.Name)
			pre = append(pre, "["+x+" "+a.term+"]")
			b.term = x
		}
		if len(big) == 0 {
			env = &ienv{parent: env, name: p.Name, val: &b}
			continue
		}
		caps = append(caps, capture{name: p.Name, arr: &b, cell: cells[i]})
		env = &ienv{parent: env, name: p.Name, val: &aval{capref: p.Name}}
	}
	body := el.elab(c.lam.Body, env)
	if len(big) == 0 {
		return withPre(pre, body)
	}
	if body.funs == nil || len(body.funs) != 1 || len(body.fshape) > 0 || body.percell {
		el.fail(pos, "a λ over a frame returns a function array, or not always a function")
	}
	f := body.funs[0]
	if f.prim != nil {
		el.fail(pos, "a λ over a frame returns the primitive %s: an array of it (apply it in the λ instead)", f.prim.Name)
	}
	long := false
	for _, cp := range caps {
		fr, _ := split(cp.arr.typ.shape, cp.cell.rank())
		long = long || len(fr) == len(big)
	}
	if !long {
		el.fail(pos, "a λ returns functions over a frame that only its function arguments give")
	}
	return &aval{funs: []*closure{{lam: f.lam, env: f.env, caps: caps}}, fshape: big, percell: true, pre: slices.Concat(pre, body.pre)}
}
