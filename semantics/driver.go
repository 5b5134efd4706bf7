package semantics

import "fmt"

// Machine is a small-step semantics: a transition relation on
// configurations of type C, each transition named by the rule that makes it.
// Configurations must be persistent (a step returns a new one and leaves the
// old one intact), so that the driver can keep a history to step back in.
type Machine[C any] interface {
	// Final reports whether c is a final configuration.
	Final(c C) bool
	// Step makes one transition from a non-final configuration. It returns
	// the rule's name, or an error (normally a *Error of kind StuckError)
	// when no rule applies.
	Step(c C) (C, string, error)
}

// DefaultFuel is the number of steps a run may take when no --fuel is given.
const DefaultFuel = 100_000_000

// Step is one entry of a History: the rule that fired and the
// configuration it led to.
type Step[C any] struct {
	Rule   string
	Config C
}

// History records the configurations of a run, the initial one first, so a
// user can step back. It is a plain slice: configurations share structure.
type History[C any] struct {
	Steps []Step[C]
}

// Back drops the last n steps (fewer when there are not that many) and
// returns the configuration that is then current.
func (h *History[C]) Back(n int) C {
	keep := len(h.Steps) - n
	if keep < 1 {
		keep = 1
	}
	h.Steps = h.Steps[:keep]
	return h.Steps[keep-1].Config
}

// Driver runs a Machine with fuel, optionally keeping a history and
// calling a hook after every step (used by `arraysem step`).
type Driver[C any] struct {
	Machine Machine[C]
	Fuel    int // steps allowed; 0 means DefaultFuel
	History *History[C]
	Counter Counter
	OnStep  func(rule string, c C)
	Pos     Pos // where to report running out of fuel
}

// Run steps from c until a final configuration, a stuck state or the end of
// the fuel, and returns the last configuration and the number of steps.
func (d *Driver[C]) Run(c C) (C, int, error) {
	fuel := d.Fuel
	if fuel <= 0 {
		fuel = DefaultFuel
	}
	if d.History != nil && len(d.History.Steps) == 0 {
		d.History.Steps = append(d.History.Steps, Step[C]{Config: c})
	}
	steps, last := 0, ""
	for !d.Machine.Final(c) {
		if steps == fuel {
			return c, steps, OutOfFuelAt(d.Machine, c, d.Pos, steps)
		}
		if interrupted.Load() {
			return c, steps, InterruptedAt(d.Machine, c, d.Pos, steps, last)
		}
		next, rule, err := d.Machine.Step(c)
		if err != nil {
			return c, steps, err
		}
		steps++
		last = rule
		c = next
		d.Counter.Hit(rule)
		if d.History != nil {
			d.History.Steps = append(d.History.Steps, Step[C]{Rule: rule, Config: c})
		}
		if d.OnStep != nil {
			d.OnStep(rule, c)
		}
	}
	return c, steps, nil
}

// InterruptedAfter is the error of a small-step run the user
// interrupted (Interrupt) after steps steps, the last by rule last ("":
// not said).
func InterruptedAfter(pos Pos, steps int, last string) *Error {
	msg := "interrupted after " + Plural(steps, "step")
	if last != "" {
		msg += " (the last by " + last + ")"
	}
	return &Error{Pos: pos, Kind: InterruptError, Msg: msg}
}

// InterruptedAt is InterruptedAfter for a run of m stopped at the
// non-final configuration c: it says where the run was, by the position
// and rule of the step that would come next (m's Locator), as OutOfFuelAt
// does; where m cannot say, at pos.
func InterruptedAt[C any](m Machine[C], c C, pos Pos, steps int, last string) *Error {
	err := InterruptedAfter(pos, steps, last)
	if l, ok := m.(Locator[C]); ok {
		at, rule := l.Redex(c)
		if at.IsValid() {
			err.Pos = at
		}
		err.Rule = rule
	}
	return err
}

// OutOfFuel is the error of a run that has taken all the steps its fuel
// allows, at pos, when nothing says where the run stopped.
func OutOfFuel(pos Pos, steps int) *Error {
	return &Error{Pos: pos, Kind: FuelError, Rule: Fuel.Name,
		Msg: fmt.Sprintf("out of fuel after %d steps (raise it with --fuel N)", steps)}
}

// A Locator is a Machine that can say, without taking it, which step it
// would take next from a non-final configuration: where in the source its
// redex is (or the innermost construct around it that has a position;
// zero when none has: a term a step built), and the rule that step would
// apply ("" when it cannot say). A machine whose steps change state in
// place (a heap, an environment) must not step to find out.
type Locator[C any] interface {
	Redex(c C) (pos Pos, rule string)
}

// OutOfFuelAt is the error of a run of m that has taken all the steps its
// fuel allows and stopped at the non-final configuration c: it names the
// construct that consumed the fuel, by the position and rule of the step
// that would come next (m's Locator). Where m cannot say, it falls back to
// pos and the rule "fuel".
func OutOfFuelAt[C any](m Machine[C], c C, pos Pos, steps int) *Error {
	err := OutOfFuel(pos, steps)
	if l, ok := m.(Locator[C]); ok {
		at, rule := l.Redex(c)
		if at.IsValid() {
			err.Pos = at
		}
		if rule != "" {
			err.Rule = rule
		}
	}
	return err
}
