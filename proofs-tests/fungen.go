package proofstests

import (
	"fmt"
	"math"
	"math/rand"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// The generator builds well-typed FUN programs "type-directed": it keeps the
// variables in scope with their FUN types (int, or [n]…[m] over size
// variables) and only ever writes an expression whose typing rule's premises
// hold (Fig 3, as fun/check.go reads it). Besides the types it tracks, for
// every int variable, an interval containing its value (for an array, an
// interval containing its elements); with the inputs' values known exactly
// this is enough to pick in-bounds indices, in-bounds slices, non-zero
// divisors and small kernel bounds on purpose. A case is either safe (it
// makes no risky choice, so it must run to completion: a property checks
// that) or risky (each choice of an index, slice window, divisor, iota
// argument, kernel bound or kernel item size may, with probability Risk, be
// one that can get stuck: E-INDEX, E-SLICE, E-SCALAR, E-IOTA, E-KERNEL).
//
// Names are a letter and a counter (x for ints, a for arrays, n for size
// inputs, i for kernel indices). The counter is rewound after every nested
// body, so names are reused across sibling scopes: the two branches of an
// if bind the same names, and what follows a kernel or an if reuses the
// names of its bodies. Half the time a statement's pattern is named after
// its bodies are built, so a kernel may read
//
//	let (a5 : [n1]) = kernel i4 <= n1 do let (a5 : int) = … in (a5)
//
// which the no-shadowing rule allows. No name is bound twice along one
// path of scopes.

// GenConfig bounds the programs the generator builds.
type GenConfig struct {
	MaxTopStms   int     // most random statements in the program's body, at the largest size
	MaxInnerStms int     // most random statements in a nested body
	MaxDepth     int     // deepest nesting of kernels and ifs made by random statements
	MaxExtent    int64   // largest array extent and size value
	MaxRank      int     // largest array rank
	RiskyCases   float64 // fraction of the cases allowed risky choices
	Risk         float64 // in a risky case, the probability of each risky choice
	MaxIter      int64   // bound on the product of the bounds of nested random kernels
	// Extensions lets the generator make the extension forms loop, reduce,
	// scan, filter and assert (fungen_ext.go). Off, it draws exactly the
	// programs it drew before they existed, seed for seed.
	Extensions bool
	// AssociativeFolds keeps reduce and scan to associative operators
	// (+ and * with wrap-around, max, min, and those element-wise), for
	// the properties that compare with a parallel implementation, which
	// may re-associate (the CUDA backend's tree): the semantics is a left
	// fold, and only associativity is assumed of the operator. Off, a
	// fold's operator is also, often, a random body.
	AssociativeFolds bool
}

// DefaultGenConfig is the configuration the properties use: arrays of at
// most 5 elements a side, at most rank 3, bodies nested at most 2 deep by
// random statements.
var DefaultGenConfig = GenConfig{
	MaxTopStms:   10,
	MaxInnerStms: 3,
	MaxDepth:     2,
	MaxExtent:    5,
	MaxRank:      3,
	RiskyCases:   0.5,
	Risk:         0.12,
	MaxIter:      60,
}

// ExtGenConfig is DefaultGenConfig with the extension forms on: the
// configuration of the properties that opt in to them.
var ExtGenConfig = func() GenConfig {
	c := DefaultGenConfig
	c.Extensions = true
	return c
}()

// CUDAGenConfig is ExtGenConfig with associative folds only: the
// configuration of the tests that run generated programs on the CUDA
// backend, whose parallel reduce and scan re-associate.
var CUDAGenConfig = func() GenConfig {
	c := ExtGenConfig
	c.AssociativeFolds = true
	return c
}()

// MaxGenSize is the largest gopter size parameter the generator scales by;
// larger sizes count as MaxGenSize.
const MaxGenSize = 30

// Input is the value of one input declaration of a generated program.
type Input struct {
	Name  string
	Value semantics.Array
}

// Case is a generated program together with values for its inputs.
type Case struct {
	Prog   *fun.Program
	Inputs []Input
	// Safe is set when the generator made no risky choice: the program then
	// cannot get stuck (given the inputs it was generated with).
	Safe bool
	// Seed and Size regenerate the case: Generate(rand.New(rand.NewSource(Seed)), Size, cfg).
	// A shrunk case keeps the seed of the case it came from.
	Seed int64
	Size int
}

// Env is the environment of the case's inputs, bound in declaration order.
func (c *Case) Env() *fun.Env {
	vals := map[string]semantics.Array{}
	for _, in := range c.Inputs {
		vals[in.Name] = in.Value
	}
	var env *fun.Env
	for _, p := range c.Prog.Inputs {
		env = env.Bind(p.Name.Name, vals[p.Name.Name])
	}
	return env
}

// Source is the program's text, fun.Print of the generated tree.
func (c *Case) Source() string { return fun.Print(c.Prog) }

// Parsed is the program printed and parsed back, so that it carries real
// positions (gen.fun:line:col) for the error messages.
func (c *Case) Parsed() (*fun.Program, error) { return fun.ParseFile("gen.fun", c.Source()) }

// ArgList renders the inputs as arraysem run arguments: --arg n=3 --arg xs=[1 2 3].
func (c *Case) ArgList() string {
	var parts []string
	for _, in := range c.Inputs {
		parts = append(parts, "--arg '"+in.Name+"="+in.Value.String()+"'")
	}
	return strings.Join(parts, " ")
}

// String shows the case as a counterexample: how to regenerate it, its
// inputs, and the program.
func (c *Case) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "\n-- seed %d, size %d, safe %v\n", c.Seed, c.Size, c.Safe)
	for _, in := range c.Inputs {
		fmt.Fprintf(&b, "-- input %s = %s", in.Name, in.Value)
		if !in.Value.IsScalar() {
			fmt.Fprintf(&b, " (shape %s)", semantics.ShapeString(in.Value.Shape))
		}
		b.WriteString("\n")
	}
	if len(c.Inputs) > 0 {
		fmt.Fprintf(&b, "-- arraysem run gen.fun %s\n", c.ArgList())
	}
	b.WriteString(c.Source())
	return b.String()
}

// Generate builds one case deterministically from r. The size (0 to
// MaxGenSize) scales the number of statements of the program's body.
func Generate(r *rand.Rand, size int, cfg GenConfig) *Case {
	size = max(0, min(size, MaxGenSize))
	g := &generator{r: r, cfg: cfg}
	g.risky = g.chance(cfg.RiskyCases)
	top := &block{g: g, mult: 1}
	params, inputs := g.inputs(top)
	nInputs := len(top.vars)
	n := 1 + r.Intn(1+size*cfg.MaxTopStms/MaxGenSize)
	for range n {
		top.randomStm()
	}
	results := top.results(nInputs) // may bind a constant to return
	prog := &fun.Program{Inputs: params, Body: &fun.Body{Stms: top.stms, Result: results}}
	return &Case{Prog: prog, Inputs: inputs, Safe: !g.risky, Size: size}
}

