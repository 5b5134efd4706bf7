package check

import (
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/fun/fuse"
	"github.com/arraysem/arraysem/fun/interchange"
	"github.com/arraysem/arraysem/fun/slice"
	"github.com/arraysem/arraysem/funmem"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/remora/ir"
	"github.com/arraysem/arraysem/remora/tofun"
)

// NewRegistry is the arraysem command's graph of languages and passes,
// made anew: every command (run, step, check, compile, side-by-side,
// test) and the REPL find languages and paths in the one the command
// line makes, and a test may add to its own. Adding a level is adding to
// it: the language, the pass that reaches it, and where it runs.
func NewRegistry() *lang.Registry {
	r := &lang.Registry{}
	r.AddLanguage(fun.Language, funmem.Language, imp.Language, cuda.NewLanguage(gpusim.Simulator), remora.Language, ir.Language, dynamic.Language)
	r.AddPass(
		dynamic.ElaboratePass,
		ir.ExplicitizePass, ir.InlinePass, ir.SimplifyPass,
		tofun.LowerPass,
		slice.Pass, fuse.Pass, interchange.Pass,
		funmem.TransformPass, funmem.SimplifyPass, funmem.MemoryExpandPass,
		imp.FromFunmemPass, imp.SimplifyPass,
		cuda.EmitPass,
	)
	r.AddPipeline(
		lang.Pipeline{Name: "remora-ir", Level: ir.Language.Name(), Passes: []string{"Inline", "Simplify"},
			Doc: "the Remora compiler report's §4.4–4.5 after Explicitize: monomorphise and inline, then simplify"},
		lang.Pipeline{Name: "fun", Level: fun.Language.Name(), Passes: []string{"Slice", "Fuse", "Interchange"},
			Doc: "size slicing, then fusion, then the map–reduce interchange"},
		lang.Pipeline{Name: "funmem", Level: funmem.Language.Name(), At: lang.Arrived, Passes: []string{"Simplify"},
			Doc: "the simplifier after TransformProgram"},
		lang.Pipeline{Name: "funmem-expanded", Level: funmem.Language.Name(), At: lang.Arrived, When: funmem.ExpandOption.Name,
			Passes: []string{"Simplify", "MemoryExpand", "Simplify"},
			Doc:    "the simplifier, MemoryExpand, the simplifier again (--expand)"},
		lang.Pipeline{Name: "funmem-source-expanded", Level: funmem.Language.Name(), At: lang.AtSource, When: funmem.ExpandOption.Name,
			Passes: []string{"MemoryExpand", "Simplify"},
			Doc:    "a FUNMEM program's own MemoryExpand, then the simplifier (--expand)"},
		lang.Pipeline{Name: "imp", Level: imp.Language.Name(), At: lang.Arrived, Passes: []string{"Simplify"},
			Doc: "the simplifier after FunMemToImp: the skips of slices and transposes, and the scalars only they read"},
	)
	r.AddVariant(
		lang.Variant{Options: lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, "gpu")},
		lang.Variant{Options: lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, "cpu")},
	)
	return r
}
