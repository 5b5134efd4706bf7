package semantics

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Elem is the element type of an array (and the type of a scalar): int64
// or float64. Both are stored as an int64 word (see Array), so the element
// type is what tells the two apart when printing, comparing and computing.
type Elem uint8

// The element types. IntElem is the zero value, so arrays built before
// floats existed, and every Array{Shape, Data} literal, are int arrays.
const (
	IntElem Elem = iota
	FloatElem
)

// String is the element type as FUN writes it: int or float.
func (e Elem) String() string {
	switch e {
	case IntElem:
		return "int"
	case FloatElem:
		return "float"
	}
	return fmt.Sprintf("Elem(%d)", int(e))
}

// LookupElem is the element type a type name denotes ("int", "float"), for
// the parsers; ok is false for any other name.
func LookupElem(name string) (e Elem, ok bool) {
	switch name {
	case "int":
		return IntElem, true
	case "float":
		return FloatElem, true
	}
	return 0, false
}

// canonicalNaN is the one NaN a float value holds: the positive quiet NaN
// without payload. Hardware differs in the NaN it produces (amd64 gives a
// negative one for 0.0/0.0), so storing one canonical NaN keeps results,
// heaps and Equal the same on every platform.
const canonicalNaN = 0x7FF8000000000000

// FloatBits is the word that stores f in an Array's Data or a heap:
// math.Float64bits, except that every NaN becomes one canonical NaN.
// Every float this package produces goes through it.
func FloatBits(f float64) int64 {
	if f != f {
		return canonicalNaN
	}
	return int64(math.Float64bits(f))
}

// FloatFromBits is the float a word stores (the inverse of FloatBits).
func FloatFromBits(w int64) float64 { return math.Float64frombits(uint64(w)) }

func isNaNBits(w int64) bool {
	return uint64(w)&0x7FF0000000000000 == 0x7FF0000000000000 && uint64(w)&0x000FFFFFFFFFFFFF != 0
}

// FormatFloat prints a float as values print (README): Go's shortest form
// that reads back exactly (strconv 'g', precision -1), with ".0" appended
// when that form would read as an int, so a float never prints like an int:
// 3.0, 0.5, 100.0, -0.0, 1e+21, 1e-07, 1.234567e+06. The non-finite values
// print as +Inf, -Inf and NaN; ParseValue reads all of these back.
func FormatFloat(f float64) string {
	s := strconv.FormatFloat(f, 'g', -1, 64)
	if !strings.ContainsAny(s, ".eIN") { // e: exponent; I: ±Inf; N: NaN
		s += ".0"
	}
	return s
}

// ScanNumber is the length of the unsigned number literal at the start of
// s, and whether it is a float literal: digits, then optionally a fraction
// (. and at least one digit), then optionally an exponent (e or E, an
// optional sign, at least one digit). A fraction or an exponent makes a
// float (1.5, 3.0, 1e3, 2.5e-3); digits alone are an int. A '.' or 'e' not
// followed by what it needs ends the literal before it, so "3." is the int
// 3 followed by '.'. ParseValue uses it, and so should the languages'
// scanners, so that a literal reads the same in a program and in --arg.
func ScanNumber(s string) (n int, isFloat bool) {
	digits := func(i int) int {
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i
	}
	n = digits(0)
	if n == 0 {
		return 0, false
	}
	if n+1 < len(s) && s[n] == '.' && s[n+1] >= '0' && s[n+1] <= '9' {
		n, isFloat = digits(n+1), true
	}
	if n < len(s) && (s[n] == 'e' || s[n] == 'E') {
		j := n + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if k := digits(j); k > j {
			n, isFloat = k, true
		}
	}
	return n, isFloat
}

// ParseFloatLiteral is the value of a float literal as ScanNumber delimits
// it (with an optional leading sign), rounded to the nearest float64. A
// literal too large for a float64 (1e400) is an error rather than an
// infinity; one too small for a float64 rounds to a subnormal or 0.
func ParseFloatLiteral(text string) (float64, error) {
	f, err := strconv.ParseFloat(text, 64)
	if err != nil {
		if ne := (*strconv.NumError)(nil); errors.As(err, &ne) {
			err = ne.Err
		}
		return 0, fmt.Errorf("bad float %q: %v", text, err)
	}
	return f, nil
}