// ---------------------------------------------------------------------------
// Intervals.

// ivl is an interval [lo, hi] containing a value (or, for an array, all of
// its elements). Bounds are kept within ±ivBig; beyond, the interval is
// ivTop, which stands for any int64.
type ivl struct{ lo, hi int64 }

const ivBig = int64(1) << 40

var ivTop = ivl{-ivBig, ivBig}

func ivExact(k int64) ivl {
	if k < -ivBig || k > ivBig {
		return ivTop
	}
	return ivl{k, k}
}

func ivMake(lo, hi float64) ivl {
	if lo < float64(-ivBig) || hi > float64(ivBig) {
		return ivTop
	}
	return ivl{int64(lo), int64(hi)}
}

func (a ivl) join(b ivl) ivl           { return ivl{min(a.lo, b.lo), max(a.hi, b.hi)} }
func (a ivl) within(lo, hi int64) bool { return lo <= a.lo && a.hi <= hi }
func (a ivl) has(k int64) bool         { return a.lo <= k && k <= a.hi }

func ivNeg(a ivl) ivl { return ivl{-a.hi, -a.lo} }

// ivBinary is the interval of se1 ⊕ se2 when it does not get stuck.
func ivBinary(op semantics.Op, a, b ivl) ivl {
	f := func(x int64) float64 { return float64(x) }
	switch op {
	case semantics.Add:
		return ivMake(f(a.lo)+f(b.lo), f(a.hi)+f(b.hi))
	case semantics.Sub:
		return ivMake(f(a.lo)-f(b.hi), f(a.hi)-f(b.lo))
	case semantics.Mul:
		c := []float64{f(a.lo) * f(b.lo), f(a.lo) * f(b.hi), f(a.hi) * f(b.lo), f(a.hi) * f(b.hi)}
		sort.Float64s(c)
		return ivMake(c[0], c[3])
	case semantics.Div:
		// Truncated division is monotone in each argument on each sign of
		// the divisor, so the corners of each part bound it.
		var out *ivl
		for _, part := range []ivl{{b.lo, min(b.hi, -1)}, {max(b.lo, 1), b.hi}} {
			if part.lo > part.hi {
				continue
			}
			for _, x := range []int64{a.lo, a.hi} {
				for _, y := range []int64{part.lo, part.hi} {
					q := ivExact(x / y)
					if out == nil {
						out = &q
					} else {
						*out = out.join(q)
					}
				}
			}
		}
		if out == nil {
			return ivTop // the divisor is 0: stuck
		}
		return *out
	case semantics.Mod:
		m := max(abs64(b.lo), abs64(b.hi)) - 1
		if m < 0 {
			return ivTop
		}
		lo, hi := int64(0), int64(0)
		if a.lo < 0 {
			lo = max(a.lo, -m)
		}
		if a.hi > 0 {
			hi = min(a.hi, m)
		}
		return ivl{lo, hi}
	}
	return ivl{0, 1} // comparisons, && and ||
}

func abs64(k int64) int64 {
	if k < 0 {
		return -k
	}
	return k
}

// ---------------------------------------------------------------------------
// Generator state.

type generator struct {
	r     *rand.Rand
	cfg   GenConfig
	risky bool
	next  int
	// randomStm's table and the sum of its weights, made at its first use
	// (they depend on cfg and GenRedomaps only).
	kinds      []stmKind
	kindsTotal int
}

func (g *generator) fresh(prefix string) string {
	g.next++
	return prefix + strconv.Itoa(g.next)
}

func (g *generator) chance(p float64) bool { return g.r.Float64() < p }

// risk decides whether to make a choice that may get stuck.
func (g *generator) risk() bool { return g.risky && g.chance(g.cfg.Risk) }

func (g *generator) intn(n int) int { return g.r.Intn(n) }

// between is a uniform integer in [lo, hi].
func (g *generator) between(lo, hi int64) int64 { return lo + g.r.Int63n(hi-lo+1) }

// constant is a scalar constant: mostly small, sometimes zero or negative,
// rarely extreme (to exercise wrap-around).
func (g *generator) constant() int64 {
	if g.chance(0.01) {
		return []int64{math.MaxInt64, math.MinInt64, math.MinInt64 + 1, 1 << 62}[g.intn(4)]
	}
	return g.between(-6, 6)
}

// gvar is a variable in scope.
type gvar struct {
	name  string
	dims  []string // nil for int
	iv    ivl      // its value (int) or its elements (array)
	idxOf string   // for a kernel index, the name of the kernel's bound
}

func (v *gvar) isInt() bool { return len(v.dims) == 0 }

func id(name string) *fun.Ident { return &fun.Ident{Name: name} }

func typ(dims []string) fun.Type {
	t := fun.Type{}
	for _, d := range dims {
		t.Dims = append(t.Dims, id(d))
	}
	return t
}

func param(name string, dims []string) *fun.Param { return &fun.Param{Name: id(name), Type: typ(dims)} }

// block is a body under construction: the variables in scope (outer ones
// first) and the statements so far.
type block struct {
	g     *generator
	vars  []*gvar
	stms  []*fun.Stm
	depth int   // nesting depth of this body
	mult  int64 // most iterations this body runs (product of enclosing kernel bounds)

	// The variables visible, and those of them ints and arrays, as of
	// len(vars) == seen (vars only grows): the generator asks for them
	// several times between two bindings. Callers only read them.
	vis, visInts, visArrs []*gvar
	seen                  int
}

func (b *block) nested(iterations int64) *block {
	b.see() // the nested block starts from b's lists (never changed in place)
	return &block{g: b.g, vars: append([]*gvar(nil), b.vars...), depth: b.depth + 1, mult: b.mult * max(1, iterations),
		vis: b.vis, visInts: b.visInts, visArrs: b.visArrs, seen: len(b.vars)}
}

func (b *block) lookup(name string) *gvar {
	for i := len(b.vars) - 1; i >= 0; i-- {
		if b.vars[i].name == name {
			return b.vars[i]
		}
	}
	return nil
}

// extent is the interval of the size variable d.
func (b *block) extent(d string) ivl {
	if v := b.lookup(d); v != nil {
		return v.iv
	}
	panic("generator: size variable " + d + " is not in scope")
}

func (b *block) visible() []*gvar {
	b.see()
	return b.vis
}

