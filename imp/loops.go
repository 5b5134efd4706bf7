package imp

import (
	"errors"
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/semantics"
)

// The extensions' loops, as the small-step semantics (step.go) runs them.
// The big-step (compiled.go) runs the same steps on its slots, in the same
// order (the same heap accesses, the same stuck states, the same mutation
// points), using foldRun's race reports; compiled_test.go checks the two
// against each other and against the rules as written (fig12.go).
//
// I-FOR: n = E(se) ≥ 0; for i = 1 … n the body runs in E, i ↦ k, and the
// variables of E (i aside) take the values the body left them; the body's
// declarations and i end with the iteration. As in an if's branch, a var
// in the body of a name of E declares that variable anew (E-IMP-DEC-INT),
// which the checker allows. Iterations are sequential: no race between
// them is possible, and none is tracked.
//
// I-REDUCE and I-SCAN: ne and n = E(se) ≥ 0 are evaluated in E (in that
// order), the accumulator starts at ne, and for i = 1 … n: the element
// part runs in E, i ↦ k (a copy, as a kernel's iteration: nothing it
// assigns survives) and yields y; the combine part runs in E, a ↦ acc,
// b ↦ y (a copy too) and yields c, the new accumulator; a scan then writes
// it at m[E, i ↦ k (se)]. A reduce sets x to the last accumulator (ne when
// n = 0). The element parts and the combines are the iterations of one
// race tracker, as a kernel's threads are: a parallel implementation runs
// the elements at once and the combines as a tree, so no element or
// combine may write a location another one uses (racefree, eq 4). Element
// i is iteration i, and a scan's write after it counts as element i's;
// the combine after element i is iteration n + i. The combines' order is
// the left fold's; that they are associative, with ne neutral, is assumed,
// not checked.

// forBound is a for's bound, stuck in I-FOR when negative.
func forBound(env Env, s *For) (int64, error) {
	rule := IFor.Name
	n, err := fun.EvalSExp(s.Bound, lookup(env), rule)
	if err != nil {
		return 0, err
	}
	if n < 0 {
		return 0, semantics.Stuckf(s.At, rule, "for bound %s = %d is negative", fun.PrintSExp(s.Bound), n)
	}
	return n, nil
}

// forIteration is the environment of iteration i of a for: E, x ↦ i,
// made in a new map when inner is nil, else in inner, the environment of
// the iteration before (after forBack), undone to E (Env.undo; w is
// forWrites(s)).
func forIteration(inner, env Env, s *For, i int64, w []string) Env {
	inner = envCopy(inner, env, w)
	if mutant.On("imp-for-off-by-one") { // mutant: the index runs 0 … n-1
		i--
	}
	inner[s.X.Name] = Value{K: i}
	return inner
}

// envCopy is a copy of env: a new map when into is nil, else into, the
// environment of a loop's iteration that has ended, undone to env (only
// the variables w may differ). The rules and the small-step reuse one map
// for the iterations of a loop, one after the other: nothing reads an
// iteration's environment when it has ended (a fold's parts, whose
// frames print their variables, each have their own in the small-step).
func envCopy(into, env Env, w []string) Env {
	if into == nil {
		return env.clone()
	}
	into.undo(env, w)
	return into
}

// forWrites are the variables an iteration of s may change (rebinds):
// forIteration and forBack look at no others.
func forWrites(s *For) []string { return rebinds(s.Body, []string{s.X.Name}) }

// writesCache holds what the iterations of a run's kernels and fors may
// change (rebinds, x's included), by statement: a loop run again, in an
// enclosing loop, has them at once rather than by a walk of its body.
type writesCache map[Stmt][]string

// of is what an iteration of s, a *Kernel or a *For, may change.
func (c *writesCache) of(s Stmt) []string {
	if w, ok := (*c)[s]; ok {
		return w
	}
	var w []string
	switch s := s.(type) {
	case *Kernel:
		w = rebinds(s.Body, []string{s.X.Name})
	case *For:
		w = forWrites(s)
	}
	if *c == nil {
		*c = writesCache{}
	}
	(*c)[s] = w
	return w
}

// forBack ends an iteration of a for: the variables of env, but the
// index, take their values in the iteration's environment inner. Only
// those of w (forWrites(s)) can differ there: the others are copied
// from env and nothing sets them.
func forBack(env, inner Env, s *For, w []string) {
	for _, x := range w {
		if _, ok := env[x]; ok && x != s.X.Name {
			env[x] = inner[x]
		}
	}
}

// foldRun is a reduce or a scan in progress, with its race tracker.
type foldRun struct {
	s    Stmt // the *Reduce or *Scan
	f    *Fold
	rule string
	n    int64
	acc  semantics.Num // an int or (an extension) a float
	y    semantics.Num // the element now being combined
	t    *semantics.Tracker
	// wb and wc are what an element and a combine may change
	// (rebinds), when their environments are made in the last ones'.
	wb, wc []string
	base   int64 // the live words at its start (cost counters: each part's blocks die with it)
	// elemEnv and combEnv are the small-step's environments of the last
	// element and combine, in which the next ones' are made (element,
	// combine): a part's frame has ended when the next of its kind starts.
	elemEnv, combEnv Env
}