// Num is a typed scalar: an element type and the word that stores the
// value (the int itself, or the float's FloatBits). It is what a scalar
// expression evaluates to once floats exist; a Num is one Array element,
// so it goes to and from arrays and heaps without conversion.
type Num struct {
	Elem Elem
	Bits int64
}

// IntNum is the int scalar k.
func IntNum(k int64) Num { return Num{Elem: IntElem, Bits: k} }

// FloatNum is the float scalar f.
func FloatNum(f float64) Num { return Num{Elem: FloatElem, Bits: FloatBits(f)} }

// Int is the value of an int scalar (the bits of a float one).
func (n Num) Int() int64 { return n.Bits }

// Float is the value of a float scalar.
func (n Num) Float() float64 { return FloatFromBits(n.Bits) }

// Array is the rank-0 array holding n.
func (n Num) Array() Array { return Array{Elem: n.Elem, Data: []int64{n.Bits}} }

// String prints n as values print: 42, 3.0, NaN.
func (n Num) String() string {
	if n.Elem == FloatElem {
		return FormatFloat(n.Float())
	}
	return strconv.FormatInt(n.Bits, 10)
}

// ErrFloatOp is returned for an operator that floats do not have (%, &&,
// ||). The type checkers refuse these, so a semantics meets it only on an
// ill-typed term.
type ErrFloatOp struct{ Op Op }

// Error names the operator.
func (e ErrFloatOp) Error() string {
	return fmt.Sprintf("operator %s is not defined on floats", e.Op)
}

// ErrElem is the error of an operand of the wrong element type: an int and
// a float mixed in one operator, or a function applied to the wrong type.
// There are no implicit conversions, so the type checkers refuse these and a
// semantics meets it only on an ill-typed term.
type ErrElem struct {
	What string // "operator +", "function sqrt"
	Want Elem
	Got  Elem
}

// Error names the operator or function and the two types.
func (e ErrElem) Error() string {
	return fmt.Sprintf("%s needs %s operand, not %s", e.What, e.Want.withArticle(), e.Got.withArticle())
}

// withArticle is "an int" or "a float", for messages.
func (e Elem) withArticle() string {
	if e == IntElem {
		return "an int"
	}
	return "a " + e.String()
}

// BinaryFloat applies a binary operator to two floats, as IEEE 754 double
// precision (Go's float64) defines it: arithmetic rounds to nearest even,
// division by zero gives ±Inf or NaN and is not an error, comparisons are
// IEEE's (NaN compares unequal to everything, itself included; -0.0 == 0.0)
// and give the int 1 or 0. Arithmetic gives a float. % && || are ErrFloatOp.
func BinaryFloat(op Op, a, b float64) (Num, error) {
	switch op {
	case Add:
		return FloatNum(a + b), nil
	case Sub:
		return FloatNum(a - b), nil
	case Mul:
		return FloatNum(a * b), nil
	case Div:
		return FloatNum(a / b), nil
	case Eq:
		return IntNum(b2i(a == b)), nil
	case Ne:
		return IntNum(b2i(a != b)), nil
	case Lt:
		return IntNum(b2i(a < b)), nil
	case Le:
		return IntNum(b2i(a <= b)), nil
	case Gt:
		return IntNum(b2i(a > b)), nil
	case Ge:
		return IntNum(b2i(a >= b)), nil
	case Mod, And, Or, AddChecked, SubChecked, MulChecked, DivChecked:
		return Num{}, ErrFloatOp{op}
	}
	panic(fmt.Sprintf("semantics.BinaryFloat: not a binary operator: %v", op))
}

// BinaryNum applies a binary operator to two typed scalars of the same
// element type: Binary for ints (its error is ErrDivZero), BinaryFloat for
// floats. Operands of different types are ErrElem.
func BinaryNum(op Op, a, b Num) (Num, error) {
	if a.Elem != b.Elem {
		return Num{}, ErrElem{What: "operator " + op.String(), Want: a.Elem, Got: b.Elem}
	}
	if a.Elem == FloatElem {
		return BinaryFloat(op, a.Float(), b.Float())
	}
	k, err := Binary(op, a.Bits, b.Bits)
	if err != nil {
		return Num{}, err
	}
	return IntNum(k), nil
}

// UnaryNum applies a unary operator (only negation) to a typed scalar: an
// int negation wraps (Unary), a float one flips the sign (-0.0 from 0.0).
func UnaryNum(op Op, a Num) Num {
	if a.Elem == FloatElem {
		if op != Neg {
			panic(fmt.Sprintf("semantics.UnaryNum: not a unary operator: %v", op))
		}
		return FloatNum(-a.Float())
	}
	return IntNum(Unary(op, a.Bits))
}