// see brings vis, visInts and visArrs up to date with vars: the
// variables bound since are the latest, and hide the earlier ones of
// their names. The lists are made anew (callers may hold the old ones).
func (b *block) see() {
	if b.seen == len(b.vars) {
		return
	}
	// The innermost variable of each name, latest first. A scope holds a
	// few dozen variables at most: looking back through out is cheaper
	// than a map.
	added := b.vars[b.seen:]
	out := make([]*gvar, 0, len(added)+len(b.vis))
next:
	for i := len(added) - 1; i >= 0; i-- {
		v := added[i]
		for _, w := range out {
			if w.name == v.name {
				continue next
			}
		}
		out = append(out, v)
	}
	k := len(out)
hidden:
	for _, w := range b.vis {
		for _, v := range out[:k] {
			if v.name == w.name {
				continue hidden
			}
		}
		out = append(out, w)
	}
	nInts := 0
	for _, v := range out {
		if v.isInt() {
			nInts++
		}
	}
	b.vis, b.visInts, b.visArrs = out, nil, nil
	if nInts > 0 {
		b.visInts = make([]*gvar, 0, nInts)
	}
	if nInts < len(out) {
		b.visArrs = make([]*gvar, 0, len(out)-nInts)
	}
	for _, v := range out {
		if v.isInt() {
			b.visInts = append(b.visInts, v)
		} else {
			b.visArrs = append(b.visArrs, v)
		}
	}
	b.seen = len(b.vars)
}

func (b *block) ints() []*gvar {
	b.see()
	return b.visInts
}

func (b *block) arrays() []*gvar {
	b.see()
	return b.visArrs
}

func (b *block) arraysOf(dims []string) []*gvar {
	var out []*gvar
	for _, v := range b.arrays() {
		if slices.Equal(v.dims, dims) {
			out = append(out, v)
		}
	}
	return out
}

func pick[T any](g *generator, xs []T) T { return xs[g.intn(len(xs))] }

func (b *block) bind(s *fun.Stm, vs ...*gvar) {
	b.stms = append(b.stms, s)
	b.vars = append(b.vars, vs...)
}

func (b *block) letInt(e fun.SExp, iv ivl) *gvar {
	v := &gvar{name: b.g.fresh("x"), iv: iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, nil)}, Exp: &fun.ScalarExp{X: e}}, v)
	return v
}

func (b *block) letConst(k int64) *gvar { return b.letInt(&fun.Const{Value: k}, ivExact(k)) }

// ---------------------------------------------------------------------------
// Inputs.

func (g *generator) extentValue() int64 {
	if g.chance(0.12) {
		return 0
	}
	return g.between(1, g.cfg.MaxExtent)
}

func (g *generator) rank(maxRank int) int {
	switch x := g.intn(10); {
	case x < 6 || maxRank < 2:
		return 1
	case x < 9 || maxRank < 3:
		return 2
	}
	return 3
}

// inputs declares size inputs, array inputs over them and plain int
// inputs, and binds them in the top block.
func (g *generator) inputs(top *block) ([]*fun.Param, []Input) {
	if g.chance(0.07) {
		return nil, nil
	}
	type decl struct {
		p  *fun.Param
		in Input
		v  *gvar
	}
	var sizes, all []decl
	for range 1 + g.intn(3) {
		name := g.fresh("n")
		k := g.extentValue()
		sizes = append(sizes, decl{param(name, nil), Input{name, semantics.Scalar(k)}, &gvar{name: name, iv: ivExact(k)}})
	}
	all = append(all, sizes...)
	for range g.intn(4) {
		name := g.fresh("a")
		var dims []string
		var shape []int64
		for range g.rank(g.cfg.MaxRank) {
			s := pick(g, sizes)
			dims = append(dims, s.p.Name.Name)
			shape = append(shape, s.in.Value.Int())
		}
		n, _ := semantics.Count(shape)
		data := make([]int64, n)
		iv := ivl{0, 0}
		for i := range data {
			data[i] = g.between(-4, 6)
			if i == 0 {
				iv = ivExact(data[i])
			}
			iv = iv.join(ivExact(data[i]))
		}
		all = append(all, decl{param(name, dims), Input{name, semantics.Array{Shape: shape, Data: data}}, &gvar{name: name, dims: dims, iv: iv}})
	}
	for range g.intn(3) {
		name := g.fresh("x")
		k := g.between(-4, 8)
		all = append(all, decl{param(name, nil), Input{name, semantics.Scalar(k)}, &gvar{name: name, iv: ivExact(k)}})
	}
	if g.chance(0.15) {
		g.r.Shuffle(len(all), func(i, j int) { all[i], all[j] = all[j], all[i] })
	}
	var params []*fun.Param
	var inputs []Input
	for _, d := range all {
		params = append(params, d.p)
		inputs = append(inputs, d.in)
		top.vars = append(top.vars, d.v)
	}
	return params, inputs
}

// results picks the program's results: one to three variables, mostly
// ones the body bound (inputs only when the body bound nothing usable).
func (b *block) results(nInputs int) []*fun.Ident {
	var cands []*gvar
	seen := map[string]bool{}
	for i := len(b.vars) - 1; i >= nInputs; i-- {
		if v := b.vars[i]; !seen[v.name] {
			seen[v.name] = true
			cands = append(cands, v)
		}
	}
	if len(cands) == 0 {
		cands = b.visible()
	}
	if len(cands) == 0 {
		return []*fun.Ident{id(b.letConst(b.g.constant()).name)}
	}
	var out []*fun.Ident
	for range 1 + b.g.intn(3) {
		// Prefer the latest bindings: they depend on the most statements.
		k := min(b.g.intn(len(cands)), b.g.intn(len(cands)))
		out = append(out, id(cands[k].name))
	}
	return out
}

// ---------------------------------------------------------------------------
// Scalar expressions.

var binOps = []semantics.Op{semantics.Add, semantics.Sub, semantics.Mul, semantics.Div, semantics.Mod,
	semantics.Eq, semantics.Ne, semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge, semantics.And, semantics.Or}

var cmpOps = []semantics.Op{semantics.Eq, semantics.Ne, semantics.Lt, semantics.Le, semantics.Gt, semantics.Ge}

func (b *block) leaf() (fun.SExp, ivl) {
	if ints := b.ints(); len(ints) > 0 && b.g.chance(0.55) {
		v := pick(b.g, ints)
		return fun.Var{Ident: id(v.name)}, v.iv
	}
	k := b.g.constant()
	return &fun.Const{Value: k}, ivExact(k)
}

// sexp is a random scalar expression of at most depth operators deep, with
// its interval. Divisors are non-zero unless a risky choice says otherwise.
func (b *block) sexp(depth int) (fun.SExp, ivl) {
	g := b.g
	if depth <= 0 || g.chance(0.3) {
		return b.leaf()
	}
	if g.chance(0.12) {
		x, iv := b.sexp(depth - 1)
		return &fun.UnOp{Op: semantics.Neg, X: x}, ivNeg(iv)
	}
	op := pick(g, binOps)
	l, li := b.sexp(depth - 1)
	var r fun.SExp
	var ri ivl
	if op == semantics.Div || op == semantics.Mod {
		r, ri = b.divisor(depth - 1)
	} else {
		r, ri = b.sexp(depth - 1)
	}
	return &fun.BinOp{Op: op, L: l, R: r}, ivBinary(op, li, ri)
}

