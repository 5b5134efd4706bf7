package gpusim

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Language is the CUDA the backend emits, as a lang.Language: .cu files
// of the emitted subset, checked by reading them back (Parse), run in this
// simulator (semantics "sim"). It is the level the IMP → CUDA pass
// (cuda.Emit) produces, so compile --to cuda and side-by-side reach it
// through the driver's registry.
var Language lang.Language = language{lang.Info{LangName: cuda.LanguageName, LangTitle: "CUDA", Exts: []string{".cu"}, CommentMark: "//", RefPage: "cuda.md"}}

type language struct{ lang.Info }

// Print renders an emitted file (a *cuda.File) or a parsed one.
func (language) Print(syntax any) string {
	switch f := syntax.(type) {
	case *cuda.File:
		return f.String()
	case *Program:
		return f.Text
	}
	return fmt.Sprintf("%v", syntax)
}

func (language) Load(file, src string, _ lang.LoadOptions) (lang.Program, error) {
	p, err := Parse(file, src)
	if err != nil {
		return nil, toSemantics(err)
	}
	return &program{p: p}, nil
}

// Adopt checks an emitted file by reading its text back: what the
// simulator can run is what the emitter must produce.
func (l language) Adopt(file string, syntax any, o lang.LoadOptions) (lang.Program, error) {
	f, ok := syntax.(*cuda.File)
	if !ok {
		return nil, fmt.Errorf("gpu-sim was given a %T, not an emitted CUDA file", syntax)
	}
	return l.Load(file, f.String(), o)
}

// program is a parsed CUDA file.
type program struct{ p *Program }

func (p *program) Language() lang.Language { return Language }
func (p *program) File() string            { return p.p.Name }
func (p *program) Syntax() any             { return p.p }
func (p *program) Type() string {
	return "a CUDA program of the emitted subset (gpu-sim reads it back)"
}
func (p *program) Derivation() *semantics.Derivation { return nil }
func (p *program) Semantics() []string               { return []string{"sim"} }
func (p *program) Inputs() []string {
	out := make([]string, len(p.p.File.Inputs))
	for i, in := range p.p.File.Inputs {
		out[i] = in[:strings.IndexAny(in+"[", "[:")]
	}
	return out
}

// Run runs the program in the simulator, in order, with the inputs as the
// built program takes them (NAME=VALUE).
func (p *program) Run(o lang.RunOptions) (*lang.Result, error) {
	return lang.Run(p, o, func(string) (*lang.Result, error) {
		var args []string
		for k, v := range o.Args {
			args = append(args, k+"="+v)
		}
		sort.Strings(args)
		out, st, err := Run(p.p, args, Options{MaxElems: semantics.MaxHeap, Stats: o.Stats != nil})
		if o.Stats != nil && st != nil {
			*o.Stats = st.Costs
		}
		if err != nil {
			return nil, toSemantics(err)
		}
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if out == "" {
			lines = nil
		}
		return &lang.Result{Lines: lines}, nil
	})
}

// CountsCosts reports that the simulator fills RunOptions.Stats: its
// launches, device allocations and words, and the threads' element reads
// and writes (docs/optimise.md, "Cost counters").
func (p *program) CountsCosts(string) bool { return true }

// Start refuses: CUDA has no small-step machine here (gpu-sim runs it).
func (p *program) Start(lang.RunOptions) (*lang.Stepper, error) {
	return nil, fmt.Errorf("%s: CUDA has no small-step semantics in arraysem; it runs in gpu-sim", p.p.Name)
}

// Caveat: the emitted program checks bounds as IMP does (ERRATA I2).
func (p *program) Caveat() string {
	return "CUDA, like the IMP it comes from, checks no bounds within a block: FunMemToImp makes slices skip and indexing a read at the computed offset; ERRATA I2"
}

// toSemantics gives a simulator error the kind the driver compares: a
// race, a stuck state, running out of fuel, bad input or an unsupported
// file.
func toSemantics(err error) error {
	var e *Error
	if !errors.As(err, &e) {
		return err
	}
	kind := semantics.StuckError
	switch e.Kind {
	case "race":
		kind = semantics.RaceError
	case "fuel":
		kind = semantics.FuelError
	case "overflow":
		kind = semantics.OverflowError
	case "input":
		kind = semantics.InputError
	case "unsupported":
		kind = semantics.SyntaxError
	}
	return &semantics.Error{Pos: semantics.Pos{File: e.File, Line: e.Pos.Line, Col: e.Pos.Col}, Kind: kind, Rule: "gpu-sim " + e.Kind, Msg: e.Msg}
}
