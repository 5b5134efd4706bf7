package proofstests

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Bounded-exhaustive enumeration (small-scope hypothesis): instead of
// sampling programs at random as fungen.go does, EnumeratePrograms lists
// every well-typed FUN program up to a size over a small vocabulary, and
// Enumerate pairs each with every input of a small set.
//
// Every program has the inputs (n : int) (xs : [n]). Its size is its
// number of statements, those of nested bodies included, plus the number
// of operators in its scalar expressions (so let x = n + 1 counts 2: the
// operators, whose choices multiply fastest, pay for them). A statement,
// in a scope whose int variables are I and whose array variables are A
// (as fungen.go does, the enumerator keeps the variables in scope with
// their FUN types and writes only what the rules of Fig 3 accept), is one
// of
//
//   - let (x : int) = k, for a constant k of Consts;
//   - let (x : int) = l ⊕ r, for ⊕ in Ops and l, r in I ∪ Consts, not both
//     constants;
//   - let (x : int) = a[y1, …, yr], for a : [d1]…[dr] in A and y1 … yr in I;
//   - let (a' : [s1]…[sr]) = a[o1 : s1, …, or : sr], for a in A, each oj
//     and sj in I;
//   - let (a' : [d2][d1]) = transpose a, for a : [d1][d2] in A;
//   - let (a' : [y]) = iota y, for y in I;
//   - let (a' : τ) = copy a, for a : τ in A;
//   - let (z : [y]τ) = kernel i <= y do b in (r), for y in I, a body b of
//     at most MaxInner statements (which may use i) and r any variable in
//     scope at its end whose type τ names only ints of I, the rank of [y]τ
//     at most MaxRank;
//   - let (z : τ) = if c then b1 in (r1) else b2 in (r2), for c in I, two
//     bodies of at most MaxInner statements each, r1 and r2 of the same
//     type τ over ints of I;
//   - let (m : int) (a' : [m]τ) = if c then b1 in (s1, r1) else b2 in (s2,
//     r2), Fig 2's if choosing between two arrays of possibly different
//     sizes: r1 : [s1]τ and r2 : [s2]τ, τ over ints of I.
//
// A program's results are one or two distinct variables in scope at the
// end (in the order they were bound). Dead code is left out: in every
// body, each statement binds a name that a later statement of the body or
// the body's results use (such a program is a smaller one plus a
// statement nobody reads; returning that statement's variable as well
// checks the statement too). Names are a letter and a counter, as
// fungen.go names them, so each program is enumerated exactly once.
//
// The inputs are n = k for each k in Sizes, with xs the first k values of
// Elems. With the default vocabulary there are 3 programs of size 0, 43 of
// size 1 (TestEnumerateSize1 derives the number), 1529 of size 2 and
// 98579 of size 3.

// EnumConfig is the vocabulary and the bound of the enumeration.
type EnumConfig struct {
	MaxSize    int            // largest size: statements (nested ones included) plus operators
	MaxInner   int            // most statements in a kernel's or an if branch's body
	MaxRank    int            // largest rank of an array a statement makes
	MaxResults int            // most results of a program
	Consts     []int64        // the constants of scalar statements
	Ops        []semantics.Op // the operators of scalar statements
	Sizes      []int64        // the values of the input n, one case each
	Elems      []int64        // xs is the first n of these
}

// DefaultEnumConfig is the CI bound: programs of size at most 2 (1575
// programs, 4725 cases); TestExhaustive raises MaxSize with
// -exhaustive-size.
var DefaultEnumConfig = EnumConfig{
	MaxSize:    2,
	MaxInner:   1,
	MaxRank:    2,
	MaxResults: 2,
	Consts:     []int64{0, 1, 2},
	Ops:        []semantics.Op{semantics.Add, semantics.Sub, semantics.Mul, semantics.Div, semantics.Lt},
	Sizes:      []int64{0, 1, 2},
	Elems:      []int64{2, -1, 3, 0},
}

