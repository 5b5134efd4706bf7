package proofstests

import (
	"errors"
	"fmt"
	"maps"
	"math/rand"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
)

// This file holds what the FUNMEM properties (funmem_test.go) need besides
// the FUN generator: the FUNMEM programs derived from a FUN program by the
// translations of the paper (Variants), a generator of broken FUNMEM
// programs derived from valid ones (Mutate), and a few measures of FUNMEM
// programs (KernelAllocs).

// Variant is a FUNMEM program derived from a FUN program, named after the
// passes that made it, and checked by FUNMEM's language (the registry's
// walk re-checks every stage).
type Variant struct {
	Name    string
	Prog    *fun.Program
	Program lang.Program
}

// PassPanic is the panic of a pass of Variants.
type PassPanic struct {
	Pass  string // e.g. "Simplify∘MemoryExpand GPU"
	Value any
	Stack string
}

func (e *PassPanic) Error() string { return fmt.Sprintf("%s panics: %v\n%s", e.Pass, e.Value, e.Stack) }

// Variants are the FUNMEM programs the properties check for a well-typed
// FUN program p, made by the registry reg's passes and pipelines as
// `arraysem compile` makes them: q = TransformProgram(p); the pipeline
// funmem from q (Simplify); the pipeline funmem-expanded in both layouts
// (Simplify, MemoryExpand, Simplify) and, with --raw, its MemoryExpand
// alone, then Simplify after it. A pass that panics gives no variant, nor
// do the passes after it; its panic is among panics. A pass whose output
// FUNMEM's checker rejects is err.
func Variants(reg *lang.Registry, p *fun.Program) (vs []Variant, panics []*PassPanic, err error) {
	src, err := fun.Language.Adopt(p.File, p, lang.LoadOptions{})
	if err != nil {
		return nil, nil, err
	}
	return VariantsOf(reg, src)
}

// VariantsOf is Variants of src, a FUN program its language has loaded
// or adopted (checked already).
func VariantsOf(reg *lang.Registry, src lang.Program) (vs []Variant, panics []*PassPanic, err error) {
	// The walks share their first passes (TransformProgram, and Simplify
	// after it in three of them): each runs once, and a pass's output
	// that is a program checked before is not checked again.
	return variantWalks(reg.Memo(), src)
}

// variantWalks is VariantsOf's walks on reg as it is (a Memo or not:
// TestVariantsMemo compares the two).
func variantWalks(reg *lang.Registry, src lang.Program) (vs []Variant, panics []*PassPanic, err error) {
	// run keeps the last stage of a walk as the variant name, or the
	// walk's panic.
	run := func(name string, walk func() ([]lang.Stage, error)) lang.Program {
		st, werr := walk()
		var pe *lang.PassError
		if errors.As(werr, &pe) && pe.Panic != "" {
			panics = append(panics, &PassPanic{Pass: name, Value: pe.Err, Stack: pe.Panic})
			return nil
		}
		if werr != nil {
			if err == nil {
				err = fmt.Errorf("%s: %w", name, werr)
			}
			return nil
		}
		last := st[len(st)-1].Program
		vs = append(vs, Variant{Name: name, Prog: last.Syntax().(*fun.Program), Program: last})
		return last
	}
	q := run(funmem.TransformPass.Name, func() ([]lang.Stage, error) {
		return reg.RunPasses(src, []string{funmem.TransformPass.Name}, lang.Options{})
	})
	if q == nil {
		return vs, panics, err
	}
	run("Simplify", func() ([]lang.Stage, error) { return reg.RunPipeline(q, "funmem", lang.Options{}) })
	for _, l := range []struct{ name, layout string }{{"GPU", "gpu"}, {"CPU", "cpu"}} {
		o := lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, l.layout)
		e := run("MemoryExpand "+l.name, func() ([]lang.Stage, error) { return reg.RunPipeline(q, "funmem-expanded", o.With("raw")) })
		if e != nil {
			run("Simplify∘MemoryExpand "+l.name, func() ([]lang.Stage, error) {
				return reg.RunPasses(e, []string{funmem.SimplifyPass.Name}, o)
			})
		}
		run("Simplify∘MemoryExpand "+l.name+"∘Simplify", func() ([]lang.Stage, error) { return reg.RunPipeline(q, "funmem-expanded", o) })
	}
	return vs, panics, err
}

