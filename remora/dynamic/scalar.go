package dynamic

import (
	"math"
	"math/big"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The scalar primitives: functions of scalar cells (every parameter of
// cell rank 0), so they lift over any frame. They are Racket's functions
// on Racket's numbers (number.go), with Racket's arities: (- 5) is -5 and
// (+ 1 2 3) is 6, each argument a rank-0 cell. An arity of MinArgs..
// MaxArgs (MaxArgs < 0: any number) gives as many rank-0 parameters as
// there are arguments.

// scalarOp is a scalar δ-rule on one atom of each argument.
type scalarOp func(c *remora.Call, xs []num) (num, error)

// scalarPrim defines a scalar primitive of arity min..max (max < 0 for
// any), and the typed primitives that elaborate it for check --infer.
func scalarPrim(name string, min, max int, op scalarOp, twins ...string) *PrimDef {
	p := define(name, make([]int, min)...)
	p.MinArgs, p.MaxArgs, p.Op = min, max, boundedExact(name, op)
	for _, t := range twins {
		p.Scalar = append(p.Scalar, typed(t))
	}
	return p
}

// RanksFor are the cell ranks the primitive takes when applied to n
// arguments: a primitive of variable arity (scalar ones, compose) takes n
// scalars; with an n outside its arity, its least arity's ranks (so that
// the arity check fails).
func (p *PrimDef) RanksFor(n int) []int {
	if p.variadic() && n >= p.MinArgs && (p.MaxArgs < 0 || n <= p.MaxArgs) {
		return make([]int, n)
	}
	return p.Ranks
}

// variadic reports whether the primitive takes a number of arguments
// between MinArgs and MaxArgs (MaxArgs < 0: any), each a scalar cell.
func (p *PrimDef) variadic() bool { return p.MinArgs != p.MaxArgs }

// arity describes how many arguments the primitive takes.
func (p *PrimDef) arity() string {
	switch {
	case !p.variadic():
		n := len(p.Ranks)
		return semantics.Plural(n, "argument")
	case p.MaxArgs < 0:
		return itoa(p.MinArgs) + " or more arguments"
	}
	return itoa(p.MinArgs) + " to " + itoa(p.MaxArgs) + " arguments"
}

// numbers checks that every argument is a number (Racket's number?).
func numbers(c *remora.Call, name string, xs []num) error {
	for _, x := range xs {
		if !x.numeric() {
			return stuck(c, name, "takes numbers, got a %s", x.k)
		}
	}
	return nil
}

// integers checks that every argument is an integer (exact, or a float
// with no fraction, as Racket's integer?).
func integers(c *remora.Call, name string, xs []num) error {
	for _, x := range xs {
		if !x.isInt() && !(x.k == remora.KFloat && x.f == math.Trunc(x.f) && !math.IsInf(x.f, 0)) {
			return stuck(c, name, "takes integers, got %s", numString(x))
		}
	}
	return nil
}

// numString prints one atom.
func numString(x num) string { return numScalar(x).String() }

// foldNums folds a variadic arithmetic primitive: (op) is unit, (op x)
// is single(x), else a left fold.
func foldNums(name string, unit *num, single func(num) (num, bool), op func(a, b num) (num, bool), why string) scalarOp {
	return func(c *remora.Call, xs []num) (num, error) {
		if err := numbers(c, name, xs); err != nil {
			return num{}, err
		}
		if len(xs) == 0 {
			return *unit, nil
		}
		acc := xs[0]
		if len(xs) == 1 && single != nil {
			r, ok := single(acc)
			if !ok {
				return num{}, stuck(c, name, "%s", why)
			}
			return r, nil
		}
		for _, x := range xs[1:] {
			var ok bool
			if acc, ok = op(acc, x); !ok {
				return num{}, stuck(c, name, "%s", why)
			}
		}
		return acc, nil
	}
}

// chain is a Racket comparison of one or more numbers: true when every
// neighbouring pair is in the relation.
func chain(name string, rel func(cmp int) bool) scalarOp {
	return func(c *remora.Call, xs []num) (num, error) {
		if err := numbers(c, name, xs); err != nil {
			return num{}, err
		}
		for i := 1; i < len(xs); i++ {
			cmp, ok := cmpNum(xs[i-1], xs[i])
			if !ok || !rel(cmp) {
				return boolNum(false), nil
			}
		}
		return boolNum(true), nil
	}
}

// unary is a one-argument numeric function.
func unary(name string, f func(c *remora.Call, x num) (num, error)) scalarOp {
	return func(c *remora.Call, xs []num) (num, error) {
		if err := numbers(c, name, xs); err != nil {
			return num{}, err
		}
		return f(c, xs[0])
	}
}

// inexact is a transcendental function: a float result, except that
// Racket gives the exact result at an exact argument where there is one
// ((exp 0) is 1, (sin 0) is 0); a result that would be complex is an
// error (complex numbers are outside the dialect, README).
func inexact(name string, f func(float64) float64, exactAt *num, exactIs num, domain func(float64) bool) scalarOp {
	return unary(name, func(c *remora.Call, x num) (num, error) {
		if exactAt != nil && x.exact() {
			if cmp, _ := cmpNum(x, *exactAt); cmp == 0 {
				return exactIs, nil
			}
		}
		if domain != nil && !domain(x.float()) {
			return num{}, stuck(c, name, "%s has no real result (complex numbers are not supported)", numString(x))
		}
		return floatNum(f(x.float())), nil
	})
}

// floatTwin is one of the typed dialect's float operators (+. and so
// on), kept for programs erased from it: the operation on floats.
func floatTwin(name string, op scalarOp) scalarOp {
	return func(c *remora.Call, xs []num) (num, error) {
		if err := numbers(c, name, xs); err != nil {
			return num{}, err
		}
		fs := make([]num, len(xs))
		for i, x := range xs {
			fs[i] = floatNum(x.float())
		}
		return op(c, fs)
	}
}

func bools(c *remora.Call, name string, xs []num) error {
	for _, x := range xs {
		if x.k != remora.KBool {
			return stuck(c, name, "takes booleans, got %s", numString(x))
		}
	}
	return nil
}

func init() {
	zero, one := intNum(0), intNum(1)
	add := func(a, b num) (num, bool) { return addNum(a, b), true }
	mul := func(a, b num) (num, bool) { return mulNum(a, b), true }
	sub := func(a, b num) (num, bool) { return subNum(a, b), true }
	neg := func(a num) (num, bool) { return negNum(a), true }
	inv := func(a num) (num, bool) { return divNum(one, a) }
	maxf := func(a, b num) (num, bool) {
		cmp, ok := cmpNum(a, b)
		r := a
		if !ok {
			r = floatNum(math.NaN())
		} else if cmp < 0 {
			r = b
		}
		if !a.exact() || !b.exact() { // an inexact argument makes the result inexact
			r = floatNum(r.float())
		}
		return r, true
	}
	minf := func(a, b num) (num, bool) {
		cmp, ok := cmpNum(a, b)
		r := a
		if !ok {
			r = floatNum(math.NaN())
		} else if cmp > 0 {
			r = b
		}
		if !a.exact() || !b.exact() {
			r = floatNum(r.float())
		}
		return r, true
	}
	ident := func(a num) (num, bool) { return a, true }

	p := scalarPrim("+", 0, -1, foldNums("+", &zero, ident, add, ""), "+", "+.")
	p.IntFast = addInt
	p = scalarPrim("*", 0, -1, foldNums("*", &one, ident, mul, ""), "*", "*.")
	p.IntFast = mulInt
	p = scalarPrim("-", 1, -1, foldNums("-", nil, neg, sub, ""), "-", "-.")
	p.IntFast = subInt
	scalarPrim("/", 1, -1, foldNums("/", nil, inv, divNum, "division by zero"))
	scalarPrim("max", 1, -1, foldNums("max", nil, ident, maxf, ""), "max", "max.")
	scalarPrim("min", 1, -1, foldNums("min", nil, ident, minf, ""), "min", "min.")
	for _, n := range []string{"+", "-", "*", "/", "max", "min"} {
		scalarPrim(n+".", 2, 2, floatTwin(n+".", Basis[n].Op), n+".")
	}
	absf := unary("abs", func(c *remora.Call, x num) (num, error) { return absNum(x), nil })
	scalarPrim("abs", 1, 1, absf, "abs", "abs.")
	scalarPrim("abs.", 1, 1, floatTwin("abs.", absf), "abs.")

	rels := map[string]func(int) bool{
		"<": func(c int) bool { return c < 0 }, "<=": func(c int) bool { return c <= 0 },
		">": func(c int) bool { return c > 0 }, ">=": func(c int) bool { return c >= 0 },
		"=": func(c int) bool { return c == 0 },
	}
	for n, rel := range rels {
		twins := []string{n}
		if n != "=" {
			twins = append(twins, n+".")
			scalarPrim(n+".", 2, 2, floatTwin(n+".", chain(n+".", rel)), n+".")
		}
		scalarPrim(n, 1, -1, chain(n, rel), twins...)
	}
	scalarPrim("!=", 2, 2, func(c *remora.Call, xs []num) (num, error) {
		eq, err := chain("!=", rels["="])(c, xs)
		return boolNum(eq.i == 0), err
	}, "!=")

	// Integer division: Racket's quotient, remainder (the sign of the
	// dividend) and modulo (the sign of the divisor); % is remainder, as
	// in the typed dialect.
	intDiv := func(name string, f func(q, r *big.Int, a, b *big.Int) *big.Int) scalarOp {
		return func(c *remora.Call, xs []num) (num, error) {
			if err := integers(c, name, xs); err != nil {
				return num{}, err
			}
			inexact := xs[0].k == remora.KFloat || xs[1].k == remora.KFloat
			a, b := intOf(xs[0]), intOf(xs[1])
			if b.Sign() == 0 {
				return num{}, stuck(c, name, "division by zero")
			}
			if xs[0].zero() {
				return intNum(0), nil // (quotient 0 2.0) is exact 0, as (/ 0 2.0) is
			}
			q, r := new(big.Int).QuoRem(a, b, new(big.Int))
			out := ratNum(new(big.Rat).SetInt(f(q, r, a, b)))
			if inexact {
				return floatNum(out.float()), nil
			}
			return out, nil
		}
	}
	quot := intDiv("quotient", func(q, r, a, b *big.Int) *big.Int { return q })
	rem := intDiv("remainder", func(q, r, a, b *big.Int) *big.Int { return r })
	scalarPrim("quotient", 2, 2, quot, "/")
	scalarPrim("remainder", 2, 2, rem, "%")
	scalarPrim("%", 2, 2, intDiv("%", func(q, r, a, b *big.Int) *big.Int { return r }), "%")
	scalarPrim("modulo", 2, 2, intDiv("modulo", func(q, r, a, b *big.Int) *big.Int {
		if r.Sign() != 0 && r.Sign() != b.Sign() {
			r.Add(r, b)
		}
		return r
	}))
	// gcd and lcm take rational numbers, as Racket's do (Racket
	// reference, §4.3 Numbers, "Number Theory"): (gcd 1/2 1/3) is 1/6, a
	// float argument makes the result a float ((gcd 1.5 2) is 0.5).
	gcdOf := func(name string, unit num, pair func(a, b num) num) scalarOp {
		return func(c *remora.Call, xs []num) (num, error) {
			if err := rationals(c, name, xs); err != nil {
				return num{}, err
			}
			if len(xs) == 0 {
				return unit, nil
			}
			acc := absNum(xs[0]) // (lcm -1/2) is 1/2, not (lcm 1 -1/2)
			for _, x := range xs[1:] {
				acc = pair(acc, x)
			}
			return acc, nil
		}
	}
	scalarPrim("gcd", 0, -1, gcdOf("gcd", zero, gcdNum))
	scalarPrim("lcm", 0, -1, gcdOf("lcm", one, lcmNum))

	scalarPrim("neg", 1, 1, unary("neg", func(c *remora.Call, x num) (num, error) { return negNum(x), nil }))
	scalarPrim("inv", 1, 1, unary("inv", func(c *remora.Call, x num) (num, error) {
		r, ok := divNum(one, x)
		if !ok {
			return num{}, stuck(c, "inv", "division by zero")
		}
		return r, nil
	}))
	scalarPrim("add1", 1, 1, unary("add1", func(c *remora.Call, x num) (num, error) { return addNum(x, one), nil }))
	scalarPrim("sub1", 1, 1, unary("sub1", func(c *remora.Call, x num) (num, error) { return subNum(x, one), nil }))
	scalarPrim("signum", 1, 1, unary("signum", func(c *remora.Call, x num) (num, error) {
		if x.k == remora.KFloat {
			if math.IsNaN(x.f) {
				return x, nil
			}
			return floatNum(float64(x.sign())), nil
		}
		return intNum(int64(x.sign())), nil
	}))
	scalarPrim("id", 1, 1, func(c *remora.Call, xs []num) (num, error) { return xs[0], nil })

	// Rounding: exact stays exact, a float stays a float.
	rounding := func(name string, f func(float64) float64, g func(r *big.Rat) *big.Int) {
		scalarPrim(name, 1, 1, unary(name, func(c *remora.Call, x num) (num, error) {
			switch x.k {
			case remora.KFloat:
				return floatNum(f(x.f)), nil
			case remora.KInt:
				return x, nil
			}
			return ratNum(new(big.Rat).SetInt(g(x.r))), nil
		}))
	}
	floorRat := func(r *big.Rat) *big.Int {
		// Euclidean division by the positive denominator is the floor.
		q, _ := new(big.Int).DivMod(r.Num(), r.Denom(), new(big.Int))
		return q
	}
	rounding("floor", math.Floor, floorRat)
	rounding("ceiling", math.Ceil, func(r *big.Rat) *big.Int {
		return new(big.Int).Neg(floorRat(new(big.Rat).Neg(r)))
	})
	rounding("truncate", math.Trunc, func(r *big.Rat) *big.Int { return new(big.Int).Quo(r.Num(), r.Denom()) })
	rounding("round", math.RoundToEven, func(r *big.Rat) *big.Int {
		// Round half to even, as Racket does.
		fl := floorRat(r)
		frac := new(big.Rat).Sub(r, new(big.Rat).SetInt(fl))
		switch frac.Cmp(big.NewRat(1, 2)) {
		case 1:
			return fl.Add(fl, big.NewInt(1))
		case 0:
			if fl.Bit(0) == 1 {
				return fl.Add(fl, big.NewInt(1))
			}
		}
		return fl
	})

	scalarPrim("exact->inexact", 1, 1, unary("exact->inexact", func(c *remora.Call, x num) (num, error) { return floatNum(x.float()), nil }))
	scalarPrim("inexact->exact", 1, 1, unary("inexact->exact", func(c *remora.Call, x num) (num, error) {
		if x.k != remora.KFloat {
			return x, nil
		}
		if math.IsNaN(x.f) || math.IsInf(x.f, 0) {
			return num{}, stuck(c, "inexact->exact", "%s has no exact value", numString(x))
		}
		return ratNum(new(big.Rat).SetFloat64(x.f)), nil
	}))

	scalarPrim("expt", 2, 2, expt, "expt")
	scalarPrim("sqrt", 1, 1, unary("sqrt", func(c *remora.Call, x num) (num, error) { return sqrtNum(c, "sqrt", x) }), "sqrt")
	// sqr is racket/math's (* x x): exact for an exact argument.
	scalarPrim("sqr", 1, 1, unary("sqr", func(c *remora.Call, x num) (num, error) { return mulNum(x, x), nil }))
	positive := func(f float64) bool { return f > 0 || math.IsNaN(f) || f == 0 }
	scalarPrim("exp", 1, 1, inexact("exp", math.Exp, &zero, one, nil), "exp")
	scalarPrim("ln", 1, 1, inexact("ln", math.Log, &one, zero, positive), "log")
	scalarPrim("log", 1, 1, inexact("log", math.Log10, &one, zero, positive))
	scalarPrim("lg", 1, 1, inexact("lg", math.Log2, &one, zero, positive))
	scalarPrim("logb", 2, 2, func(c *remora.Call, xs []num) (num, error) {
		if err := numbers(c, "logb", xs); err != nil {
			return num{}, err
		}
		b, x := xs[0].float(), xs[1].float()
		if b <= 0 || x < 0 || b == 1 {
			return num{}, stuck(c, "logb", "no real logarithm of %s to base %s", numString(xs[1]), numString(xs[0]))
		}
		if xs[1].exact() && xs[1].sign() > 0 {
			if cmp, _ := cmpNum(xs[1], one); cmp == 0 {
				return zero, nil
			}
		}
		return floatNum(math.Log(x) / math.Log(b)), nil
	})
	unit := func(f float64) bool { return f >= -1 && f <= 1 || math.IsNaN(f) }
	scalarPrim("sin", 1, 1, inexact("sin", math.Sin, &zero, zero, nil), "sin")
	scalarPrim("cos", 1, 1, inexact("cos", math.Cos, &zero, one, nil), "cos")
	scalarPrim("tan", 1, 1, inexact("tan", math.Tan, &zero, zero, nil), "tan")
	scalarPrim("arcsin", 1, 1, inexact("arcsin", math.Asin, &zero, zero, unit), "arcsin")
	scalarPrim("arccos", 1, 1, inexact("arccos", math.Acos, &one, zero, unit), "arccos")
	scalarPrim("arctan", 1, 1, inexact("arctan", math.Atan, &zero, zero, nil), "arctan")
	// Racket's own names for them; atan also takes Racket's two
	// arguments (atan y x), the angle of the point (x, y).
	scalarPrim("asin", 1, 1, inexact("asin", math.Asin, &zero, zero, unit), "arcsin")
	scalarPrim("acos", 1, 1, inexact("acos", math.Acos, &one, zero, unit), "arccos")
	atan1 := inexact("atan", math.Atan, &zero, zero, nil)
	scalarPrim("atan", 1, 2, func(c *remora.Call, xs []num) (num, error) {
		if len(xs) == 1 {
			return atan1(c, xs)
		}
		if err := numbers(c, "atan", xs); err != nil {
			return num{}, err
		}
		y, x := xs[0], xs[1]
		if y.zero() && x.zero() {
			return num{}, stuck(c, "atan", "division by zero: (atan 0 0) has no angle")
		}
		r := math.Atan2(y.float(), x.float())
		if y.zero() && r == 0 {
			return zero, nil // (atan 0 x) is exact 0 for x positive, even a float
		}
		return floatNum(r), nil
	}, "arctan")

	scalarPrim("int->float", 1, 1, unary("int->float", func(c *remora.Call, x num) (num, error) { return floatNum(x.float()), nil }), "int->float")
	scalarPrim("float->int", 1, 1, unary("float->int", func(c *remora.Call, x num) (num, error) {
		if x.exact() {
			return ratNum(new(big.Rat).SetInt(new(big.Int).Quo(x.rat().Num(), x.rat().Denom()))), nil
		}
		if math.IsNaN(x.f) || math.IsInf(x.f, 0) {
			return num{}, stuck(c, "float->int", "%s is not a finite number", numString(x))
		}
		return ratNum(new(big.Rat).SetInt(bigOfFloat(math.Trunc(x.f)))), nil
	}), "float->int")
	scalarPrim("int->bool", 1, 1, unary("int->bool", func(c *remora.Call, x num) (num, error) { return boolNum(x.sign() != 0), nil }), "int->bool")
	scalarPrim("bool->int", 1, 1, func(c *remora.Call, xs []num) (num, error) {
		if err := bools(c, "bool->int", xs); err != nil {
			return num{}, err
		}
		return intNum(xs[0].i), nil
	}, "bool->int")
	boolOp := func(name string, unit bool, f func(a, b bool) bool) scalarOp {
		return func(c *remora.Call, xs []num) (num, error) {
			if err := bools(c, name, xs); err != nil {
				return num{}, err
			}
			acc := unit
			for _, x := range xs {
				acc = f(acc, x.i != 0)
			}
			return boolNum(acc), nil
		}
	}
	scalarPrim("and", 0, -1, boolOp("and", true, func(a, b bool) bool { return a && b }), "and")
	scalarPrim("or", 0, -1, boolOp("or", false, func(a, b bool) bool { return a || b }), "or")
	scalarPrim("not", 1, 1, boolOp("not", false, func(_, b bool) bool { return !b }), "not")
}

// expt is Racket's expt (Racket reference, §4.3 Numbers, "Powers and
// Roots"): exact for an exact base and an exact integer exponent, and at
// these points whatever the other argument: an exact 0 exponent or an
// exact 1 base gives 1 ((expt 2.0 0) is 1), an exact 0 base gives 0 for
// a positive exponent ((expt 0 1.5) is 0), and the exponent 1/2 is sqrt
// ((expt 9 1/2) is 3). Other rational exponents give floats: Racket's
// (expt 8 1/3) is 2.0, not 2.
func expt(c *remora.Call, xs []num) (num, error) {
	if err := numbers(c, "expt", xs); err != nil {
		return num{}, err
	}
	b, e := xs[0], xs[1]
	switch {
	case e.zero(), b.k == remora.KInt && b.i == 1:
		return intNum(1), nil
	case b.zero():
		switch {
		case e.k == remora.KFloat && math.IsNaN(e.f):
			return e, nil
		case e.sign() < 0:
			return num{}, stuck(c, "expt", "division by zero: 0 to the negative power %s", numString(e))
		case e.k == remora.KFloat && e.f == 0:
			return floatNum(1), nil
		}
		return intNum(0), nil
	case b.exact() && e.isInt():
		n := intOf(e)
		unit := b.isInt() && new(big.Int).Abs(intOf(b)).Cmp(big.NewInt(1)) == 0
		if n.BitLen() > 20 && !unit {
			return num{}, stuck(c, "expt", "the exponent %s is too large for an exact result", n)
		}
		// The power's numerator or denominator has about |n| times the
		// bits of the base's: past MaxExactBits it is not computed
		// (boundedExact would refuse it after the work).
		r := b.rat()
		if bits := int64(max(r.Num().BitLen(), r.Denom().BitLen()) - 1); !unit && bits*new(big.Int).Abs(n).Int64() > MaxExactBits {
			return num{}, stuck(c, "expt", "an exact result of 2^%d or more (about 10^100000), past the bound on the dialect's exact numbers", MaxExactBits)
		}
		return ratNum(powRat(b.rat(), n.Int64())), nil
	case e.k == remora.KNum && e.r.Cmp(big.NewRat(1, 2)) == 0:
		return sqrtNum(c, "expt", b)
	}
	// A negative base to a non-integer, an infinite or a NaN exponent is
	// complex in Racket ((expt -2 +inf.0) is +nan.0+nan.0i), where Go's
	// Pow gives a real.
	if b.float() < 0 && (e.float() != math.Trunc(e.float()) || math.IsInf(e.float(), 0)) {
		return num{}, stuck(c, "expt", "(expt %s %s) has no real result (complex numbers are not supported)", numString(b), numString(e))
	}
	return floatNum(math.Pow(b.float(), e.float())), nil
}

// sqrtNum is Racket's sqrt: exact for an exact square ((sqrt 16) is 4,
// (sqrt 1/4) is 1/2), a float otherwise; a negative argument's root is
// complex, which the dialect does not have (README).
func sqrtNum(c *remora.Call, name string, x num) (num, error) {
	if x.sign() < 0 {
		return num{}, stuck(c, name, "%s has no real square root (complex numbers are not supported)", numString(x))
	}
	if x.exact() {
		r := x.rat()
		n, d := new(big.Int).Sqrt(r.Num()), new(big.Int).Sqrt(r.Denom())
		if new(big.Int).Mul(n, n).Cmp(r.Num()) == 0 && new(big.Int).Mul(d, d).Cmp(r.Denom()) == 0 {
			return ratNum(new(big.Rat).SetFrac(n, d)), nil
		}
	}
	return floatNum(math.Sqrt(x.float())), nil
}

// rationals checks that every argument is a rational number: exact, or
// a finite float (Racket's rational?).
func rationals(c *remora.Call, name string, xs []num) error {
	for _, x := range xs {
		if !x.exact() && !(x.k == remora.KFloat && !math.IsInf(x.f, 0) && !math.IsNaN(x.f)) {
			return stuck(c, name, "takes rational numbers, got %s", numString(x))
		}
	}
	return nil
}

// integral reports whether x is an integer, exact or a float.
func (x num) integral() bool { return x.isInt() || x.k == remora.KFloat && x.f == math.Trunc(x.f) }

// absNum is (abs x).
func absNum(x num) num {
	if x.k == remora.KFloat {
		return floatNum(math.Abs(x.f))
	}
	if x.sign() < 0 {
		return negNum(x)
	}
	return x
}

// inexactIf is x as a float when either argument was one.
func inexactIf(x, a, b num) num {
	if a.k == remora.KFloat || b.k == remora.KFloat {
		return floatNum(x.float())
	}
	return x
}

// gcdNum is the gcd of two rationals: the gcd of the numerators over the
// lcm of the denominators (Racket reference, gcd), a float if either is.
func gcdNum(a, b num) num {
	ra, rb := exactOf(a), exactOf(b)
	n := new(big.Int).GCD(nil, nil, new(big.Int).Abs(ra.Num()), new(big.Int).Abs(rb.Num()))
	da, db := ra.Denom(), rb.Denom()
	g := new(big.Int).GCD(nil, nil, da, db)
	d := new(big.Int).Mul(da, new(big.Int).Quo(db, g))
	return inexactIf(ratNum(new(big.Rat).SetFrac(n, d)), a, b)
}

// lcmNum is the lcm of two rationals: of integers, the integer lcm (a
// float if either is); else |a b| / (gcd a b), computed in the tower, so
// that an exact 0 gives exact 0 ((lcm 0 2.5) is 0, as Racket's).
func lcmNum(a, b num) num {
	if a.integral() && b.integral() {
		ia, ib := new(big.Int).Abs(intOf(a)), new(big.Int).Abs(intOf(b))
		l := new(big.Int)
		if ia.Sign() != 0 && ib.Sign() != 0 {
			g := new(big.Int).GCD(nil, nil, ia, ib)
			l.Mul(ia, new(big.Int).Quo(ib, g))
		}
		return inexactIf(ratNum(new(big.Rat).SetInt(l)), a, b)
	}
	q, _ := divNum(absNum(mulNum(a, b)), gcdNum(a, b)) // the gcd of non-integers is not 0
	return q
}

// intOf is an integer (exact, or a float with no fraction) as a big.Int.
func intOf(x num) *big.Int {
	if x.k == remora.KFloat {
		return bigOfFloat(x.f)
	}
	return x.bigInt()
}

func bigOfFloat(f float64) *big.Int {
	i, _ := new(big.Float).SetFloat64(f).Int(nil)
	return i
}

// powRat is r to the integer power n.
func powRat(r *big.Rat, n int64) *big.Rat {
	neg := n < 0
	if neg {
		n = -n
	}
	num := new(big.Int).Exp(r.Num(), big.NewInt(n), nil)
	den := new(big.Int).Exp(r.Denom(), big.NewInt(n), nil)
	if neg {
		num, den = den, num
		if den.Sign() < 0 {
			num.Neg(num)
			den.Neg(den)
		}
	}
	return new(big.Rat).SetFrac(num, den)
}

func itoa(n int) string { return big.NewInt(int64(n)).String() }

// scalarLoop is δ for a scalar primitive applied over a frame: argument i
// has the frame fs[i], a prefix of frame, and its atoms are replicated
// over the rest by index arithmetic. Two int arrays of the whole frame
// under +, - or * take the fast path: machine arithmetic, with a check
// for overflow that falls back to the exact path for the whole loop.
func scalarLoop(p *PrimDef, args []*remora.Value, frame []int64, fs [][]int64, pos semantics.Pos) (*remora.Value, error) {
	n := product(frame)
	shape := append([]int64{}, frame...)
	if p.IntFast != nil && len(args) == 2 && args[0].Kind == remora.KInt && args[1].Kind == remora.KInt &&
		len(fs[0]) == len(frame) && len(fs[1]) == len(frame) {
		if out, ok := intLoop(p.IntFast, args[0].I, args[1].I, shape, n); ok {
			return out, nil
		}
	}
	c := &remora.Call{Pos: pos}
	div := make([]int, len(args))
	for i, f := range fs {
		div[i] = n / product(f)
	}
	in := make([]num, len(args))
	out := make([]num, n)
	j := make([]int, len(args))
	cnt := make([]int, len(args))
	kind := remora.Kind(255)
	for q := 0; q < n; q++ {
		for i, a := range args {
			in[i] = numAt(a, j[i])
			if cnt[i]++; cnt[i] == div[i] {
				cnt[i] = 0
				j[i]++
			}
		}
		r, err := p.Op(c, in)
		if err != nil {
			return nil, remora.AtPos(err, pos)
		}
		switch {
		case kind == 255:
			kind = r.k
		case kind != r.k && !(isNum(kind) && isNum(r.k)):
			return nil, stuck(c, p.Name, "gave %s and %s atoms", kind, r.k)
		}
		out[q] = r
	}
	return numsValue(shape, out), nil
}

// intLoop is the fast path: f on two int buffers, false at the first
// overflow.
func intLoop(f func(a, b int64) (int64, bool), a, b []int64, shape []int64, n int) (*remora.Value, bool) {
	out := remora.NewValue(remora.KInt, shape, n)
	for q := 0; q < n; q++ {
		r, ok := f(a[q], b[q])
		if !ok {
			return nil, false
		}
		out.I[q] = r
	}
	return out, true
}
