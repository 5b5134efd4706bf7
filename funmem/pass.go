package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
)

// The options MemoryExpand reads: --expand selects FUNMEM's pipeline that
// holds it, --layout its layout.
var (
	ExpandOption = lang.Option{Name: "expand", Kind: lang.BoolOption, Switch: lang.Selects, Help: "run MemoryExpand (the pipeline funmem-expanded)"}
	LayoutOption = lang.Option{Name: "layout", Kind: lang.StringOption, Default: "gpu", Values: []string{"gpu", "cpu"}, Help: "MemoryExpand's layout: gpu (coalesced) or cpu (a row per thread)"}
)

// The passes of §3–5 of the FUNMEM paper, as the registry's passes: the
// translation from FUN, the simplifier and MemoryExpand (the pipelines
// "funmem" and "funmem-expanded").
var (
	TransformPass = lang.Pass{Name: "TransformProgram", From: fun.Language.Name(), To: Language.Name(),
		Doc: "FUN → FUNMEM: TransformProgram, TransformStms, TransformStm and Support (§3.5)",
		Run: func(p any, _ lang.Options) (any, []string, error) {
			if err := fun.CheckCompileRank(p.(*fun.Program), "TransformProgram"); err != nil {
				return nil, nil, err
			}
			return Transform(p.(*fun.Program)), nil, nil
		}}
	SimplifyPass = lang.Pass{Name: "Simplify", From: Language.Name(), To: Language.Name(),
		Doc:     "the simplifier: constants and copies propagated, dead code removed, LMADs normalised (unless --raw)",
		Options: []lang.Option{{Name: "raw", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip the simplifiers"}},
		Run:     func(p any, _ lang.Options) (any, []string, error) { return Simplify(p.(*fun.Program)), nil, nil }}
	MemoryExpandPass = lang.Pass{Name: "MemoryExpand", From: Language.Name(), To: Language.Name(),
		Doc:     "MemoryExpand (§5): kernel allocations hoisted out, in the GPU (coalesced) or CPU layout (--expand, --layout)",
		Label:   func(o lang.Options) string { return "expanded (" + o.Str(LayoutOption.Name) + ")" },
		Options: []lang.Option{ExpandOption, LayoutOption},
		Run: func(p any, o lang.Options) (any, []string, error) {
			l, err := ParseLayout(o.Str(LayoutOption.Name))
			if err != nil {
				return nil, nil, err
			}
			return MemoryExpand(p.(*fun.Program), l), nil, nil
		}}
)