// KernelAllocs measures where a FUNMEM program allocates: allocs is the
// number of alloc statements inside kernel bodies (at any depth, in the
// bodies of ifs, loops and folds too), kernels the number of kernels
// whose body (at any depth) allocates, and depth the
// sum over all allocs of the number of kernels around them. Each step of
// MemoryExpand moves one alloc out of one kernel, so depth(q) −
// depth(MemoryExpand(q)) is the number of expansions (hoisting inside a
// body does not change it).
func KernelAllocs(p *fun.Program) (allocs, kernels, depth int) {
	var walk func(b *fun.Body, d int) int
	walk = func(b *fun.Body, d int) int {
		n := 0
		for _, s := range b.Stms {
			switch e := s.Exp.(type) {
			case *funmem.AllocExp:
				n++
				depth += d
				if d > 0 {
					allocs++
				}
			case *fun.IfExp:
				n += walk(e.Then, d) + walk(e.Else, d)
			case *fun.KernelExp:
				k := walk(e.Body, d+1)
				if k > 0 {
					kernels++
				}
				n += k
			default:
				// A loop's or a fold's body runs in the kernel around
				// it (if any), at its depth.
				for _, nb := range fun.ExpBodies(e) {
					n += walk(nb, d)
				}
			}
		}
		return n
	}
	walk(p.Body, 0)
	return allocs, kernels, depth
}

// Mutation kinds.
const (
	// MutStride sets one LMAD stride of a fresh array's destination (the
	// pattern of a statement whose expression is a kernel, iota or copy)
	// to 0.
	MutStride = "stride 0"
	// MutShare puts two fresh arrays in one block: a kernel, iota or copy
	// pattern is made to use an earlier block of the same size (the sizes
	// of the two allocs are equal as polynomials, modulo the scalar lets
	// in scope) and its own alloc is dropped.
	MutShare = "shared block"
)

// MutationKinds lists the kinds Mutate makes.
var MutationKinds = []string{MutStride, MutShare}

// Mutant is a broken FUNMEM program and what was changed.
type Mutant struct {
	Kind string
	What string // e.g. "a5's LMAD stride 1 := 0"
	Prog *fun.Program
}

// Mutate makes up to n mutants of a FUNMEM program q of the given kind,
// at sites chosen with r. q itself is not changed: each mutant is a fresh
// copy (printed and parsed back, so it has positions), or nil when q has
// no site of that kind. The copies are parsed from funmem.Print(q), so q
// must print and parse (property 5 checks it does).
func Mutate(r *rand.Rand, q *fun.Program, kind string, n int) ([]Mutant, error) {
	text := funmem.Print(q)
	parse := func() (*fun.Program, error) { return funmem.ParseFile("mutant.funmem", text) }
	base, err := parse()
	if err != nil {
		return nil, err
	}
	var sites int
	switch kind {
	case MutStride:
		sites = len(strideSites(base))
	case MutShare:
		sites = len(shareSites(base))
	default:
		return nil, fmt.Errorf("unknown mutation %q", kind)
	}
	if sites == 0 {
		return nil, nil
	}
	var out []Mutant
	for _, k := range r.Perm(sites)[:min(n, sites)] {
		m, err := parse()
		if err != nil {
			return nil, err
		}
		var what string
		switch kind {
		case MutStride:
			s := strideSites(m)[k]
			l := ArrayIndexFn(s.stm.Pat[0].Type)
			j := r.Intn(len(l.Dims))
			l.Dims[j].Stride = fun.Int(0)
			what = fmt.Sprintf("%s's LMAD stride %d := 0 (now %s)", s.stm.Pat[0].Name.Name, j+1, l)
		case MutShare:
			s := shareSites(m)[k]
			other := s.cands[r.Intn(len(s.cands))]
			renameBlock(m, s.block, other)
			what = fmt.Sprintf("%s lives in %s (alloc %s) instead of %s (alloc %s), whose alloc is dropped",
				s.array, other, fun.PrintSExp(s.sizes[other]), s.block, fun.PrintSExp(s.size))
		}
		out = append(out, Mutant{Kind: kind, What: what, Prog: m})
	}
	return out, nil
}

