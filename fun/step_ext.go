package fun

import (
	"fmt"

	"github.com/arraysem/arraysem/semantics"
)

// The small-step rules of the extension forms (redomap and scanomap's in
// step_redomap.go). A loop, reduce, scan or filter runs as a kernel does: its start step (E-LOOP, E-REDUCE, E-SCAN,
// E-FILTER) pushes a frame for its first iteration, or binds its value at
// once when there is none; each iteration's E-IN pops the frame and hands
// its values to the continuation below, which pushes the next iteration
// or, after the last, binds the form's value. Iterations run in order, so
// folds are left folds here too. assert is atomic (evalAtomic).

// kLoop: the parent frame's first statement is a loop; this frame is
// iteration i of m, with the parameters bound to the previous values.
type kLoop struct{ i, m int64 }

// kFold: the parent frame's first statement is a reduce or a scan; this
// frame combines the accumulator acc with row i of the n rows of xs, and
// done holds the scan's rows so far.
type kFold struct {
	i, n int64
	xs   semantics.Array
	acc  semantics.Array
	done *valueList
}

// kFilter: the parent frame's first statement is a filter; this frame
// runs its body on row i of xs, and kept holds the rows kept so far
// (newest first, numbered from 1).
type kFilter struct {
	i    int64
	xs   semantics.Array
	kept *valueList
}

func (kLoop) isKont()   {}
func (kFold) isKont()   {}
func (kFilter) isKont() {}

// stepExt makes the start step of an extension form with a body,
// reporting whether s is one.
func stepExt(f *frame, s *Stm) (Config, string, bool, error) {
	push := func(env *Env, b *Body, k kont) *frame {
		return &frame{env: env, stms: b.Stms, body: b, k: k, next: f}
	}
	switch e := s.Exp.(type) {
	case *LoopExp:
		m, vals, err := loopStart(f.env, e)
		if err != nil {
			return Config{top: f}, "", true, err
		}
		if m == 0 {
			c, r, err := advance(f, s, vals, ELoop.Name)
			return c, r, true, err
		}
		return Config{top: push(loopEnv(f.env, e, 1, vals), e.Body, kLoop{i: 1, m: m})}, ELoop.Name, true, nil
	case *ReduceExp, *ScanExp:
		rule, ps, ne, arr, body, reduce := foldParts(e)
		xs, n, acc, from, err := foldStart(f.env, rule, ne, arr, reduce)
		if err != nil {
			return Config{top: f}, "", true, err
		}
		if from > n {
			c, r, err := foldFinish(f, s, rule, reduce, xs, acc, nil)
			return c, r, true, err
		}
		k := kFold{i: from, n: n, xs: xs, acc: acc}
		return Config{top: push(foldEnv(f.env, ps, acc, row(xs, from)), body, k)}, rule, true, nil
	case *RedomapExp:
		c, r, err := stepRedomap(f, s, e)
		return c, r, true, err
	case *FilterExp:
		xs, err := filterStart(f.env, e)
		if err != nil {
			return Config{top: f}, "", true, err
		}
		if xs.Shape[0] == 0 {
			vs, err := filterFinish(s, xs, nil)
			if err != nil {
				return Config{top: f}, "", true, err
			}
			c, r, err := advance(f, s, vs, EFilter.Name)
			return c, r, true, err
		}
		return Config{top: push(filterEnv(f.env, e, row(xs, 1)), e.Body, kFilter{i: 1, xs: xs})}, EFilter.Name, true, nil
	}
	return Config{}, "", false, nil
}

// foldParts are the parts of a reduce or a scan, and its rule.
func foldParts(e Exp) (rule string, ps []*Param, ne, arr *Ident, body *Body, reduce bool) {
	if r, ok := e.(*ReduceExp); ok {
		return EReduce.Name, r.Params, r.Ne, r.Arr, r.Body, true
	}
	sc := e.(*ScanExp)
	return EScan.Name, sc.Params, sc.Ne, sc.Arr, sc.Body, false
}

// foldFinish binds a reduce's accumulator, or a scan's rows (done, newest
// first), to the pattern of s, the first statement of f.
func foldFinish(f *frame, s *Stm, rule string, reduce bool, xs, acc semantics.Array, done *valueList) (Config, string, error) {
	if reduce {
		return advance(f, s, []semantics.Array{acc}, rule)
	}
	v, err := stackRows(s, rule, xs, listed(done))
	if err != nil {
		return Config{top: f}, "", err
	}
	return advance(f, s, []semantics.Array{v}, rule)
}