func (b *block) divisor(depth int) (fun.SExp, ivl) {
	g := b.g
	if g.risk() {
		if g.chance(0.4) {
			return &fun.Const{Value: 0}, ivExact(0)
		}
		return b.sexp(depth) // perhaps zero
	}
	for range 3 {
		if e, iv := b.sexp(depth); !iv.has(0) {
			return e, iv
		}
	}
	k := g.between(1, 5)
	if g.chance(0.3) {
		k = -k
	}
	return &fun.Const{Value: k}, ivExact(k)
}

// sizeVar is an int variable whose value lies in [lo, hi]: one in scope,
// or a new let of a constant or an expression.
func (b *block) sizeVar(lo, hi int64) *gvar {
	g := b.g
	if lo > hi {
		panic(fmt.Sprintf("generator: empty size range %d..%d", lo, hi))
	}
	var cands []*gvar
	for _, v := range b.ints() {
		if v.iv.within(lo, hi) {
			cands = append(cands, v)
		}
	}
	if len(cands) > 0 && g.chance(0.65) {
		return pick(g, cands)
	}
	if g.chance(0.4) {
		for range 4 {
			if e, iv := b.sexp(2); iv.within(lo, hi) {
				return b.letInt(e, iv)
			}
		}
	}
	return b.letConst(g.between(lo, hi))
}

// extentVar is a size for iota or a kernel bound: in 0..MaxExtent, or, on
// a risky choice, possibly negative.
func (b *block) extentVar() *gvar {
	if b.g.risk() {
		return b.sizeVar(-2, b.g.cfg.MaxExtent)
	}
	return b.sizeVar(0, b.g.cfg.MaxExtent)
}

// condVar is an int variable to branch on.
func (b *block) condVar() *gvar {
	g := b.g
	if ints := b.ints(); len(ints) > 0 && g.chance(0.35) {
		return pick(g, ints)
	}
	l, _ := b.leaf()
	r, _ := b.leaf()
	return b.letInt(&fun.BinOp{Op: pick(g, cmpOps), L: l, R: r}, ivl{0, 1})
}

// ---------------------------------------------------------------------------
// Statements.

// stmKind is an entry of randomStm's table: a weight and the function
// that adds the statement to a block (false when it cannot there).
type stmKind struct {
	w int
	f func(*block) bool
}

// makeKinds is randomStm's table for g: the core forms' entries, then the
// extensions'.
func (g *generator) makeKinds() []stmKind {
	return append([]stmKind{
		{4, func(b *block) bool { b.genScalar(); return true }},
		{4, (*block).genIndex},
		{3, (*block).genSlice},
		{2, (*block).genTranspose},
		{2, (*block).genIota},
		{1, (*block).genCopy},
		{4, (*block).genKernel},
		{2, (*block).genIf},
		{2, (*block).genDepIf},
	}, g.extensionKinds()...)
}

// randomStm adds one random statement (and whatever helper lets it needs).
func (b *block) randomStm() {
	g := b.g
	if g.kinds == nil {
		g.kinds = g.makeKinds()
		for _, k := range g.kinds {
			g.kindsTotal += k.w
		}
	}
	kinds, total := g.kinds, g.kindsTotal
	for range 6 {
		x := g.intn(total)
		for _, k := range kinds {
			if x < k.w {
				if k.f(b) {
					return
				}
				break
			}
			x -= k.w
		}
	}
	b.genScalar()
}

func (b *block) randomStms(n int) {
	if b.depth > b.g.cfg.MaxDepth {
		return
	}
	for range n {
		b.randomStm()
	}
}

func (b *block) genScalar() {
	e, iv := b.sexp(b.g.intn(4))
	b.letInt(e, iv)
}

// indexVar is an int variable to index a dimension of size variable d
// with: in bounds, unless a risky choice says otherwise. It returns nil
// when no index is surely in bounds (the dimension may be empty).
func (b *block) indexVar(d string) *gvar {
	g := b.g
	D := b.extent(d)
	if g.risk() {
		if ints := b.ints(); len(ints) > 0 && g.chance(0.5) {
			return pick(g, ints)
		}
		return b.letConst(pick(g, []int64{0, -1, D.hi + 1, D.lo + 1, D.hi}))
	}
	var safe []*gvar
	for _, v := range b.ints() {
		switch {
		case v.idxOf == d: // a kernel index over d: 1..d
		case v.name == d && D.lo >= 1: // the last element
		case v.iv.within(1, D.lo):
		default:
			continue
		}
		safe = append(safe, v)
	}
	if len(safe) > 0 && g.chance(0.75) {
		return pick(g, safe)
	}
	if D.lo >= 1 {
		return b.sizeVar(1, D.lo)
	}
	if len(safe) > 0 {
		return pick(g, safe)
	}
	return nil
}

func (b *block) genIndex() bool {
	arrs := b.arrays()
	if len(arrs) == 0 {
		return false
	}
	a := pick(b.g, arrs)
	var idx []*fun.Ident
	for _, d := range a.dims {
		v := b.indexVar(d)
		if v == nil {
			return false
		}
		idx = append(idx, id(v.name))
	}
	v := &gvar{name: b.g.fresh("x"), iv: a.iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, nil)}, Exp: &fun.IndexExp{Arr: id(a.name), Idx: idx}}, v)
	return true
}

// slicePair is an offset and a size for a dimension of size variable d:
// the whole dimension or a window inside it, unless a risky choice picks
// one that may not fit.
func (b *block) slicePair(d string) (o, s *gvar) {
	g := b.g
	D := b.extent(d)
	max := g.cfg.MaxExtent
	if g.risk() {
		o = b.letConst(pick(g, []int64{0, 1, 2, D.hi, D.hi + 1, D.hi + 2}))
		s = b.sizeVar(-1, max+1)
		return o, s
	}
	if D.lo < 0 {
		return nil, nil
	}
	if g.chance(0.3) {
		return b.sizeVar(1, 1), b.lookup(d)
	}
	o = b.sizeVar(1, D.lo+1)
	s = b.sizeVar(0, D.lo+1-o.iv.hi)
	return o, s
}

func (b *block) genSlice() bool {
	arrs := b.arrays()
	if len(arrs) == 0 {
		return false
	}
	a := pick(b.g, arrs)
	e := &fun.SliceExp{Arr: id(a.name)}
	var dims []string
	for _, d := range a.dims {
		o, s := b.slicePair(d)
		if o == nil {
			return false
		}
		e.Slices = append(e.Slices, fun.Slice{Off: id(o.name), Size: id(s.name)})
		dims = append(dims, s.name)
	}
	v := &gvar{name: b.g.fresh("a"), dims: dims, iv: a.iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, dims)}, Exp: e}, v)
	return true
}

