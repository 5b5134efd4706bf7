package remora

import (
	"fmt"

	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// scalarFold runs any plan of the fold family (fold, fold-right, trace,
// trace-right and the scans) whose operator is one scalar primitive and
// whose accumulator and items are scalars, as one loop over the items'
// flat buffer, writing a trace into one flat buffer. The general path
// (RunFold) cuts the array into one Value per item and keeps one Value
// per accumulator, some 400 MB at 10^6 items; this loop allocates only
// the result. It applies the operator in the general path's order, to
// the same atoms, and counts the same rules (each application is the
// general path's call: a δ), so only the memory differs. It reports false, to leave the fold to the general path, when
// the operator or the shapes are anything else, when there are no items
// (the general path's errors and results then need no loop), or when the
// kinds would not make one uniform buffer (which a typed program does not
// produce). src is the array argument, materialised or streamed
// (stream.go); an error reading it is a streamed producer's.
func (ev *evaluator) scalarFold(plan *FoldPlan, op *Value, args []*Value, src *source, sh foldShapes, pos semantics.Pos) (*Value, bool, error) {
	if ev.engines.NoScalarFolds || len(op.Shape) != 0 || op.Kind != KFunc || len(sh.item) != 0 || len(sh.acc) != 0 ||
		len(src.shape) != 1 || src.shape[0] == 0 || src.kind >= KFunc || (plan.kind == foldRight && !plan.init) {
		return nil, false, nil
	}
	g, ok := op.A[0].(*Func)
	if !ok || g.Prim == nil || g.Prim.Scalar == nil {
		return nil, false, nil
	}
	params, ret := signature(g)
	if len(params) != 2 || ret == nil || !scalarType(ret) || !scalarType(params[0]) || !scalarType(params[1]) {
		return nil, false, nil
	}
	kind := kindOf(ret.Elem)
	items := src.n
	var acc slot
	rest := 0 // the first item the loop applies the operator to
	if plan.init {
		init := args[1]
		if len(init.Shape) != 0 || init.Kind != kind {
			return nil, false, nil
		}
		acc = slotAt(init, 0)
	} else {
		if src.kind != kind {
			return nil, false, nil
		}
		first, err := src.at(0)
		if err != nil {
			return nil, true, err
		}
		acc, rest = first, 1
	}
	var trace *Value
	n := items - rest // applications
	if plan.trace {
		count := n
		if plan.withInit || !plan.init {
			count++
		}
		trace = NewValue(kind, []int64{int64(count)}, count)
		if plan.withInit || !plan.init {
			// The first accumulator leads a left trace and ends a right one.
			at := 0
			if plan.kind == foldRight {
				at = count - 1
			}
			setSlot(trace, at, acc)
		}
	}
	impl := g.Prim.Scalar
	in := make([]slot, 2)
	done := 0 // applications made, for the rule count
	defer func() { scalarApps(ev.counter, nil, done) }()
	step := func(i, at int) error {
		x, err := src.at(i)
		if err != nil {
			return err
		}
		if plan.kind == foldRight {
			in[0], in[1] = x, acc
		} else {
			in[0], in[1] = acc, x
		}
		if mutant.On("remora-engine-fold-sub-flipped") && g.Prim == Basis["-"] { // mutant: the engine's scalar folds compute a - b as b - a
			in[0], in[1] = in[1], in[0]
		}
		done++
		r, err := impl(in)
		if err != nil {
			return AtPos(err, pos)
		}
		// The general path keeps the result in a buffer of the result's
		// kind and reads it back from there: one field survives.
		if kind == KFloat {
			acc = slot{F: r.F}
		} else {
			acc = slot{I: r.I}
		}
		if trace != nil {
			setSlot(trace, at, acc)
		}
		return nil
	}
	if plan.kind == foldRight {
		// trace-right lists the accumulator that has seen items i.. at i.
		for i := items - 1; i >= rest; i-- {
			if err := step(i, i-rest); err != nil {
				return nil, true, err
			}
		}
	} else {
		at := 0
		if plan.withInit || !plan.init {
			at = 1
		}
		for i := rest; i < items; i++ {
			if err := step(i, at+i-rest); err != nil {
				return nil, true, err
			}
		}
	}
	if trace != nil {
		return trace, true, nil
	}
	out := NewValue(kind, nil, 1)
	setSlot(out, 0, acc)
	return out, true, nil
}

// scalarApps counts the rules of apps applications of a scalar primitive
// to two arrays of shape pad, as apply applies each: δ alone on scalars;
// on a frame pad, lift (the primitive's frame is the empty one), map and
// a δ per cell (a frame of atoms does not collapse).
func scalarApps(c semantics.Counter, pad []int64, apps int) {
	if len(pad) == 0 {
		hits(c, RuleDelta, apps)
		return
	}
	hits(c, RuleLift, apps)
	hits(c, RuleMap, apps)
	hits(c, RuleDelta, apps*Product(pad))
}

// scalarType reports whether a is an array type of rank 0.
func scalarType(a *Arr) bool {
	ds, ok := a.Shape.Const()
	return ok && len(ds) == 0
}

// slotAt is atom i of a value of base atoms, as a scalar loop reads it.
func slotAt(v *Value, i int) slot {
	if v.Kind == KFloat {
		return slot{F: v.F[i]}
	}
	return slot{I: v.I[i]}
}

// setSlot writes atom i of a value of base atoms.
func setSlot(v *Value, i int, s slot) {
	if v.Kind == KFloat {
		v.F[i] = s.F
	} else {
		v.I[i] = s.I
	}
}

// Right reports whether the fold runs from the last item, applying the
// operator as (op item acc).
func (p *FoldPlan) Right() bool { return p.kind == foldRight }

// Traces reports whether the fold returns every accumulator, not only the
// last.
func (p *FoldPlan) Traces() bool { return p.trace }

// TracesFirst reports whether the trace holds the first accumulator (the
// initial one, or the first item when there is none): a left trace starts
// with it, a right one ends with it.
func (p *FoldPlan) TracesFirst() bool { return p.trace && (p.withInit || !p.init) }

// AffordItems checks that a run can afford to cut an array into the n
// items of a fold, itemWords words each (a Value, and a small-step's
// terms for it): a fold over 10^8 items would hold 10 GiB of them. Past
// --max-memory the fold is stuck at pos (δ), before any is made, so that
// the run stops with a positioned error, not at the process's limit.
func AffordItems(n, itemWords int64, pos semantics.Pos) error {
	if n <= 0 {
		return nil
	}
	if err := semantics.Afford(fmt.Sprintf("the %d items of a fold", n), n*itemWords); err != nil {
		return semantics.Stuckf(pos, RuleDelta.Name, "%v", err)
	}
	return nil
}
