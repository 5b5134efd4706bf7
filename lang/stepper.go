package lang

import "github.com/arraysem/arraysem/semantics"

// A Stepper runs a program's small-step machine one transition at a time,
// on demand (the REPL's :step), or to the end (Run). A program of several
// expressions (Remora's) is several runs of the machine, one after the
// other; the stepper goes from one to the next without a step of its own.
type Stepper struct {
	step    func() (string, error) // one transition of the current run
	final   func() bool            // the current run has ended
	advance func() bool            // start the next run; false when none is left
	config  func() any
	print   func() string
	finish  func() (*Result, error)
	fuel    int
	pos     semantics.Pos
	counter semantics.Counter
	steps   int
	done    bool
}

// NewStepper makes a Stepper over machine m for runs starting at inits:
// print renders a configuration, and finish turns the runs' final
// configurations into the program's result. A program of no runs (inits
// empty) is done at once. o gives the fuel and the
// counter; its OnStep is called after every step.
func NewStepper[C any](m semantics.Machine[C], inits []C, o *semantics.RunOptions, pos semantics.Pos,
	print func(C) string, finish func(finals []C) (*Result, error)) *Stepper {
	if o == nil {
		o = &semantics.RunOptions{}
	}
	cur := 0
	var c C
	if len(inits) > 0 {
		c = inits[0]
	}
	var finals []C
	s := &Stepper{fuel: o.Fuel, pos: pos, counter: o.Counter}
	if s.fuel <= 0 {
		s.fuel = semantics.DefaultFuel
	}
	s.step = func() (string, error) {
		next, rule, err := m.Step(c)
		if err != nil {
			return "", err
		}
		c = next
		if o.OnStep != nil {
			o.OnStep(rule, c)
		}
		return rule, nil
	}
	s.final = func() bool { return len(inits) == 0 || m.Final(c) }
	s.advance = func() bool {
		if len(inits) == 0 {
			return false
		}
		finals = append(finals, c)
		if cur+1 == len(inits) {
			return false
		}
		cur++
		c = inits[cur]
		return true
	}
	s.config = func() any { return c }
	s.print = func() string { return print(c) }
	s.finish = func() (*Result, error) { return finish(finals) }
	return s
}

// Step takes one transition and returns its rule; done reports that the
// program has ended (then there was no step, and Result has the outcome).
// A stuck state or the end of the fuel is an error.
func (s *Stepper) Step() (rule string, done bool, err error) {
	for s.final() {
		if s.done || !s.advance() {
			s.done = true
			return "", true, nil
		}
	}
	if s.steps == s.fuel {
		return "", false, semantics.OutOfFuel(s.pos, s.steps)
	}
	rule, err = s.step()
	if err != nil {
		return "", false, err
	}
	s.steps++
	s.counter.Hit(rule)
	return rule, false, nil
}

// Run steps to the end and returns the result, with the number of steps.
func (s *Stepper) Run() (*Result, error) {
	for {
		_, done, err := s.Step()
		if err != nil {
			return nil, err
		}
		if done {
			return s.Result()
		}
	}
}

// Steps is the number of transitions taken so far.
func (s *Stepper) Steps() int { return s.steps }

// Config is the current configuration (fun.Config, *funmem.Config, …).
func (s *Stepper) Config() any { return s.config() }

// String renders the current configuration on one line, as `arraysem
// step` prints it.
func (s *Stepper) String() string { return s.print() }

// Result is the program's outcome once Step has reported done.
func (s *Stepper) Result() (*Result, error) {
	r, err := s.finish()
	if r != nil {
		r.Steps = s.steps
	}
	return r, err
}
