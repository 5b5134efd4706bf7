package dynamic

import (
	"math/rand/v2"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// The rest of the library's basis (the Racket implementation's
// documentation, "Basis library"), each with the cell ranks the library
// declares. Where the library's docs leave a detail open, the comment says
// which reading we took; docs/remora-dynamic.md lists them all.
//
// The starred forms (take*, drop*, iota*, reshape*, filter*, …) return
// their result in a box: their result's shape depends on argument values,
// so applied over a frame the unstarred forms would give cells of
// different shapes, which collapse refuses; boxes of them collapse.

// boxed defines name* as name with its result boxed.
func boxed(name string) {
	p := Basis[name]
	cellsPrim(name+"*", p.Ranks, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		v, err := p.Cells(c, a)
		if err != nil {
			return nil, err
		}
		return boxValue(v), nil
	})
}

// count reads a natural number argument.
func count(c *remora.Call, name, what string, a *remora.Value) (int, error) {
	if err := intScalar(c, name, what, a); err != nil {
		return 0, err
	}
	if a.I[0] < 0 {
		return 0, stuck(c, name, "%s cannot be negative, got %d", what, a.I[0])
	}
	return int(a.I[0]), nil
}

// takeOp defines take, drop, take-right and drop-right: n items kept or
// dropped at the front or the back.
func takeOp(name string, keep, right bool) {
	cellsPrim(name, []int{0, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		n, err := count(c, name, "the count", a[0])
		if err != nil {
			return nil, err
		}
		if err := major(c, name, a[1]); err != nil {
			return nil, err
		}
		d := int(a[1].Shape[0])
		if n > d {
			return nil, stuck(c, name, "%d items of an array of %d", n, d)
		}
		off, m := 0, n // take
		switch {
		case keep && right:
			off = d - n
		case !keep && !right:
			off, m = n, d-n
		case !keep && right:
			m = d - n
		}
		return subItems(a[1], off, m), nil
	})
	boxed(name)
}

// pcg is the generator deal and shuffle draw from: seeded afresh at each
// application with a fixed seed and the argument's length, so that a
// program's result is a function of the program (the two semantics agree
// and golden tests can state it). The library draws from Racket's
// random; the permutations differ, their distribution does not.
func pcg(n int) *rand.Rand { return rand.New(rand.NewPCG(0x5eed, uint64(n))) }

// permuted is the items of v in the order perm gives.
func permuted(v *remora.Value, perm []int) *remora.Value {
	items := make([]*remora.Value, len(perm))
	for i, p := range perm {
		items[i] = v.Item(p)
	}
	return remora.Stack([]int64{int64(len(items))}, v.Shape[1:], v.Kind, items)
}

