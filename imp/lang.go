package imp

import (
	"strings"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Language is IMP as a lang.Language: .imp files, its checker, the
// big-step of Fig 12 (the engine, "big", and the rules as written,
// "rules") and its small-step machine ("small").
var Language lang.Language = language{lang.Info{LangName: "imp", LangTitle: "IMP", Exts: []string{".imp"}, CommentMark: "--", RefPage: "imp.md", StepName: "small", EndOfStages: true}}

type language struct{ lang.Info }

func (language) Print(syntax any) string { return Print(syntax.(*Program)) }

func (l language) Load(file, src string, o lang.LoadOptions) (lang.Program, error) {
	return lang.LoadParsed(l, ParseFile, file, src, o)
}

func (l language) Adopt(_ string, syntax any, o lang.LoadOptions) (lang.Program, error) {
	p, err := lang.Tree[*Program](l, syntax)
	if err != nil {
		return nil, err
	}
	d, err := CheckDerivation(p, CheckOptions{Paper: o.Paper, Derive: o.Derive, Counter: o.Counter})
	if err != nil {
		return nil, err
	}
	return &program{p: p, derivation: d}, nil
}

// program is a checked IMP program, with its typing derivation when
// loading asked for it.
type program struct {
	p          *Program
	derivation *semantics.Derivation
}

func (p *program) Language() lang.Language           { return Language }
func (p *program) File() string                      { return p.p.File }
func (p *program) Syntax() any                       { return p.p }
func (p *program) Type() string                      { return ResultString(p.p) }
func (p *program) Derivation() *semantics.Derivation { return p.derivation }
func (p *program) Semantics() []string               { return []string{"big", "rules", "small"} }

func (p *program) Inputs() []string {
	out := make([]string, len(p.p.Inputs))
	for i, in := range p.p.Inputs {
		out[i] = in.Name.Name
	}
	return out
}

func (p *program) Run(o lang.RunOptions) (*lang.Result, error) {
	return lang.Run(p, o, func(sem string) (*lang.Result, error) {
		env, h, err := BindInputs(p.p, o.Args)
		if err != nil {
			return nil, err
		}
		h.Record(o.RecordHeap)
		var vs []semantics.Array
		var d *semantics.Derivation
		if sem == "rules" { // Fig 12 as written
			vs, d, err = EvalRules(p.p, env, h, OptionsOf(&o.RunOptions))
		} else { // "big": the engine
			vs, err = Eval(p.p, env, h, OptionsOf(&o.RunOptions))
		}
		if err != nil {
			return nil, err
		}
		r, err := lang.ArrayResult(p.p.Format, vs, o.Jobs)
		if r != nil {
			r.Derivation = d
		}
		return r, err
	})
}

func (p *program) Start(o lang.RunOptions) (*lang.Stepper, error) {
	env, h, err := BindInputs(p.p, o.Args)
	if err != nil {
		return nil, err
	}
	h.Record(o.RecordHeap)
	m := Machine{Opts: OptionsOf(&o.RunOptions)}
	return lang.WithFocus(lang.NewStepper[*Config](m, []*Config{Initial(p.p, env, h)}, &o.RunOptions,
		semantics.Pos{File: p.p.File, Line: 1, Col: 1}, (*Config).Shown,
		func(cs []*Config) (*lang.Result, error) {
			vs, err := cs[0].Results(p.p)
			if err != nil {
				return nil, err
			}
			cs[0].recycle()
			return lang.ArrayResult(p.p.Format, vs, o.Jobs)
		}), Focus), nil
}

// Races runs the program with every kernel traced: eq 4 is decided for
// each kernel as it ends.
func (p *program) Races(args map[string]string) ([]string, error) {
	kernels, folds := 0, 0
	o := lang.RunOptions{Args: args}
	o.Trace = func(name string, _ *semantics.KernelTrace) {
		if strings.Contains(name, ": kernel ") {
			kernels++
		} else {
			folds++
		}
	}
	if _, err := p.Run(o); err != nil {
		return nil, err
	}
	line := "race free (eq 4): " + semantics.Plural(kernels, "kernel")
	if folds > 0 {
		line += " and " + semantics.Plural(folds, "fold") + " (reduce, scan)"
	}
	return []string{line + " traced"}, nil
}

// Caveat: IMP checks no bounds (ERRATA I2).
func (p *program) Caveat() string {
	return "IMP checks no bounds: FunMemToImp makes slices skip and indexing a read at the computed offset; ERRATA I2"
}

// PaperMode says what check --paper refuses (lang.PaperChecker).
func (language) PaperMode() string {
	return "the statements for, assert, reduce and scan (extensions of Fig 11)"
}

// Rules is the language's rule table.
func (language) Rules() semantics.RuleTable { return Rules }

// CountsCosts reports that IMP's semantics all fill RunOptions.Stats
// (lang.CostCounter; stats.go).
func (p *program) CountsCosts(string) bool { return true }

// BigStepFuel marks the big-step as bounded by the fuel too: it counts
// the iterations of kernels, loops and folds (semantics.Budget).
func (p *program) BigStepFuel() {}
