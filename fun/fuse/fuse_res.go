package fuse

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
	"maps"
	"slices"
)

// The data-flow result of the bottom-up analysis (Fig 10 of "A T2
// Graph-Reduction Approach To Fusion") and the two ways of merging the
// results of two code regions (Fig 11).

// fusedKer is a kernel of the analysis (Fig 10's FusedKer): a SOAC
// statement of the body being analysed (or of a branch of one of its ifs),
// into which producers fuse. Fusing rewrites the statement in place, so
// stm is the fused SOAC statement.
type fusedKer struct {
	id  int
	stm *fun.Stm
	// inp are its input arrays: the arrays it folds (reduce, scan over
	// x) or reads only at its own index (x[j, …] in a kernel's body or a
	// redomap's map, j its index).
	inp map[string]bool
	// fusedVars are the producers fused into it.
	fusedVars []string
	// inside names the body of a loop or SOAC it lies in, when an unsafe
	// case 3 lets producers outside that body fuse into it.
	inside string
}

// name is how a note names the kernel: its array (or scalar), its form
// and where it is, "s (reduce at 7:5)".
func (k *fusedKer) name() string {
	return k.stm.Pat[len(k.stm.Pat)-1].Name.Name + " (" + formName(k.stm.Exp) + " at " + at(k.stm.Exp.Pos()) + ")"
}

// reason is why an array is unfusable: the case of Fig 9 and the use
// that makes it so, as a phrase that completes "kept x: …".
type reason struct {
	fig  int
	pos  fun.Pos
	text string
}

// fusionRes is the analysis result of a code region (Fig 10's FusionRes).
// The arrays of inpArr and unfusable together are all the arrays the
// region uses (inpArr ∪ unfusable covers every array, as the paper
// notes), which unionRes relies on.
type fusionRes struct {
	// outArr maps an array to the kernel that produces it.
	outArr map[string]int
	// inpArr maps an array to the kernels that take it as an input.
	inpArr map[string]map[int]bool
	// unfusable maps an array to the reasons it cannot be fused: used
	// otherwise than as a kernel's input (cases 3 and 5), or as the input
	// of two kernels on one control path (case 4).
	unfusable map[string][]reason
	// kers are the kernels, by id.
	kers map[int]*fusedKer
	// partial maps an array that some branch of an if consumes, but its
	// other branch does not use at all, to the if. Fusing it into the one
	// branch would skip computing it, and the errors it may get stuck
	// in, on the other: it is kept (the paper fuses there; FUN's passes
	// keep errors).
	partial map[string]fun.Pos
}

// mkNullRes is the result of an empty region. Its maps are made when
// first written (most regions' stay empty): write through addKer, unfuse,
// addInput and setPartial.
func mkNullRes() *fusionRes { return &fusionRes{} }

// addKer records the kernel k, which produces x.
func (r *fusionRes) addKer(x string, k *fusedKer) {
	if r.kers == nil {
		r.kers = map[int]*fusedKer{}
	}
	if r.outArr == nil {
		r.outArr = map[string]int{}
	}
	r.kers[k.id] = k
	r.outArr[x] = k.id
}

// setPartial records that the if at p makes x partial.
func (r *fusionRes) setPartial(x string, p fun.Pos) {
	if r.partial == nil {
		r.partial = map[string]fun.Pos{}
	}
	r.partial[x] = p
}

// unfuse records that x is unfusable, for the given reason.
func (r *fusionRes) unfuse(x string, why reason) {
	if r.unfusable == nil {
		r.unfusable = map[string][]reason{}
	}
	r.unfusable[x] = append(r.unfusable[x], why)
}

// addInput records that kernel k takes x as an input.
func (r *fusionRes) addInput(x string, k *fusedKer) {
	if r.inpArr == nil {
		r.inpArr = map[string]map[int]bool{}
	}
	if r.inpArr[x] == nil {
		r.inpArr[x] = map[int]bool{}
	}
	r.inpArr[x][k.id] = true
	k.inp[x] = true
}