// ArrayIndexFn returns the LMAD of an array type written out as offset and
// dimensions (R(…) is expanded in place), or nil for other types.
func ArrayIndexFn(t fun.Type) *funmem.IndexFn {
	a := funmem.ArrayOf(t)
	if a == nil {
		return nil
	}
	if a.Index.IsRowMajor() {
		off, dims := a.Index.LMAD()
		a.Index.Offset, a.Index.Dims, a.Index.RowMajor = off, append([]funmem.LDim(nil), dims...), nil
	}
	return a.Index
}

type strideSite struct{ stm *fun.Stm }

// isFresh reports whether a statement makes a fresh array (kernel, iota,
// copy) into a one-array pattern.
func isFresh(s *fun.Stm) bool {
	switch s.Exp.(type) {
	case *fun.KernelExp, *fun.IotaExp, *fun.CopyExp:
		return len(s.Pat) == 1 && funmem.ArrayOf(s.Pat[0].Type) != nil
	}
	return false
}

func strideSites(p *fun.Program) []strideSite {
	var out []strideSite
	fun.Stms(p.Body, func(s *fun.Stm) {
		if isFresh(s) && len(s.Pat[0].Type.Dims) > 0 {
			out = append(out, strideSite{s})
		}
	})
	return out
}

type shareSite struct {
	array string              // the fresh array moved
	block string              // its block, bound by an alloc (dropped)
	size  fun.SExp            // that alloc's size
	cands []string            // earlier blocks of the same size in scope at that alloc
	sizes map[string]fun.SExp // their sizes
}

// shareSites finds, for each fresh array whose block is bound by an alloc,
// the blocks bound by earlier allocs in scope at that alloc (in the same
// body or an enclosing one) whose sizes are the same polynomial, the
// scalar lets in scope expanded.
func shareSites(p *fun.Program) []shareSite {
	type blk struct {
		name string
		size fun.SExp
	}
	type allocInfo struct {
		size  fun.SExp
		cands []blk
	}
	allocs := map[string]*allocInfo{}
	var walk func(b *fun.Body, scope []blk, defs map[string]fun.SExp)
	walk = func(b *fun.Body, scope []blk, defs map[string]fun.SExp) {
		scope = append([]blk(nil), scope...)
		defs = maps.Clone(defs)
		expand := func(e fun.SExp) fun.SExp {
			return fun.Substitute(e, func(x *fun.Ident) fun.SExp { return defs[x.Name] })
		}
		for _, s := range b.Stms {
			switch e := s.Exp.(type) {
			case *fun.ScalarExp:
				defs[s.Pat[0].Name.Name] = expand(e.X)
			case *funmem.AllocExp:
				size := expand(e.Size)
				var cands []blk
				for _, o := range scope {
					if funmem.SameValue(o.size, size) {
						cands = append(cands, o)
					}
				}
				name := s.Pat[0].Name.Name
				allocs[name] = &allocInfo{size: size, cands: cands}
				scope = append(scope, blk{name, size})
			case *fun.IfExp:
				walk(e.Then, scope, defs)
				walk(e.Else, scope, defs)
			case *fun.KernelExp:
				walk(e.Body, scope, defs)
			}
		}
	}
	walk(p.Body, nil, map[string]fun.SExp{})
	var out []shareSite
	fun.Stms(p.Body, func(s *fun.Stm) {
		if !isFresh(s) {
			return
		}
		block := funmem.ArrayOf(s.Pat[0].Type).Block.Name
		a := allocs[block]
		if a == nil || len(a.cands) == 0 {
			return
		}
		site := shareSite{array: s.Pat[0].Name.Name, block: block, size: a.size, sizes: map[string]fun.SExp{}}
		for _, c := range a.cands {
			site.cands = append(site.cands, c.name)
			site.sizes[c.name] = c.size
		}
		out = append(out, site)
	})
	return out
}

// renameBlock drops the alloc binding block and renames every other
// occurrence of block (types, results) to other. Block names are made by
// TransformProgram's and MemoryExpand's supply of fresh names, so they are
// unique in the program, and other is in scope wherever block was.
func renameBlock(p *fun.Program, block, other string) {
	fun.Rewrite(p.Body, func(s *fun.Stm) []*fun.Stm {
		if _, ok := s.Exp.(*funmem.AllocExp); ok && s.Pat[0].Name.Name == block {
			return nil
		}
		return []*fun.Stm{s}
	})
	fun.Idents(p, func(x *fun.Ident) {
		if x.Name == block {
			x.Name = other
		}
	})
}