// EnumeratePrograms calls yield with every program of the enumeration and
// its size, smallest sizes first, until yield returns false. It returns
// the number of programs it yielded. Each program is a fresh tree.
func EnumeratePrograms(cfg EnumConfig, yield func(p *fun.Program, size int) bool) int {
	count := 0
	e := &enumerator{cfg: cfg}
	for size := 0; size <= cfg.MaxSize; size++ {
		top := escope{vars: []evar{{name: "n"}, {name: "xs", dims: []string{"n"}}}}
		ok := e.seq(top, size, size, func(stms []*fun.Stm, after escope, used int) bool {
			if used != size {
				return true
			}
			return e.results(after, func(res []string) bool {
				body := &fun.Body{Stms: stms, Result: idents(res)}
				if !allLive(body) {
					return true
				}
				p := &fun.Program{Inputs: []*fun.Param{param("n", nil), param("xs", []string{"n"})}, Body: body}
				count++
				return yield(fun.CloneProgram(p), size)
			})
		})
		if !ok {
			break
		}
	}
	return count
}

// EnumInputs are the inputs of the enumeration's cases, one set per value
// of n in cfg.Sizes: n and xs, the first n of cfg.Elems.
func EnumInputs(cfg EnumConfig) [][]Input {
	var out [][]Input
	for _, k := range cfg.Sizes {
		if k < 0 || k > int64(len(cfg.Elems)) {
			panic(fmt.Sprintf("enumeration: n = %d, but there are %d elements", k, len(cfg.Elems)))
		}
		data := append([]int64{}, cfg.Elems[:k]...)
		out = append(out, []Input{
			{Name: "n", Value: semantics.Scalar(k)},
			{Name: "xs", Value: semantics.Array{Shape: []int64{k}, Data: data}},
		})
	}
	return out
}

// Enumerate calls yield with every case of the enumeration, each program
// (in EnumeratePrograms' order) with each input of EnumInputs, until
// yield returns false. A case's Seed is its program's number in the
// enumeration (from 0) and its Size the program's size; Safe is false (an
// enumerated program may well get stuck). It returns the number of
// programs and of cases yielded.
func Enumerate(cfg EnumConfig, yield func(*Case) bool) (programs, cases int) {
	inputs := EnumInputs(cfg)
	programs = EnumeratePrograms(cfg, func(p *fun.Program, size int) bool {
		for _, in := range inputs {
			cases++
			c := &Case{Prog: p, Inputs: in, Seed: int64(programs), Size: size}
			if !yield(c) {
				return false
			}
		}
		programs++
		return true
	})
	return programs, cases
}

// evar is a variable in scope: an int (no dims) or an array over size
// variables.
type evar struct {
	name string
	dims []string
}

func (v evar) isInt() bool { return len(v.dims) == 0 }

// escope is the scope of a body under construction: its variables in the
// order they were bound, and the counter of fresh names.
type escope struct {
	vars []evar
	next int
}

func (s escope) ints() []string {
	var out []string
	for _, v := range s.vars {
		if v.isInt() {
			out = append(out, v.name)
		}
	}
	return out
}

func (s escope) arrays() []evar {
	var out []evar
	for _, v := range s.vars {
		if !v.isInt() {
			out = append(out, v)
		}
	}
	return out
}

// over reports whether every dimension in dims is an int of s.
func (s escope) over(dims []string) bool {
	ints := map[string]bool{}
	for _, x := range s.ints() {
		ints[x] = true
	}
	for _, d := range dims {
		if !ints[d] {
			return false
		}
	}
	return true
}

// name is the fresh name number k after s.next, with prefix.
func (s escope) name(prefix string, k int) string { return prefix + strconv.Itoa(s.next+k) }

// extend is s with vs bound and the counter advanced by used names.
func (s escope) extend(used int, vs ...evar) escope {
	vars := append(append([]evar(nil), s.vars...), vs...)
	return escope{vars: vars, next: s.next + used}
}

func idents(names []string) []*fun.Ident {
	out := make([]*fun.Ident, len(names))
	for i, x := range names {
		out[i] = id(x)
	}
	return out
}

// allLive reports whether every statement of b (not of its nested bodies)
// binds a name used after it.
func allLive(b *fun.Body) bool {
	for j := range b.Stms {
		if unusedAfter(b, j) {
			return false
		}
	}
	return true
}

type enumerator struct{ cfg EnumConfig }

// stmK receives a statement, the variables it binds, the counter after
// them, and its size.
type stmK func(s *fun.Stm, bound []evar, names int, size int) bool

