package fun

import (
	"fmt"
	"slices"

	"github.com/arraysem/arraysem/lang"
)

// The optimising passes of FUN, as the registry's passes: size slicing,
// then fusion (the pipeline "fun"), each with the switch that turns it
// off.
var (
	SlicePass = lang.Pass{Name: "Slice", From: Language.Name(), To: Language.Name(), RowWhenChanged: true,
		Doc:     "size slicing: an existential size whose shape slice is cheap is computed ahead of its value, sizes and assertions move out of kernels (\"Size Slicing - A Hybrid Approach to Size Inference in Futhark\", §3–4; unless --no-slice)",
		Options: []lang.Option{{Name: "no-slice", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip size slicing (FUN → FUN)"}},
		Run: func(p any, _ lang.Options) (any, []string, error) {
			q, r := SliceSizes(p.(*Program))
			return q, noteLines(r.Notes), nil
		}}
	FusePass = lang.Pass{Name: "Fuse", From: Language.Name(), To: Language.Name(), RowWhenChanged: true,
		Doc:     "fusion by T2 reduction of the dependency graph: producers fused into their consumers (kernel∘kernel, redomap, scanomap) unless that duplicates work (\"A T2 Graph-Reduction Approach To Fusion\", §3; unless --no-fuse)",
		Options: []lang.Option{{Name: "no-fuse", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip fusion (FUN → FUN, by T2 reduction)"}},
		Run: func(p any, _ lang.Options) (any, []string, error) {
			q, r := Fuse(p.(*Program), FuseOptions{})
			// What fused, and what did not for a reason (a case of
			// Fig 9); not the arrays no SOAC consumes at all.
			return q, noteLines(slices.DeleteFunc(r.Notes, func(n FusionNote) bool { return !n.Fused && n.Case == 0 })), nil
		}}
)

// noteLines renders a pass's notes, one line each (file:line:col: message).
func noteLines[N fmt.Stringer](notes []N) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.String()
	}
	return out
}
