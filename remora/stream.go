package remora

import (
	"sync"
	"sync/atomic"

	"github.com/arraysem/arraysem/semantics"
)

// Streaming reductions. A reduction (the reduce and fold family) whose
// array argument is a producer expression — iota, replicate of an array,
// or a scalar primitive lifted over producers and arrays, as in
// (+ 1 iota{ | [n]}) — need not build that array: the big-step evaluates
// the producer lazily, a chunk of streamChunk elements at a time into
// buffers it reuses, and the reduction's flat loop (fastFold, scalarFold)
// consumes the chunks, so a reduction of 10^8 numbers runs in constant
// memory. Only the big-step streams; the small-step and the rules are
// untouched. The streamed evaluation computes the same atoms in the same
// order as the materialising one, and the fold applies its operator in
// the same order to them; whenever anything would go wrong (a δ-rule's
// error in the producer or the operator, a shape or size the
// materialising path would reject, a fold the flat loops do not take) the
// reduction falls back to the materialising path, from the start of the
// array argument, so that the error, or the result, is exactly the one
// that path gives. The producers are pure (no basis primitive has an
// effect), so evaluating a leaf twice in a fallback is only time.

// streamRuns counts the reductions that streamed, so that the tests can
// tell that they compared the streamed path and not two fallbacks.
var streamRuns atomic.Int64

// streamChunk is the number of elements a producer computes at a time:
// small enough that the buffers of a producer stay in the L1/L2 caches,
// large enough that each loop over a chunk amortises its set-up.
const streamChunk = 4096

// nodeKind is what a producer node computes.
type nodeKind uint8

const (
	nodeIota   nodeKind = iota // the row-major position
	nodeLeaf                   // atom (p / div) % mod of an evaluated array
	nodePrim                   // a scalar primitive of the kids' atoms
	nodeExpand                 // the kid's atom p / div (a kid of a smaller frame)
)

// opcode names the scalar primitives whose loops over chunks are written
// out natively (the same Go operation as their δ-rule, so the same
// wrapping and rounding); the others call the δ-rule per atom.
type opcode uint8

const (
	opNone opcode = iota
	opAddI
	opSubI
	opMulI
	opMaxI
	opMinI
	opAddF
	opSubF
	opMulF
	opDivF
)

var (
	opcodesOnce sync.Once
	opcodes     map[*PrimDef]opcode
)

// opcodeOf is p's native loop, or opNone.
func opcodeOf(p *PrimDef) opcode {
	opcodesOnce.Do(func() {
		opcodes = map[*PrimDef]opcode{}
		for name, c := range map[string]opcode{"+": opAddI, "-": opSubI, "*": opMulI, "max": opMaxI, "min": opMinI,
			"+.": opAddF, "-.": opSubF, "*.": opMulF, "/.": opDivF} {
			opcodes[Basis[name]] = c
		}
	})
	return opcodes[p]
}

// pnode is a node of a producer: an array of shape shape and n atoms of
// kind kind, computed a chunk at a time into ibuf (ints, booleans,
// characters) or fbuf (floats).
type pnode struct {
	what  nodeKind
	kind  Kind
	shape []int64
	n     int

	val      *Value // nodeLeaf
	div, mod int    // nodeLeaf, nodeExpand
	konst    bool   // nodeLeaf of one atom: its buffer is filled once

	prim *PrimDef // nodePrim
	code opcode
	kids []*pnode // nodePrim's arguments, nodeExpand's one kid
	in   []slot   // nodePrim's arguments to the δ-rule

	ibuf []int64
	fbuf []float64
}

// newNode makes a node with its chunk buffer.
func newNode(what nodeKind, kind Kind, shape []int64, n int) *pnode {
	p := &pnode{what: what, kind: kind, shape: shape, n: n}
	size := min(n, streamChunk)
	if kind == KFloat {
		p.fbuf = make([]float64, size)
	} else {
		p.ibuf = make([]int64, size)
	}
	return p
}