// seq calls k with every sequence of at most maxStms statements of total
// size at most budget in scope sc (the empty one first), the scope after
// them, and their size. It returns false when k asked to stop.
func (e *enumerator) seq(sc escope, budget, maxStms int, k func(stms []*fun.Stm, after escope, size int) bool) bool {
	if !k(nil, sc, 0) {
		return false
	}
	if budget <= 0 || maxStms <= 0 {
		return true
	}
	return e.stm(sc, budget, func(s *fun.Stm, bound []evar, names, size int) bool {
		return e.seq(sc.extend(names, bound...), budget-size, maxStms-1, func(rest []*fun.Stm, after escope, size2 int) bool {
			return k(append([]*fun.Stm{s}, rest...), after, size+size2)
		})
	})
}

// results calls k with every choice of 1 to MaxResults distinct variables
// of sc, in the order sc binds them.
func (e *enumerator) results(sc escope, k func(res []string) bool) bool {
	var rec func(from int, res []string) bool
	rec = func(from int, res []string) bool {
		for j := from; j < len(sc.vars); j++ {
			r := append(append([]string(nil), res...), sc.vars[j].name)
			if !k(r) {
				return false
			}
			if len(r) < e.cfg.MaxResults && !rec(j+1, r) {
				return false
			}
		}
		return true
	}
	return rec(0, nil)
}

// tuples calls k with every tuple of n elements of xs.
func tuples(xs []string, n int, k func([]string) bool) bool {
	var rec func(acc []string) bool
	rec = func(acc []string) bool {
		if len(acc) == n {
			return k(acc)
		}
		for _, x := range xs {
			if !rec(append(append([]string(nil), acc...), x)) {
				return false
			}
		}
		return true
	}
	return rec(nil)
}

// single is the statement let (x : dims) = exp of the given size, x fresh.
func single(sc escope, dims []string, exp fun.Exp, size int, k stmK) bool {
	prefix := "a"
	if len(dims) == 0 {
		prefix = "x"
	}
	x := sc.name(prefix, 1)
	s := &fun.Stm{Pat: []*fun.Param{param(x, dims)}, Exp: exp}
	return k(s, []evar{{name: x, dims: dims}}, 1, size)
}