func (b *block) transposeOf(a *gvar) *gvar {
	v := &gvar{name: b.g.fresh("a"), dims: []string{a.dims[1], a.dims[0]}, iv: a.iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, v.dims)}, Exp: &fun.TransposeExp{Arr: id(a.name)}}, v)
	return v
}

func (b *block) genTranspose() bool {
	var cands []*gvar
	for _, a := range b.arrays() {
		if len(a.dims) == 2 {
			cands = append(cands, a)
		}
	}
	if len(cands) == 0 {
		return false
	}
	b.transposeOf(pick(b.g, cands))
	return true
}

func (b *block) iotaOf(n *gvar) *gvar {
	v := &gvar{name: b.g.fresh("a"), dims: []string{n.name}, iv: ivl{1, max(1, n.iv.hi)}}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, v.dims)}, Exp: &fun.IotaExp{N: id(n.name)}}, v)
	return v
}

func (b *block) genIota() bool {
	b.iotaOf(b.extentVar())
	return true
}

func (b *block) copyOf(a *gvar) *gvar {
	v := &gvar{name: b.g.fresh("a"), dims: a.dims, iv: a.iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, v.dims)}, Exp: &fun.CopyExp{Arr: id(a.name)}}, v)
	return v
}

func (b *block) genCopy() bool {
	arrs := b.arrays()
	if len(arrs) == 0 {
		return false
	}
	b.copyOf(pick(b.g, arrs))
	return true
}

// elemDims is an element type for a kernel or a branch: int (nil) or the
// dimensions of an outer array, or new size variables.
func (b *block) elemDims(maxRank int) []string {
	g := b.g
	if maxRank <= 0 || g.chance(0.45) {
		return nil
	}
	if arrs := b.arrays(); len(arrs) > 0 && g.chance(0.6) {
		if a := pick(g, arrs); len(a.dims) <= maxRank {
			return append([]string(nil), a.dims...)
		}
	}
	var dims []string
	for range 1 + g.intn(min(2, maxRank)) {
		if g.risk() {
			// Perhaps negative: an item size no array can have (E7).
			dims = append(dims, b.sizeVar(-2, g.cfg.MaxExtent).name)
			continue
		}
		dims = append(dims, b.sizeVar(0, g.cfg.MaxExtent).name)
	}
	return dims
}

// kernelBound is the bound of a random kernel: often a dimension of an
// array in scope, so the body can index that array with the kernel's index.
func (b *block) kernelBound() *gvar {
	g := b.g
	if g.risk() {
		return b.sizeVar(-2, g.cfg.MaxExtent)
	}
	if arrs := b.arrays(); len(arrs) > 0 && g.chance(0.6) {
		a := pick(g, arrs)
		if d := b.lookup(pick(g, a.dims)); d.iv.within(0, g.cfg.MaxExtent) {
			return d
		}
	}
	return b.sizeVar(0, g.cfg.MaxExtent)
}

func (b *block) genKernel() bool {
	g := b.g
	if b.depth >= g.cfg.MaxDepth {
		return false
	}
	y := b.kernelBound()
	if b.mult*max(1, y.iv.hi) > g.cfg.MaxIter {
		return false
	}
	b.kernel(y, b.elemDims(g.cfg.MaxRank-1), true)
	return true
}

// kernel binds let (z : [y]elem) = kernel i <= y do … in (r), where the body
// makes some random statements (when random is set) and then a value of
// type elem.
func (b *block) kernel(y *gvar, elem []string, random bool) *gvar {
	g := b.g
	dims := append([]string{y.name}, elem...)
	first := g.chance(0.5)
	var z string
	if first {
		z = g.fresh("a")
	}
	i := &gvar{name: g.fresh("i"), iv: ivl{1, max(1, y.iv.hi)}, idxOf: y.name}
	mark := g.next
	nb := b.nested(y.iv.hi)
	nb.vars = append(nb.vars, i)
	if random {
		nb.randomStms(g.intn(g.cfg.MaxInnerStms + 1))
	}
	res := nb.produce(elem)
	g.next = mark
	if !first {
		z = g.fresh("a")
	}
	v := &gvar{name: z, dims: dims, iv: res.iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(z, dims)}, Exp: &fun.KernelExp{
		Var: id(i.name), Bound: id(y.name),
		Body: &fun.Body{Stms: nb.stms, Result: []*fun.Ident{id(res.name)}},
	}}, v)
	return v
}

// produce returns a variable of exactly the type dims (int when empty),
// adding the statements that compute it.
func (b *block) produce(dims []string) *gvar {
	g := b.g
	if len(dims) == 0 {
		switch x := g.intn(10); {
		case x < 4:
			if ints := b.ints(); len(ints) > 0 {
				return pick(g, ints)
			}
		case x < 6:
			if b.genIndex() {
				return b.vars[len(b.vars)-1]
			}
		}
		b.genScalar()
		return b.vars[len(b.vars)-1]
	}
	type opt struct {
		w int
		f func() *gvar
	}
	var opts []opt
	if same := b.arraysOf(dims); len(same) > 0 {
		opts = append(opts, opt{3, func() *gvar { return pick(g, same) }},
			opt{1, func() *gvar { return b.copyOf(pick(g, same)) }})
	}
	if len(dims) == 1 {
		opts = append(opts, opt{2, func() *gvar { return b.iotaOf(b.lookup(dims[0])) }})
	}
	if len(dims) == 2 {
		if tr := b.arraysOf([]string{dims[1], dims[0]}); len(tr) > 0 {
			opts = append(opts, opt{2, func() *gvar { return b.transposeOf(pick(g, tr)) }})
		}
	}
	if src := b.sliceSources(dims); len(src) > 0 {
		opts = append(opts, opt{2, func() *gvar { return b.sliceTo(pick(g, src), dims) }})
	}
	opts = append(opts, opt{3, func() *gvar { return b.kernel(b.lookup(dims[0]), dims[1:], b.depth < g.cfg.MaxDepth) }})
	if b.depth < g.cfg.MaxDepth {
		opts = append(opts, opt{1, func() *gvar { return b.ifOf(dims) }})
	}
	total := 0
	for _, o := range opts {
		total += o.w
	}
	x := g.intn(total)
	for _, o := range opts {
		if x < o.w {
			return o.f()
		}
		x -= o.w
	}
	panic("unreachable")
}

// sliceSources are the arrays of the rank of dims that are at least as
// large as dims in every dimension, so a slice of them can have type dims.
func (b *block) sliceSources(dims []string) []*gvar {
	var out []*gvar
	for _, a := range b.arrays() {
		if len(a.dims) != len(dims) {
			continue
		}
		ok := true
		for j := range dims {
			if b.extent(a.dims[j]).lo < b.extent(dims[j]).hi {
				ok = false
			}
		}
		if ok {
			out = append(out, a)
		}
	}
	return out
}