func init() {
	takeOp("take", true, false)
	takeOp("take-right", true, true)
	takeOp("drop", false, false)
	takeOp("drop-right", false, true)
	boxed("iota")
	boxed("reshape")
	boxed("filter")

	// (window l arr) is the stack of arr rotated by 0 … l-1, (rotate arr
	// (iota [l])), as the library defines it (its basis tests): not
	// sliding windows. l may exceed the length (the rotations repeat).
	cellsPrim("window", []int{0, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		l, err := count(c, "window", "the window's length", a[0])
		if err != nil {
			return nil, err
		}
		if err := major(c, "window", a[1]); err != nil {
			return nil, err
		}
		rotate := Basis["rotate"].Cells
		ws := make([]*remora.Value, l)
		for i := range ws {
			if ws[i], err = rotate(c, []*remora.Value{a[1], remora.IntScalar(int64(i))}); err != nil {
				return nil, err
			}
		}
		return remora.Stack([]int64{int64(l)}, a[1].Shape, a[1].Kind, ws), nil
	})

	// nub keeps the first of equal items; nub-sieve marks them.
	sieve := func(v *remora.Value) []bool {
		d := int(v.Shape[0])
		first := make([]bool, d)
	next:
		for i := 0; i < d; i++ {
			for j := 0; j < i; j++ {
				if first[j] && v.Item(i).Equal(v.Item(j)) {
					continue next
				}
			}
			first[i] = true
		}
		return first
	}
	cellsPrim("nub-sieve", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, "nub-sieve", a[0]); err != nil {
			return nil, err
		}
		first := sieve(a[0])
		out := remora.NewValue(remora.KBool, []int64{int64(len(first))}, len(first))
		for i, f := range first {
			if f {
				out.I[i] = 1
			}
		}
		return out, nil
	})
	cellsPrim("nub", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, "nub", a[0]); err != nil {
			return nil, err
		}
		var keep []int
		for i, f := range sieve(a[0]) {
			if f {
				keep = append(keep, i)
			}
		}
		return permuted(a[0], keep), nil
	})
	cellsPrim("ravel", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		return a[0].Reshape([]int64{int64(a[0].Len())}), nil
	})
	// equal is Racket's equal? on arrays: the same shape and the same
	// atoms, exactness included ((equal 1 1.) is #f).
	cellsPrim("equal", []int{All, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		same := a[0].Len() == 0 && a[1].Len() == 0 && semantics.SameShape(a[0].Shape, a[1].Shape) || a[0].Equal(a[1])
		return remora.BoolScalar(same), nil
	})

	// (base radices digits) reads digits in the mixed radix radices
	// (APL's decode); (antibase radices n) writes n in it (APL's encode).
	// Where the lengths differ, the library's rule (its basis tests):
	// radices shorter than the digits are extended at the front by copies
	// of the first radix, digits shorter than the radices by zeros; and
	// antibase is base's inverse under the same rule, so it goes on with
	// copies of the first radix until n is written.
	cellsPrim("base", []int{1, 1}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		for _, x := range a {
			if x.Len() > 0 && !isNum(x.Kind) {
				return nil, stuck(c, "base", "takes vectors of numbers, got %s", describe(x))
			}
		}
		nr, nd := a[0].Len(), a[1].Len()
		if nr == 0 && nd > 0 {
			return nil, stuck(c, "base", "no radix to extend over %s", semantics.Plural(nd, "digit"))
		}
		n := max(nr, nd)
		acc := intNum(0)
		for p := 0; p < n; p++ {
			radix, digit := numAt(a[0], max(0, p-(n-nr))), intNum(0)
			if p >= n-nd {
				digit = numAt(a[1], p-(n-nd))
			}
			acc = addNum(mulNum(acc, radix), digit)
		}
		return numScalar(acc), nil
	})
	cellsPrim("antibase", []int{1, 0}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		rs, err := ints(c, "antibase", "the radices", a[0])
		if err != nil {
			return nil, err
		}
		if err := intScalar(c, "antibase", "the number", a[1]); err != nil {
			return nil, err
		}
		n := a[1].I[0]
		// place writes the digit of n in radix r, leaving what is left.
		place := func(r int64) int64 {
			if r == 0 { // a radix 0 takes all that is left, as APL's
				d := n
				n = 0
				return d
			}
			d := n % r
			if d != 0 && (d < 0) != (r < 0) {
				d += r
			}
			n = (n - d) / r
			return d
		}
		out := make([]int64, len(rs))
		for i := len(rs) - 1; i >= 0; i-- {
			out[i] = place(rs[i])
		}
		var front []int64 // the digits in the copies of the first radix, last first
		seen := map[int64]bool{}
		for n != 0 {
			if len(rs) == 0 {
				return nil, stuck(c, "antibase", "no radix to write %d in", a[1].I[0])
			}
			if seen[n] { // |n| never grows, and only a radix of magnitude 1 or n = ±1 can stay
				return nil, stuck(c, "antibase", "%d has no finite expansion in the radices %s extended by copies of %d", a[1].I[0], a[0], rs[0])
			}
			seen[n] = true
			front = append(front, place(rs[0]))
		}
		v := remora.NewValue(remora.KInt, []int64{int64(len(front) + len(out))}, len(front)+len(out))
		for i, d := range front {
			v.I[len(front)-1-i] = d
		}
		copy(v.I[len(front):], out)
		return v, nil
	})

	// (select b x y) is x when b is #t, else y: if as a function whose
	// branches are whole arrays (ranks 0 all all), so one boolean picks
	// between two arrays and a frame of booleans picks per cell.
	cellsPrim("select", []int{0, All, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if a[0].Kind != remora.KBool {
			return nil, stuck(c, "select", "the condition is a bool, got %s", describe(a[0]))
		}
		if a[0].I[0] != 0 {
			return a[1], nil
		}
		return a[2], nil
	})

	cellsPrim("shuffle", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if err := major(c, "shuffle", a[0]); err != nil {
			return nil, err
		}
		d := int(a[0].Shape[0])
		return permuted(a[0], pcg(d).Perm(d)), nil
	})
	cellsPrim("deal", []int{0, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		n, err := count(c, "deal", "the count", a[0])
		if err != nil {
			return nil, err
		}
		if err := major(c, "deal", a[1]); err != nil {
			return nil, err
		}
		d := int(a[1].Shape[0])
		if n > d {
			return nil, stuck(c, "deal", "%d items of an array of %d", n, d)
		}
		return permuted(a[1], pcg(d).Perm(d)[:n]), nil
	})

	// (transpose perm arr): the Redex model's axis permutation; axis i of
	// the result is axis perm[i] of arr.
	cellsPrim("transpose", []int{1, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		perm, err := ints(c, "transpose", "the permutation", a[0])
		if err != nil {
			return nil, err
		}
		v := a[1]
		r := len(v.Shape)
		seen := make([]bool, r)
		if len(perm) != r {
			return nil, stuck(c, "transpose", "%s is not a permutation of the %d axes of an array of shape %s", a[0], r, shapeString(v.Shape))
		}
		for _, p := range perm {
			if p < 0 || int(p) >= r || seen[p] {
				return nil, stuck(c, "transpose", "%s is not a permutation of the %d axes of an array of shape %s", a[0], r, shapeString(v.Shape))
			}
			seen[p] = true
		}
		if r == 0 {
			return v, nil
		}
		shape := make([]int64, r)
		for i, p := range perm {
			shape[i] = v.Shape[p]
		}
		stride := make([]int, r)
		s := 1
		for i := r - 1; i >= 0; i-- {
			stride[i] = s
			s *= int(v.Shape[i])
		}
		out := remora.NewValue(v.Kind, shape, v.Len())
		idx := make([]int64, r)
		for k := 0; k < v.Len(); k++ {
			src := 0
			for i, p := range perm {
				src += int(idx[i]) * stride[p]
			}
			remora.CopyAtoms(out, k, v, src, 1)
			for i := r - 1; i >= 0; i-- {
				if idx[i]++; idx[i] < shape[i] {
					break
				}
				idx[i] = 0
			}
		}
		return out, nil
	})

	// Strings: the dialect's strings are character vectors, so a string
	// is already what the library's string->array makes of one, and
	// array->string of a character vector is itself (README: strings).
	chars := func(name string) func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		return func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
			if len(a[0].Shape) != 1 || a[0].Kind != remora.KChar && a[0].Len() > 0 {
				return nil, stuck(c, name, "wants a string (a vector of characters), got %s", describe(a[0]))
			}
			out := *a[0]
			out.Kind = remora.KChar
			return &out, nil
		}
	}
	cellsPrim("string->array", []int{1}, chars("string->array"))
	cellsPrim("array->string", []int{1}, chars("array->string"))
	// show prints an array as the dialect prints values.
	cellsPrim("show", []int{All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		return remora.StringValue(a[0].String()), nil
	})
	// (compose f … g) is the function that applies g, then each function
	// before it to the result, right to left (Racket's compose; (compose
	// f) is f, and (compose) the identity, as Racket's is values): a λ
	// of g's cell ranks, so it lifts as g does. Every argument has cell
	// rank 0, so arrays of functions compose pointwise.
	cellsPrim("compose", []int{0}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		for _, f := range a {
			if f.Kind != remora.KFunc {
				return nil, stuck(c, "compose", "composes functions, got %s", describe(f))
			}
		}
		if len(a) == 0 {
			// The identity on whole arrays (rank all), as values is.
			x := &Var{Pos: c.Pos, Name: "x"}
			return funcValue(&Func{Lam: &Lam{Pos: c.Pos, Params: []Param{{Name: "x", Rank: All}}, Body: x}}), nil
		}
		if len(a) == 1 {
			return a[0], nil
		}
		last := a[len(a)-1]
		g := last.A[0].(*Func)
		ranks := g.Ranks()
		if g.Prim != nil && g.Prim.Op != nil && len(ranks) < 2 && (g.Prim.MaxArgs < 0 || g.Prim.MaxArgs >= 2) {
			ranks = []int{0, 0} // a variadic scalar primitive composes at two arguments
		}
		lam := &Lam{Pos: c.Pos}
		var body Expr = &App{Pos: c.Pos, Fn: &Lit{Pos: c.Pos, V: last}}
		for i, r := range ranks {
			x := "x" + itoa(i+1)
			lam.Params = append(lam.Params, Param{Name: x, Rank: r})
			body.(*App).Args = append(body.(*App).Args, &Var{Pos: c.Pos, Name: x})
		}
		for i := len(a) - 2; i >= 0; i-- {
			body = &App{Pos: c.Pos, Fn: &Lit{Pos: c.Pos, V: a[i]}, Args: []Expr{body}}
		}
		lam.Body = body
		return funcValue(&Func{Lam: lam}), nil
	})
	Basis["compose"].MinArgs, Basis["compose"].MaxArgs = 0, -1
	// unsafe-unbox opens a box without binding its contents' shape: on a
	// frame of boxes the contents must be of one shape, or collapse fails.
	cellsPrim("unsafe-unbox", []int{0}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		if a[0].Kind != remora.KBox {
			return nil, stuck(c, "unsafe-unbox", "wants a box, got %s", describe(a[0]))
		}
		return a[0].A[0].(*remora.Box).Val, nil
	})
}

