package fun

import (
	"fmt"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/internal/mutant"
)

// Fusion: the producer–consumer fusion of "A T2 Graph-Reduction Approach
// To Fusion" (§3, Figs 8–14), for FUN. Its files, by concern:
//
//	fuse.go           Fuse, its options and report, the rounds, fresh names
//	fuse_res.go       the analysis result FusionRes (Fig 10) with composeRes
//	                  and unionRes (Fig 11)
//	fuse_analysis.go  the bottom-up analysis fusion1 (Fig 12) and
//	                  tryFuseSOAC (Fig 13), which fuses as it decides
//	fuse_uses.go      the uses of an array in a body: which are a SOAC's
//	                  input reads, and why the others are not
//	fuse_rewrite.go   the compositions of Fig 14 as FUN rewrites
//	fuse_cheap.go     replicate, iota, copy and transpose, whose elements
//	                  cost nothing to recompute: fused everywhere
//	fuse_copyprop.go  the clean-up: copy propagation of the copies fusion
//	                  makes
//
// FUN's SOACs are index based. A map is a kernel (iota and copy are
// derived kernels): kernel i <= n do B computes its element i by B, whose
// reads of an array y are y[i, …]. An array x that a kernel produces is an
// input of a consumer when the consumer reads it only as x[j, …], j the
// consumer's own index over the same size n (a kernel, the map of a
// redomap or scanomap: every such read, at any depth of its body), or folds
// it (reduce or scan over x). The compositions of Fig 14 become:
//
//	map2 ∘ map2 ⇒ map2           kernel over x ⇒ kernel computing x's
//	                              element at the top of its body
//	reduce2 ∘ map2 ⇒ redomap2    reduce over x ⇒ redomap whose map is x's body
//	(scan)                       scan over x ⇒ scanomap
//	redomap2 ∘ map2 ⇒ redomap2   redomap reading x ⇒ redomap computing x's
//	                              element at the top of its map
//	replicate                     a kernel whose body returns a variable of
//	                              outside (or its index: iota), and copy, fuse
//	                              into every read, however nested
//
// The analysis follows the paper: a bottom-up pass over each body whose
// data-flow result (FusionRes: outArr, inpArr, unfusable, kernels) models
// T2 reduction of the dependency graph: a producer with one consumer, or
// with consumers on disjoint control paths only, is fused into them; one
// with any other use is kept, with the case of Fig 9 that forbids it. The
// rewrite happens as the analysis decides (a fused producer's statement is
// dropped, the consumer's rewritten in place), and since a fusion can
// create opportunities inside the consumer's body (Fig 14's second pass),
// the whole pass runs again until a round fuses nothing. The clean-up
// then propagates the copies fusion made (a consumer's read of the
// producer's element becomes a copy of it).

// FuseOptions configure Fuse. The zero value is the pass as documented.
type FuseOptions struct {
	// Unsafe lists cases of Fig 9 (3, 4 or 5) in which the pass fuses
	// anyway, duplicating work: in case 3 it fuses into a consumer inside
	// a loop or another SOAC's body, in case 4 into every consumer on one
	// control path, in case 5 into the consumers while keeping the
	// producer for its other uses. For tests that show the cost counters
	// catch each case; the mutants fuse-case3, fuse-case4 and fuse-case5
	// switch the same on.
	Unsafe []int
}

// The mutants of the fusion pass (proofs-tests' TestMutants): each makes
// the pass fuse in one of the cases of Fig 9 it must refuse, so that the
// fused program computes the same values with more work.
func init() {
	mutant.Register("fuse-case3", "fun/fuse_analysis.go lambda (Fig 9, case 3)",
		"fusion fuses a producer into a consumer inside a loop or another SOAC's body, computing it once per iteration")
	mutant.Register("fuse-case4", "fun/fuse_res.go composeRes, fun/fuse_analysis.go tryFuseSOAC (Fig 9, case 4)",
		"fusion fuses a producer into two consumers on one control path, computing it twice")
	mutant.Register("fuse-case5", "fun/fuse_analysis.go fusable (Fig 9, case 5)",
		"fusion fuses a producer into its consumers although it has other uses, keeping it for them: computed twice")
}

// unsafe reports whether the pass fuses in case c of Fig 9 anyway.
func (f *fuser) unsafe(c int) bool {
	return slices.Contains(f.o.Unsafe, c) || mutant.On(fmt.Sprintf("fuse-case%d", c))
}

// FusionReport is what Fuse decided: one note per producer it considered.
type FusionReport struct {
	Notes []FusionNote
}

// FusionNote is one decision: a producer fused (into what) or kept (and
// why, with the case of Fig 9 that forbids fusing it, if one does).
type FusionNote struct {
	Pos   Pos    // the producer's expression
	Var   string // the array it produces
	Fused bool   // fused (its statement is gone, unless an unsafe case kept it)
	Case  int    // the case of Fig 9 that kept it, 0 if none
	Msg   string // the decision, as a sentence
}

// String is the note as a line: file:line:col: message.
func (n FusionNote) String() string { return n.Pos.String() + ": " + n.Msg }

