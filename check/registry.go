package check

import (
	"fmt"
	"slices"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/remora/tofun"
)

// Registry is the arraysem command's graph of languages and passes. Every
// command (run, step, check, compile, side-by-side, test) and the REPL
// find languages and paths here; adding a level is adding to it.
var Registry = &lang.Registry{}

func init() {
	Registry.AddLanguage(fun.Language, funmem.Language, imp.Language, gpusim.Language, remora.Language, remora.IR, dynamic.Language)
	Registry.AddPass(
		lang.Pass{Name: "Elaborate", From: "remora/dynamic", To: "remora",
			Doc: "Remora's dynamic dialect → the typed core: each expression's types inferred and written out, as check --infer does (declined when an expression does not elaborate)",
			Run: func(p any, _ lang.CompileOptions) (any, error) { return dynamic.Elaborate(p.(*dynamic.Program)) }},
		lang.Pass{Name: "Explicitize", From: "remora", To: "remora-ir", Row: true,
			Doc: "Remora → Remora IR: every implicit lift becomes an explicit MAP over its frame, with REP of the arguments that need it (§4.3 of \"Remora Compiler — A Master's Project\")",
			Run: func(p any, _ lang.CompileOptions) (any, error) { return remora.Explicitize(p.(*remora.Program)) }},
		lang.Pass{Name: "Inline", From: "remora-ir", To: "remora-ir", Row: true,
			Doc: "monomorphisation and inlining (§4.4): no type or index abstraction or application is left but a primitive's, every function is inlined to first order",
			Run: func(p any, _ lang.CompileOptions) (any, error) { return remora.Inline(p.(*remora.Program)) }},
		lang.Pass{Name: "Simplify", From: "remora-ir", To: "remora-ir",
			Doc:   "the IR's simplifier (§4.5): copy propagation, inlining of single-use and trivial bindings, dead code, constant folding, hoisting out of MAPs (unless --raw)",
			When:  func(w lang.Walk) bool { return !w.Options.Raw },
			Run:   func(p any, _ lang.CompileOptions) (any, error) { return remora.Simplify(p.(*remora.Program)), nil },
			Reads: []string{lang.OptRaw}},
		lang.Pass{Name: "Lower", From: "remora-ir", To: "fun",
			Doc: "Remora IR → FUN: MAPs become kernels, the basis FUN's forms (reduce, scan, loop, filter), boxes run-time sizes (package remora/tofun)",
			Run: func(p any, _ lang.CompileOptions) (any, error) { return tofun.Lower(p.(*remora.Program)) }},
		lang.Pass{Name: "Slice", From: "fun", To: "fun", RowWhenChanged: true,
			Doc:   "size slicing: an existential size whose shape slice is cheap is computed ahead of its value, sizes and assertions move out of kernels (\"Size Slicing - A Hybrid Approach to Size Inference in Futhark\", §3–4; unless --no-slice)",
			When:  func(w lang.Walk) bool { return !w.Options.NoSlice },
			Reads: []string{lang.OptNoSlice},
			Run: func(p any, _ lang.CompileOptions) (any, error) {
				q, _ := fun.SliceSizes(p.(*fun.Program))
				return q, nil
			},
			Notes: func(in, _ any) []string { _, r := fun.SliceSizes(in.(*fun.Program)); return lines(r.Notes) }},
		lang.Pass{Name: "Fuse", From: "fun", To: "fun", RowWhenChanged: true,
			Doc:   "fusion by T2 reduction of the dependency graph: producers fused into their consumers (kernel∘kernel, redomap, scanomap) unless that duplicates work (\"A T2 Graph-Reduction Approach To Fusion\", §3; unless --no-fuse)",
			When:  func(w lang.Walk) bool { return !w.Options.NoFuse },
			Reads: []string{lang.OptNoFuse},
			Run: func(p any, _ lang.CompileOptions) (any, error) {
				q, _ := fun.Fuse(p.(*fun.Program), fun.FuseOptions{})
				return q, nil
			},
			Notes: func(in, _ any) []string {
				// What fused, and what did not for a reason (a case of
				// Fig 9); not the arrays no SOAC consumes at all.
				_, r := fun.Fuse(in.(*fun.Program), fun.FuseOptions{})
				return lines(slices.DeleteFunc(r.Notes, func(n fun.FusionNote) bool { return !n.Fused && n.Case == 0 }))
			}},
		lang.Pass{Name: "TransformProgram", From: "fun", To: "funmem",
			Doc: "FUN → FUNMEM: TransformProgram, TransformStms, TransformStm and Support (§3.5)",
			Run: func(p any, _ lang.CompileOptions) (any, error) { return funmem.Transform(p.(*fun.Program)), nil }},
		lang.Pass{Name: "Simplify", From: "funmem", To: "funmem",
			Doc:   "the simplifier, after a translation into FUNMEM (unless --raw)",
			When:  func(w lang.Walk) bool { return w.Arrived && !w.Options.Raw && len(w.Ran) == 0 },
			Run:   func(p any, _ lang.CompileOptions) (any, error) { return funmem.Simplify(p.(*fun.Program)), nil },
			Reads: []string{lang.OptRaw}},
		lang.Pass{Name: "MemoryExpand", From: "funmem", To: "funmem",
			Doc:   "MemoryExpand (§5): kernel allocations hoisted out, in the GPU (coalesced) or CPU layout (--expand, --layout)",
			When:  func(w lang.Walk) bool { return w.Options.Expand },
			Label: func(o lang.CompileOptions) string { return "expanded (" + layoutName(o) + ")" },
			Reads: []string{lang.OptExpand, lang.OptLayout},
			Run: func(p any, o lang.CompileOptions) (any, error) {
				l, err := funmem.ParseLayout(layoutName(o))
				if err != nil {
					return nil, err
				}
				return funmem.MemoryExpand(p.(*fun.Program), l), nil
			}},
		lang.Pass{Name: "Simplify", From: "funmem", To: "funmem",
			Doc:   "the simplifier, after MemoryExpand (unless --raw)",
			When:  func(w lang.Walk) bool { return w.Options.Expand && !w.Options.Raw },
			Run:   func(p any, _ lang.CompileOptions) (any, error) { return funmem.Simplify(p.(*fun.Program)), nil },
			Reads: []string{lang.OptRaw}},
		lang.Pass{Name: "FunMemToImp", From: "funmem", To: "imp",
			Doc: "FUNMEM → IMP: FunMemToImp and COPY (§4)",
			Run: func(p any, _ lang.CompileOptions) (any, error) {
				return imp.FromFunmem(p.(*fun.Program))
			}},
		lang.Pass{Name: "EmitCUDA", From: "imp", To: "cuda",
			Doc: "IMP → CUDA: a __global__ function per top-level kernel, one thread per iteration; host code that allocates, launches, checks and prints (package cuda)",
			Run: func(p any, o lang.CompileOptions) (any, error) {
				return cuda.Emit(p.(*imp.Program), cuda.Options{Defaults: o.Defaults})
			},
			Reads: []string{lang.OptDefaults}},
	)
	Registry.AddVariant(
		lang.Variant{Options: lang.CompileOptions{Expand: true, Layout: "gpu"}},
		lang.Variant{Options: lang.CompileOptions{Expand: true, Layout: "cpu"}},
	)
}

// layoutName is MemoryExpand's layout, gpu by default.
func layoutName(o lang.CompileOptions) string {
	if o.Layout == "" {
		return "gpu"
	}
	return o.Layout
}

// lines renders a pass's notes, one line each (file:line:col: message).
func lines[N fmt.Stringer](notes []N) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.String()
	}
	return out
}
