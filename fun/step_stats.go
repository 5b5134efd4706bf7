package fun

import "github.com/arraysem/arraysem/semantics"

// The small-step's cost counters (eval_stats.go gives the definitions):
// Machine.Step counts each step from the configurations before and after
// it, so that the rules' code stays as Fig 4 has it. A frame notes the
// live words when it is pushed (base), and they go back to that when it
// returns (E-IN): the arrays its statements made die with it. A form's
// own array is made, and its launch counted, by its start step; its
// element reads and writes as its iterations go, so that the totals are
// the big-step's.

// countStep counts the step from c to next, which did not go wrong.
func countStep(st *semantics.Stats, c, next Config) {
	f := c.top
	if len(f.stms) == 0 {
		countReturn(st, f, next)
		return
	}
	s := f.stms[0]
	pushed := next.top != nil && next.top.next == f
	depth := formDepth(f)
	switch e := s.Exp.(type) {
	case *IfExp, *LoopExp:
	case *KernelExp:
		launch(st, depth)
		if pushed {
			k := next.top.k.(kKernel)
			st.Alloc(k.m * elems(k.cell))
		} else {
			st.Alloc(0) // no iterations: an empty array
		}
	case *ReduceExp:
		launch(st, depth)
		if pushed { // the first row read
			st.Ops += elems(next.top.k.(kFold).xs.Shape[1:])
		}
	case *ScanExp:
		launch(st, depth)
		if pushed {
			k := next.top.k.(kFold)
			row := elems(k.xs.Shape[1:])
			st.Alloc((k.n - k.i + 1) * row)
			st.Ops += row // the first row read
		} else {
			st.Alloc(0)
		}
	case *FilterExp:
		launch(st, depth)
		if pushed {
			st.Ops += elems(next.top.k.(kFilter).xs.Shape[1:])
		} else {
			filterKept(st, bound(next, s, 1))
		}
	case *RedomapExp:
		launch(st, depth)
		if e.Scan {
			if pushed {
				k := next.top.k.(kRedomap)
				st.Alloc(k.m * elems(k.z.Shape))
			} else {
				st.Alloc(0)
			}
		}
	default:
		atomicCosts(st, depth, s, []semantics.Array{bound(next, s, 0)})
	}
	if pushed {
		next.top.base = st.Live()
	}
}

// countReturn counts E-IN of frame f, and what its continuation did: the
// next iteration pushed, or the form's value bound.
func countReturn(st *semantics.Stats, f *frame, next Config) {
	st.SetLive(f.base)
	if next.top == nil {
		return // the program's end
	}
	pushed := next.top.next == f.next // the next iteration (or operator body)
	switch k := f.k.(type) {
	case kKernel:
		if !pushed { // the last: the items written
			st.Ops += int64(len(bound(next, f.next.stms[0], 0).Data))
		}
	case kFold:
		row := elems(k.xs.Shape[1:])
		if _, scan := f.next.stms[0].Exp.(*ScanExp); scan {
			st.Ops += row // row i written
		}
		if pushed {
			st.Ops += row // row i+1 read
		}
	case kFilter:
		if pushed {
			st.Ops += elems(k.xs.Shape[1:])
		} else {
			filterKept(st, bound(next, f.next.stms[0], 1))
		}
	case kRedomap:
		if e := f.next.stms[0].Exp.(*RedomapExp); e.Scan && k.op {
			st.Ops += elems(k.z.Shape) // row i written
		}
	}
	if pushed {
		next.top.base = st.Live()
	}
}

// bound is the value the step to next bound to pattern variable j of s.
func bound(next Config, s *Stm, j int) semantics.Array {
	v, _ := next.top.env.Lookup(s.Pat[j].Name.Name)
	return v
}

// formDepth is the number of parallel forms (kernel, reduce, scan,
// filter, redomap, scanomap) whose bodies frame f runs in.
func formDepth(f *frame) int {
	d := 0
	for ; f != nil; f = f.next {
		switch f.k.(type) {
		case kKernel, kFold, kFilter, kRedomap:
			d++
		}
	}
	return d
}
