package dynamic

import (
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// scalarFolds turns scalarFold on; the tests turn it off to compare it
// with the general path.
var scalarFolds = true

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
	if !scalarFolds || p.Tree || plan.Right() && !plan.TakesInit() || len(op.Shape) != 0 || op.Kind != remora.KFunc || len(arr.Shape) != 1 || arr.Shape[0] == 0 || !isBase(arr.Kind) {
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
	defer func() {
		if ev.counter != nil {
			ev.counter[remora.RuleDelta.Name] += done
		}
	}()
	step := func(i, at int) error {
		x := numAt(arr, i)
		if right {
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