// stm calls k with every statement of size at most budget (at least 1) in
// scope sc.
func (e *enumerator) stm(sc escope, budget int, k stmK) bool {
	ints, arrs := sc.ints(), sc.arrays()
	cfg := e.cfg

	// Scalars: a constant, or an operator with at least one variable.
	for _, c := range cfg.Consts {
		if !single(sc, nil, &fun.ScalarExp{X: &fun.Const{Value: c}}, 1, k) {
			return false
		}
	}
	var leaves []fun.SExp
	for _, x := range ints {
		leaves = append(leaves, fun.Var{Ident: id(x)})
	}
	for _, c := range cfg.Consts {
		leaves = append(leaves, &fun.Const{Value: c})
	}
	for _, op := range cfg.Ops {
		for _, l := range leaves {
			for _, r := range leaves {
				_, lc := l.(*fun.Const)
				_, rc := r.(*fun.Const)
				if lc && rc {
					continue
				}
				if budget < 2 {
					continue
				}
				exp := &fun.ScalarExp{X: &fun.BinOp{Op: op, L: fun.CloneSExp(l), R: fun.CloneSExp(r)}}
				if !single(sc, nil, exp, 2, k) {
					return false
				}
			}
		}
	}

	// Indexing and slicing, with every choice of int variables.
	for _, a := range arrs {
		ok := tuples(ints, len(a.dims), func(ys []string) bool {
			return single(sc, nil, &fun.IndexExp{Arr: id(a.name), Idx: idents(ys)}, 1, k)
		})
		if !ok {
			return false
		}
	}
	for _, a := range arrs {
		ok := tuples(ints, 2*len(a.dims), func(os []string) bool {
			exp := &fun.SliceExp{Arr: id(a.name)}
			var dims []string
			for j := 0; j < len(os); j += 2 {
				exp.Slices = append(exp.Slices, fun.Slice{Off: id(os[j]), Size: id(os[j+1])})
				dims = append(dims, os[j+1])
			}
			return single(sc, dims, exp, 1, k)
		})
		if !ok {
			return false
		}
	}

	for _, a := range arrs {
		if len(a.dims) == 2 && !single(sc, []string{a.dims[1], a.dims[0]}, &fun.TransposeExp{Arr: id(a.name)}, 1, k) {
			return false
		}
	}
	for _, y := range ints {
		if !single(sc, []string{y}, &fun.IotaExp{N: id(y)}, 1, k) {
			return false
		}
	}
	for _, a := range arrs {
		if !single(sc, a.dims, &fun.CopyExp{Arr: id(a.name)}, 1, k) {
			return false
		}
	}

	// Kernels: let (z : [y]τ) = kernel i <= y do … in (r).
	for _, y := range ints {
		z, i := sc.name("a", 1), sc.name("i", 2)
		inner := sc.extend(2, evar{name: i})
		ok := e.seq(inner, budget-1, cfg.MaxInner, func(stms []*fun.Stm, after escope, size int) bool {
			for _, r := range after.vars {
				if !sc.over(r.dims) || len(r.dims)+1 > cfg.MaxRank {
					continue
				}
				body := &fun.Body{Stms: stms, Result: idents([]string{r.name})}
				if !allLive(body) {
					continue
				}
				dims := append([]string{y}, r.dims...)
				s := &fun.Stm{Pat: []*fun.Param{param(z, dims)}, Exp: &fun.KernelExp{Var: id(i), Bound: id(y), Body: body}}
				if !k(s, []evar{{name: z, dims: dims}}, 1, 1+size) {
					return false
				}
			}
			return true
		})
		if !ok {
			return false
		}
	}

	// Ifs: one value of the same type from each branch, or Fig 2's size
	// with an array of that size.
	for _, c := range ints {
		inner := sc.extend(1)
		ok := e.branches(inner, budget-1, func(r evar) bool { return sc.over(r.dims) },
			func(r1, r2 evar) bool { return slices.Equal(r1.dims, r2.dims) },
			func(r evar) []string { return []string{r.name} },
			func(b1, b2 *fun.Body, r1 evar, size int) bool {
				prefix := "a"
				if r1.isInt() {
					prefix = "x"
				}
				z := sc.name(prefix, 1)
				s := &fun.Stm{Pat: []*fun.Param{param(z, r1.dims)}, Exp: &fun.IfExp{Cond: id(c), Then: b1, Else: b2}}
				return k(s, []evar{{name: z, dims: r1.dims}}, 1, 1+size)
			})
		if !ok {
			return false
		}
	}
	for _, c := range ints {
		inner := sc.extend(2)
		ok := e.branches(inner, budget-1, func(r evar) bool { return !r.isInt() && sc.over(r.dims[1:]) },
			func(r1, r2 evar) bool { return len(r2.dims) == len(r1.dims) && slices.Equal(r1.dims[1:], r2.dims[1:]) },
			func(r evar) []string { return []string{r.dims[0], r.name} },
			func(b1, b2 *fun.Body, r1 evar, size int) bool {
				m, a := sc.name("x", 1), sc.name("a", 2)
				dims := append([]string{m}, r1.dims[1:]...)
				pat := []*fun.Param{param(m, nil), param(a, dims)}
				s := &fun.Stm{Pat: pat, Exp: &fun.IfExp{Cond: id(c), Then: b1, Else: b2}}
				return k(s, []evar{{name: m}, {name: a, dims: dims}}, 2, 1+size)
			})
		if !ok {
			return false
		}
	}
	return true
}

// branches calls k with every pair of if branches in scope inner whose
// sizes add up to at most budget: each at most MaxInner statements, then
// the results res(r) for a variable r in scope at the end, r1 admitted by
// ok1 and r2 by ok2(r1, r2), every statement live.
func (e *enumerator) branches(inner escope, budget int, ok1 func(evar) bool, ok2 func(r1, r2 evar) bool,
	res func(evar) []string, k func(b1, b2 *fun.Body, r1 evar, size int) bool) bool {
	return e.seq(inner, budget, e.cfg.MaxInner, func(stms1 []*fun.Stm, after1 escope, size1 int) bool {
		for _, r1 := range after1.vars {
			if !ok1(r1) {
				continue
			}
			b1 := &fun.Body{Stms: stms1, Result: idents(res(r1))}
			if !allLive(b1) {
				continue
			}
			ok := e.seq(inner, budget-size1, e.cfg.MaxInner, func(stms2 []*fun.Stm, after2 escope, size2 int) bool {
				for _, r2 := range after2.vars {
					if !ok2(r1, r2) {
						continue
					}
					b2 := &fun.Body{Stms: stms2, Result: idents(res(r2))}
					if !allLive(b2) {
						continue
					}
					if !k(b1, b2, r1, size1+size2) {
						return false
					}
				}
				return true
			})
			if !ok {
				return false
			}
		}
		return true
	})
}
