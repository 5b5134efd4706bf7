package semantics

import "fmt"

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
)

var opText = [...]string{"+", "-", "*", "/", "%", "==", "!=", "<", "<=", ">", ">=", "&&", "||", "-"}

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
	case Add, Sub:
		return 4
	case Mul, Div, Mod:
		return 5
	}
	return 6
}

// ErrDivZero is returned by Binary for division or remainder by zero.
type ErrDivZero struct{ Op Op }

// Error names the operator.
func (e ErrDivZero) Error() string { return fmt.Sprintf("division by zero (operator %s)", e.Op) }

// Binary applies a binary operator. Its only error is ErrDivZero.
func Binary(op Op, a, b int64) (int64, error) {
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