// startFold evaluates a fold's neutral element and bound and starts its
// race tracker.
// t is the fold's tracker, fresh (NewTracker, or Reset).
func startFold(env Env, h *semantics.Heap, s Stmt, t *semantics.Tracker) (*foldRun, error) {
	f, _ := folds(s)
	r := &foldRun{s: s, f: f, rule: IReduce.Name}
	if _, ok := s.(*Scan); ok {
		r.rule = IScan.Name
	}
	ne, err := fun.EvalNum(f.Neutral, numLookup(env), r.rule)
	if err != nil {
		return nil, err
	}
	n, err := fun.EvalSExp(f.Bound, lookup(env), r.rule)
	if err != nil {
		return nil, err
	}
	if n < 0 {
		return nil, semantics.Stuckf(s.Pos(), r.rule, "%s bound %s = %d is negative", keywordOf(s), fun.PrintSExp(f.Bound), n)
	}
	r.n, r.acc = n, ne
	r.t = t
	h.Push(r.t)
	return r, nil
}

func keywordOf(s Stmt) string {
	if _, ok := s.(*Scan); ok {
		return "scan"
	}
	return "reduce"
}

// element is the environment of element i: E, x ↦ i (made in inner, as
// forIteration's).
func (r *foldRun) element(inner, env Env, i int64) Env {
	r.t.Start(i)
	if inner != nil && r.wb == nil {
		r.wb = rebinds(r.f.Body, []string{r.f.X.Name})
	}
	inner = envCopy(inner, env, r.wb)
	inner[r.f.X.Name] = Value{K: i}
	return inner
}

// combine ends element i, whose environment is inner, and gives the
// environment of its combine: E, a ↦ acc, b ↦ y (made in comb, as
// forIteration's).
func (r *foldRun) combine(comb, env, inner Env, i int64) (Env, error) {
	y, err := numLookup(inner)(r.f.Yield, r.rule)
	if err != nil {
		return nil, err
	}
	r.y = y
	r.t.Start(r.n + i)
	if comb != nil && r.wc == nil {
		r.wc = rebinds(r.f.Combine, []string{r.f.A.Name, r.f.B.Name})
	}
	comb = envCopy(comb, env, r.wc)
	comb[r.f.A.Name] = NumValue(r.acc)
	comb[r.f.B.Name] = NumValue(y)
	return comb, nil
}

// combined ends the combine after element i, whose environment is comb:
// the accumulator takes its result, and a scan writes it.
func (r *foldRun) combined(env, comb Env, h *semantics.Heap, i int64) error {
	c, err := numLookup(comb)(r.f.Result, r.rule)
	if err != nil {
		return err
	}
	prev := r.acc
	if _, ok := r.s.(*Reduce); ok && i == 1 && mutant.On("imp-reduce-skips-neutral") { // mutant: the fold starts from y1
		c = r.y
	}
	r.acc = c
	sc, ok := r.s.(*Scan)
	if !ok {
		return nil
	}
	if mutant.On("imp-scan-exclusive") { // mutant: writes the accumulator before element i's combine
		c = prev
	}
	r.t.Start(i)
	b, err := block(env, sc.Block, r.rule)
	if err != nil {
		return err
	}
	// The address is read in E, x ↦ i.
	look := lookup(env)
	off, err := fun.EvalSExp(sc.Addr, func(y *fun.Ident, rule string) (int64, error) {
		if y.Name == r.f.X.Name {
			return i, nil
		}
		return look(y, rule)
	}, r.rule)
	if err != nil {
		return err
	}
	if err := h.Write(semantics.Loc{Block: b, Offset: off}, c.Bits); err != nil {
		return heapErr(err, sc.At, r.rule, sc.Block.Name)
	}
	return nil
}

// finish ends the fold: its tracker stops, and a reduce sets its target.
func (r *foldRun) finish(env Env, h *semantics.Heap, opts *Options) {
	h.Pop()
	if red, ok := r.s.(*Reduce); ok {
		env[red.Target.Name] = NumValue(r.acc)
	}
	opts.Counter.Hit(r.rule)
	if opts.Trace != nil {
		opts.Trace(r.s, r.t.Trace)
	}
}

// race makes a race this fold's tracker saw the fold's error, naming the
// elements and combines (the iterations n + i) involved.
func (r *foldRun) race(err error) error {
	var race semantics.ErrRace
	if !errors.As(err, &race) || race.Tracker != r.t {
		return err
	}
	other := race.I
	if other == race.Writer {
		other = race.J
	}
	return semantics.Errorf(r.s.Pos(), semantics.RaceError, r.rule, "race: %s writes %v, which %s also uses (elements and combines run as a kernel's iterations: racefree, eq 4)",
		r.part(race.Writer), race.Loc, r.part(other))
}

// part names iteration it of the fold's tracker.
func (r *foldRun) part(it int64) string {
	if it > r.n {
		return fmt.Sprintf("the combine after element %d", it-r.n)
	}
	return fmt.Sprintf("element %d", it)
}