// fill computes atoms [lo, lo+cnt) into the node's buffer (cnt at most
// streamChunk). An error is a δ-rule's: the caller falls back to the
// materialising path, which reports it at its place in that order.
func (p *pnode) fill(lo, cnt int) error {
	switch p.what {
	case nodeIota:
		for k := range p.ibuf[:cnt] {
			p.ibuf[k] = int64(lo + k)
		}
	case nodeLeaf:
		if p.konst {
			return nil
		}
		if p.div == 1 && lo+cnt <= p.mod {
			if p.kind == KFloat {
				copy(p.fbuf[:cnt], p.val.F[lo:])
			} else {
				copy(p.ibuf[:cnt], p.val.I[lo:])
			}
			return nil
		}
		for k := 0; k < cnt; k++ {
			at := ((lo + k) / p.div) % p.mod
			if p.kind == KFloat {
				p.fbuf[k] = p.val.F[at]
			} else {
				p.ibuf[k] = p.val.I[at]
			}
		}
	case nodeExpand:
		kid := p.kids[0]
		klo := lo / p.div
		if err := kid.fill(klo, (lo+cnt-1)/p.div-klo+1); err != nil {
			return err
		}
		for k := 0; k < cnt; k++ {
			at := (lo+k)/p.div - klo
			if p.kind == KFloat {
				p.fbuf[k] = kid.fbuf[at]
			} else {
				p.ibuf[k] = kid.ibuf[at]
			}
		}
	case nodePrim:
		if ok, err := p.applyConst(lo, cnt); ok {
			return err
		}
		for _, kid := range p.kids {
			if err := kid.fill(lo, cnt); err != nil {
				return err
			}
		}
		return p.apply(cnt)
	}
	return nil
}

// applyConst is apply for a native int operator one of whose operands is
// one atom (a constant leaf, as the 1 of (+ 1 iota)), the other iota or
// any node: the constant is read once rather than from a buffer, and iota
// is computed in the operator's loop rather than filled into a buffer
// first (one pass over the chunk instead of three). The atoms and the Go
// operation are apply's. It reports false where the node is not of that
// form.
func (p *pnode) applyConst(lo, cnt int) (bool, error) {
	if p.code == opNone || p.code >= opAddF {
		return false, nil
	}
	x, y := p.kids[0], p.kids[1]
	constFirst := x.what == nodeLeaf && x.konst
	if constFirst {
		x, y = y, x
	}
	if y.what != nodeLeaf || !y.konst {
		return false, nil
	}
	c, out := y.ibuf[0], p.ibuf[:cnt]
	code := p.code
	if constFirst && code == opSubI {
		// c - x: the only operator here whose operands do not commute.
		if x.what == nodeIota {
			for k := range out {
				out[k] = c - int64(lo+k)
			}
			return true, nil
		}
		if err := x.fill(lo, cnt); err != nil {
			return true, err
		}
		for k, v := range x.ibuf[:cnt] {
			out[k] = c - v
		}
		return true, nil
	}
	if x.what == nodeIota {
		switch code {
		case opAddI:
			for k := range out {
				out[k] = int64(lo+k) + c
			}
		case opSubI:
			for k := range out {
				out[k] = int64(lo+k) - c
			}
		case opMulI:
			for k := range out {
				out[k] = int64(lo+k) * c
			}
		case opMaxI:
			for k := range out {
				out[k] = max(int64(lo+k), c)
			}
		case opMinI:
			for k := range out {
				out[k] = min(int64(lo+k), c)
			}
		}
		return true, nil
	}
	if err := x.fill(lo, cnt); err != nil {
		return true, err
	}
	xs := x.ibuf[:cnt]
	switch code {
	case opAddI:
		for k, v := range xs {
			out[k] = v + c
		}
	case opSubI:
		for k, v := range xs {
			out[k] = v - c
		}
	case opMulI:
		for k, v := range xs {
			out[k] = v * c
		}
	case opMaxI:
		for k, v := range xs {
			out[k] = max(v, c)
		}
	case opMinI:
		for k, v := range xs {
			out[k] = min(v, c)
		}
	}
	return true, nil
}

