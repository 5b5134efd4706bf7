package dynamic

import (
	"errors"
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

// MaxExactBits bounds the size of an exact number, its numerator and its
// denominator: 332 192 bits, so that one is below 10^100000 (at most
// 100 000 decimal digits). Fuel counts steps, and a step of an unbounded
// exact number is a multiplication as long as the number: squaring 3
// thirty-two times ran past 600 s at 900 MB under --fuel 100000. A scalar
// primitive whose exact result passes the bound is stuck (boundedExact); expt
// is stuck before it computes such a power.
const MaxExactBits = 332192

// tooLarge reports whether an exact result passes MaxExactBits.
func (x num) tooLarge() bool {
	return x.k == remora.KNum && (x.r.Num().BitLen() > MaxExactBits || x.r.Denom().BitLen() > MaxExactBits)
}

// boundedExact is op, stuck where its exact result passes MaxExactBits.
func boundedExact(name string, op scalarOp) scalarOp {
	return func(c *remora.Call, xs []num) (num, error) {
		r, err := op(c, xs)
		if err == nil && r.tooLarge() {
			return num{}, stuck(c, name, "an exact result of 2^%d or more (about 10^100000), past the bound on the dialect's exact numbers", MaxExactBits)
		}
		return r, err
	}
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

// parseNumber reads the literals of Racket's numbers that the typed
// core's literal reader does not: integers beyond 64 bits, fractions n/d
// (3/5, -7/2), and numbers with Racket's prefixes (Racket reference,
// §1.3.3 Reading Numbers): #e (exact: #e1.5 is 3/2), #i (inexact: #i3 is
// 3.0), and the radices #x, #o, #b and #d (#x10 is 16, #b101 is 5), in
// either order (#x#e1.8 is 3/2). It reports false for anything else,
// which the typed core's literal reader handles.
func parseNumber(text string) (num, bool) {
	if strings.HasPrefix(text, "#") {
		return parsePrefixed(text)
	}
	if text == "" || strings.ContainsAny(text, ".eE") {
		return num{}, false
	}
	r, inexact, ok := parseReal(text, 10)
	if !ok || inexact {
		return num{}, false
	}
	if _, err := strconv.ParseInt(text, 10, 64); err == nil {
		return num{}, false // an int literal: the typed core's reader takes it
	}
	return ratNum(r), true
}

// parsePrefixed reads a number written with Racket's prefixes: at most
// one exactness (#e, #i) and one radix (#x, #o, #b, #d), then the digits.
func parsePrefixed(text string) (num, bool) {
	radix, exactness := 0, byte(0)
	for strings.HasPrefix(text, "#") && len(text) >= 2 {
		switch c := text[1] | 0x20; c { // Racket reads #X as #x
		case 'e', 'i':
			if exactness != 0 {
				return num{}, false
			}
			exactness = c
		case 'x', 'o', 'b', 'd':
			if radix != 0 {
				return num{}, false
			}
			radix = map[byte]int{'x': 16, 'o': 8, 'b': 2, 'd': 10}[c]
		default:
			return num{}, false
		}
		text = text[2:]
	}
	if radix == 0 {
		radix = 10
	}
	if text == "" || text[0] == '#' {
		return num{}, false
	}
	if f, ok := specialFloat(text); ok {
		if exactness == 'e' {
			return num{}, false // #e+inf.0 has no exact value: Racket refuses to read it
		}
		return floatNum(f), true
	}
	r, inexact, ok := parseReal(text, radix)
	switch {
	case !ok, r == nil && exactness == 'e':
		return num{}, false
	case exactness == 'e' || exactness == 0 && !inexact:
		return ratNum(r), true
	case radix == 10 && !strings.Contains(text, "/"):
		// A decimal is read as the float nearest to it, as Racket's
		// reader does, not through the exact value's rounding twice.
		// Out of range is an infinity or a zero, as Racket reads it.
		f, err := strconv.ParseFloat(text, 64)
		if err != nil && !errors.Is(err, strconv.ErrRange) {
			return num{}, false
		}
		return floatNum(f), true
	}
	f, _ := r.Float64()
	if f == 0 && strings.HasPrefix(text, "-") {
		f = math.Copysign(0, -1) // #i-0 is -0.0
	}
	return floatNum(f), true
}

// specialFloat reads Racket's infinities and NaN.
func specialFloat(text string) (float64, bool) {
	switch text {
	case "+inf.0":
		return math.Inf(1), true
	case "-inf.0":
		return math.Inf(-1), true
	case "+nan.0", "-nan.0":
		return math.NaN(), true
	}
	return 0, false
}

// parseReal reads a signed number in the radix: an integer, a fraction
// n/d, or a decimal with a point (and, in radix 10, an exponent). It
// gives the exact value (nil past an exponent of ±10000), and whether the
// literal is a decimal (which Racket reads as a float unless #e says
// otherwise).
func parseReal(text string, radix int) (r *big.Rat, inexact, ok bool) {
	neg := strings.HasPrefix(text, "-")
	body := strings.TrimPrefix(strings.TrimPrefix(text, "-"), "+")
	if body == "" || len(body) < len(text)-1 {
		return nil, false, false
	}
	if n, d, isFrac := strings.Cut(body, "/"); isFrac {
		// big.Rat.SetString would read 010/3 as octal; Racket reads 10/3.
		nn, ok1 := integer(n, radix)
		dd, ok2 := integer(d, radix)
		if !ok1 || !ok2 || dd.Sign() == 0 {
			return nil, false, false
		}
		r = new(big.Rat).SetFrac(nn, dd)
	} else {
		mant, exp, hasExp := body, "", false
		if radix == 10 {
			if i := strings.IndexAny(body, "eE"); i >= 0 {
				mant, exp, hasExp = body[:i], body[i+1:], true
			}
		}
		whole, frac, point := strings.Cut(mant, ".")
		if whole == "" && frac == "" || strings.Contains(frac, ".") {
			return nil, false, false
		}
		ds, ok := integer(whole+frac, radix)
		if !ok {
			return nil, false, false
		}
		scale := new(big.Int).Exp(big.NewInt(int64(radix)), big.NewInt(int64(len(frac))), nil)
		r = new(big.Rat).SetFrac(ds, scale)
		if hasExp {
			// The bound keeps #e1e999999999 from computing a power of
			// ten of a gigabyte; a float overflows long before it, so
			// past it the literal is well formed with no exact value
			// (nil), which only a float reading takes (#i1e20000 is
			// +inf.0, as Racket reads it).
			e, err := strconv.ParseInt(exp, 10, 32)
			if err != nil && !errors.Is(err, strconv.ErrRange) {
				return nil, false, false
			}
			if err != nil || e > 10000 || e < -10000 {
				return nil, true, true
			}
			r.Mul(r, powRat(big.NewRat(10, 1), e))
		}
		inexact = point || hasExp
	}
	if neg {
		r.Neg(r)
	}
	return r, inexact, true
}

// integer reads unsigned digits in the radix (none of Go's prefixes or
// underscores).
func integer(s string, radix int) (*big.Int, bool) {
	for _, c := range strings.ToLower(s) {
		d := strings.IndexRune("0123456789abcdef", c)
		if d < 0 || d >= radix {
			return nil, false
		}
	}
	if s == "" {
		return nil, false
	}
	return new(big.Int).SetString(s, radix)
}

// numScalar is the scalar array of one number.
func numScalar(x num) *remora.Value { return numsValue(nil, []num{x}) }

// The arithmetic of the tower. Each operation takes the fast int64 path
// when both arguments are ints and the result fits, else exact rationals
// when both are exact, else floats.

// zero reports whether x is an exact zero. Racket gives exact zero the
// laws it has in the exact rationals even beside a float: it is the
// identity of + ((+ 0 -0.0) is -0.0) and absorbs * ((* 0 +inf.0) is 0)
// and / ((/ 0 2.0) is 0), and dividing by it is an error ((/ 1.0 0)),
// where a float zero gives an infinity (Racket reference, §4.3 Numbers,
// "Arithmetic").
func (x num) zero() bool { return x.exact() && x.sign() == 0 }

func addNum(a, b num) num {
	switch {
	case a.zero():
		return b
	case b.zero():
		return a
	}
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
	switch {
	case b.zero():
		return a
	case a.zero():
		return negNum(b) // (- 0 0.0) is -0.0
	}
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
	if a.zero() || b.zero() {
		return intNum(0) // (* 0 1.5) and (* 0 +nan.0) are exact 0
	}
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
// zero divisor is an error even beside a float ((/ 1.0 0) fails, where
// (/ 1.0 0.) is +inf.0); an exact zero dividend gives exact 0 ((/ 0 2.0)
// is 0).
func divNum(a, b num) (num, bool) {
	switch {
	case b.zero():
		return num{}, false
	case a.zero():
		return intNum(0), true
	}
	if a.exact() && b.exact() {
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

// negNum is (- a): a float's sign flips even at zero ((- 0.0) is -0.0).
func negNum(a num) num {
	switch {
	case a.k == remora.KFloat:
		return floatNum(-a.f)
	case a.k == remora.KInt && a.i != math.MinInt64:
		return intNum(-a.i)
	}
	return ratNum(new(big.Rat).Neg(a.rat()))
}

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
