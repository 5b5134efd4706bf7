package lang

// Pass is a translation from one language to another (From ≠ To), or a
// transformation within one (From = To: a simplifier, memory expansion,
// fusion), as a value. The driver finds a path of translations between two
// levels, runs the enabled transformations at each level it reaches, and
// re-checks every pass's output with the target language's checker.
type Pass struct {
	Name     string // as the paper names it: "TransformProgram", "MemoryExpand"
	From, To string // language names
	Doc      string // one line: what it does, and where the paper gives it
	// When decides whether a transformation runs on a walk (nil: always).
	// Transformations of a level run in the order they were registered.
	When func(w Walk) bool
	// Label names the variant of a level the pass makes, for the rows of
	// side-by-side ("expanded (gpu)"); nil or "" for none.
	Label func(o CompileOptions) string
	// Run transforms a syntax tree of From into one of To.
	Run func(syntax any, o CompileOptions) (any, error)
	// Row asks side-by-side for a row of the program this pass makes,
	// when later transformations at the same level follow it (the Remora
	// IR after Explicitize and after Inline, before Simplify): the
	// stages of a level then each run and are compared.
	Row bool
	// RowWhenChanged asks, like Row, for a row of the program this pass
	// makes, whatever follows it, but only when the pass changed the
	// program (FUN after Slice, after Fuse): an optimising pass that
	// found nothing to do adds no row that repeats the one before.
	RowWhenChanged bool
	// Reads names the compile options the pass reads, in When or Run
	// (OptExpand, OptLayout, …), so the driver can tell a user that an
	// option given has no pass on the walk to read it.
	Reads []string
	// Notes, when set, are what the pass says about the program it
	// made (fusion's decisions, slicing's): given the pass's input and
	// output, one line each. compile --stages prints them with the
	// stage.
	Notes func(in, out any) []string
}

// The compile options by name, as Pass.Reads lists them; each is also
// the command-line flag that sets it.
const (
	OptExpand   = "expand"
	OptLayout   = "layout"
	OptRaw      = "raw"
	OptDefaults = "arg"
	OptNoFuse   = "no-fuse"
	OptNoSlice  = "no-slice"
)

// Set lists the options o sets (not at their zero value), by name.
func (o CompileOptions) Set() []string {
	var out []string
	if o.Expand {
		out = append(out, OptExpand)
	}
	if o.Layout != "" {
		out = append(out, OptLayout)
	}
	if o.Raw {
		out = append(out, OptRaw)
	}
	if len(o.Defaults) > 0 {
		out = append(out, OptDefaults)
	}
	if o.NoFuse {
		out = append(out, OptNoFuse)
	}
	if o.NoSlice {
		out = append(out, OptNoSlice)
	}
	return out
}

// Translation reports whether the pass changes the language.
func (p *Pass) Translation() bool { return p.From != p.To }

// CompileOptions are the switches of the compile path, shared by every
// pass (each reads the ones it cares for).
type CompileOptions struct {
	Expand bool   // run MemoryExpand
	Layout string // MemoryExpand's layout: "gpu" (coalesced, the default) or "cpu"
	Raw    bool   // skip the simplifiers
	// NoFuse and NoSlice switch off FUN's optimising passes, fusion and
	// size slicing, which run by default.
	NoFuse, NoSlice bool
	// Defaults are input values (NAME → VALUE, as --arg takes them)
	// compiled into a level that can hold them (CUDA's command line
	// overrides them).
	Defaults map[string]string
}

// Walk is what a transformation's When is told about the walk so far.
type Walk struct {
	Options CompileOptions
	// Arrived reports that the level was reached by a translation (it is
	// not the source program's own level).
	Arrived bool
	// Ran lists the transformations already run at this level.
	Ran []string
}

// Variant is one set of compile options side-by-side runs every level
// with; its rows are named by the labels of the passes that ran.
type Variant struct {
	Options CompileOptions
}

// Stage is one step of a walk: the pass that ran (Pass is nil for the
// source program) and the checked program it produced.
type Stage struct {
	Pass    *Pass
	Program Program
}

// Name is the pass's name, or "source".
func (s Stage) Name() string {
	if s.Pass == nil {
		return "source"
	}
	return s.Pass.Name
}

// Text renders the stage's program in its language's syntax.
func (s Stage) Text() string {
	return s.Program.Language().Print(s.Program.Syntax())
}