// apply runs the primitive over the kids' first cnt atoms.
func (p *pnode) apply(cnt int) error {
	if p.code != opNone {
		var out []int64
		if p.code < opAddF {
			out = p.ibuf[:cnt]
		}
		switch p.code {
		case opAddI:
			a, b := p.kids[0].ibuf[:cnt], p.kids[1].ibuf[:cnt]
			for k := range out {
				out[k] = a[k] + b[k]
			}
		case opSubI:
			a, b := p.kids[0].ibuf[:cnt], p.kids[1].ibuf[:cnt]
			for k := range out {
				out[k] = a[k] - b[k]
			}
		case opMulI:
			a, b := p.kids[0].ibuf[:cnt], p.kids[1].ibuf[:cnt]
			for k := range out {
				out[k] = a[k] * b[k]
			}
		case opMaxI:
			a, b := p.kids[0].ibuf[:cnt], p.kids[1].ibuf[:cnt]
			for k := range out {
				out[k] = max(a[k], b[k])
			}
		case opMinI:
			a, b := p.kids[0].ibuf[:cnt], p.kids[1].ibuf[:cnt]
			for k := range out {
				out[k] = min(a[k], b[k])
			}
		default:
			a, b, out := p.kids[0].fbuf[:cnt], p.kids[1].fbuf[:cnt], p.fbuf[:cnt]
			switch p.code {
			case opAddF:
				for k := range out {
					out[k] = a[k] + b[k]
				}
			case opSubF:
				for k := range out {
					out[k] = a[k] - b[k]
				}
			case opMulF:
				for k := range out {
					out[k] = a[k] * b[k]
				}
			case opDivF:
				for k := range out {
					out[k] = a[k] / b[k]
				}
			}
		}
		return nil
	}
	impl := p.prim.Scalar
	for k := 0; k < cnt; k++ {
		// As ScalarLoop: each argument's field of its kind.
		for i, kid := range p.kids {
			if kid.kind == KFloat {
				p.in[i].F = kid.fbuf[k]
			} else {
				p.in[i].I = kid.ibuf[k]
			}
		}
		r, err := impl(p.in)
		if err != nil {
			return err
		}
		if p.kind == KFloat {
			p.fbuf[k] = r.F
		} else {
			p.ibuf[k] = r.I
		}
	}
	return nil
}

// materialise is the array the producer stands for, as the materialising
// path builds it.
func (p *pnode) materialise() (*Value, error) {
	out := NewValue(p.kind, append([]int64{}, p.shape...), p.n)
	for lo := 0; lo < p.n; lo += streamChunk {
		cnt := min(streamChunk, p.n-lo)
		if err := p.fill(lo, cnt); err != nil {
			return nil, err
		}
		if p.kind == KFloat {
			copy(out.F[lo:], p.fbuf[:cnt])
		} else {
			copy(out.I[lo:], p.ibuf[:cnt])
		}
	}
	return out, nil
}

// source is the array a flat fold loop reads: a materialised value, or a
// producer read a chunk at a time.
type source struct {
	shape []int64
	kind  Kind
	n     int
	v     *Value // the array, or nil
	p     *pnode // the producer when v is nil
	lo    int    // p's buffer holds atoms [lo, lo+have)
	have  int
}

// valueSource reads a materialised array.
func valueSource(v *Value) *source {
	return &source{shape: v.Shape, kind: v.Kind, n: v.Len(), v: v}
}

// chunk is the most atoms that ints or floats give at once.
func (s *source) chunk() int {
	if s.v != nil {
		return max(s.n, 1)
	}
	return streamChunk
}

// ints is atoms [lo, lo+cnt) of an array of ints, booleans or characters
// (cnt at most chunk()), valid until the next read.
func (s *source) ints(lo, cnt int) ([]int64, error) {
	if s.v != nil {
		return s.v.I[lo : lo+cnt], nil
	}
	s.have = 0
	if err := s.p.fill(lo, cnt); err != nil {
		return nil, err
	}
	return s.p.ibuf[:cnt], nil
}

