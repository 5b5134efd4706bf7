package fuse

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
	"slices"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/internal/mutant"
)

// Options configure Fuse. The zero value is the pass as documented.
type Options struct {
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
	mutant.Register("fuse-case3", "fun/fuse/fuse_analysis.go lambda (Fig 9, case 3)",
		"fusion fuses a producer into a consumer inside a loop or another SOAC's body, computing it once per iteration")
	mutant.Register("fuse-case4", "fun/fuse/fuse_res.go composeRes, fun/fuse/fuse_analysis.go tryFuseSOAC (Fig 9, case 4)",
		"fusion fuses a producer into two consumers on one control path, computing it twice")
	mutant.Register("fuse-case5", "fun/fuse/fuse_analysis.go fusable (Fig 9, case 5)",
		"fusion fuses a producer into its consumers although it has other uses, keeping it for them: computed twice")
}

// caseMutants are the names of the mutants of cases 3, 4 and 5.
var caseMutants = [3]string{"fuse-case3", "fuse-case4", "fuse-case5"}

// unsafe reports whether the pass fuses in case c of Fig 9 anyway.
func (f *fuser) unsafe(c int) bool {
	return slices.Contains(f.o.Unsafe, c) || c >= 3 && c <= 5 && mutant.On(caseMutants[c-3])
}

// Report is what Fuse decided: one note per producer it considered.
type Report struct {
	Notes []Note
}

// Note is one decision: a producer fused (into what) or kept (and
// why, with the case of Fig 9 that forbids fusing it, if one does).
type Note struct {
	Pos   fun.Pos // the producer's expression
	Var   string  // the array it produces
	Fused bool    // fused (its statement is gone, unless an unsafe case kept it)
	Case  int     // the case of Fig 9 that kept it, 0 if none
	Msg   string  // the decision, as a sentence
}

// String is the note as a line: file:line:col: message.
func (n Note) String() string { return n.Pos.String() + ": " + n.Msg }

// String is the report, one note a line (empty when nothing was considered).
func (r *Report) String() string {
	var b strings.Builder
	for _, n := range r.Notes {
		b.WriteString(n.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// Fused is the number of notes that say a producer was fused.
func (r *Report) Fused() int {
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
func Fuse(p *fun.Program, o Options) (q *fun.Program, rep *Report) {
	q, rep, _ = fuse(p, o)
	return q, rep
}

// fuse is Fuse, and whether it fused anything. When it fused nothing, q
// is equal to p, node for node and position for position (a copy no
// fusion changed, whose copies the clean-up leaves, as p has them all),
// so that the pass need not compare them (TestPassReturnsUnfused).
func fuse(p *fun.Program, o Options) (q *fun.Program, rep *Report, fused bool) {
	if _, err := fun.Check(p, nil); err != nil {
		return p, &Report{}, false
	}
	defer func() {
		// No panic escapes to the user (a bug of the pass): the program
		// goes on unfused, and the report says why.
		if e := recover(); e != nil {
			q, fused = p, false
			rep = &Report{Notes: []Note{{Pos: fun.Pos{File: p.File}, Msg: fmt.Sprintf("fusion failed (%v): the program is not fused", e)}}}
		}
	}()
	q = fun.CloneProgram(p)
	f := &fuser{o: o, prog: q, orig: p, notes: map[*fun.Stm]*Note{}, gone: map[*fun.Stm]bool{}}
	for round := 0; round < maxRounds; round++ {
		f.changed = false
		wit := witness(nil, q.Inputs)
		f.prepass(q.Body, "the program", indexCtx{}, wit)
		f.fusion1(q.Body, "the program", wit)
		if !f.changed {
			break
		}
		fused = true
	}
	rep = f.report()
	// The clean-up (§3.1): the copies fusion made of elements and indices
	// (let (u : int) = w) are propagated away. The statements fused away
	// are gone already (the dead code of the paper's clean-up).
	propagateCopies(p, q)
	return q, rep, fused
}

// fuser is the state of one run of the pass.
type fuser struct {
	o       Options
	prog    *fun.Program
	orig    *fun.Program       // the program fused (not changed)
	used    map[string]bool    // every name of orig, and every fresh one; see names
	nfresh  int                // fresh names made
	notes   map[*fun.Stm]*Note // the decision about each producer statement
	gone    map[*fun.Stm]bool  // producers fused away (their notes stay)
	changed bool               // whether this round fused something
	nker    int                // kernels made by the analysis (their ids)
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
		if used := f.names(); !used[name] && !fun.IsKeyword(name) {
			used[name] = true
			return name
		}
	}
}

// names is used, made at its first use from the names of the program
// fused (most runs make no fresh name): the same set as when made at the
// start, since fusion does not change that program.
func (f *fuser) names() map[string]bool {
	if f.used == nil {
		f.used = map[string]bool{}
		fun.Idents(f.orig, func(x *fun.Ident) { f.used[x.Name] = true })
	}
	return f.used
}

// note records the decision about the producer statement s (a later
// round's decision replaces an earlier one).
func (f *fuser) note(s *fun.Stm, fused bool, fig int, format string, args ...any) {
	if n := f.notes[s]; n != nil && n.Fused && !fused {
		return // an unsafe case 5 fused it and kept it: it is fused
	}
	f.notes[s] = &Note{Pos: s.Exp.Pos(), Var: s.Pat[len(s.Pat)-1].Name.Name, Fused: fused, Case: fig, Msg: fmt.Sprintf(format, args...)}
}

// report gathers the notes about the statements of the final program and
// about those fused away, in source order. A note about a statement that
// is neither (it was inside a producer whose body fusion copied into its
// consumers) is dropped: the copy has its own.
func (f *fuser) report() *Report {
	live := map[*fun.Stm]bool{}
	fun.Stms(f.prog.Body, func(s *fun.Stm) { live[s] = true })
	r := &Report{}
	for s, n := range f.notes {
		if live[s] || f.gone[s] {
			r.Notes = append(r.Notes, *n)
		}
	}
	slices.SortFunc(r.Notes, func(a, b Note) int {
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
func at(p fun.Pos) string { return strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col) }

// formName is the name of an expression's form, as fusion's notes give
// it: slicing's (slForm), but a replicate by its name, and the forms no
// SOAC fuses into as a statement.
func formName(e fun.Exp) string {
	if k, ok := e.(*fun.KernelExp); ok && isReplicate(k) {
		return "replicate"
	}
	switch w := fun.FormName(e); w {
	case "assert", "read", "scalar statement":
		return "statement"
	default:
		return w
	}
}

// isReplicate reports whether a kernel is a replicate: its body has no
// statements and returns a variable bound outside it (Fig 14, top left).
func isReplicate(e *fun.KernelExp) bool {
	return len(e.Body.Stms) == 0 && len(e.Body.Result) == 1 && e.Body.Result[0].Name != e.Var.Name
}

// isIotaKernel reports whether a kernel is iota written out: kernel i <= n
// do in (i).
func isIotaKernel(e *fun.KernelExp) bool {
	return len(e.Body.Stms) == 0 && len(e.Body.Result) == 1 && e.Body.Result[0].Name == e.Var.Name
}
