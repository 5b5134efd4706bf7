package interchange

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/fun/fuse"
	"github.com/arraysem/arraysem/lang"
)

// Pass is the interchange as the registry's transformation of FUN, with
// the switch that turns it off (the pipeline "fun" runs it after fusion).
// When it interchanges, it fuses again what that exposed (a neutral
// element's kernel now read element by element, the new kernel a
// producer of kernels that read it).
var Pass = lang.Pass{Name: "Interchange", From: fun.Language.Name(), To: fun.Language.Name(), RowWhenChanged: true,
	Doc:     "map–reduce interchange: a redomap over arrays whose operator combines its operands element by element becomes a kernel of scalar redomaps (Futhark's kernel extraction; unless --no-interchange)",
	Options: []lang.Option{{Name: "no-interchange", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip the map–reduce interchange (FUN → FUN)"}},
	Run: func(p any, _ lang.Options) (any, []string, error) {
		q, notes := Interchange(p.(*fun.Program))
		if len(notes) > 0 {
			// What the interchange exposed: the neutral element's
			// kernel now read element by element, the columns' kernel
			// now a producer of the kernels that read it.
			var r *fuse.Report
			q, r = fuse.Fuse(q, fuse.Options{})
			for _, n := range r.Notes {
				if n.Fused {
					notes = append(notes, n.String())
				}
			}
		}
		return q, notes, nil
	}}