// floats is atoms [lo, lo+cnt) of an array of floats.
func (s *source) floats(lo, cnt int) ([]float64, error) {
	if s.v != nil {
		return s.v.F[lo : lo+cnt], nil
	}
	s.have = 0
	if err := s.p.fill(lo, cnt); err != nil {
		return nil, err
	}
	return s.p.fbuf[:cnt], nil
}

// at is atom i, as a scalar loop reads it. A producer refills its buffer
// with the chunk from i onwards, or, when i is below the chunk it holds
// (a right fold walks down), the chunk that ends at i.
func (s *source) at(i int) (slot, error) {
	if s.v != nil {
		return slotAt(s.v, i), nil
	}
	if i < s.lo || i >= s.lo+s.have {
		lo := i
		if i < s.lo {
			lo = max(0, i-streamChunk+1)
		}
		cnt := min(streamChunk, s.n-lo)
		s.have = 0
		if err := s.p.fill(lo, cnt); err != nil {
			return slot{}, err
		}
		s.lo, s.have = lo, cnt
	}
	if s.kind == KFloat {
		return slot{F: s.p.fbuf[i-s.lo]}, nil
	}
	return slot{I: s.p.ibuf[i-s.lo]}, nil
}

// producerSyntax reports whether e is a producer expression: iota, a
// replicate, or a scalar primitive applied to arguments one of which is
// a producer expression. It looks only at the syntax, so that nothing is
// evaluated for an array argument that will not stream.
func producerSyntax(e Expr) bool {
	switch e := e.(type) {
	case *IApp:
		p, ok := e.Fn.(*Prim)
		return ok && p.Def == Basis["iota"] && len(e.Args) == 1
	case *App:
		if isReplicate(e.Fn) {
			return len(e.Args) == 1
		}
		p, ok := e.Fn.(*Prim)
		if !ok || !streamablePrim(p.Def) {
			return false
		}
		for _, a := range e.Args {
			if producerSyntax(a) {
				return true
			}
		}
	}
	return false
}

// streamablePrim reports whether p is a scalar primitive on base atoms
// (if, which also chooses between functions and boxes, is left out).
func streamablePrim(p *PrimDef) bool {
	return p.Scalar != nil && p.Cells == nil && p.Fold == nil
}

// isReplicate reports whether e is replicate under its instantiations.
func isReplicate(e Expr) bool {
	for {
		switch f := e.(type) {
		case *TApp:
			e = f.Fn
		case *IApp:
			e = f.Fn
		case *Prim:
			return f.Def == Basis["replicate"]
		default:
			return false
		}
	}
}

// streamCount is the number of atoms of shape, or false where the
// materialising path would reject the shape (a negative size) or the
// stream is past its bound: the fallback then reports its error. It does
// not record an allocation, since none is made. The bound is the count
// the default --max-memory lets an array hold, or --max-memory's when it
// is larger: a stream allocates nothing (a lower --max-memory refused
// a streamed 10^8 fold as if it were materialised), but fuel does not
// count the typed big-step's folds, and the bound keeps their work in
// seconds.
func streamCount(shape []int64) (int, bool) {
	limit := max(semantics.MaxElems, semantics.DefaultMaxMemory/8)
	n := int64(1)
	for _, d := range shape {
		if d < 0 || (d != 0 && n > limit/d) {
			return 0, false
		}
		n *= d
	}
	return int(n), true
}

// produce builds the producer of a producer expression, evaluating its
// leaves (the arguments that are not producer expressions) in the order
// the materialising path evaluates them. It reports false where the
// expression does not make a producer after all (a leaf of a function or
// box kind, frames that do not agree, a size beyond
// --max-memory): the caller then evaluates the expression as usual. An
// error is a leaf's.
func (ev *evaluator) produce(e Expr, env *Env) (*pnode, bool, error) {
	switch e := e.(type) {
	case *IApp:
		ix := env.closeIndex(e.Args[0])
		ds, ok := ix.S.Const()
		if !ix.IsShape || !ok {
			return nil, false, nil
		}
		n, ok := streamCount(ds)
		if !ok {
			return nil, false, nil
		}
		return newNode(nodeIota, KInt, ds, n), true, nil
	case *App:
		if isReplicate(e.Fn) {
			return ev.produceReplicate(e, env)
		}
		return ev.producePrim(e, env)
	}
	return nil, false, nil
}

