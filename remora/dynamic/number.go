package dynamic

import (
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/remora"
)

// Racket's numbers, as #lang remora/dynamic inherits them: exact integers
// of any size, exact rationals, and inexact floats. An exact result is
// exact ((/ 7 2) is 7/2, (* 99999999999 99999999999) does not wrap); an
// inexact argument makes the result inexact ((+ 1/2 0.5) is 1.).
//
// The representation keeps the typed core's flat buffers where it can: an
// exact integer that fits in 64 bits is an int atom (KInt), so arrays of
// small integers stay []int64 and their arithmetic stays machine
// arithmetic; only a result that overflows, or is not an integer, becomes
// a Num atom (KNum), and an array holding one holds its exact atoms as
// Nums. The typed dialect keeps int64 (ERRATA R15).

// Num is an exact number an int64 cannot hold: a big integer or a
// rational in lowest terms. It prints as Racket prints it: 7/2, -1/3,
// 100000000000000000000.
type Num struct{ R *big.Rat }

// String prints the number: an integer as digits, a rational as n/d.
func (n *Num) String() string {
	if n.R.IsInt() {
		return n.R.Num().String()
	}
	return n.R.String()
}

// num is one number (or boolean or character) while a scalar primitive
// works on it: its kind, and the field that kind uses.
type num struct {
	k remora.Kind // KInt, KFloat, KNum, KBool or KChar
	i int64
	f float64
	r *big.Rat
}

func intNum(i int64) num     { return num{k: remora.KInt, i: i} }
func floatNum(f float64) num { return num{k: remora.KFloat, f: f} }
func boolNum(b bool) num {
	if b {
		return num{k: remora.KBool, i: 1}
	}
	return num{k: remora.KBool}
}

// ratNum is an exact number, an int atom when it fits.
func ratNum(r *big.Rat) num {
	if r.IsInt() && r.Num().IsInt64() {
		return intNum(r.Num().Int64())
	}
	return num{k: remora.KNum, r: r}
}

func (x num) exact() bool   { return x.k == remora.KInt || x.k == remora.KNum }
func (x num) numeric() bool { return x.exact() || x.k == remora.KFloat }

// rat is an exact number as a rational.
func (x num) rat() *big.Rat {
	if x.k == remora.KNum {
		return x.r
	}
	return new(big.Rat).SetInt64(x.i)
}

// float is a number as a float (exact->inexact).
func (x num) float() float64 {
	switch x.k {
	case remora.KFloat:
		return x.f
	case remora.KNum:
		f, _ := x.r.Float64()
		return f
	}
	return float64(x.i)
}

// isInt reports whether x is an exact integer.
func (x num) isInt() bool { return x.k == remora.KInt || x.k == remora.KNum && x.r.IsInt() }

// bigInt is an exact integer as a big.Int.
func (x num) bigInt() *big.Int {
	if x.k == remora.KNum {
		return new(big.Int).Set(x.r.Num())
	}
	return big.NewInt(x.i)
}

// sign is -1, 0 or 1 (NaN counts as 0).
func (x num) sign() int {
	switch x.k {
	case remora.KFloat:
		switch {
		case x.f > 0:
			return 1
		case x.f < 0:
			return -1
		}
		return 0
	case remora.KNum:
		return x.r.Sign()
	}
	switch {
	case x.i > 0:
		return 1
	case x.i < 0:
		return -1
	}
	return 0
}

// numAt reads atom i of v.
func numAt(v *remora.Value, i int) num {
	switch v.Kind {
	case remora.KFloat:
		return floatNum(v.F[i])
	case remora.KNum:
		return num{k: remora.KNum, r: v.A[i].(*Num).R}
	}
	return num{k: v.Kind, i: v.I[i]}
}

// numsValue packs results into an array of the given shape: exact
// integers that fit stay an int buffer; exact numbers with one that does
// not are Nums; numbers with a float among them are floats (as a collapse
// of int and float cells is). Booleans and characters keep their kind.
func numsValue(shape []int64, xs []num) *remora.Value {
	kind := remora.KInt
	if len(xs) > 0 {
		kind = xs[0].k
	}
	for _, x := range xs[1:] {
		kind = joinKinds(kind, x.k)
	}
	out := remora.NewValue(kind, shape, len(xs))
	for i, x := range xs {
		switch kind {
		case remora.KFloat:
			out.F[i] = x.float()
		case remora.KNum:
			out.A[i] = &Num{R: x.rat()}
		default:
			out.I[i] = x.i
		}
	}
	return out
}

// joinKinds is the kind an array holding atoms of kinds a and b takes:
// ints join Nums as Nums, exact numbers join floats as floats. Other
// mixtures cannot share a flat buffer; the callers check them first.
func joinKinds(a, b remora.Kind) remora.Kind {
	switch {
	case a == b:
		return a
	case a == remora.KFloat || b == remora.KFloat:
		return remora.KFloat
	case a == remora.KNum || b == remora.KNum:
		return remora.KNum
	}
	return a
}

// isNum reports whether atoms of kind k are numbers.
func isNum(k remora.Kind) bool {
	return k == remora.KInt || k == remora.KFloat || k == remora.KNum
}

// isBase reports whether atoms of kind k are base values (numbers,
// booleans, characters), as against functions and boxes.
func isBase(k remora.Kind) bool { return k < remora.KFunc || k == remora.KNum }

