package fun

import (
	"github.com/arraysem/arraysem/semantics"
)

// The scalar expressions of the floats extension (docs/fun.md, "Floats"):
// float constants and calls of the built-in functions (sqrt, exp, log,
// sin, cos, and the conversions float and int). The checker's Paper mode
// refuses them, as it refuses the type float.

// FloatConst is a float constant: 1.5, 3.0, 1e3, 2.5e-3 (a '.' or an
// exponent makes a float), or -f.
type FloatConst struct {
	ValuePos Pos // position of the first digit, or of the '-' of -f
	Value    float64
	ValueEnd Pos // position just after the literal
}

// Call is a built-in function applied to a scalar expression: f(se).
type Call struct {
	NamePos Pos // position of the function's name
	Func    semantics.Func
	Arg     SExp
	Rparen  Pos // position of the ')' that closes the argument
}

// Pos is the position of the constant's first character.
func (e *FloatConst) Pos() Pos { return e.ValuePos }

// End is the position just after the literal; for a constant the parser
// did not make, where its printed form would end.
func (e *FloatConst) End() Pos {
	if e.ValueEnd.IsValid() {
		return e.ValueEnd
	}
	return shift(e.ValuePos, len(semantics.FormatFloat(e.Value)))
}

// Pos is the position of the function's name.
func (e *Call) Pos() Pos { return e.NamePos }

// End is the position just after the ')'; for a call the parser did not
// make, where its printed form would end.
func (e *Call) End() Pos {
	if e.Rparen.IsValid() {
		return shift(e.Rparen, 1)
	}
	return shift(e.Arg.End(), 1)
}

func (*FloatConst) sexp() {}
func (*Call) sexp()       {}

// Float is the float constant f, for passes that build trees.
func Float(f float64) SExp { return &FloatConst{Value: f} }

// Apply is the call f(x), for passes that build trees.
func Apply(f semantics.Func, x SExp) SExp { return &Call{Func: f, Arg: x} }
