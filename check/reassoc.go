package check

import (
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Float re-association in the comparisons (semantics.FloatReassociationBound):
// a run may agree with the source within the bound, rather than exactly,
// only when its walk passes through a program that re-associates a float
// fold (fun.ReassociatesFloats, imp.ReassociatesFloats): the FUN, FUNMEM
// or IMP program its level runs or was compiled from. (The dynamic
// dialect's reduce is tree-shaped; its elaboration keeps the tree for a
// float + or *, so the typed levels agree with it exactly.)

// Reassociates reports whether a walk passes through a program with a
// float fold that a level may re-associate.
func Reassociates(stages []lang.Stage) bool {
	for _, st := range stages {
		switch p := st.Program.Syntax().(type) {
		case *fun.Program:
			if fun.ReassociatesFloats(p) {
				return true
			}
		case *imp.Program:
			if imp.ReassociatesFloats(p) {
				return true
			}
		}
	}
	return false
}

// closeRows reports whether r's results are first's but for floats
// within the bound: both ran, and their values (or printed lines) are
// close.
func closeRows(first, r Row) bool {
	if first.Err != nil || r.Err != nil {
		return false
	}
	a, b := first.Result, r.Result
	if a.Values != nil && b.Values != nil && !a.Source && !b.Source {
		if len(a.Values) != len(b.Values) {
			return false
		}
		for i := range a.Values {
			if !semantics.CloseArrays(a.Values[i], b.Values[i]) {
				return false
			}
		}
		return true
	}
	return semantics.CloseLines(a.Lines, b.Lines)
}

// closeOutput reports whether a case's output and a run's lines are the
// same but for floats within the bound (compared as one line, as
// compare joins them).
func closeOutput(want, got []string) bool {
	return semantics.CloseLines([]string{strings.Join(want, " ")}, []string{strings.Join(got, " ")})
}
