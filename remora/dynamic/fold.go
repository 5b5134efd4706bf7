package dynamic

import (
	"sync/atomic"

	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// scalarFold runs a left or right fold of the family (fold, fold-right,
// trace, trace-right, scan, iscan, iscan-init: not reduce, whose order is
// a tree) whose operator is one scalar primitive and whose base and items
// are scalars, as one loop over the items' flat buffer. The general path
// (remora.RunFold) cuts the array into one Value per item and keeps one
// Value per accumulator, some 400 MB at 10^6 items; this loop keeps the
// accumulator as a number and a trace in one flat buffer. Each step is
// the general path's application of a scalar primitive to two scalar
// cells (apply, call, δ and scalarLoop at the empty frame), done on the
// atoms: the int64 fast path first, else the primitive's δ-rule; the
// result read back as the general path reads it from the scalar it
// builds. The operator meets the same atoms in the same order, the same
// error stops it, and δ is counted once per application, as there.
// It reports false, leaving the fold to the general path, for anything
// else, and when there are no items (no loop is needed then).
func (ev *evaluator) scalarFold(p *PrimDef, args []*remora.Value, pos semantics.Pos) (*remora.Value, bool, error) {
	op, arr := args[0], args[len(args)-1]
	plan := p.Fold
	if ev.engines.NoScalarFolds || p.Tree || plan.Right() && !plan.TakesInit() || len(op.Shape) != 0 || op.Kind != remora.KFunc || len(arr.Shape) != 1 || arr.Shape[0] == 0 || !isBase(arr.Kind) {
		return nil, false, nil
	}
	f, ok := op.A[0].(*Func)
	if !ok || f.Prim == nil || f.Prim.Op == nil {
		return nil, false, nil
	}
	if ranks := f.RanksFor(2); len(ranks) != 2 || ranks[0] != 0 || ranks[1] != 0 {
		return nil, false, nil
	}
	prim := f.Prim
	right, first := plan.Right(), plan.TracesFirst()
	items := arr.Len()
	var acc num
	rest := 0 // the first item the operator is applied to
	if plan.TakesInit() {
		init := args[1]
		if len(init.Shape) != 0 || !isBase(init.Kind) {
			return nil, false, nil
		}
		acc = numAt(init, 0)
	} else {
		acc, rest = numAt(arr, 0), 1
	}
	var trace *numTrace
	if plan.Traces() {
		count := items - rest
		if first {
			count++
		}
		trace = &numTrace{kind: none}
		trace.alloc(count)
		if first {
			// The first accumulator leads a left trace and ends a right one.
			at := 0
			if right {
				at = count - 1
			}
			trace.set(at, acc)
		}
	}
	c := &remora.Call{Pos: pos}
	in := make([]num, 2)
	done := 0 // applications made, for the rule count
	defer func() { ev.add(remora.RuleDelta.Name, done) }()
	step := func(i, at int) error {
		x := numAt(arr, i)
		if right != mutant.On("dynamic-engine-fold-flipped") { // mutant: the operator's arguments swapped
			in[0], in[1] = x, acc
		} else {
			in[0], in[1] = acc, x
		}
		done++
		var r num
		if s, ok := intFast(prim, in); ok {
			r = intNum(s)
		} else {
			var err error
			if r, err = prim.Op(c, in); err != nil {
				return remora.AtPos(err, pos)
			}
		}
		acc = asStored(r)
		if trace != nil {
			trace.set(at, acc)
		}
		return nil
	}
	if right {
		// trace-right lists the accumulator that has seen items i.. at i.
		for i := items - 1; i >= rest; i-- {
			if err := step(i, i-rest); err != nil {
				return nil, true, err
			}
		}
	} else {
		at := 0
		if first {
			at = 1
		}
		for i := rest; i < items; i++ {
			if err := step(i, at+i-rest); err != nil {
				return nil, true, err
			}
		}
	}
	if trace != nil {
		v, err := trace.value(pos)
		return v, true, err
	}
	return numScalar(acc), true, nil
}

// intFast is scalarLoop's int64 path on one pair of atoms: the
// primitive's machine-word arithmetic, when both are ints and it does not
// overflow.
func intFast(p *PrimDef, in []num) (int64, bool) {
	if p.IntFast == nil || in[0].k != remora.KInt || in[1].k != remora.KInt {
		return 0, false
	}
	return p.IntFast(in[0].i, in[1].i)
}

// asStored is a result atom as the next step reads it back from the
// scalar the general path makes of it (numsValue, then numAt): only the
// field its kind uses survives.
func asStored(x num) num {
	switch x.k {
	case remora.KFloat:
		return floatNum(x.f)
	case remora.KNum:
		return num{k: remora.KNum, r: x.rat()}
	}
	return num{k: x.k, i: x.i}
}

// none is no kind yet.
const none = remora.Kind(255)

// numTrace is a fold's trace, filled in any order: a flat int or float
// buffer while every atom has the same kind (the usual case, 8 bytes an
// atom), else the numbers themselves, which value assembles as the
// general path's collapse of scalar cells would, errors included.
type numTrace struct {
	kind remora.Kind // the kind of every atom so far (none: no atom yet)
	i    []int64
	f    []float64
	nums []num // non-nil once the atoms differ in kind, or one is a Num
}

func (t *numTrace) alloc(n int) { t.i = make([]int64, n) }

func (t *numTrace) set(at int, x num) {
	if t.nums == nil {
		switch {
		case t.kind == none && x.k == remora.KFloat:
			t.kind, t.i, t.f = x.k, nil, make([]float64, len(t.i))
		case t.kind == none && x.k != remora.KNum:
			t.kind = x.k
		}
		if t.kind == x.k {
			if x.k == remora.KFloat {
				t.f[at] = x.f
			} else {
				t.i[at] = x.i
			}
			return
		}
		t.spill()
	}
	t.nums[at] = x
}

// spill moves the flat buffer into nums. The positions not yet written
// are written later; what they hold now does not matter.
func (t *numTrace) spill() {
	n := max(len(t.i), len(t.f))
	t.nums = make([]num, n)
	for j := range n {
		switch {
		case t.kind == remora.KFloat:
			t.nums[j] = floatNum(t.f[j])
		case t.kind != none:
			t.nums[j] = num{k: t.kind, i: t.i[j]}
		}
	}
	t.i, t.f = nil, nil
}

// value is the trace as an array: the flat buffer as it is, or the
// collapse of its scalars.
func (t *numTrace) value(pos semantics.Pos) (*remora.Value, error) {
	if t.nums == nil {
		v := remora.NewValue(t.kind, []int64{int64(max(len(t.i), len(t.f)))}, 0)
		v.I, v.F = t.i, t.f
		return v, nil
	}
	cells := make([]*remora.Value, len(t.nums))
	for j, x := range t.nums {
		cells[j] = numScalar(x)
	}
	return collapse(pos, []int64{int64(len(cells))}, cells)
}

// flatTreeRuns counts the reductions flatTreeReduce computed, so that the
// tests can tell that they compared it and not two fallbacks.
var flatTreeRuns atomic.Int64

// flatTreeReduce computes liftedTreeReduce's tree over a vector of ints
// or floats with a scalar primitive as the operator, on flat buffers,
// without the two strided copies and the result array per level. Each
// pair is combined by the same arithmetic (the int64 path with its
// overflow check for +, - and * on ints; the primitive's δ-rule for the
// others), and the
// rules counted are the per-pair tree's (δ for each pair). The tree is the
// same too, but not built a level at a time: an aligned block of 2^k
// items that the array holds in full is a balanced subtree of it (its
// pairs never meet an odd item out), so each block is reduced on its own
// in a small scratch buffer that stays in the cache, the items after the
// last full block are taken k levels up as the level-by-level process
// would, and the level-by-level process goes on from there over the
// blocks' roots. Only the order in which the pairs are combined differs,
// which matters only where one goes wrong; so it reports false, leaving
// the reduction to liftedTreeReduce, which then starts again, wherever a
// pair would not give an atom of the array's kind: an int overflow (which
// turns the level exact), an error, a result of another kind (a rational,
// a boolean).
func (ev *evaluator) flatTreeReduce(op, arr *remora.Value, pos semantics.Pos) (*remora.Value, bool) {
	if ev.engines.NoFlatTrees || len(op.Shape) != 0 || op.Kind != remora.KFunc || len(arr.Shape) != 1 || arr.Shape[0] < 2 ||
		(arr.Kind != remora.KInt && arr.Kind != remora.KFloat) {
		return nil, false
	}
	f, ok := op.A[0].(*Func)
	if !ok || f.Prim == nil || f.Prim.Op == nil {
		return nil, false
	}
	if ranks := f.RanksFor(2); len(ranks) != 2 || ranks[0] != 0 || ranks[1] != 0 {
		return nil, false
	}
	var out *remora.Value
	if arr.Kind == remora.KInt {
		c := &remora.Call{Pos: pos}
		in := make([]num, 2)
		pairs := func(dst, src []int64) bool {
			for i := range dst {
				in[0], in[1] = intNum(src[2*i]), intNum(src[2*i+1])
				r, err := f.Prim.Op(c, in)
				if err != nil || r.k != remora.KInt {
					return false
				}
				dst[i] = r.i
			}
			return true
		}
		if fast := f.Prim.IntFast; fast != nil {
			pairs = func(dst, src []int64) bool {
				for i := range dst {
					r, ok := fast(src[2*i], src[2*i+1])
					if !ok {
						return false
					}
					dst[i] = r
				}
				return true
			}
		}
		if f.Prim == Basis["+"] {
			// addInt written out: the common reduction, without a call
			// per pair.
			pairs = func(dst, src []int64) bool {
				for i := range dst {
					a, b := src[2*i], src[2*i+1]
					s := a + b
					if (s > a) != (b > 0) {
						return false
					}
					dst[i] = s
				}
				return true
			}
		}
		r, ok := blockTree(arr.I, pairs)
		if !ok {
			return nil, false
		}
		out = remora.IntScalar(r)
	} else {
		c := &remora.Call{Pos: pos}
		in := make([]num, 2)
		r, ok := blockTree(arr.F, func(dst, src []float64) bool {
			for i := range dst {
				in[0], in[1] = floatNum(src[2*i]), floatNum(src[2*i+1])
				r, err := f.Prim.Op(c, in)
				if err != nil || r.k != remora.KFloat {
					return false
				}
				dst[i] = r.f
			}
			return true
		})
		if !ok {
			return nil, false
		}
		out = remora.FloatScalar(r)
	}
	flatTreeRuns.Add(1)
	// The per-pair tree's applications: one δ for each of its n-1 pairs,
	// each of two scalars (no lift, map or collapse).
	ev.add(remora.RuleDelta.Name, arr.Len()-1)
	return out, true
}

// treeBlock is the number of items flatTreeReduce reduces as one
// balanced subtree: 2^treeLevels.
const (
	treeLevels = 12
	treeBlock  = 1 << treeLevels
)

// blockTree is treeReduce's tree over xs (two or more atoms), pairs
// combining one level: dst[i] = src[2i]·src[2i+1] for every i of dst. It
// reports false where pairs does.
func blockTree[T any](xs []T, pairs func(dst, src []T) bool) (T, bool) {
	n := len(xs)
	nb := n / treeBlock
	scratch := make([]T, min(n, treeBlock)/2+1)
	top := make([]T, 0, nb+1)
	for j := range nb {
		r, ok := treeLevelsUp(xs[j*treeBlock:(j+1)*treeBlock], scratch, treeLevels, pairs)
		if !ok {
			return r, false
		}
		top = append(top, r)
	}
	if tail := xs[nb*treeBlock:]; len(tail) > 0 {
		// Fewer than treeBlock items: treeLevels levels take them to one
		// node, the last of the blocks' level (or the root, if there are
		// no blocks).
		r, ok := treeLevelsUp(tail, scratch, treeLevels, pairs)
		if !ok {
			return r, false
		}
		top = append(top, r)
	}
	return treeLevelsUp(top, top, len(top), pairs)
}

// treeLevelsUp runs levels levels of the tree over src (at least one
// atom), the odd item out of a level carried to the next, into scratch
// (which may be src: a level writes pair i at position i, after reading
// positions 2i and 2i+1, which no later pair reads), and reports the
// first node of the last level, which is the only one when the levels
// take src to one node.
func treeLevelsUp[T any](src, scratch []T, levels int, pairs func(dst, src []T) bool) (T, bool) {
	n := len(src)
	for range levels {
		if n == 1 {
			break
		}
		m := n / 2
		if !pairs(scratch[:m], src[:2*m]) {
			return src[0], false
		}
		if n%2 == 1 {
			scratch[m] = src[n-1]
		}
		src, n = scratch, m+n%2
	}
	return src[0], true
}
