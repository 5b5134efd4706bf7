package slice

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
)

// Pass is size slicing as the registry's transformation of FUN, with the
// switch that turns it off (the pipeline "fun" runs it, then fusion).
var Pass = lang.Pass{Name: "Slice", From: fun.Language.Name(), To: fun.Language.Name(), RowWhenChanged: true,
	Doc:     "size slicing: an existential size whose shape slice is cheap is computed ahead of its value, sizes and assertions move out of kernels (\"Size Slicing - A Hybrid Approach to Size Inference in Futhark\", §3–4; unless --no-slice)",
	Options: []lang.Option{{Name: "no-slice", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip size slicing (FUN → FUN)"}},
	Run: func(p any, _ lang.Options) (any, []string, error) {
		q, r := Sizes(p.(*fun.Program))
		return fun.SameOr(p.(*fun.Program), q), lang.Notes(r.Notes), nil
	}}