// listed is the values of a valueList numbered 1 … n, in that order.
func listed(l *valueList) []semantics.Array {
	if l == nil {
		return nil
	}
	out := make([]semantics.Array, l.n)
	for ; l != nil; l = l.next {
		out[l.n-1] = l.v
	}
	return out
}

// retExt is E-IN for an iteration of an extension form: frame f returned
// vs to its continuation k (reporting whether k is one of theirs).
func retExt(f *frame, vs []semantics.Array) (Config, string, bool, error) {
	rule := EIn.Name
	parent := f.next
	switch k := f.k.(type) {
	case kRedomap:
		c, r, err := retRedomap(f, k, vs)
		return c, r, true, err
	case kLoop:
		s := parent.stms[0]
		e := s.Exp.(*LoopExp)
		if err := loopNext(e, vs); err != nil {
			return Config{top: f}, "", true, err
		}
		if k.i < k.m {
			note := func() string { return fmt.Sprintf("iteration %d of %d gave %s", k.i, k.m, valuesString(vs)) }
			next := &frame{env: loopEnv(parent.env, e, k.i+1, vs), stms: e.Body.Stms, body: e.Body, k: kLoop{i: k.i + 1, m: k.m}, next: parent}
			return Config{top: next, note: note}, rule, true, nil
		}
		c, r, err := advance(parent, s, vs, rule)
		return c, r, true, err
	case kFold:
		s := parent.stms[0]
		formRule, ps, _, _, body, reduce := foldParts(s.Exp)
		acc, err := foldNext(formRule, body, vs)
		if err != nil {
			return Config{top: f}, "", true, err
		}
		done := k.done
		if !reduce {
			done = &valueList{v: scanItem(k.acc, acc), n: k.i, next: done}
		}
		if k.i < k.n {
			note := func() string { return fmt.Sprintf("step %d of %d gave %s", k.i, k.n, acc.Abbrev(8)) }
			nk := kFold{i: k.i + 1, n: k.n, xs: k.xs, acc: acc, done: done}
			next := &frame{env: foldEnv(parent.env, ps, acc, row(k.xs, k.i+1)), stms: body.Stms, body: body, k: nk, next: parent}
			return Config{top: next, note: note}, rule, true, nil
		}
		c, r, err := foldFinish(parent, s, rule, reduce, k.xs, acc, done)
		return c, r, true, err
	case kFilter:
		s := parent.stms[0]
		e := s.Exp.(*FilterExp)
		keep, err := keepRow(e, vs)
		if err != nil {
			return Config{top: f}, "", true, err
		}
		kept := k.kept
		if keep {
			n := int64(1)
			if kept != nil {
				n = kept.n + 1
			}
			kept = &valueList{v: row(k.xs, k.i), n: n, next: kept}
		}
		if k.i < k.xs.Shape[0] {
			note := func() string { return fmt.Sprintf("row %d of %d kept: %t", k.i, k.xs.Shape[0], keep) }
			next := &frame{env: filterEnv(parent.env, e, row(k.xs, k.i+1)), stms: e.Body.Stms, body: e.Body, k: kFilter{i: k.i + 1, xs: k.xs, kept: kept}, next: parent}
			return Config{top: next, note: note}, rule, true, nil
		}
		out, err := filterFinish(s, k.xs, listed(kept))
		if err != nil {
			return Config{top: f}, "", true, err
		}
		c, r, err := advance(parent, s, out, rule)
		return c, r, true, err
	}
	return Config{}, "", false, nil
}

// contextExt renders the context of an extension form's iteration frame
// (its continuation k) for Config.String, or "" for another continuation.
func contextExt(s *Stm, k kont) string {
	switch k := k.(type) {
	case kLoop:
		return fmt.Sprintf("[loop %s = %d of %d] ", s.Exp.(*LoopExp).Var.Name, k.i, k.m)
	case kFold:
		word := "scan"
		if _, ok := s.Exp.(*ReduceExp); ok {
			word = "reduce"
		}
		return fmt.Sprintf("[%s %d of %d] ", word, k.i, k.n)
	case kFilter:
		return fmt.Sprintf("[filter %d of %d] ", k.i, k.xs.Shape[0])
	case kRedomap:
		return redomapContext(s, k)
	}
	return ""
}
