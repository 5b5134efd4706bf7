package funmem

import (
	"cmp"
	"maps"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// A Poly is a scalar expression in normal form: a sum of monomials with
// integer coefficients. Variables are the factors of monomials; a
// subexpression that is not a polynomial (a division, a comparison) is an
// opaque factor, compared by its printed form. Two expressions with equal
// normal forms are equal for all values of their variables, also under
// int64's wrapping arithmetic (a commutative ring), so the type checker can
// accept an LMAD written differently from the one a rule computes.
type Poly struct {
	terms map[string]int64    // monomial (sorted factors joined by "·") → coefficient
	atoms map[string]fun.SExp // factor → the expression it stands for
}

func constPoly(k int64) Poly {
	p := Poly{terms: map[string]int64{}, atoms: map[string]fun.SExp{}}
	if k != 0 {
		p.terms[""] = k
	}
	return p
}

// Normalize computes the normal form of e.
func Normalize(e fun.SExp) Poly {
	switch e := e.(type) {
	case *fun.Const:
		return constPoly(e.Value)
	case fun.Var:
		p := constPoly(0)
		p.terms[e.Name] = 1
		p.atoms[e.Name] = e
		return p
	case *fun.UnOp:
		return Normalize(e.X).scale(-1)
	case *fun.BinOp:
		switch e.Op {
		case semantics.Add:
			return Normalize(e.L).add(Normalize(e.R))
		case semantics.Sub:
			return Normalize(e.L).add(Normalize(e.R).scale(-1))
		case semantics.Mul:
			return Normalize(e.L).mul(Normalize(e.R))
		}
		// Not a polynomial: an opaque factor over normalised operands.
		l, r := Normalize(e.L).Expr(), Normalize(e.R).Expr()
		atom := &fun.BinOp{Op: e.Op, L: l, R: r}
		if k, ok := constOf(l); ok {
			if k2, ok := constOf(r); ok {
				if v, err := semantics.Binary(e.Op, k, k2); err == nil {
					return constPoly(v)
				}
			}
		}
		return opaque(atom)
	case *fun.FloatConst, *fun.Call:
		// Floats are no ring (IEEE addition does not associate): a float
		// constant, and a call with its argument as written, are opaque.
		return opaque(e)
	}
	return constPoly(0)
}

// opaque is the polynomial of one factor that stands for e as printed.
func opaque(e fun.SExp) Poly {
	key := "⟨" + fun.PrintSExp(e) + "⟩"
	p := constPoly(0)
	p.terms[key] = 1
	p.atoms[key] = e
	return p
}

func constOf(e fun.SExp) (int64, bool) {
	c, ok := e.(*fun.Const)
	if !ok {
		return 0, false
	}
	return c.Value, true
}

func (p Poly) scale(k int64) Poly {
	q := constPoly(0)
	for m, c := range p.terms {
		if c*k != 0 {
			q.terms[m] = c * k
		}
	}
	for a, e := range p.atoms {
		q.atoms[a] = e
	}
	return q
}

func (p Poly) add(o Poly) Poly {
	q := p.scale(1)
	for m, c := range o.terms {
		if s := q.terms[m] + c; s != 0 {
			q.terms[m] = s
		} else {
			delete(q.terms, m)
		}
	}
	for a, e := range o.atoms {
		q.atoms[a] = e
	}
	return q
}

func (p Poly) mul(o Poly) Poly {
	q := constPoly(0)
	for m1, c1 := range p.terms {
		for m2, c2 := range o.terms {
			m := mulMono(m1, m2)
			if s := q.terms[m] + c1*c2; s != 0 {
				q.terms[m] = s
			} else {
				delete(q.terms, m)
			}
		}
	}
	for a, e := range p.atoms {
		q.atoms[a] = e
	}
	for a, e := range o.atoms {
		q.atoms[a] = e
	}
	return q
}

func factors(m string) []string {
	if m == "" {
		return nil
	}
	return strings.Split(m, "·")
}

func mulMono(a, b string) string {
	fs := append(factors(a), factors(b)...)
	slices.Sort(fs)
	return strings.Join(fs, "·")
}

// Equal reports whether two normal forms are the same polynomial.
func (p Poly) Equal(o Poly) bool {
	if len(p.terms) != len(o.terms) {
		return false
	}
	for m, c := range p.terms {
		if o.terms[m] != c {
			return false
		}
	}
	return true
}

// SameValue reports whether two scalar expressions are equal as
// polynomials.
func SameValue(a, b fun.SExp) bool { return Normalize(a).Equal(Normalize(b)) }

// Expr turns a normal form back into a scalar expression: monomials of
// higher degree first, then by their factors, the constant last.
func (p Poly) Expr() fun.SExp {
	// Higher degrees first, then by name.
	monos := slices.SortedFunc(maps.Keys(p.terms), func(a, b string) int {
		return cmp.Or(cmp.Compare(len(factors(b)), len(factors(a))), strings.Compare(a, b))
	})
	var out fun.SExp
	for _, m := range monos {
		c := p.terms[m]
		neg := c < 0 && out != nil
		if neg {
			c = -c
		}
		var term fun.SExp
		for _, f := range factors(m) {
			if term == nil {
				term = p.atoms[f]
			} else {
				term = &fun.BinOp{Op: semantics.Mul, L: term, R: p.atoms[f]}
			}
		}
		switch {
		case term == nil:
			term = &fun.Const{Value: c}
		case c != 1:
			term = &fun.BinOp{Op: semantics.Mul, L: &fun.Const{Value: c}, R: term}
		}
		switch {
		case out == nil:
			out = term
		case neg:
			out = &fun.BinOp{Op: semantics.Sub, L: out, R: term}
		default:
			out = &fun.BinOp{Op: semantics.Add, L: out, R: term}
		}
	}
	if out == nil {
		return &fun.Const{Value: 0}
	}
	return out
}

// Canon rewrites e in normal form.
func Canon(e fun.SExp) fun.SExp { return Normalize(e).Expr() }

func binop(a, b fun.SExp, op byte) fun.SExp {
	o := map[byte]semantics.Op{'+': semantics.Add, '-': semantics.Sub, '*': semantics.Mul}[op]
	return Canon(&fun.BinOp{Op: o, L: a, R: b})
}
