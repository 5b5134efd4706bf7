package fun

import (
	"fmt"
	"strings"
)

// Size slicing, after "Size Slicing - A Hybrid Approach to Size Inference
// in Futhark" (Henriksen, Elsman, Oancea), on FUN. FUN already makes every
// size explicit (Fig 8's existential target IR is FUN's normal form: the
// pattern of an if, a loop or a filter binds the sizes of its arrays, as
// Fig 15's and Fig 20's rules do); what the pass adds is the paper's size
// slicing (§1, §2.4, §4): a size's shape slice, the statements it depends
// on, is computed ahead of the value it sizes when the slice is cheap, so
// that the size is known before the array is made. After it, FUNMEM's
// MemoryExpand (§5 of the memory paper) can hoist out of a kernel every
// allocation whose size the pass made known before the kernel.
//
// The pass has four parts, in this order (one file each):
//
//  1. slice_if.go: an if whose pattern binds an existential size
//     (k : int) … (zs : [k]) (Fig 15). When both branches return the
//     same size bound outside the if, the pattern's k is that size (Fig 22
//     → Fig 23). When both branches' shape slices of k are cheap (the cost
//     model of §1: no recurrence, only scalar statements, element reads,
//     views and ifs of those), k is computed ahead by an if of the two
//     slices, and the branches return arrays of size k (Fig 9's split into
//     a shape and a value function, for an if). Otherwise k stays
//     existential (the fallback of §1).
//  2. slice_assert.go: an assertion in a kernel body that is trivially
//     true where it runs (a value compared with itself, constants, a size
//     known under the guard that the kernel's bound is above 0) is dropped,
//     as Fig 10 D simplifies the reduction of the checks.
//  3. slice_hoist.go: the shape slice of a size that a kernel body
//     computes from variables bound outside the kernel (matmul.fun's
//     h1 = (p + 1) / 2), and an assertion whose slice is such, are hoisted
//     out of the kernel nest, computed (checked) once before it (Fig 9,
//     Fig 10 A–D). A slice that can fail runs only when the kernel would
//     have run its body (Fig 10 D's if N == 0 …).
//  4. slice_kept.go: loops that carry sizes and filters keep their
//     existential sizes (their shape slice is a recurrence: §1's fallback,
//     Fig 20), and the allocations in kernel bodies that stay there are
//     listed.
//
// The pass keeps errors: every statement it moves runs where the
// original would have run it (in the same branch of the same if, or once
// before a kernel, guarded by the kernel's bound being above 0 when the
// statement can fail), so a program that runs gives the same values and
// one that gets stuck gets stuck too. Only the order of two errors may
// change: a moved statement that fails now fails before a statement that
// preceded it and would have failed first, and an error that names a
// renamed variable names its new name.

// SliceReport is what SliceSizes did: one note per decision, the cost of the
// code it hoisted, and the allocations it could not move out of kernels.
type SliceReport struct {
	// Notes are the decisions, in the order of the program: one per
	// existential size (sliced or kept), hoisted slice, assertion and kept
	// allocation.
	Notes []SliceNote
	// Overhead is the number of operations (as semantics.Stats counts
	// Ops: scalar operators, element reads, assertion checks) that the
	// code the pass hoisted costs when it runs once, the guards it added
	// included: the paper's constant overhead. A sliced program runs at
	// most Overhead operations more than the original.
	Overhead int64
	// Kept are the positions of the allocating statements (kernel, iota,
	// copy, scan, scanomap, filter) inside kernel bodies that MemoryExpand
	// cannot hoist after slicing (the fallbacks): the positions of the
	// alloc statements that FUN → FUNMEM gives them.
	Kept []Pos
}

// SliceNote is one decision of the pass, at a position of the program.
type SliceNote struct {
	Pos Pos
	Msg string
}

// String is file:line:col: msg.
func (n SliceNote) String() string { return n.Pos.String() + ": " + n.Msg }

// String renders the report: the notes, one per line, then the overhead.
func (r *SliceReport) String() string {
	var b strings.Builder
	for _, n := range r.Notes {
		b.WriteString(n.String() + "\n")
	}
	fmt.Fprintf(&b, "overhead: %d operations\n", r.Overhead)
	return b.String()
}

// SliceSizes is the size-slicing pass, FUN → FUN. It expects a well-typed
// program (fun.Check) and returns a well-typed program that gives the same
// values, or gets stuck too, with the report of what it did. The input is
// not changed.
func SliceSizes(p *Program) (out *Program, rep *SliceReport) {
	s := &slicer{file: p.File, rep: &SliceReport{}, unhoisted: map[*Stm]string{}}
	defer func() {
		// No panics on any input: a program the pass cannot handle (it
		// was not type checked, say) is returned as it is.
		if r := recover(); r != nil {
			out = p
			rep = &SliceReport{Notes: []SliceNote{{Pos: Pos{File: p.File}, Msg: fmt.Sprintf("not sliced: %v", r)}}}
		}
	}()
	q := CloneProgram(p)
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
	rep   *SliceReport
	// unhoisted records, for an allocation in a kernel whose size could
	// not be hoisted, why (part 3 finds out, part 4 reports it).
	unhoisted map[*Stm]string
}

// note records a decision.
func (s *slicer) note(pos Pos, format string, args ...any) {
	if pos.File == "" {
		pos.File = s.file
	}
	s.rep.Notes = append(s.rep.Notes, SliceNote{Pos: pos, Msg: fmt.Sprintf(format, args...)})
}

// fresh is a name not used anywhere in the program, base itself when it
// is free, else base_1, base_2, ….
func (s *slicer) fresh(base string) string {
	name := base
	for i := 1; s.names[name] || IsKeyword(name); i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	s.names[name] = true
	return name
}

// slAllNames is the set of the names of every identifier of p.
func slAllNames(p *Program) map[string]bool {
	names := map[string]bool{}
	Idents(p, func(x *Ident) { names[x.Name] = true })
	return names
}

// slSortNotes orders the notes by position (stable: the decisions at one
// position keep their order).
func slSortNotes(ns []SliceNote) {
	less := func(a, b Pos) bool {
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
