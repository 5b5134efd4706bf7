package lang

import "github.com/arraysem/arraysem/semantics"

// A Stepper runs a program's small-step machine one transition at a time,
// on demand (the REPL's :step), or to the end (Run). A program of several
// expressions (Remora's) is several runs of the machine, one after the
// other; the stepper goes from one to the next without a step of its own.
type Stepper struct {
	step        func() (string, error) // one transition of the current run
	final       func() bool            // the current run has ended
	noFuel      func() error           // the error of running out of fuel now
	interrupted func() error           // the error of a run interrupted now
	advance     func() bool            // start the next run; false when none is left
	config      func() any
	print       func() string
	finish      func() (*Result, error)
	fuel        int
	pos         semantics.Pos
	counter     semantics.Counter
	steps       int
	done        bool

	// With KeepHistory: save returns how to restore the stepper's state
	// now, and history[k] restores the state after k steps.
	save    func() func()
	history []func()

	focus      func(prev, next any) Focus // the language's focuser, if any
	prev, next any                        // the last step's configurations
	stepped    bool
}

// Focus is what a step did, as the printed configuration after it shows
// it: the span of the contractum (runes [Lo, Hi) of the text; Lo < 0 when
// the step left nothing to see, as an assignment in IMP) and the redex it
// replaced, printed. The language's machine says where it reduced, so the
// REPL marks the step without comparing printed configurations. From and
// To say where the redex is in the program's source; the REPL prints the
// line and column beside the redex.
type Focus struct {
	Text   string // the configuration after the step, printed
	Lo, Hi int    // the contractum's span in Text, in runes; Lo < 0: none
	Redex  string // the redex, printed ("" when there is none to show)
	// From and To are the redex's span in the source, [From, To) (go/ast's
	// convention: To is just after its last character): the statement the
	// step ran, or the result (in (…)) it returned (FUN, FUNMEM, IMP), or
	// the redex term's s-expression (Remora). Both are zero (not IsValid)
	// when the redex has no source: a node a pass built, or a term that
	// substitution made.
	From, To semantics.Pos
}

// SetSource sets the redex's span in the source, [from, to), when both
// are known and in order (a node a pass built may carry positions of
// other nodes, or none); otherwise it leaves From and To zero.
func (f *Focus) SetSource(from, to semantics.Pos) {
	if !from.IsValid() || !to.IsValid() || from.File != to.File ||
		to.Line < from.Line || to.Line == from.Line && to.Col < from.Col {
		f.From, f.To = semantics.Pos{}, semantics.Pos{}
		return
	}
	f.From, f.To = from, to
}

// Focuser finds the focus of a step of a machine from configuration prev
// to next; a language provides one to NewStepper (WithFocus).
type Focuser[C any] func(prev, next C) Focus

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
		if s.focus != nil {
			s.prev, s.next, s.stepped = c, next, true
		}
		c = next
		if o.OnStep != nil {
			o.OnStep(rule, c)
		}
		return rule, nil
	}
	s.final = func() bool { return len(inits) == 0 || m.Final(c) }
	s.noFuel = func() error { return semantics.OutOfFuelAt(m, c, s.pos, s.steps) }
	s.interrupted = func() error { return semantics.InterruptedAt(m, c, s.pos, s.steps, "") }
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
	s.save = func() func() {
		c0, cur0, n := c, cur, len(finals)
		return func() { c, cur, finals = c0, cur0, finals[:n] }
	}
	return s
}

// KeepHistory makes the stepper keep every configuration it reaches (they
// are persistent, so this costs only what they do not share), so that
// Back is a restore rather than a run from the start; it reports whether
// it could. Call it before the first step. A machine with a heap
// (FUNMEM's, IMP's) changes its heap, its kernels', loops' and folds'
// state and IMP's environments in place, which no kept configuration
// restores: it keeps no history (false), and going back in it is running
// again from the start (the REPL's :back does).
func (s *Stepper) KeepHistory() bool {
	if _, heaped := s.config().(Heaped); heaped {
		return false
	}
	s.history = []func(){s.save()}
	return true
}

// Back goes back n steps (to the start if there are fewer) and returns the
// number of steps then taken. It needs KeepHistory.
func (s *Stepper) Back(n int) int {
	if s.history == nil {
		return s.steps
	}
	k := max(0, s.steps-n)
	s.history[k]()
	s.history = s.history[:k+1]
	s.steps, s.done, s.stepped = k, false, false
	return k
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
		return "", false, s.noFuel()
	}
	if semantics.Interrupted() {
		return "", false, s.interrupted()
	}
	rule, err = s.step()
	if err != nil {
		return "", false, err
	}
	s.steps++
	s.counter.Hit(rule)
	if s.history != nil {
		s.history = append(s.history, s.save())
	}
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

// WithFocus gives a stepper the language's focuser, so that Focus can say
// where each step reduced; it returns s.
func WithFocus[C any](s *Stepper, f Focuser[C]) *Stepper {
	s.focus = func(prev, next any) Focus { return f(prev.(C), next.(C)) }
	return s
}

// Focus is the last step's focus, computed when asked (printing a large
// configuration costs); ok is false before the first step, after Back,
// or when the language has no focuser.
func (s *Stepper) Focus() (f Focus, ok bool) {
	if s.focus == nil || !s.stepped {
		return Focus{}, false
	}
	return s.focus(s.prev, s.next), true
}
