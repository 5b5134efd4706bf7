package repl

import (
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// A stepper steps a loaded program's small-step machine (lang.Stepper)
// on demand and records each step for :back, :rules, :heap and :trace.
// Where the configurations are persistent (FUN's, Remora's) the machine
// keeps its history, so going back restores an earlier step. A machine
// with a heap (FUNMEM's, IMP's) also changes its kernels', loops' and
// folds' state and IMP's environments in place, which no history of
// configurations restores: going back there runs the program again from
// the start to the step, on a fresh heap.
type stepper struct {
	prog    lang.Program
	options func() lang.RunOptions // a run's options, made afresh
	replay  bool                   // :back runs again (a machine with a heap)
	hush    bool                   // the steps are being taken again: no race is said twice
	recs    []stepRec              // the steps taken, in order
	done    bool                   // the run has ended
	res     *lang.Result
	err     error // the run's error, when done
	st      *lang.Stepper
	pending []kernelTrace    // kernels finished in the step being taken
	stats   *semantics.Stats // the cost counters the machine fills (:stats)
	counts  bool             // whether the semantics counts costs (lang.CountsCosts)
}

// stepRec is one step: the rule, the configuration after it (printed, and
// itself, for :env and :heap), the heap cells the step read and wrote, and
// the kernels that finished in it with their read and write sets.
type stepRec struct {
	rule, config string
	state        any
	accesses     []semantics.Access
	traces       []kernelTrace
	focus        *lang.Focus     // where the step reduced, when the language says
	stats        semantics.Stats // the cost counters after the step (:stats; :back restores them)
}

// kernelTrace is a finished kernel's per-iteration read and write sets.
type kernelTrace struct {
	kernel string
	iters  []semantics.IterAccess
}

func newStepper(p lang.Program, options func() lang.RunOptions) *stepper {
	small := p.Language().Stepping()
	o := options()
	s := &stepper{prog: p, options: options, stats: &semantics.Stats{}, counts: lang.CountsCosts(p, small)}
	if said := o.Races; said != nil {
		o.Races = func(race error) {
			if !s.hush {
				said(race)
			}
		}
	}
	o.Semantics = small
	o.RecordHeap = true
	o.Stats = s.stats
	o.Trace = func(kernel string, tr *semantics.KernelTrace) {
		s.pending = append(s.pending, kernelTrace{kernel, tr.Iters()})
	}
	s.st, s.err = p.Start(o)
	s.done = s.err != nil
	if s.st != nil {
		s.replay = !s.st.KeepHistory()
	}
	return s
}

// back goes back to step k (0: the start), and returns the stepper that
// goes on from there (s, or the one that ran again).
func (s *stepper) back(k int) *stepper {
	if s.st == nil {
		return s
	}
	if s.replay {
		// The same run again, up to step k: the same inputs, schedule
		// and seed, so the same steps.
		k = max(0, min(k, len(s.recs)))
		again := newStepper(s.prog, s.options)
		again.hush = true
		for len(again.recs) < k && again.next() {
		}
		again.hush = false
		return again
	}
	k = s.st.Back(s.st.Steps() - k)
	s.recs = s.recs[:k]
	s.stats.Reset()
	if k > 0 {
		*s.stats = s.recs[k-1].stats
	}
	s.done, s.res, s.err, s.pending = false, nil, nil, nil
	return s
}

// next takes one more step; it reports false when the run has ended (its
// outcome is then in res and err).
func (s *stepper) next() bool {
	if s.done {
		return false
	}
	rule, done, err := s.st.Step()
	if err != nil || done {
		s.done, s.err = true, err
		if done {
			s.res, s.err = s.st.Result()
		}
		return false
	}
	rec := stepRec{rule: rule, config: s.st.String(), state: s.st.Config(), traces: s.pending, stats: *s.stats}
	if f, ok := s.st.Focus(); ok {
		rec.focus = &f
	}
	s.pending = nil
	if h, ok := rec.state.(lang.Heaped); ok {
		rec.accesses = h.Heap().TakeAccesses()
	}
	s.recs = append(s.recs, rec)
	return true
}

// current is the last step taken, or nil before the first.
func (s *stepper) current() *stepRec {
	if len(s.recs) == 0 {
		return nil
	}
	return &s.recs[len(s.recs)-1]
}