// sliceTo slices a to the type dims, at offsets that keep it in bounds.
func (b *block) sliceTo(a *gvar, dims []string) *gvar {
	e := &fun.SliceExp{Arr: id(a.name)}
	for j, d := range dims {
		o := b.sizeVar(1, b.extent(a.dims[j]).lo-b.extent(d).hi+1)
		e.Slices = append(e.Slices, fun.Slice{Off: id(o.name), Size: id(d)})
	}
	v := &gvar{name: b.g.fresh("a"), dims: dims, iv: a.iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(v.name, dims)}, Exp: e}, v)
	return v
}

// ifOf binds let (z : dims) = if c then … else … with each branch making
// a value of type dims its own way.
func (b *block) ifOf(dims []string) *gvar {
	c := b.condVar()
	first := b.g.chance(0.5)
	var z string
	if first {
		z = b.g.fresh("a")
	}
	mark := b.g.next
	var bodies [2]*fun.Body
	iv := ivl{}
	for k := range bodies {
		b.g.next = mark
		nb := b.nested(1)
		nb.randomStms(b.g.intn(2))
		r := nb.produce(dims)
		bodies[k] = &fun.Body{Stms: nb.stms, Result: []*fun.Ident{id(r.name)}}
		if k == 0 {
			iv = r.iv
		}
		iv = iv.join(r.iv)
	}
	b.g.next = mark
	if !first {
		z = b.g.fresh("a")
	}
	v := &gvar{name: z, dims: dims, iv: iv}
	b.bind(&fun.Stm{Pat: []*fun.Param{param(z, dims)}, Exp: &fun.IfExp{Cond: id(c.name), Then: bodies[0], Else: bodies[1]}}, v)
	return v
}

// genIf binds one or two values of outer types (int or arrays) with an if.
func (b *block) genIf() bool {
	g := b.g
	if b.depth >= g.cfg.MaxDepth {
		return false
	}
	c := b.condVar()
	var types [][]string
	for range 1 + g.intn(2) {
		types = append(types, b.elemDims(g.cfg.MaxRank))
	}
	b.branching(c, types, 0)
	return true
}

// genDepIf is Fig 2's pattern: let (zs : int) (za : [zs]…) = if c then … in
// (n, a) else … in (m, b), the branches returning arrays of different sizes
// together with their sizes; sometimes two sizes, sometimes an extra int.
func (b *block) genDepIf() bool {
	g := b.g
	if b.depth >= g.cfg.MaxDepth {
		return false
	}
	c := b.condVar()
	elem := b.elemDims(g.cfg.MaxRank - 1)
	nSizes := 1
	if len(elem) == 0 && g.chance(0.3) {
		nSizes = 2
	}
	b.branching(c, nil, nSizes, elem...)
	return true
}

// branching builds the if statement of genIf (types: the outer types of
// the bindings) and genDepIf (nSizes > 0: the pattern binds nSizes sizes,
// then an array over them and elem, then perhaps an extra int).
func (b *block) branching(c *gvar, types [][]string, nSizes int, elem ...string) {
	g := b.g
	extra := nSizes > 0 && g.chance(0.3)
	first := g.chance(0.5)
	var names []string
	name := func() {
		names = nil
		for range nSizes {
			names = append(names, g.fresh("x"))
		}
		if nSizes > 0 {
			names = append(names, g.fresh("a"))
			if extra {
				names = append(names, g.fresh("x"))
			}
		}
		for _, t := range types {
			if len(t) == 0 {
				names = append(names, g.fresh("x"))
			} else {
				names = append(names, g.fresh("a"))
			}
		}
	}
	if first {
		name()
	}
	mark := g.next
	var bodies [2]*fun.Body
	var ivs [2][]ivl
	for k := range bodies {
		g.next = mark
		nb := b.nested(1)
		nb.randomStms(g.intn(g.cfg.MaxInnerStms + 1))
		var res []*gvar
		if nSizes > 0 {
			var sdims []string
			for range nSizes {
				s := nb.sizeVar(0, g.cfg.MaxExtent)
				res = append(res, s)
				sdims = append(sdims, s.name)
			}
			res = append(res, nb.produce(append(sdims, elem...)))
			if extra {
				res = append(res, nb.produce(nil))
			}
		}
		for _, t := range types {
			res = append(res, nb.produce(t))
		}
		body := &fun.Body{Stms: nb.stms}
		for _, r := range res {
			body.Result = append(body.Result, id(r.name))
			ivs[k] = append(ivs[k], r.iv)
		}
		bodies[k] = body
	}
	g.next = mark
	if !first {
		name()
	}
	var pat []*fun.Param
	var vs []*gvar
	k := 0
	add := func(dims []string) {
		v := &gvar{name: names[k], dims: dims, iv: ivs[0][k].join(ivs[1][k])}
		pat = append(pat, param(v.name, dims))
		vs = append(vs, v)
		k++
	}
	if nSizes > 0 {
		for range nSizes {
			add(nil)
		}
		add(append(append([]string(nil), names[:nSizes]...), elem...))
		if extra {
			add(nil)
		}
	}
	for _, t := range types {
		add(t)
	}
	b.bind(&fun.Stm{Pat: pat, Exp: &fun.IfExp{Cond: id(c.name), Then: bodies[0], Else: bodies[1]}}, vs...)
}

// ---------------------------------------------------------------------------
// Shrinking.
//
// ShrinkCase proposes smaller cases by edits that keep a program well
// typed by construction (so a failure of any property, the type checker's
// included, shrinks), tried in this order:
//
//   - drop a result of the program (when it has more than one);
//   - drop a statement none of whose names is used later in its body;
//   - make the program's results name variables bound earlier (an input, or
//     the statement before), which frees statements for the other edits;
//   - hoist one branch of an if into the enclosing body (its names made
//     fresh, the branch's results substituted for the pattern's names, which
//     is T-RESULT's substitution S);
//   - unwrap a kernel whose array is unused: bind its index to 1 (or to the
//     bound) and run its body's statements once, in the enclosing body;
//   - drop an input that nothing uses;
//   - replace one branch of an if by a copy of the other (sibling bodies are
//     typed under the same Γ and pattern);
//   - replace the expression of a statement binding one int by 0, and that
//     of a statement binding one array of type [d] by iota d;
//   - in a scalar expression, replace an operator node by one of its operands
//     and a constant k by 0 or k/2;
//   - move an int input towards 0 (truncating the arrays it sizes) and set
//     elements of array inputs to 0.
//
// Each candidate is kept only if it is strictly smaller in Measure, so
// shrinking terminates; gopter repeats from every smaller failing case.
// Edits are enumerated lazily: edit kind k at site n is applied to a fresh
// copy of the case when the stream reaches it.

