package semantics

import (
	"errors"
	"fmt"
)

// Pos is a position in a source file. Lines and columns count from 1; the
// column counts runes, so Unicode operators do not shift what follows.
type Pos struct {
	File string
	Line int
	Col  int
}

// IsValid reports whether p is a known position.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String formats p as file:line:col, leaving out what is unknown.
func (p Pos) String() string {
	switch {
	case !p.IsValid() && p.File == "":
		return "-"
	case !p.IsValid():
		return p.File
	case p.File == "":
		return fmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Kind classifies an Error by who is to blame, which fixes the exit status
// of the command (the fixed exit statuses: 2 for bad input, 1 when the program went wrong).
type Kind int

// The kinds of error.
const (
	SyntaxError   Kind = iota // the text does not parse
	TypeError                 // the program is rejected by a type rule
	InputError                // a program input (--arg) is missing or malformed
	StuckError                // evaluation reached a state no rule applies to
	FuelError                 // a run ran out of fuel (or past the dialect's depth)
	RaceError                 // kernel iterations touch the same location
	MismatchError             // two semantics or levels disagree
	// OverflowError is the stuck state of a checked operator whose exact
	// result is not an int64 (ErrOverflow): a compiled level refusing a
	// value it cannot hold, which the comparisons of levels tell apart
	// from a disagreement.
	OverflowError
	// InterruptError is a run stopped by the user (Ctrl-C: Interrupt)
	// at its next iteration or step: exit status 130, as a shell gives a
	// process that SIGINT ends.
	InterruptError
)

var kindNames = [...]string{"syntax error", "type error", "input error", "stuck", "out of fuel", "race", "mismatch", "integer overflow", "interrupted"}

// String names the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// Stuck reports whether an error of this kind is a stuck state of the
// program: no rule applies (StuckError), or a checked operator's result
// is no int64 (OverflowError, a stuck state of its own kind so that the
// comparisons of levels can tell it apart).
func (k Kind) Stuck() bool { return k == StuckError || k == OverflowError }

// ExitStatus is the command's exit status for an error of this kind.
func (k Kind) ExitStatus() int {
	switch k {
	case SyntaxError, TypeError, InputError:
		return 2
	case InterruptError:
		return 130
	}
	return 1
}

// Error is an error at a position, raised by a named rule. Stuck states,
// type errors and parse errors are all of this type, so that big-step and
// small-step runs can be compared error for error.
type Error struct {
	Pos  Pos
	Kind Kind
	Rule string // the paper's rule name, e.g. "T-SLICE" or "E-INDEX"; "" for syntax errors
	Msg  string
}

// Error formats e as "file:line:col: RULE: message".
func (e *Error) Error() string {
	s := ""
	if e.Pos.IsValid() || e.Pos.File != "" { // no "-:" for no place at all
		s = e.Pos.String() + ": "
	}
	if e.Rule != "" {
		s += e.Rule + ": "
	}
	return s + e.Msg
}

// Errorf makes an *Error.
func Errorf(pos Pos, kind Kind, rule, format string, args ...any) *Error {
	return &Error{Pos: pos, Kind: kind, Rule: rule, Msg: fmt.Sprintf(format, args...)}
}

// Catch, deferred, turns a panic with an *Error into the function's error
// (it re-panics anything else): the parsers and passes that stop deep in
// a recursion panic with the error they report.
func Catch(err *error) {
	if r := recover(); r != nil {
		se, ok := r.(*Error)
		if !ok {
			panic(r)
		}
		*err = se
	}
}

// OpStuck is the stuck state of rule at pos for err, an error of Binary,
// BinaryNum or ApplyFunc: of kind OverflowError for an ErrOverflow
// (whose message is the same at every level, so it takes no context) or
// an ErrIntConversion out of range, else StuckError; err's message, then
// the context (" in x / y"), if any.
func OpStuck(pos Pos, rule string, err error, context string) *Error {
	var o ErrOverflow
	if errors.As(err, &o) {
		return Errorf(pos, OverflowError, rule, "%v", o)
	}
	var c ErrIntConversion
	if errors.As(err, &c) && c.Overflow() {
		return Errorf(pos, OverflowError, rule, "%v%s", err, context)
	}
	return Errorf(pos, StuckError, rule, "%v%s", err, context)
}

// Stuckf makes the error of a stuck state in rule at pos.
func Stuckf(pos Pos, rule, format string, args ...any) *Error {
	return Errorf(pos, StuckError, rule, format, args...)
}
