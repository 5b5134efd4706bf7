package dynamic

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Language is Remora's rank-annotated untyped dialect as a
// lang.Language: .remora files whose first line is #lang remora/dynamic,
// run by the big-step of §2 (Figs 1–4: the engine, "big", and the rules
// as written, "rules", fig6.go) and its small-step ("small").
var Language lang.Language = language{lang.Info{LangName: "remora/dynamic", LangTitle: "Remora (dynamic)", Exts: []string{".remora"}, HashLines: []string{"remora/dynamic"}, Family: "remora", DialectName: "dynamic", CommentMark: ";", RefPage: "remora-dynamic.md", StepName: "small"}}

type language struct{ lang.Info }

// Print renders a program: the #lang line, then its expressions.
func (language) Print(syntax any) string {
	p := syntax.(*Program)
	var b strings.Builder
	b.WriteString("#lang remora/dynamic\n")
	for _, e := range p.Exprs {
		b.WriteString(ExprString(e) + "\n")
	}
	return b.String()
}

func (l language) Load(file, src string, o lang.LoadOptions) (lang.Program, error) {
	return lang.LoadParsed(l, func(file, src string) (*Program, error) {
		p, _, err := ParseFile(file, src)
		return p, err
	}, file, src, o)
}

// Adopt takes a parsed program: it has no types to check (its scopes
// were checked by the parser); with o.Infer it is elaborated into the
// typed core as far as that goes, and the types are what check prints.
func (l language) Adopt(_ string, syntax any, o lang.LoadOptions) (lang.Program, error) {
	p, err := lang.Tree[*Program](l, syntax)
	if err != nil {
		return nil, err
	}
	q := &program{p: p}
	if !o.Infer {
		q.typ = fmt.Sprintf("untyped: %s of #lang remora/dynamic, whose frames are checked as they run (check --infer elaborates into the typed core)", semantics.Plural(len(p.Exprs), "expression"))
		return q, nil
	}
	infs, err := InferProgram(p)
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(infs))
	for i, inf := range infs {
		lines[i] = remora.TypeString(inf.Type) + "\n    elaborates to " + inf.Term
	}
	q.typ = strings.Join(lines, "\n")
	if o.Derive {
		// The typing derivation is the typed core's (Fig 7) of the
		// elaborated terms: the dialect's own rules check nothing
		// before a run.
		tp := &remora.Program{File: p.File}
		for _, inf := range infs {
			tp.Exprs = append(tp.Exprs, inf.Expr)
		}
		info, err := remora.Check(tp, &remora.CheckOptions{Derive: true, Counter: o.Counter})
		if err != nil {
			return nil, err
		}
		q.derivation = remora.ProgramDerivation(info.Derivations)
	}
	return q, nil
}

// program is a parsed program of the dynamic dialect.
type program struct {
	p          *Program
	typ        string
	derivation *semantics.Derivation // check --infer --derive: the elaboration's, in the typed core
}

func (p *program) Language() lang.Language           { return Language }
func (p *program) File() string                      { return p.p.File }
func (p *program) Syntax() any                       { return p.p }
func (p *program) Type() string                      { return p.typ }
func (p *program) Derivation() *semantics.Derivation { return p.derivation }
func (p *program) Semantics() []string               { return []string{"big", "rules", "small"} }
func (p *program) Inputs() []string                  { return nil }

func (p *program) Run(o lang.RunOptions) (*lang.Result, error) {
	if err := remora.NoArgs(p.p.File, o.Args); err != nil {
		return nil, err
	}
	return lang.Run(p, o, func(sem string) (*lang.Result, error) {
		opts := &EvalOptions{Counter: o.Counter, Fuel: o.Fuel, Derive: o.Derive}
		var vs []*remora.Value
		var d *semantics.Derivation
		var err error
		if sem == "rules" { // §2's rules (Fig 6's, untyped) as written
			vs, d, err = EvalRules(p.p, opts)
		} else { // "big": the engine
			vs, err = Eval(p.p, opts)
		}
		if err != nil {
			return nil, err
		}
		return &lang.Result{Lines: remora.ValueLines(vs), Derivation: d}, nil
	})
}

// BigStepFuel marks the dialect's big-steps (the engine and the rules) as
// bounded by the fuel too: they count their applications
// (EvalOptions.Fuel).
func (p *program) BigStepFuel() {}

func (p *program) Start(o lang.RunOptions) (*lang.Stepper, error) {
	if err := remora.NoArgs(p.p.File, o.Args); err != nil {
		return nil, err
	}
	pos := semantics.Pos{File: p.p.File, Line: 1, Col: 1}
	if len(p.p.Exprs) > 0 {
		pos = p.p.Exprs[0].At()
	}
	return newStepper(p.p.Exprs, &o.RunOptions, pos), nil
}

// Elaborates marks the dialect as one that check --infer elaborates into
// the typed core.
func (language) Elaborates() {}

// Split reads text typed at a prompt into definitions and expressions
// (lang.Interactive), as the typed dialect does.
func (language) Split(file, src string) (defs, exprs, names []string, err error) {
	return remora.SplitDefinitions(file, src, "define", "def")
}

// Assemble makes a program of the dialect: its #lang line, the
// definitions, then the text.
func (language) Assemble(defs []string, text string) (string, int) {
	return remora.AssembleDefinitions("#lang remora/dynamic\n", defs, text)
}

// Incomplete reports whether brackets are left open.
func (language) Incomplete(src string) bool { return remora.OpenBrackets(src) > 0 }

// Rules is the dialect's rule table.
func (language) Rules() semantics.RuleTable { return Rules }
