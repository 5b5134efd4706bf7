package fuse

import (
	"slices"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
)

// Pass is fusion as the registry's transformation of FUN, with the switch
// that turns it off (the pipeline "fun" runs it after size slicing).
var Pass = lang.Pass{Name: "Fuse", From: fun.Language.Name(), To: fun.Language.Name(), RowWhenChanged: true,
	Doc:     "fusion by T2 reduction of the dependency graph: producers fused into their consumers (kernel∘kernel, redomap, scanomap) unless that duplicates work (\"A T2 Graph-Reduction Approach To Fusion\", §3; unless --no-fuse)",
	Options: []lang.Option{{Name: "no-fuse", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip fusion (FUN → FUN, by T2 reduction)"}},
	Run: func(p any, _ lang.Options) (any, []string, error) {
		q, r, fused := fuse(p.(*fun.Program), Options{})
		if fused {
			q = fun.SameOr(p.(*fun.Program), q)
		} else {
			q = p.(*fun.Program) // equal to it (fuse)
		}
		// What fused, and what did not for a reason (a case of Fig 9);
		// not the arrays no SOAC consumes at all.
		return q, lang.Notes(slices.DeleteFunc(r.Notes, func(n Note) bool { return !n.Fused && n.Case == 0 })), nil
	}}
