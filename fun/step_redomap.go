package fun

import (
	"fmt"

	"github.com/arraysem/arraysem/semantics"
)

// The small-step rules of redomap and scanomap. The start step
// (E-REDOMAP, E-SCANOMAP) pushes the frame of element 1's map body, or
// binds the value at once when there are no elements; each element then
// takes two frames, in order: its map body (i bound), whose E-IN hands
// f(i) on and pushes the operator body (a bound to the accumulator, b to
// f(i)), whose E-IN makes the next accumulator and pushes element i+1's
// map body or, after the last, binds the form's value. Map and operator
// alternate as in the big-step (eval_redomap.go), so both are stuck alike.

// kRedomap: the parent frame's first statement is a redomap or
// scanomap; this frame is element i's map body (op false) or its
// operator body (op true), of m elements, acc the accumulator before
// element i, and done the scanomap's rows so far.
type kRedomap struct {
	i, m int64
	op   bool
	acc  semantics.Array
	z    semantics.Array // the start, whose shape a scanomap's rows have
	done *valueList
}

func (kRedomap) isKont() {}

// stepRedomap is the start step of a redomap or scanomap s, the first
// statement of f.
func stepRedomap(f *frame, s *Stm, e *RedomapExp) (Config, string, error) {
	rule := redomapRule(e)
	m, z, err := redomapStart(f.env, e)
	if err != nil {
		return Config{top: f}, "", err
	}
	if m == 0 {
		return redomapFinish(f, s, e, rule, z, z, nil)
	}
	k := kRedomap{i: 1, m: m, acc: z, z: z}
	return Config{top: &frame{env: mapEnv(f.env, e, 1), stms: e.Map.Stms, body: e.Map, k: k, next: f}}, rule, nil
}

// redomapFinish binds a redomap's accumulator acc, or a scanomap's rows
// (done, newest first), to the pattern of s, the first statement of f.
func redomapFinish(f *frame, s *Stm, e *RedomapExp, rule string, z, acc semantics.Array, done *valueList) (Config, string, error) {
	if !e.Scan {
		return advance(f, s, []semantics.Array{acc}, rule)
	}
	v, err := scanomapFinish(s, e, z, listed(done))
	if err != nil {
		return Config{top: f}, "", err
	}
	return advance(f, s, []semantics.Array{v}, rule)
}

// retRedomap is E-IN for a frame f of a redomap's element, which returned
// vs to its continuation k.
func retRedomap(f *frame, k kRedomap, vs []semantics.Array) (Config, string, error) {
	rule := EIn.Name
	parent := f.next
	s := parent.stms[0]
	e := s.Exp.(*RedomapExp)
	if !k.op {
		if err := mapArity(e, len(vs)); err != nil {
			return Config{top: f}, "", err
		}
		note := func() string { return fmt.Sprintf("element %d of %d is %s", k.i, k.m, vs[0].Abbrev(8)) }
		nk := k
		nk.op = true
		next := &frame{env: foldEnv(parent.env, e.Params, k.acc, vs[0]), stms: e.Op.Stms, body: e.Op, k: nk, next: parent}
		return Config{top: next, note: note}, rule, nil
	}
	acc, err := foldNext(redomapRule(e), e.Op, vs)
	if err != nil {
		return Config{top: f}, "", err
	}
	done := k.done
	if e.Scan {
		done = &valueList{v: scanItem(k.acc, acc), n: k.i, next: done}
	}
	if k.i < k.m {
		note := func() string { return fmt.Sprintf("step %d of %d gave %s", k.i, k.m, acc.Abbrev(8)) }
		nk := kRedomap{i: k.i + 1, m: k.m, acc: acc, z: k.z, done: done}
		next := &frame{env: mapEnv(parent.env, e, k.i+1), stms: e.Map.Stms, body: e.Map, k: nk, next: parent}
		return Config{top: next, note: note}, rule, nil
	}
	return redomapFinish(parent, s, e, rule, k.z, acc, done)
}

// redomapContext renders the context of a redomap's element frame.
func redomapContext(s *Stm, k kRedomap) string {
	e := s.Exp.(*RedomapExp)
	if k.op {
		return fmt.Sprintf("[%s %d of %d combine] ", RedomapWord(e), k.i, k.m)
	}
	return fmt.Sprintf("[%s %s = %d of %d] ", RedomapWord(e), e.Var.Name, k.i, k.m)
}
