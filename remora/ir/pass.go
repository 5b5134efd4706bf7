package ir

import (
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
)

// The compile path's passes of the Remora compiler report's §4, as the
// registry's passes: Explicitize into the IR, then Inline and Simplify
// within it (the pipeline "remora-ir").
var (
	ExplicitizePass = lang.Pass{Name: "Explicitize", From: remora.Language.Name(), To: Language.Name(), Row: true,
		Doc: "Remora → Remora IR: every implicit lift becomes an explicit MAP over its frame, with REP of the arguments that need it (§4.3 of \"Remora Compiler — A Master's Project\")",
		Run: func(p any, _ lang.Options) (any, []string, error) {
			q, err := Explicitize(p.(*remora.Program))
			return q, nil, err
		}}
	InlinePass = lang.Pass{Name: "Inline", From: Language.Name(), To: Language.Name(), Row: true, Partial: true,
		Doc: "monomorphisation and inlining (§4.4): no type or index abstraction or application is left but a primitive's, every function is inlined to first order",
		Run: func(p any, _ lang.Options) (any, []string, error) {
			q, err := Inline(p.(*remora.Program))
			return q, nil, err
		}}
	SimplifyPass = lang.Pass{Name: "Simplify", From: Language.Name(), To: Language.Name(),
		Doc:     "the IR's simplifier (§4.5): copy propagation, inlining of single-use and trivial bindings, dead code, constant folding, hoisting out of MAPs (unless --raw)",
		Options: []lang.Option{{Name: "raw", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip the simplifiers"}},
		Run:     func(p any, _ lang.Options) (any, []string, error) { return Simplify(p.(*remora.Program)), nil, nil }}
)