// Pair is a pair of arrays, the library's (pair a b). A pair is an atom,
// so arrays of pairs are association tables for lookup.
type Pair struct{ Fst, Snd *remora.Value }

// String prints the pair as the application that makes it.
func (p *Pair) String() string { return "(pair " + p.Fst.String() + " " + p.Snd.String() + ")" }

// pairs checks that a is a vector of pairs (an empty vector of any kind
// is an empty table).
func pairs(c *remora.Call, name string, a *remora.Value) ([]*Pair, error) {
	if len(a.Shape) != 1 || a.Kind != remora.KPair && a.Len() > 0 {
		return nil, stuck(c, name, "wants a vector of pairs, got %s", describe(a))
	}
	ps := make([]*Pair, len(a.A))
	for i, x := range a.A {
		ps[i] = x.(*Pair)
	}
	return ps, nil
}

// matches is the second components of the pairs whose first is key.
func matches(key *remora.Value, ps []*Pair) []*remora.Value {
	var out []*remora.Value
	for _, p := range ps {
		if p.Fst.Equal(key) {
			out = append(out, p.Snd)
		}
	}
	return out
}

func init() {
	cellsPrim("pair", []int{All, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		return remora.AtomScalar(remora.KPair, &Pair{Fst: a[0], Snd: a[1]}), nil
	})
	component := func(name string, f func(p *Pair) *remora.Value) {
		cellsPrim(name, []int{0}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
			if a[0].Kind != remora.KPair {
				return nil, stuck(c, name, "wants a pair, got %s", describe(a[0]))
			}
			return f(a[0].A[0].(*Pair)), nil
		})
	}
	component("fst", func(p *Pair) *remora.Value { return p.Fst })
	component("snd", func(p *Pair) *remora.Value { return p.Snd })

	// (lookup key table): the second component of the first pair whose
	// first is key (equal); none is an error. (lookup+ key table
	// default) gives default instead; (lookup* key table) gives every
	// match's second component, as an array of them. Our reading of the
	// library docs' association tables: key and table have rank all, so
	// a frame of keys needs a λ of a scalar key.
	cellsPrim("lookup", []int{All, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		ps, err := pairs(c, "lookup", a[1])
		if err != nil {
			return nil, err
		}
		if m := matches(a[0], ps); len(m) > 0 {
			return m[0], nil
		}
		return nil, stuck(c, "lookup", "no pair has the key %s", describe(a[0]))
	})
	cellsPrim("lookup+", []int{All, All, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		ps, err := pairs(c, "lookup+", a[1])
		if err != nil {
			return nil, err
		}
		if m := matches(a[0], ps); len(m) > 0 {
			return m[0], nil
		}
		return a[2], nil
	})
	cellsPrim("lookup*", []int{All, All}, func(c *remora.Call, a []*remora.Value) (*remora.Value, error) {
		ps, err := pairs(c, "lookup*", a[1])
		if err != nil {
			return nil, err
		}
		m := matches(a[0], ps)
		return collapse(c.Pos, []int64{int64(len(m))}, m)
	})
}