// toKind converts a numeric array to kind k (KNum or KFloat), as a
// collapse or an append joining it with atoms of that kind does.
func toKind(v *remora.Value, k remora.Kind) *remora.Value {
	if v.Kind == k || v.Len() == 0 {
		return v
	}
	xs := make([]num, v.Len())
	for i := range xs {
		xs[i] = numAt(v, i)
		if k == remora.KFloat {
			xs[i] = floatNum(xs[i].float())
		}
	}
	out := numsValue(v.Shape, xs)
	if out.Kind != k { // all the exact atoms fitted in int64
		n := remora.NewValue(k, v.Shape, len(xs))
		for i, x := range xs {
			n.A[i] = &Num{R: x.rat()}
		}
		return n
	}
	return out
}

// parseNumber reads Racket's exact numbers that an int64 literal cannot
// be: integers beyond 64 bits, and fractions n/d (3/5, -7/2). It reports
// false for anything else, which the typed core's literal reader handles.
func parseNumber(text string) (num, bool) {
	if text == "" || strings.ContainsAny(text, ".eE#") {
		return num{}, false
	}
	body := strings.TrimPrefix(strings.TrimPrefix(text, "-"), "+")
	if body == "" || body[0] < '0' || body[0] > '9' {
		return num{}, false
	}
	if n, d, ok := strings.Cut(body, "/"); ok {
		if !digits(n) || !digits(d) {
			return num{}, false
		}
	} else if !digits(body) {
		return num{}, false
	} else if _, err := strconv.ParseInt(text, 10, 64); err == nil {
		return num{}, false // an int literal: the typed core's reader takes it
	}
	r, ok := new(big.Rat).SetString(strings.TrimPrefix(text, "+"))
	if !ok {
		return num{}, false
	}
	return ratNum(r), true
}

func digits(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// numScalar is the scalar array of one number.
func numScalar(x num) *remora.Value { return numsValue(nil, []num{x}) }

// The arithmetic of the tower. Each operation takes the fast int64 path
// when both arguments are ints and the result fits, else exact rationals
// when both are exact, else floats.

func addNum(a, b num) num {
	if a.k == remora.KInt && b.k == remora.KInt {
		if s, ok := addInt(a.i, b.i); ok {
			return intNum(s)
		}
	}
	if a.exact() && b.exact() {
		return ratNum(new(big.Rat).Add(a.rat(), b.rat()))
	}
	return floatNum(a.float() + b.float())
}

func subNum(a, b num) num {
	if a.k == remora.KInt && b.k == remora.KInt {
		if s, ok := subInt(a.i, b.i); ok {
			return intNum(s)
		}
	}
	if a.exact() && b.exact() {
		return ratNum(new(big.Rat).Sub(a.rat(), b.rat()))
	}
	return floatNum(a.float() - b.float())
}

func mulNum(a, b num) num {
	if a.k == remora.KInt && b.k == remora.KInt {
		if p, ok := mulInt(a.i, b.i); ok {
			return intNum(p)
		}
	}
	if a.exact() && b.exact() {
		return ratNum(new(big.Rat).Mul(a.rat(), b.rat()))
	}
	return floatNum(a.float() * b.float())
}

// divNum is Racket's /: exact division gives a rational, and an exact
// zero divisor is an error (a float one gives an infinity or NaN).
func divNum(a, b num) (num, bool) {
	if a.exact() && b.exact() {
		if b.sign() == 0 {
			return num{}, false
		}
		if a.k == remora.KInt && b.k == remora.KInt && b.i != -1 && a.i%b.i == 0 {
			return intNum(a.i / b.i), true
		}
		return ratNum(new(big.Rat).Quo(a.rat(), b.rat())), true
	}
	return floatNum(a.float() / b.float()), true
}

// cmpNum compares two numbers: -1, 0 or 1; ok is false when a float
// argument is NaN (every comparison with NaN is false).
func cmpNum(a, b num) (int, bool) {
	if a.k == remora.KInt && b.k == remora.KInt {
		switch {
		case a.i < b.i:
			return -1, true
		case a.i > b.i:
			return 1, true
		}
		return 0, true
	}
	if a.exact() && b.exact() {
		return a.rat().Cmp(b.rat()), true
	}
	// Racket compares an exact number with a float exactly; a float
	// (not NaN or infinite) is an exact rational.
	fa, fb := a.float(), b.float()
	if math.IsNaN(fa) || math.IsNaN(fb) {
		return 0, false
	}
	if math.IsInf(fa, 0) || math.IsInf(fb, 0) {
		switch {
		case fa < fb:
			return -1, true
		case fa > fb:
			return 1, true
		}
		return 0, true
	}
	ra, rb := exactOf(a), exactOf(b)
	return ra.Cmp(rb), true
}

// exactOf is a finite number as an exact rational.
func exactOf(x num) *big.Rat {
	if x.k == remora.KFloat {
		return new(big.Rat).SetFloat64(x.f)
	}
	return x.rat()
}

func negNum(a num) num { return subNum(intNum(0), a) }

func addInt(a, b int64) (int64, bool) {
	s := a + b
	return s, (s > a) == (b > 0)
}

func subInt(a, b int64) (int64, bool) {
	s := a - b
	return s, (s < a) == (b > 0)
}

func mulInt(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || a == -1 && b == math.MinInt64 || b == -1 && a == math.MinInt64 {
		return 0, false
	}
	return p, true
}