// String is the report, one note a line (empty when nothing was considered).
func (r *FusionReport) String() string {
	var b strings.Builder
	for _, n := range r.Notes {
		b.WriteString(n.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Fused is the number of notes that say a producer was fused.
func (r *FusionReport) Fused() int {
	k := 0
	for _, n := range r.Notes {
		if n.Fused {
			k++
		}
	}
	return k
}

// maxRounds bounds the rounds of the pass: each round after the first
// only fuses what a fusion of the round before exposed inside a consumer's
// body, which is soon exhausted.
const maxRounds = 16

// Fuse is the fusion pass: it returns a copy of p in which producers have
// been fused into their consumers, and the report of its decisions. The
// program must type check (Check); one that does not is returned
// unchanged, with an empty report. The result type checks, computes the
// same values, and gets stuck where p does (with the message of the rule
// that sees the problem first in the fused order, possibly naming fresh
// variables).
func Fuse(p *Program, o FuseOptions) (q *Program, rep *FusionReport) {
	if _, err := Check(p, nil); err != nil {
		return p, &FusionReport{}
	}
	defer func() {
		// No panic escapes to the user (a bug of the pass): the program
		// goes on unfused, and the report says why.
		if e := recover(); e != nil {
			q = p
			rep = &FusionReport{Notes: []FusionNote{{Pos: Pos{File: p.File}, Msg: fmt.Sprintf("fusion failed (%v): the program is not fused", e)}}}
		}
	}()
	q = CloneProgram(p)
	f := &fuser{o: o, prog: q, used: map[string]bool{}, notes: map[*Stm]*FusionNote{}, gone: map[*Stm]bool{}}
	Idents(q, func(x *Ident) { f.used[x.Name] = true })
	for round := 0; round < maxRounds; round++ {
		f.changed = false
		wit := witness(nil, q.Inputs)
		f.prepass(q.Body, "the program", indexCtx{}, wit)
		f.fusion1(q.Body, "the program", wit)
		if !f.changed {
			break
		}
	}
	rep = f.report()
	// The clean-up (§3.1): the copies fusion made of elements and indices
	// (let (u : int) = w) are propagated away. The statements fused away
	// are gone already (the dead code of the paper's clean-up).
	propagateCopies(p, q)
	return q, rep
}

// fuser is the state of one run of the pass.
type fuser struct {
	o       FuseOptions
	prog    *Program
	used    map[string]bool      // every name of the program, and every fresh one
	nfresh  int                  // fresh names made
	notes   map[*Stm]*FusionNote // the decision about each producer statement
	gone    map[*Stm]bool        // producers fused away (their notes stay)
	changed bool                 // whether this round fused something
	nker    int                  // kernels made by the analysis (their ids)
}

// fresh is a new name like base: base_1, base_2, … (the part of base
// before an earlier suffix), used nowhere in the program.
func (f *fuser) fresh(base string) string {
	if i := strings.LastIndexByte(base, '_'); i > 0 && strings.Trim(base[i+1:], "0123456789") == "" && i+1 < len(base) {
		base = base[:i]
	}
	for {
		f.nfresh++
		name := fmt.Sprintf("%s_%d", base, f.nfresh)
		if !f.used[name] && !IsKeyword(name) {
			f.used[name] = true
			return name
		}
	}
}

// note records the decision about the producer statement s (a later
// round's decision replaces an earlier one).
func (f *fuser) note(s *Stm, fused bool, fig int, format string, args ...any) {
	if n := f.notes[s]; n != nil && n.Fused && !fused {
		return // an unsafe case 5 fused it and kept it: it is fused
	}
	f.notes[s] = &FusionNote{Pos: s.Exp.Pos(), Var: s.Pat[len(s.Pat)-1].Name.Name, Fused: fused, Case: fig, Msg: fmt.Sprintf(format, args...)}
}

// report gathers the notes about the statements of the final program and
// about those fused away, in source order. A note about a statement that
// is neither (it was inside a producer whose body fusion copied into its
// consumers) is dropped: the copy has its own.
func (f *fuser) report() *FusionReport {
	live := map[*Stm]bool{}
	Stms(f.prog.Body, func(s *Stm) { live[s] = true })
	r := &FusionReport{}
	for s, n := range f.notes {
		if live[s] || f.gone[s] {
			r.Notes = append(r.Notes, *n)
		}
	}
	slices.SortFunc(r.Notes, func(a, b FusionNote) int {
		if a.Pos.Line != b.Pos.Line {
			return a.Pos.Line - b.Pos.Line
		}
		if a.Pos.Col != b.Pos.Col {
			return a.Pos.Col - b.Pos.Col
		}
		return strings.Compare(a.Msg, b.Msg)
	})
	return r
}

// at is a position as line:col, for naming a consumer in a note.
func at(p Pos) string { return fmt.Sprintf("%d:%d", p.Line, p.Col) }

// formName is the name of an expression's form, as fusion's notes give
// it: slicing's (slForm), but a replicate by its name, and the forms no
// SOAC fuses into as a statement.
func formName(e Exp) string {
	if k, ok := e.(*KernelExp); ok && isReplicate(k) {
		return "replicate"
	}
	switch w := slForm(e); w {
	case "assert", "read", "scalar statement":
		return "statement"
	default:
		return w
	}
}

// isReplicate reports whether a kernel is a replicate: its body has no
// statements and returns a variable bound outside it (Fig 14, top left).
func isReplicate(e *KernelExp) bool {
	return len(e.Body.Stms) == 0 && len(e.Body.Result) == 1 && e.Body.Result[0].Name != e.Var.Name
}

// isIotaKernel reports whether a kernel is iota written out: kernel i <= n
// do in (i).
func isIotaKernel(e *KernelExp) bool {
	return len(e.Body.Stms) == 0 && len(e.Body.Result) == 1 && e.Body.Result[0].Name == e.Var.Name
}