// Func is a built-in scalar function, applied as name(se). The table of
// functions is shared by the languages' parsers, printers, checkers and
// semantics: Func ↔ name (String, LookupFunc), argument type (Arg) and
// result type (Result).
type Func int

// The built-in functions. The elementary functions are float → float and
// are Go's math package (correctly rounded for sqrt; for the others within
// an ulp or so, the same on every run). Float and Int convert: float(se) is
// int → float and int(se) float → int.
const (
	Sqrt    Func = iota // sqrt: float → float; sqrt of a negative is NaN
	Exp                 // exp: float → float
	Log                 // log: float → float, the natural logarithm; log 0 is -Inf, of a negative NaN
	Sin                 // sin: float → float
	Cos                 // cos: float → float
	ToFloat             // float: int → float, exact up to 2^53, else rounded to nearest (even)
	ToInt               // int: float → int, truncating toward zero; NaN or out of int64 range is ErrIntConversion
)

var funcTable = [...]struct {
	name     string
	arg, res Elem
	f        func(float64) float64
}{
	Sqrt:    {"sqrt", FloatElem, FloatElem, math.Sqrt},
	Exp:     {"exp", FloatElem, FloatElem, math.Exp},
	Log:     {"log", FloatElem, FloatElem, math.Log},
	Sin:     {"sin", FloatElem, FloatElem, math.Sin},
	Cos:     {"cos", FloatElem, FloatElem, math.Cos},
	ToFloat: {"float", IntElem, FloatElem, nil},
	ToInt:   {"int", FloatElem, IntElem, nil},
}

func (f Func) valid() bool { return f >= 0 && int(f) < len(funcTable) }

// String is the function's name as programs write it.
func (f Func) String() string {
	if !f.valid() {
		return fmt.Sprintf("Func(%d)", int(f))
	}
	return funcTable[f].name
}

// Arg is the element type of the function's argument.
func (f Func) Arg() Elem { return funcTable[f].arg }

// Result is the element type of the function's result.
func (f Func) Result() Elem { return funcTable[f].res }

// LookupFunc is the function a name denotes; ok is false for any other
// name (so a parser can tell a call from an identifier).
func LookupFunc(name string) (f Func, ok bool) {
	for i := range funcTable {
		if funcTable[i].name == name {
			return Func(i), true
		}
	}
	return 0, false
}

// Funcs is every built-in function, in the order of their constants.
func Funcs() []Func {
	out := make([]Func, len(funcTable))
	for i := range out {
		out[i] = Func(i)
	}
	return out
}

// ErrIntConversion is the error of int(x) when x is NaN or its truncation
// lies outside the int64 range (±Inf included): the languages' stuck state
// for int(se).
type ErrIntConversion struct{ Value float64 }

// Error names the value and why it has no int.
func (e ErrIntConversion) Error() string {
	if math.IsNaN(e.Value) {
		return "int(NaN): NaN has no int value"
	}
	return fmt.Sprintf("integer overflow: int(%s) does not fit in 64 bits", FormatFloat(e.Value))
}

// Overflow reports whether the conversion failed for a value out of the
// int64 range (rather than NaN): an integer overflow, as ErrOverflow is.
func (e ErrIntConversion) Overflow() bool { return !math.IsNaN(e.Value) }

// ApplyFunc applies a built-in function. Its errors are ErrElem, for an
// argument of the wrong type (which the checkers refuse), and
// ErrIntConversion, for int(x) of a NaN or an x out of range.
func ApplyFunc(f Func, x Num) (Num, error) {
	if !f.valid() {
		panic(fmt.Sprintf("semantics.ApplyFunc: not a function: %v", f))
	}
	if x.Elem != f.Arg() {
		return Num{}, ErrElem{What: "function " + f.String(), Want: f.Arg(), Got: x.Elem}
	}
	switch f {
	case ToFloat:
		return FloatNum(float64(x.Bits)), nil
	case ToInt:
		v := x.Float()
		t := math.Trunc(v)
		// -2^63 and 2^63 are exact floats; the range is [-2^63, 2^63).
		if math.IsNaN(t) || t < -(1<<63) || t >= 1<<63 {
			return Num{}, ErrIntConversion{v}
		}
		return IntNum(int64(t)), nil
	}
	return FloatNum(funcTable[f].f(x.Float())), nil
}