// consumers are the kernels that take x as an input, in source order.
func (r *fusionRes) consumers(x string) []*fusedKer {
	var out []*fusedKer
	for id := range r.inpArr[x] {
		out = append(out, r.kers[id])
	}
	slices.SortFunc(out, func(a, b *fusedKer) int { return comparePos(a.stm.Exp.Pos(), b.stm.Exp.Pos()) })
	return out
}

// comparePos orders positions by line, then column.
func comparePos(a, b fun.Pos) int {
	if a.Line != b.Line {
		return a.Line - b.Line
	}
	return a.Col - b.Col
}

// restrict drops what the region says about the names in bound, which
// are not visible outside it (the paper's filtering of "the variables
// that are invisible in the outer scope"). Its kernels stay: they are
// consumers of the arrays of outside that they still name.
func (r *fusionRes) restrict(bound map[string]bool) *fusionRes {
	for x := range bound {
		delete(r.outArr, x)
		delete(r.inpArr, x)
		delete(r.unfusable, x)
		delete(r.partial, x)
	}
	return r
}

// merge is the union of two results, the part composeRes and unionRes
// share.
func merge(r1, r2 *fusionRes) *fusionRes {
	out := mkNullRes()
	for _, r := range [2]*fusionRes{r1, r2} {
		if len(r.outArr) > 0 {
			if out.outArr == nil {
				out.outArr = make(map[string]int, len(r.outArr))
			}
			maps.Copy(out.outArr, r.outArr)
		}
		if len(r.kers) > 0 {
			if out.kers == nil {
				out.kers = make(map[int]*fusedKer, len(r.kers))
			}
			maps.Copy(out.kers, r.kers)
		}
		for x, ks := range r.inpArr {
			if out.inpArr == nil {
				out.inpArr = map[string]map[int]bool{}
			}
			if out.inpArr[x] == nil {
				out.inpArr[x] = map[int]bool{}
			}
			maps.Copy(out.inpArr[x], ks)
		}
		for x, why := range r.unfusable {
			for _, w := range why {
				out.unfuse(x, w)
			}
		}
		for x, p := range r.partial {
			if q, ok := out.partial[x]; !ok || comparePos(p, q) < 0 {
				out.setPartial(x, p)
			}
		}
	}
	return out
}

// composeRes merges the results of two regions that share a control path
// (Fig 11): an array that kernels of both take as an input is then used
// by two kernels on one path, and is unfusable (Fig 9, case 4: fusing it
// would compute it twice).
func (f *fuser) composeRes(r1, r2 *fusionRes) *fusionRes {
	out := merge(r1, r2)
	if f.unsafe(4) {
		return out
	}
	for x := range r1.inpArr {
		if len(r2.inpArr[x]) == 0 || len(r1.inpArr[x]) == 0 {
			continue
		}
		a, b := r1.consumers(x)[0], r2.consumers(x)[0]
		if comparePos(a.stm.Exp.Pos(), b.stm.Exp.Pos()) > 0 {
			a, b = b, a
		}
		out.unfuse(x, reason{4, b.stm.Exp.Pos(), fmt.Sprintf("used by both %s and %s on one control path", a.name(), b.name())})
	}
	return out
}

// unionRes merges the results of the two branches of an if, which lie on
// disjoint control paths (Fig 11): an array that kernels of both take as
// an input stays fusable, into all of them. One that only one branch
// uses is partial (see fusionRes.partial).
func (f *fuser) unionRes(r1, r2 *fusionRes, ifPos fun.Pos) *fusionRes {
	out := merge(r1, r2)
	for _, pair := range [][2]*fusionRes{{r1, r2}, {r2, r1}} {
		a, b := pair[0], pair[1]
		for x, ks := range a.inpArr {
			if len(ks) > 0 && len(b.inpArr[x]) == 0 && len(b.unfusable[x]) == 0 {
				if _, ok := out.partial[x]; !ok {
					out.setPartial(x, ifPos)
				}
			}
		}
	}
	return out
}
