package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Cost counters (semantics.Stats) at IMP, as both semantics count them:
//
//   - Ops: a statement without a body counts when it has run: x <- se the
//     operators of se (none for a bare copy x <- y), x <- y[se] one read,
//     x[se] <- se' one write and the operators of se', assert se one check
//     and the operators of se. The offsets of reads and writes, sizes of
//     allocations and bounds of kernels, fors and folds are the LMADs'
//     arithmetic made explicit by FunMemToImp, and count nothing. A fold
//     counts its start's operators, and a scan one write per element.
//   - Allocs, Words: each alloc se run, of E(se) words.
//   - PeakWords: a block lives while the variable it was allocated to is
//     in scope (IMP-SCOPE's scopes): to the end of the kernel iteration or
//     fold part it was allocated in (they run in a copy of E, which is
//     dropped, whatever the variable), to the end of the if branch or for
//     iteration whose statements declare the variable, else to the end of
//     the program.
//   - Kernels: each kernel, reduce and scan run outside another's body.

// sexpOps is the number of operator applications in e (fun.SExpOps).
func sexpOps(e fun.SExp) int64 { return fun.SExpOps(e) }

// stmtOps is the Ops a statement without a body counts when it has run.
func stmtOps(s Stmt) int64 {
	switch s := s.(type) {
	case *Assign:
		return sexpOps(s.SE)
	case *Read:
		return 1
	case *Write:
		return 1 + sexpOps(s.Value)
	case *Assert:
		return 1 + sexpOps(s.Cond)
	}
	return 0
}

// declares is the set of variables a scope's statements declare (a for's
// body, an if's branch: IMP-SCOPE's scopes), not those of nested scopes.
func declares(body []Stmt) map[string]bool {
	out := map[string]bool{}
	for _, s := range body {
		if d, ok := s.(*Decl); ok {
			out[d.X.Name] = true
		}
	}
	return out
}

// blockScope is an if's branch or a for's iteration running, for the
// cost counters: the variables it declares, and the words allocated to
// them, which die when it ends.
type blockScope struct {
	decls map[string]bool
	died  int64
}

// allocates reports whether a statement list runs an alloc, at any depth.
func allocates(ss []Stmt) bool {
	for _, s := range ss {
		switch s := s.(type) {
		case *Alloc:
			return true
		case *If:
			if allocates(s.Then) || allocates(s.Else) {
				return true
			}
		case *Kernel:
			if allocates(s.Body) {
				return true
			}
		case *For:
			if allocates(s.Body) {
				return true
			}
		case *Reduce:
			if allocates(s.Body) || allocates(s.Combine) {
				return true
			}
		case *Scan:
			if allocates(s.Body) || allocates(s.Combine) {
				return true
			}
		}
	}
	return false
}

// countKernel counts a kernel, reduce or scan starting at depth kernels
// deep (in the bodies of others): a launch when it is at the top.
func countKernel(st *semantics.Stats, depth int) {
	if st != nil && depth == 0 {
		st.Kernels++
	}
}
