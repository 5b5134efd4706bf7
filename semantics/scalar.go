package semantics

import (
	"fmt"
	"math"
	"strings"
)

// Op is a scalar operator of the shared scalar expression language
// (FUN's se ⊕ se, reused by FUNMEM and IMP).
type Op int

// The scalar operators. Comparisons and the logical operators give 1 or 0;
// && and || treat any non-zero operand as true and evaluate both operands
// (scalar expressions have no effects but division by zero, and a strict
// reading keeps the big-step and small-step semantics trivially in step).
const (
	Add Op = iota
	Sub
	Mul
	Div
	Mod
	Eq
	Ne
	Lt
	Le
	Gt
	Ge
	And
	Or
	Neg // unary minus

	// The checked operators (an extension): +, -, * and / on ints that
	// are stuck where the exact result is not an int64, instead of
	// wrapping. The compile path gives them to a program whose integers
	// are exact (Remora's dynamic dialect, Racket's integers), so that a
	// compiled level either computes the exact result or stops with
	// ErrOverflow; it never prints a wrapped one.
	AddChecked
	SubChecked
	MulChecked
	DivChecked
)

var opText = [...]string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "-", "+!", "-!", "*!", "/!"}

// Associative reports whether (x op y) op z = x op (y op z) for all x,
// y, z where both sides have a value: + and * (wrapping, or checked:
// exact) and the logical && and ||. The others (-, /, %, the
// comparisons) are not.
func (op Op) Associative() bool {
	switch op {
	case Add, Mul, And, Or, AddChecked, MulChecked:
		return true
	}
	return false
}

// Checked is the checked twin of +, -, * or / (AddChecked for Add), and
// ok is false for an operator that has none.
func (op Op) Checked() (Op, bool) {
	switch op {
	case Add:
		return AddChecked, true
	case Sub:
		return SubChecked, true
	case Mul:
		return MulChecked, true
	case Div:
		return DivChecked, true
	}
	return op, false
}

// Unchecked is the wrapping operator a checked one refines (Add for
// AddChecked); any other operator is itself.
func (op Op) Unchecked() Op {
	switch op {
	case AddChecked:
		return Add
	case SubChecked:
		return Sub
	case MulChecked:
		return Mul
	case DivChecked:
		return Div
	}
	return op
}

// IsChecked reports whether op is one of the checked operators.
func (op Op) IsChecked() bool { return op >= AddChecked && op <= DivChecked }

// IntOnly reports whether a binary operator takes ints only: %, && and
// || (floats have no remainder and are no truth values) and the checked
// operators (a float does not overflow).
func (op Op) IntOnly() bool { return op == Mod || op == And || op == Or || op.IsChecked() }

// Partial reports whether an int operator can be stuck on some operands:
// division and remainder (by zero) and the checked operators (on
// overflow). Passes that move or drop computations ask it.
func (op Op) Partial() bool { return op == Div || op == Mod || op.IsChecked() }

// String is the operator as FUN writes it.
func (op Op) String() string {
	if int(op) < len(opText) {
		return opText[op]
	}
	return fmt.Sprintf("Op(%d)", int(op))
}

// Prec is the binding strength of a binary operator: higher binds tighter.
// All binary operators associate to the left.
func (op Op) Prec() int {
	switch op {
	case Or:
		return 1
	case And:
		return 2
	case Eq, Ne, Lt, Le, Gt, Ge:
		return 3
	case Add, Sub, AddChecked, SubChecked:
		return 4
	case Mul, Div, Mod, MulChecked, DivChecked:
		return 5
	}
	return 6
}

// ErrDivZero is returned by Binary for division or remainder by zero.
type ErrDivZero struct{ Op Op }

// Error names the operator.
func (e ErrDivZero) Error() string { return fmt.Sprintf("division by zero (operator %s)", e.Op) }

// ErrOverflow is returned by Binary for a checked operator whose exact
// result is not an int64. It names the wrapping operator, so that the
// message is the same at every level (Remora's +, FUN's +!, CUDA's
// i64_add_checked).
type ErrOverflow struct {
	Op   Op // the wrapping operator: Add, Sub, Mul or Div
	A, B int64
}

// OverflowNote is the reason every overflow message gives.
const OverflowNote = "the dialect's integers are exact; the compiled program's are 64-bit"

// Error names the operation.
func (e ErrOverflow) Error() string {
	return fmt.Sprintf("integer overflow: %d %s %d does not fit in 64 bits (%s)", e.A, e.Op, e.B, OverflowNote)
}

// IsOverflowMessage reports whether an error's message (the text after
// its position and rule) is ErrOverflow's or an out-of-range
// ErrIntConversion's, for the levels that read
// errors back from a compiled program's text (gpu-sim, the host build).
func IsOverflowMessage(msg string) bool {
	if i := strings.Index(msg, ": integer overflow: "); i >= 0 {
		msg = msg[i+2:]
	}
	return strings.HasPrefix(msg, "integer overflow: ")
}

// Overflows reports whether the exact a op b is not an int64, for the
// checked operators' wrapping twins Add, Sub, Mul and Div (false for any
// other operator, and for a division by zero, which is ErrDivZero).
func Overflows(op Op, a, b int64) bool {
	switch op {
	case Add:
		r := a + b
		return (a^r)&(b^r) < 0 // both operands' signs differ from the result's
	case Sub:
		r := a - b
		return (a^b)&(a^r) < 0
	case Mul:
		if a == 0 || b == 0 {
			return false
		}
		if (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
			return true
		}
		return (a*b)/b != a
	case Div:
		return a == math.MinInt64 && b == -1
	}
	return false
}

// Binary applies a binary operator. Its errors are ErrDivZero and, for
// the checked operators, ErrOverflow.
func Binary(op Op, a, b int64) (int64, error) {
	if op.IsChecked() {
		w := op.Unchecked()
		if w == Div && b == 0 {
			return 0, ErrDivZero{w}
		}
		if Overflows(w, a, b) {
			return 0, ErrOverflow{Op: w, A: a, B: b}
		}
		op = w
	}
	switch op {
	case Add:
		return a + b, nil
	case Sub:
		return a - b, nil
	case Mul:
		return a * b, nil
	case Div, Mod:
		if b == 0 {
			return 0, ErrDivZero{op}
		}
		if op == Div {
			return a / b, nil // Go defines MinInt64 / -1 == MinInt64: no trap
		}
		return a % b, nil
	case Eq:
		return b2i(a == b), nil
	case Ne:
		return b2i(a != b), nil
	case Lt:
		return b2i(a < b), nil
	case Le:
		return b2i(a <= b), nil
	case Gt:
		return b2i(a > b), nil
	case Ge:
		return b2i(a >= b), nil
	case And:
		return b2i(a != 0 && b != 0), nil
	case Or:
		return b2i(a != 0 || b != 0), nil
	}
	panic(fmt.Sprintf("semantics.Binary: not a binary operator: %v", op))
}

// Unary applies a unary operator (only negation, which wraps).
func Unary(op Op, a int64) int64 {
	if op != Neg {
		panic(fmt.Sprintf("semantics.Unary: not a unary operator: %v", op))
	}
	return -a
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}
