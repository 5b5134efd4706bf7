package remora

import (
	"sync"

	"github.com/arraysem/arraysem/semantics"
)

// A trace's chain (unfoldChain) grows the trace so far by one accumulator
// per link, (append accs [acc]), and append's δ copies accs: O(k) at the
// k-th link, n²/2 atoms for a scan of n. The chain's append is instead a
// copy of the primitive (same name, type and result) whose δ grows the
// buffer of the trace it made last in place, as Go's append does, when
// accs is that trace: then no other value sees the buffer past accs's
// end, and the values made before keep their (shorter) views of it.
// Anything else (a trace the stepper went back to and steps again, a
// prepend) takes the primitive's own δ, so the values are always those
// of the primitive.

// TraceAppender is one chain's record of the longest trace it has made.
type TraceAppender struct {
	mu   sync.Mutex
	last *Value
}

// Append is x's items followed by y's, made by growing x's buffer in
// place, when x is the last trace t made and the two join (same atom
// kind, same item shape, neither empty); else nil.
func (t *TraceAppender) Append(x, y *Value) *Value {
	t.mu.Lock()
	defer t.mu.Unlock()
	if x != t.last || x.Kind != y.Kind || len(x.Shape) == 0 || len(y.Shape) == 0 ||
		x.Len() == 0 || y.Len() == 0 || !semantics.SameShape(x.Shape[1:], y.Shape[1:]) {
		return nil
	}
	shape := append([]int64{x.Shape[0] + y.Shape[0]}, x.Shape[1:]...)
	out := &Value{Shape: shape, Kind: x.Kind}
	switch x.Kind {
	case KFloat:
		out.F = append(x.F, y.F...)
	case KFunc, KBox, KNum, KPair:
		out.A = append(x.A, y.A...)
	default:
		out.I = append(x.I, y.I...)
	}
	t.last = out
	return out
}

// Made records v, a trace the primitive's own δ made, as the last one.
func (t *TraceAppender) Made(v *Value) {
	t.mu.Lock()
	t.last = v
	t.mu.Unlock()
}

// traceAppend is append for one chain (see above).
func traceAppend() *PrimDef {
	def := *Basis["append"]
	general := def.Cells
	t := &TraceAppender{}
	def.Cells = func(c *Call, a []*Value) (*Value, error) {
		if v := t.Append(a[0], a[1]); v != nil {
			return v, nil
		}
		v, err := general(c, a)
		if err == nil {
			t.Made(v)
		}
		return v, err
	}
	return &def
}