// produceReplicate is the producer of (replicate{t | @s @c} x): x's atoms
// over and over.
func (ev *evaluator) produceReplicate(e *App, env *Env) (*pnode, bool, error) {
	fv, err := ev.eval(e.Fn, env)
	if err != nil {
		return nil, false, err
	}
	x, err := ev.eval(e.Args[0], env)
	if err != nil {
		return nil, false, err
	}
	f, ok := fv.A[0].(*Func)
	if len(fv.Shape) != 0 || !ok || len(f.Indices) != 2 {
		return nil, false, nil
	}
	s, ok1 := f.Indices[0].S.Const()
	c, ok2 := f.Indices[1].S.Const()
	if !ok1 || !ok2 || !semantics.SameShape(x.Shape, c) || x.Kind >= KFunc {
		return nil, false, nil
	}
	shape := append(append([]int64{}, s...), c...)
	n, ok := streamCount(shape)
	if !ok {
		return nil, false, nil
	}
	return leafNode(x, shape, n, 1), true, nil
}

// leafNode reads atom (p / div) % x.Len() of x at position p.
func leafNode(x *Value, shape []int64, n, div int) *pnode {
	p := newNode(nodeLeaf, x.Kind, shape, n)
	p.val, p.div, p.mod = x, div, x.Len()
	if p.mod == 1 {
		p.konst = true
		if p.kind == KFloat {
			for k := range p.fbuf {
				p.fbuf[k] = x.F[0]
			}
		} else {
			for k := range p.ibuf {
				p.ibuf[k] = x.I[0]
			}
		}
	}
	return p
}

// producePrim is the producer of a scalar primitive lifted over its
// arguments, as apply and ScalarLoop compute it: the frame is the longest
// argument shape, the others prefixes of it, replicated over the rest.
func (ev *evaluator) producePrim(e *App, env *Env) (*pnode, bool, error) {
	fv, err := ev.eval(e.Fn, env)
	if err != nil {
		return nil, false, err
	}
	kids := make([]*pnode, len(e.Args))
	vals := make([]*Value, len(e.Args))
	give := false // the expression turned out not to stream
	for i, a := range e.Args {
		if producerSyntax(a) {
			p, ok, err := ev.produce(a, env)
			if err != nil {
				return nil, false, err
			}
			if !ok {
				// Keep evaluating the leaves in order: an error among them
				// is still the first one; then give up.
				give = true
				continue
			}
			kids[i] = p
			continue
		}
		if vals[i], err = ev.eval(a, env); err != nil {
			return nil, false, err
		}
	}
	f, ok := fv.A[0].(*Func)
	if give || len(fv.Shape) != 0 || !ok || f.Prim == nil || !streamablePrim(f.Prim) {
		return nil, false, nil
	}
	params, ret := signature(f)
	if len(params) != len(e.Args) || ret == nil {
		return nil, false, nil
	}
	var frame []int64
	shapes := make([][]int64, len(e.Args))
	for i := range e.Args {
		if !scalarType(params[i]) {
			return nil, false, nil
		}
		if kids[i] != nil {
			shapes[i] = kids[i].shape
		} else {
			if vals[i].Kind >= KFunc {
				return nil, false, nil
			}
			shapes[i] = vals[i].Shape
		}
		if len(shapes[i]) > len(frame) {
			frame = shapes[i]
		}
	}
	for _, s := range shapes {
		if !semantics.SameShape(s, frame[:len(s)]) {
			return nil, false, nil
		}
	}
	n := Product(frame)
	p := newNode(nodePrim, kindOf(ret.Elem), append([]int64{}, frame...), n)
	p.prim, p.in = f.Prim, make([]slot, len(e.Args))
	for i := range e.Args {
		div := 1 // an empty producer reads no atoms
		if n > 0 {
			div = n / Product(shapes[i])
		}
		switch {
		case kids[i] == nil:
			// A leaf reads its atoms at the positions of this frame.
			kids[i] = leafNode(vals[i], p.shape, n, div)
		case div > 1:
			x := newNode(nodeExpand, kids[i].kind, p.shape, n)
			x.div, x.kids = div, []*pnode{kids[i]}
			kids[i] = x
		}
	}
	p.kids = kids
	// A native loop only where the kinds are the ones it reads and writes.
	if c := opcodeOf(f.Prim); c != opNone && len(kids) == 2 {
		want := KInt
		if c >= opAddF {
			want = KFloat
		}
		if p.kind == want && kids[0].kind == want && kids[1].kind == want {
			p.code = c
		}
	}
	return p, true, nil
}