// Shrinks streams the smaller cases of c, one edit each, in order; the
// stream ends with ok = false. ShrinkCase (gopter_test.go) makes it
// gopter's shrinker; campaigns (prove.go) use it as it is.
func Shrinks(c *Case) func() (*Case, bool) {
	m0 := MeasureOf(c)
	kind, site := 0, 0
	return func() (*Case, bool) {
		for kind < len(edits) {
			cand, ok := edits[kind](c, site)
			if !ok {
				kind, site = kind+1, 0
				continue
			}
			site++
			if cand != nil && MeasureOf(cand).Less(m0) {
				return cand, true
			}
		}
		return nil, false
	}
}

// An edit returns the case with its n-th site edited, or ok = false when
// there are not that many sites (a nil case with ok = true skips a site).
type edit func(c *Case, n int) (cand *Case, ok bool)

var edits = []edit{dropResult, dropStm, retargetResults, hoistBranch, unwrapKernel, dropInput, swapBranch, expToZero, expToIota, shrinkSExp, shrinkInput, zeroElements}

func withProg(c *Case, p *fun.Program) *Case {
	out := *c
	out.Prog = p
	out.Safe = false // the edit may have moved an index out of bounds
	return &out
}

func dropResult(c *Case, n int) (*Case, bool) {
	if len(c.Prog.Body.Result) < 2 || n >= len(c.Prog.Body.Result) {
		return nil, false
	}
	p := fun.CloneProgram(c.Prog)
	p.Body.Result = append(p.Body.Result[:n], p.Body.Result[n+1:]...)
	return withProg(c, p), true
}

// unusedAfter reports whether no name statement j of b binds occurs after it.
func unusedAfter(b *fun.Body, j int) bool {
	used := map[string]bool{}
	namesIn(used, b.Stms[j+1:]...)
	for _, x := range b.Result {
		used[x.Name] = true
	}
	for _, p := range b.Stms[j].Pat {
		if used[p.Name.Name] {
			return false
		}
	}
	return true
}

// editStms applies f to the n-th statement (in fun.Bodies order) for which
// ok holds, in a copy of c.
func editStms(c *Case, n int, ok func(b *fun.Body, j int) bool, f func(b *fun.Body, j int)) (*Case, bool) {
	p := fun.CloneProgram(c.Prog)
	seen, done := 0, false
	fun.Bodies(p.Body, func(b *fun.Body) {
		for j := 0; j < len(b.Stms) && !done; j++ {
			if ok(b, j) {
				if seen == n {
					f(b, j)
					done = true
					return
				}
				seen++
			}
		}
	})
	if !done {
		return nil, false
	}
	return withProg(c, p), true
}

func dropStm(c *Case, n int) (*Case, bool) {
	return editStms(c, n, unusedAfter, func(b *fun.Body, j int) { b.Stms = append(b.Stms[:j], b.Stms[j+1:]...) })
}

// retargetResults makes the program's results that name a variable bound
// by statement j of the program's body name an earlier variable instead
// (the previous statement's first name, or the first input). The program's
// results may have any types, so this keeps it well typed; it frees the
// statement for dropStm and unwrapKernel.
func retargetResults(c *Case, n int) (*Case, bool) {
	body := c.Prog.Body
	seen := 0
	for j := range body.Stms {
		var earlier string
		switch {
		case j > 0:
			earlier = body.Stms[j-1].Pat[0].Name.Name
		case len(c.Prog.Inputs) > 0:
			earlier = c.Prog.Inputs[0].Name.Name
		default:
			continue
		}
		names := map[string]bool{}
		for _, p := range body.Stms[j].Pat {
			names[p.Name.Name] = true
		}
		usedByResult := false
		for _, x := range body.Result {
			usedByResult = usedByResult || names[x.Name]
		}
		if !usedByResult {
			continue
		}
		if seen < n {
			seen++
			continue
		}
		p := fun.CloneProgram(c.Prog)
		for _, x := range p.Body.Result {
			if names[x.Name] {
				x.Name = earlier
			}
		}
		return withProg(c, p), true
	}
	return nil, false
}

// hoistBranch replaces let p̄ = if c then b1 else b2 by the statements of
// one branch, their names made fresh, and substitutes the branch's results
// for the pattern's names in the rest of the body. T-RESULT's substitution
// S is exactly what makes the rest well typed after the renaming.
func hoistBranch(c *Case, n int) (*Case, bool) {
	used := allNames(c.Prog)
	k := 0
	fresh := func() string {
		for {
			k++
			if name := "h" + strconv.Itoa(k); !used[name] {
				return name
			}
		}
	}
	isIf := func(b *fun.Body, j int) bool { _, ok := b.Stms[j].Exp.(*fun.IfExp); return ok }
	return editStms(c, n/2, isIf, func(b *fun.Body, j int) {
		s := b.Stms[j]
		br := s.Exp.(*fun.IfExp).Then
		if n%2 == 1 {
			br = s.Exp.(*fun.IfExp).Else
		}
		ren := map[string]string{}
		for _, t := range br.Stms {
			for _, p := range t.Pat {
				ren[p.Name.Name] = fresh()
			}
		}
		renameIn(ren, br)
		sub := map[string]string{}
		for i, p := range s.Pat {
			sub[p.Name.Name] = br.Result[i].Name
		}
		rest := b.Stms[j+1:]
		renameIn(sub, rest...)
		renameIn(sub, b.Result...)
		b.Stms = append(append(b.Stms[:j:j], br.Stms...), rest...)
	})
}

// unwrapKernel replaces a kernel whose array nothing uses by its body run
// once: let (i : int) = 1 (or = the bound, the last iteration), then the
// body's statements, all their names made fresh. The body was typed with
// i : int in Γ, so it still is.
func unwrapKernel(c *Case, n int) (*Case, bool) {
	used := allNames(c.Prog)
	k := 0
	fresh := func() string {
		for {
			k++
			if name := "u" + strconv.Itoa(k); !used[name] {
				return name
			}
		}
	}
	ok := func(b *fun.Body, j int) bool {
		_, isKernel := b.Stms[j].Exp.(*fun.KernelExp)
		return isKernel && unusedAfter(b, j)
	}
	return editStms(c, n/2, ok, func(b *fun.Body, j int) {
		e := b.Stms[j].Exp.(*fun.KernelExp)
		ren := map[string]string{e.Var.Name: fresh()}
		for _, t := range e.Body.Stms {
			for _, p := range t.Pat {
				ren[p.Name.Name] = fresh()
			}
		}
		var first fun.SExp = &fun.Const{Value: 1}
		if n%2 == 1 {
			first = fun.Var{Ident: fun.CloneIdent(e.Bound)}
		}
		iter := &fun.Stm{Pat: []*fun.Param{{Name: fun.CloneIdent(e.Var)}}, Exp: &fun.ScalarExp{X: first}}
		stms := append([]*fun.Stm{iter}, e.Body.Stms...)
		renameIn(ren, stms...)
		rest := b.Stms[j+1:]
		b.Stms = append(append(b.Stms[:j:j], stms...), rest...)
	})
}

