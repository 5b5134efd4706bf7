package repl

import (
	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/semantics"
)

// A stepper runs a loaded program's small-step semantics one step at a
// time, on demand: the run goes on in a goroutine that stops after every
// step until the session asks for the next. The languages' machines keep
// no history (FUNMEM's and IMP's heaps are updated in place), so going
// back is running again from the start to the earlier step, which is
// deterministic (a random schedule is seeded).
type stepper struct {
	recs     []stepRec     // the steps taken, in order
	done     bool          // the run has ended
	run      *check.Run    // its outcome, when done
	err      error         // its error, when done
	steps    chan stepRec  // the goroutine's steps
	resume   chan bool     // true: take the next step; false: stop
	finished chan struct{} // closed when the goroutine ends
	waiting  bool          // the goroutine is waiting for resume
	started  bool
	opts     check.RunOptions
	l        *check.Loaded
}

// stepRec is one step: the rule, the configuration after it (printed, and
// itself, for :env and :heap), the heap cells the step read and wrote, and
// the kernels that finished in it with their read and write sets.
type stepRec struct {
	rule, config string
	state        any
	accesses     []semantics.Access
	traces       []kernelTrace
}

// kernelTrace is a finished kernel's per-iteration read and write sets.
type kernelTrace struct {
	kernel string
	iters  []semantics.IterAccess
}

// stopRun is what the step callback panics with to abandon a run.
type stopRun struct{}

func newStepper(l *check.Loaded, opts check.RunOptions) *stepper {
	return &stepper{l: l, opts: opts}
}

func (s *stepper) start() {
	s.started = true
	s.steps = make(chan stepRec)
	s.resume = make(chan bool)
	s.finished = make(chan struct{})
	var pending []kernelTrace
	o := s.opts
	o.Semantics = "small"
	o.RecordHeap = true
	o.Trace = func(kernel string, iters []semantics.IterAccess) {
		pending = append(pending, kernelTrace{kernel, iters})
	}
	o.OnState = func(rule, config string, state any) {
		rec := stepRec{rule: rule, config: config, state: state, traces: pending}
		pending = nil
		if h, ok := state.(interface{ Heap() *semantics.Heap }); ok {
			rec.accesses = h.Heap().TakeAccesses()
		}
		s.steps <- rec
		if !<-s.resume {
			panic(stopRun{})
		}
	}
	go func() {
		defer close(s.finished)
		defer func() {
			if r := recover(); r != nil {
				if _, ok := r.(stopRun); !ok {
					panic(r)
				}
				s.err = errStopped
			}
		}()
		s.run, s.err = s.l.Run(o)
	}()
}

// errStopped marks a run abandoned by the session.
var errStopped = &semantics.Error{Kind: semantics.FuelError, Msg: "stopped"}

// next takes one more step; it reports false when the run has ended (its
// outcome is then in run and err).
func (s *stepper) next() bool {
	if s.done {
		return false
	}
	if !s.started {
		s.start()
	} else if s.waiting {
		s.waiting = false
		s.resume <- true
	}
	select {
	case rec := <-s.steps:
		s.recs = append(s.recs, rec)
		s.waiting = true
		return true
	case <-s.finished:
		s.done = true
		return false
	}
}

// stop abandons the run (if it is still going) and waits for its end.
func (s *stepper) stop() {
	if !s.started || s.done {
		return
	}
	if s.waiting {
		s.waiting = false
		s.resume <- false
	}
	<-s.finished
	s.done = true
}

// current is the last step taken, or nil before the first.
func (s *stepper) current() *stepRec {
	if len(s.recs) == 0 {
		return nil
	}
	return &s.recs[len(s.recs)-1]
}