// streamed evaluates the application e of the function array fv when it
// is a reduction of a producer expression, streaming the producer into
// the fold's flat loop. It reports false, having evaluated nothing, when
// e is not one; otherwise it has evaluated e (streamed, or by the
// materialising path where streaming does not apply). Rule counts are
// kept by the materialising path only, so it does not stream when they
// are counted.
func (ev *evaluator) streamed(e *App, fv *Value, env *Env) (*Value, bool, error) {
	if ev.engines.NoStreams || ev.counter != nil || len(fv.Shape) != 0 || fv.Kind != KFunc || len(e.Args) < 2 {
		return nil, false, nil
	}
	f, ok := fv.A[0].(*Func)
	last := len(e.Args) - 1
	if !ok || f.Prim == nil || f.Prim.Fold == nil || !producerSyntax(e.Args[last]) {
		return nil, false, nil
	}
	args := make([]*Value, len(e.Args))
	var err error
	for i, a := range e.Args[:last] {
		if args[i], err = ev.eval(a, env); err != nil {
			return nil, true, err
		}
	}
	res := env.closeType(e.Type).(*Arr)
	// materialised finishes by the materialising path, from the array
	// argument on.
	materialised := func() (*Value, bool, error) {
		if args[last], err = ev.eval(e.Args[last], env); err != nil {
			return nil, true, err
		}
		v, err := ev.apply(fv, args, res, e.Pos)
		return v, true, err
	}
	p, ok, err := ev.produce(e.Args[last], env)
	if err != nil || !ok {
		return materialised()
	}
	// The reduction must be one call: no frame around it (apply's frames).
	params, _ := signature(f)
	args[last] = &Value{Shape: p.shape, Kind: p.kind}
	var frame []int64
	var ferr error
	if params != nil {
		frame, _, ferr = frames(fv, args, params, e.Pos)
	}
	if params != nil && ferr == nil && len(frame) == 0 {
		plan := f.Prim.Fold
		c := &Call{Pos: e.Pos, Indices: f.Indices, Types: f.Types}
		sh := f.Prim.foldShapes(c)
		src := &source{shape: p.shape, kind: p.kind, n: p.n, p: p}
		v, ok, err := ev.fastFold(f, plan, args[0], args, src, sh, e.Pos)
		if !ok {
			src = &source{shape: p.shape, kind: p.kind, n: p.n, p: p}
			v, ok, err = ev.scalarFold(plan, args[0], args, src, sh, e.Pos)
		}
		if ok && err == nil {
			streamRuns.Add(1)
			return v, true, nil
		}
		if ok {
			return materialised()
		}
	}
	// A reduction with a frame, or a fold the flat loops do not take:
	// build the array from the producer (the same atoms) and run the
	// general path, rather than evaluate the leaves again, which for
	// reductions nested in leaves would double the time at each level.
	arr, err := p.materialise()
	if err != nil {
		return materialised()
	}
	args[last] = arr
	v, err := ev.apply(fv, args, res, e.Pos)
	return v, true, err
}

