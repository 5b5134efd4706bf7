package cuda

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Simulator is what the CUDA level needs of the simulator that runs its
// programs (gpu-sim, package gpusim). The simulator imports this package
// (the syntax it reads is File), so it is given to NewLanguage rather
// than imported.
type Simulator interface {
	// Read reads an emitted file back: a file of the emitted subset, or
	// a *semantics.Error at what is not.
	Read(file, src string) (Simulated, error)
}

// PartsReader is a Simulator that also reads an emitted file back from
// the text around its prelude (File.Parts), the prelude being this
// version's by construction: Adopt then need not make the whole text
// (most of which is the prelude) for the simulator to find the prelude in
// it again. What it reads is the file's text, as Read would.
type PartsReader interface {
	ReadParts(file, head, rest string) (Simulated, error)
}

// Simulated is a file the simulator read back, ready to run.
type Simulated interface {
	Name() string  // the file's name, for messages
	Text() string  // the file's text, as read
	Tables() *File // its tables: sites, inputs, defaults, result format
	// Run runs the program with NAME=VALUE arguments, in order, and
	// returns the lines it prints; its errors are *semantics.Error
	// values of the kind the driver compares (a race, a stuck state, an
	// overflow, bad input). With stats, the run's cost counters. fuel
	// bounds the statements it runs over all threads (0:
	// semantics.DefaultBigFuel).
	Run(args []string, stats *semantics.Stats, fuel int) ([]string, error)
}

// NewLanguage is the CUDA the backend emits, as a lang.Language: .cu files
// of the emitted subset, checked by reading them back (sim.Read), run in
// the simulator (semantics "sim"). It is the level the IMP → CUDA pass
// (EmitPass) produces, so compile --to cuda and side-by-side reach it
// through the driver's registry.
func NewLanguage(sim Simulator) lang.Language {
	return language{lang.Info{LangName: LanguageName, LangTitle: "CUDA", Exts: []string{".cu"}, CommentMark: "//", RefPage: "cuda.md"}, sim}
}

type language struct {
	lang.Info
	sim Simulator
}

// Print renders an emitted file (a *File) or one read back.
func (language) Print(syntax any) string {
	switch f := syntax.(type) {
	case *File:
		return f.String()
	case Simulated:
		return f.Text()
	}
	return fmt.Sprintf("%v", syntax)
}

func (l language) Load(file, src string, _ lang.LoadOptions) (lang.Program, error) {
	p, err := l.sim.Read(file, src)
	if err != nil {
		return nil, err
	}
	return &program{l: l, p: p}, nil
}

// Adopt checks an emitted file by reading its text back: what the
// simulator can run is what the emitter must produce.
func (l language) Adopt(file string, syntax any, o lang.LoadOptions) (lang.Program, error) {
	f, ok := syntax.(*File)
	if !ok {
		return nil, &lang.WrongTreeError{Lang: l.Title(), Got: fmt.Sprintf("%T", syntax), Want: "*cuda.File"}
	}
	if r, ok := l.sim.(PartsReader); ok {
		head, rest := f.Parts()
		p, err := r.ReadParts(file, head, rest)
		if err != nil {
			return nil, err
		}
		return &program{l: l, p: p}, nil
	}
	return l.Load(file, f.String(), o)
}

// program is a CUDA file read back by the simulator.
type program struct {
	l language
	p Simulated
}

func (p *program) Language() lang.Language { return p.l }
func (p *program) File() string            { return p.p.Name() }
func (p *program) Syntax() any             { return p.p }
func (p *program) Type() string {
	return "a CUDA program of the emitted subset (gpu-sim reads it back)"
}
func (p *program) Derivation() *semantics.Derivation { return nil }
func (p *program) Semantics() []string               { return []string{"sim"} }
func (p *program) Inputs() []string {
	ins := p.p.Tables().Inputs
	out := make([]string, len(ins))
	for i, in := range ins {
		out[i] = in[:strings.IndexAny(in+"[", "[:")]
	}
	return out
}

// Run runs the program in the simulator, in order, with the inputs as the
// built program takes them (Argv: NAME=VALUE, NAME=@FILE, --data FILE).
func (p *program) Run(o lang.RunOptions) (*lang.Result, error) {
	return lang.Run(p, o, func(string) (*lang.Result, error) {
		lines, err := p.p.Run(Argv(o.Args), o.Stats, o.Fuel)
		if err != nil {
			return nil, err
		}
		return &lang.Result{Lines: lines, Source: p.p.Tables().Format != nil}, nil
	})
}

// CountsCosts reports that the simulator fills RunOptions.Stats: its
// launches, device allocations and words, and the threads' element reads
// and writes (docs/optimise.md, "Cost counters").
func (p *program) CountsCosts(string) bool { return true }

// Start refuses: CUDA has no small-step machine here (gpu-sim runs it).
func (p *program) Start(lang.RunOptions) (*lang.Stepper, error) {
	return nil, fmt.Errorf("%s: CUDA has no small-step semantics in arraysem; it runs in gpu-sim", p.p.Name())
}

// Caveat: the emitted program checks bounds as IMP does (ERRATA I2).
func (p *program) Caveat() string {
	return "CUDA, like the IMP it comes from, checks no bounds within a block: FunMemToImp makes slices skip and indexing a read at the computed offset; ERRATA I2"
}