func dropInput(c *Case, n int) (*Case, bool) {
	used := map[string]bool{}
	namesIn(used, c.Prog.Body)
	for _, p := range c.Prog.Inputs {
		for _, d := range p.Type.Dims {
			used[d.Name] = true
		}
	}
	seen := 0
	for i, p := range c.Prog.Inputs {
		if used[p.Name.Name] {
			continue
		}
		if seen == n {
			q := fun.CloneProgram(c.Prog)
			q.Inputs = append(q.Inputs[:i], q.Inputs[i+1:]...)
			out := withProg(c, q)
			out.Inputs = nil
			for _, in := range c.Inputs {
				if in.Name != p.Name.Name {
					out.Inputs = append(out.Inputs, in)
				}
			}
			return out, true
		}
		seen++
	}
	return nil, false
}

func swapBranch(c *Case, n int) (*Case, bool) {
	isIf := func(b *fun.Body, j int) bool { _, ok := b.Stms[j].Exp.(*fun.IfExp); return ok }
	return editStms(c, n/2, isIf, func(b *fun.Body, j int) {
		e := b.Stms[j].Exp.(*fun.IfExp)
		if n%2 == 0 {
			e.Then = fun.CloneBody(e.Else)
		} else {
			e.Else = fun.CloneBody(e.Then)
		}
	})
}

func expToZero(c *Case, n int) (*Case, bool) {
	ok := func(b *fun.Body, j int) bool {
		s := b.Stms[j]
		if len(s.Pat) != 1 || !s.Pat[0].Type.IsInt() {
			return false
		}
		if e, ok := s.Exp.(*fun.ScalarExp); ok {
			if k, ok := e.X.(*fun.Const); ok && k.Value == 0 {
				return false
			}
		}
		return true
	}
	return editStms(c, n, ok, func(b *fun.Body, j int) { b.Stms[j].Exp = &fun.ScalarExp{X: &fun.Const{}} })
}

func expToIota(c *Case, n int) (*Case, bool) {
	ok := func(b *fun.Body, j int) bool {
		s := b.Stms[j]
		_, isIota := s.Exp.(*fun.IotaExp)
		return len(s.Pat) == 1 && s.Pat[0].Type.Rank() == 1 && !isIota
	}
	return editStms(c, n, ok, func(b *fun.Body, j int) {
		b.Stms[j].Exp = &fun.IotaExp{N: fun.CloneIdent(b.Stms[j].Pat[0].Type.Dims[0])}
	})
}

// shrinkSExp rewrites the n-th site of all scalar expressions: an operator
// node by an operand, a constant by 0 or by half of it.
func shrinkSExp(c *Case, n int) (*Case, bool) {
	p := fun.CloneProgram(c.Prog)
	seen, done := 0, false
	var rewrite func(e fun.SExp) fun.SExp
	try := func() bool {
		if done {
			return false
		}
		if seen == n {
			done = true
			return true
		}
		seen++
		return false
	}
	rewrite = func(e fun.SExp) fun.SExp {
		switch x := e.(type) {
		case *fun.BinOp:
			if try() {
				return x.L
			}
			if try() {
				return x.R
			}
			x.L = rewrite(x.L)
			x.R = rewrite(x.R)
		case *fun.UnOp:
			if try() {
				return x.X
			}
			x.X = rewrite(x.X)
		case *fun.Const:
			if x.Value != 0 && try() {
				return &fun.Const{}
			}
			if (x.Value > 1 || x.Value < -1) && try() {
				return &fun.Const{Value: x.Value / 2}
			}
		}
		return e
	}
	fun.Bodies(p.Body, func(b *fun.Body) {
		for _, s := range b.Stms {
			if e, ok := s.Exp.(*fun.ScalarExp); ok && !done {
				e.X = rewrite(e.X)
			}
		}
	})
	if !done {
		return nil, false
	}
	return withProg(c, p), true
}

// shrinkInput moves the value of an int input towards 0: to 0, to half,
// and one step. Array inputs sized by it are truncated to the new size.
func shrinkInput(c *Case, n int) (*Case, bool) {
	seen := 0
	for i, in := range c.Inputs {
		if !in.Value.IsScalar() || in.Value.Int() == 0 {
			continue
		}
		k := in.Value.Int()
		step := int64(1)
		if k < 0 {
			step = -1
		}
		cands := []int64{0}
		if k/2 != 0 {
			cands = append(cands, k/2)
		}
		if k-step != 0 && k-step != k/2 {
			cands = append(cands, k-step)
		}
		if n-seen >= len(cands) {
			seen += len(cands)
			continue
		}
		nk := cands[n-seen]
		out := withProg(c, c.Prog)
		out.Inputs = append([]Input(nil), c.Inputs...)
		out.Inputs[i].Value = semantics.Scalar(nk)
		if k > 0 {
			for _, p := range c.Prog.Inputs {
				for d, dim := range p.Type.Dims {
					if dim.Name == in.Name {
						for j := range out.Inputs {
							if out.Inputs[j].Name == p.Name.Name {
								out.Inputs[j].Value = truncate(out.Inputs[j].Value, d, nk)
							}
						}
					}
				}
			}
		}
		return out, true
	}
	return nil, false
}

// truncate keeps the first n items of dimension d of a (n <= the extent).
func truncate(a semantics.Array, d int, n int64) semantics.Array {
	shape := append([]int64(nil), a.Shape...)
	shape[d] = n
	outer, inner := int64(1), int64(1)
	for _, k := range a.Shape[:d] {
		outer *= k
	}
	for _, k := range a.Shape[d+1:] {
		inner *= k
	}
	out := semantics.Array{Shape: shape, Data: []int64{}}
	for o := range outer {
		base := o * a.Shape[d] * inner
		out.Data = append(out.Data, a.Data[base:base+n*inner]...)
	}
	return out
}

// zeroElements sets array input elements to 0: all of one array, or one
// element (among its first 16 non-zero ones).
func zeroElements(c *Case, n int) (*Case, bool) {
	seen := 0
	for i, in := range c.Inputs {
		if in.Value.IsScalar() {
			continue
		}
		var nz []int
		for j, k := range in.Value.Data {
			if k != 0 && len(nz) < 16 {
				nz = append(nz, j)
			}
		}
		if len(nz) == 0 {
			continue
		}
		if n-seen > len(nz) {
			seen += len(nz) + 1
			continue
		}
		data := append([]int64(nil), in.Value.Data...)
		if n == seen {
			clear(data)
		} else {
			data[nz[n-seen-1]] = 0
		}
		out := withProg(c, c.Prog)
		out.Inputs = append([]Input(nil), c.Inputs...)
		out.Inputs[i].Value = semantics.Array{Shape: in.Value.Shape, Data: data}
		return out, true
	}
	return nil, false
}
