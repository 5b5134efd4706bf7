package slice

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
	"strings"
)

// Report is what Sizes did: one note per decision, the cost of the
// code it hoisted, and the allocations it could not move out of kernels.
type Report struct {
	// Notes are the decisions, in the order of the program: one per
	// existential size (sliced or kept), hoisted slice, assertion and kept
	// allocation.
	Notes []Note
	// Overhead is the number of operations (as semantics.Stats counts
	// Ops: scalar operators, element reads, assertion checks) that the
	// code the pass hoisted costs when it runs once, the guards it added
	// included: the paper's constant overhead. A sliced program runs at
	// most Overhead operations more than the original.
	Overhead int64
	// Kept are the positions of the allocating statements (kernel, iota,
	// copy, scan, scanomap, filter) inside kernel bodies that MemoryExpand
	// may not hoist after slicing (the fallbacks; a superset, as it hoists
	// some of those in if, loop and fold bodies): the positions of the
	// alloc statements that FUN → FUNMEM gives them.
	Kept []fun.Pos
}

// Note is one decision of the pass, at a position of the program.
type Note struct {
	Pos fun.Pos
	Msg string
}

// String is file:line:col: msg.
func (n Note) String() string { return n.Pos.String() + ": " + n.Msg }

// String renders the report: the notes, one per line, then the overhead.
func (r *Report) String() string {
	var b strings.Builder
	for _, n := range r.Notes {
		b.WriteString(n.String() + "\n")
	}
	fmt.Fprintf(&b, "overhead: %d operations\n", r.Overhead)
	return b.String()
}

// Sizes is the size-slicing pass, FUN → FUN. It expects a well-typed
// program (fun.Check) and returns a well-typed program that gives the same
// values, or gets stuck too, with the report of what it did. The input is
// not changed.
func Sizes(p *fun.Program) (out *fun.Program, rep *Report) {
	s := &slicer{file: p.File, rep: &Report{}, unhoisted: map[*fun.Stm]string{}}
	defer func() {
		// No panics on any input: a program the pass cannot handle (it
		// was not type checked, say) is returned as it is.
		if r := recover(); r != nil {
			out = p
			rep = &Report{Notes: []Note{{Pos: fun.Pos{File: p.File}, Msg: fmt.Sprintf("not sliced: %v", r)}}}
		}
	}()
	q := fun.CloneProgram(p)
	s.names = slAllNames(q)
	s.ifs(q)       // 1. existential sizes of ifs (Figs 15, 22, 23)
	s.asserts(q)   // 2. trivially true assertions (Fig 10 D)
	s.hoist(q)     // 3. slices out of kernels (Figs 9, 10)
	s.fallbacks(q) // 4. loops and filters (Fig 20), kept allocations
	slSortNotes(s.rep.Notes)
	return q, s.rep
}

// slicer holds the pass's state: the names in use and the report.
type slicer struct {
	file  string
	names map[string]bool
	rep   *Report
	// unhoisted records, for an allocation in a kernel whose size could
	// not be hoisted, why (part 3 finds out, part 4 reports it).
	unhoisted map[*fun.Stm]string
}

// note records a decision.
func (s *slicer) note(pos fun.Pos, format string, args ...any) {
	if pos.File == "" {
		pos.File = s.file
	}
	s.rep.Notes = append(s.rep.Notes, Note{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// fresh is a name not used anywhere in the program, base itself when it
// is free, else base_1, base_2, ….
func (s *slicer) fresh(base string) string {
	name := base
	for i := 1; s.names[name] || fun.IsKeyword(name); i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	s.names[name] = true
	return name
}

// slAllNames is the set of the names of every identifier of p.
func slAllNames(p *fun.Program) map[string]bool {
	names := map[string]bool{}
	fun.Idents(p, func(x *fun.Ident) { names[x.Name] = true })
	return names
}

// slSortNotes orders the notes by position (stable: the decisions at one
// position keep their order).
func slSortNotes(ns []Note) {
	less := func(a, b fun.Pos) bool {
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		return a.Col < b.Col
	}
	for i := 1; i < len(ns); i++ {
		for j := i; j > 0 && less(ns[j].Pos, ns[j-1].Pos); j-- {
			ns[j], ns[j-1] = ns[j-1], ns[j]
		}
	}
}
