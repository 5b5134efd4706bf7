package fun

import (
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Language is FUN as a lang.Language: .fun files, Fig 3's checker, the
// big-step of Fig 4 (the engine, "big", and the rules as written,
// "rules") and its small-step machine ("small").
var Language lang.Language = language{lang.Info{LangName: "fun", LangTitle: "FUN", Exts: []string{".fun"}, CommentMark: "--", RefPage: "fun.md", StepName: "small"}}

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
	info, err := Check(p, &CheckOptions{Paper: o.Paper, Derive: o.Derive, Counter: o.Counter})
	if err != nil {
		return nil, err
	}
	return &program{p: p, typ: info.ResultString(), derivation: info.Derivation}, nil
}

// program is a checked FUN program.
type program struct {
	p          *Program
	typ        string
	derivation *semantics.Derivation
}

func (p *program) Language() lang.Language           { return Language }
func (p *program) File() string                      { return p.p.File }
func (p *program) Syntax() any                       { return p.p }
func (p *program) Type() string                      { return p.typ }
func (p *program) Derivation() *semantics.Derivation { return p.derivation }
func (p *program) Semantics() []string               { return []string{"big", "rules", "small"} }
func (p *program) Inputs() []string                  { return InputNames(p.p) }

func (p *program) Run(o lang.RunOptions) (*lang.Result, error) {
	return lang.Run(p, o, func(sem string) (*lang.Result, error) {
		env, err := BindInputs(p.p, o.Args)
		if err != nil {
			return nil, err
		}
		eval := Eval // "big": the engine
		if sem == "rules" {
			eval = EvalRules // Fig 4 as written
		}
		vs, d, err := eval(p.p, env, &EvalOptions{Derive: o.Derive, Counter: o.Counter, Jobs: o.Jobs, Stats: o.Stats, Fuel: o.Fuel})
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
	env, err := BindInputs(p.p, o.Args)
	if err != nil {
		return nil, err
	}
	return lang.WithFocus(lang.NewStepper[Config](Machine{Stats: o.Stats}, []Config{Initial(p.p, env)}, &o.RunOptions,
		semantics.Pos{File: p.p.File, Line: 1, Col: 1}, Config.Shown,
		func(cs []Config) (*lang.Result, error) {
			return lang.ArrayResult(p.p.Format, cs[0].Results(), o.Jobs)
		}), Focus), nil
}

// Shown renders a configuration as `arraysem step` shows it: what the
// last step bound, in braces, then the configuration.
func (c Config) Shown() string {
	if b := c.Bound(); b != "" {
		return "{" + b + "} " + c.String()
	}
	return c.String()
}

// InputNames lists the names of a program's inputs.
func InputNames(p *Program) []string {
	out := make([]string, len(p.Inputs))
	for i, in := range p.Inputs {
		out[i] = in.Name.Name
	}
	return out
}

// DerivesEvaluation marks FUN's big-steps (the engine and the rules) as
// building derivations.
func (p *program) DerivesEvaluation() {}

// Rules is the language's rule table.
func (language) Rules() semantics.RuleTable { return Rules }

// PaperMode says what check --paper refuses (lang.PaperChecker).
func (language) PaperMode() string {
	return "program inputs and scalar results (T-PROG), and the extension forms loop, reduce, scan, filter, assert, redomap and scanomap"
}

// CountsCosts reports that FUN's semantics all fill RunOptions.Stats
// (lang.CostCounter; eval_stats.go).
func (p *program) CountsCosts(string) bool { return true }

// BigStepFuel marks the big-step as bounded by the fuel too: it counts
// the iterations of kernels, loops and folds (semantics.Budget).
func (p *program) BigStepFuel() {}