// Vectorised λ bodies. A λ applied over a frame runs its body once per
// cell (β, then the body's applications, each with its own frame
// computation and scalar values): some thirty allocations a cell. When
// the λ's parameters are scalars and its body is built only of scalar
// primitives applied to its parameters, scalar literals and free
// variables bound to scalars, as in (fn ([x int]) (+ (* x x) 1)), every
// cell's evaluation applies the same primitives to atoms at the same
// position of the frame, so the body can be run once over the whole
// frame instead: the body becomes a producer (the nodes above), the
// parameters its leaves reading the argument arrays, and the producer is
// materialised a chunk at a time. Each cell's atoms are the same δ-rule
// applications on the same atoms as the per-cell path; only the order
// across cells differs (the producer applies a primitive to a chunk of
// cells before the next primitive), which matters only for which error
// comes first, so on any error the application falls back to the
// per-cell path, which reports the error that evaluation meets first.
// Like streaming it is off when rules are counted, so the counts stay
// the per-cell path's.

// vectorRuns counts the applications that ran vectorised, so that the
// tests can tell that they compared the vectorised path.
var vectorRuns atomic.Int64

// vectorLam applies the λ f to args over frame (fs[i] is argument i's
// frame, a prefix of frame; n cells, n > 0) by running its body once over
// the frame. It reports false where the λ is not of that form, or where
// the vectorised run meets an error: the caller then runs the cells one
// by one.
func (ev *evaluator) vectorLam(f *Func, args []*Value, frame []int64, fs [][]int64, n int) (*Value, bool) {
	l, ok := f.Term.(*Lam)
	if ev.engines.NoVectorLams || ev.counter != nil || !ok || len(l.Params) != len(args) {
		return nil, false
	}
	shape := append([]int64{}, frame...)
	params := make([]*pnode, len(args))
	for i, a := range args {
		if a.Kind >= KFunc || len(a.Shape) != len(fs[i]) {
			return nil, false // not scalar cells of base atoms
		}
		params[i] = leafNode(a, shape, n, n/Product(fs[i]))
	}
	p, ok := ev.bodyNode(l, f.Env, l.Body, params, shape, n)
	if !ok {
		return nil, false
	}
	v, err := p.materialise()
	if err != nil {
		return nil, false
	}
	vectorRuns.Add(1)
	return v, true
}

// bodyNode is the producer of the λ body e over the frame: a parameter
// is its argument's leaf, a scalar literal or a free variable bound to a
// scalar a constant leaf, a scalar primitive applied to such terms a
// primitive node. It reports false for any other term.
func (ev *evaluator) bodyNode(l *Lam, env *Env, e Expr, params []*pnode, shape []int64, n int) (*pnode, bool) {
	constant := func(v *Value) (*pnode, bool) {
		if v == nil || len(v.Shape) != 0 || v.Kind >= KFunc {
			return nil, false
		}
		return leafNode(v, shape, n, 1), true
	}
	switch e := e.(type) {
	case *Var:
		// The last parameter of a name shadows the others, as β binds them.
		for i := len(l.Params) - 1; i >= 0; i-- {
			if l.Params[i].Name == e.Name {
				return params[i], true
			}
		}
		b, ok := env.lookup(e.Name)
		if !ok {
			return nil, false
		}
		return constant(b.val)
	case *Lit:
		return constant(e.V)
	case *App:
		fn, ok := e.Fn.(*Prim)
		if !ok || !streamablePrim(fn.Def) {
			return nil, false
		}
		ps, ret := signature(&Func{Prim: fn.Def})
		if len(ps) != len(e.Args) || ret == nil || !scalarType(ret) {
			return nil, false
		}
		kids := make([]*pnode, len(e.Args))
		for i, a := range e.Args {
			if !scalarType(ps[i]) {
				return nil, false
			}
			if kids[i], ok = ev.bodyNode(l, env, a, params, shape, n); !ok {
				return nil, false
			}
		}
		p := newNode(nodePrim, kindOf(ret.Elem), shape, n)
		p.prim, p.in, p.kids = fn.Def, make([]slot, len(kids)), kids
		if c := opcodeOf(fn.Def); c != opNone && len(kids) == 2 {
			want := KInt
			if c >= opAddF {
				want = KFloat
			}
			if p.kind == want && kids[0].kind == want && kids[1].kind == want {
				p.code = c
			}
		}
		return p, true
	}
	return nil, false
}
