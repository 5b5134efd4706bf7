package remora

import "github.com/arraysem/arraysem/lang"

// The compile path's passes of the Remora compiler report's §4, as the
// registry's passes: Explicitize into the IR, then Inline and Simplify
// within it (the pipeline "remora-ir").
var (
	ExplicitizePass = lang.Pass{Name: "Explicitize", From: Language.Name(), To: IR.Name(), Row: true,
		Doc: "Remora → Remora IR: every implicit lift becomes an explicit MAP over its frame, with REP of the arguments that need it (§4.3 of \"Remora Compiler — A Master's Project\")",
		Run: func(p any, _ lang.Options) (any, []string, error) {
			q, err := Explicitize(p.(*Program))
			return q, nil, err
		}}
	InlinePass = lang.Pass{Name: "Inline", From: IR.Name(), To: IR.Name(), Row: true, Partial: true,
		Doc: "monomorphisation and inlining (§4.4): no type or index abstraction or application is left but a primitive's, every function is inlined to first order",
		Run: func(p any, _ lang.Options) (any, []string, error) {
			q, err := Inline(p.(*Program))
			return q, nil, err
		}}
	SimplifyPass = lang.Pass{Name: "Simplify", From: IR.Name(), To: IR.Name(),
		Doc:     "the IR's simplifier (§4.5): copy propagation, inlining of single-use and trivial bindings, dead code, constant folding, hoisting out of MAPs (unless --raw)",
		Options: []lang.Option{{Name: "raw", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip the simplifiers"}},
		Run:     func(p any, _ lang.Options) (any, []string, error) { return Simplify(p.(*Program)), nil, nil }}
)
