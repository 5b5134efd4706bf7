package remora

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
	"github.com/arraysem/arraysem/semantics/datafile"
)

// Language is Remora's explicitly typed dialect as a lang.Language:
// .remora files with no #lang line (or #lang remora), Figs 7–8's checker,
// the big-step over flat arrays ("big", the engine), the big-step Fig 6's
// rules derive, as written ("rules", fig6.go), and the small-step of
// Fig 6 ("small").
var Language lang.Language = language{lang.Info{LangName: "remora", LangTitle: "Remora", Exts: []string{".remora"}, HashLines: []string{"", "remora", "remora/typed"}, Family: "remora", DialectName: "typed", CommentMark: ";", RefPage: "remora.md", StepName: "small"}}

// CoreLanguage is a lang.Language, named and described by info, whose
// programs are trees of the typed core, read by the typed dialect's
// parser, checked by Figs 7–8 and run by both semantics. The typed
// dialect (Language) is one; the compiler's IR (package remora/ir), whose
// MAP, REP and CASE forms are part of the core tree, is another.
func CoreLanguage(info lang.Info) lang.Language { return language{info} }

type language struct{ lang.Info }

// Print renders a program's expressions, each laid out by PrettyString:
// on one line when it fits, its MAPs, applications and λs broken across
// lines when it does not.
func (language) Print(syntax any) string {
	p := syntax.(*Program)
	var b strings.Builder
	for _, e := range p.Exprs {
		b.WriteString(PrettyString(e) + "\n")
	}
	return b.String()
}

func (l language) Load(file, src string, o lang.LoadOptions) (lang.Program, error) {
	return lang.LoadParsed(l, func(file, src string) (*Program, error) {
		p, _, err := ParseFile(file, src)
		return p, err
	}, file, src, o)
}

func (l language) Adopt(_ string, syntax any, o lang.LoadOptions) (lang.Program, error) {
	p, err := lang.Tree[*Program](l, syntax)
	if err != nil {
		return nil, err
	}
	info, err := Check(p, &CheckOptions{Derive: o.Derive, Counter: o.Counter})
	if err != nil {
		return nil, err
	}
	q := &program{p: p, l: l}
	ts := make([]string, len(info.Types))
	for i, t := range info.Types {
		ts[i] = TypeString(t)
	}
	q.typ = strings.Join(ts, "\n")
	q.derivation = ProgramDerivation(info.Derivations)
	return q, nil
}

// ProgramDerivation is the typing derivation of a program of the
// expressions whose derivations are ds: the one, or a node over them
// all; nil for none.
func ProgramDerivation(ds []*semantics.Derivation) *semantics.Derivation {
	switch len(ds) {
	case 0:
		return nil
	case 1:
		return ds[0]
	}
	return &semantics.Derivation{Conclusion: fmt.Sprintf("the program's %d expressions", len(ds)), Premises: ds}
}

// program is a checked and elaborated Remora program.
type program struct {
	p          *Program
	l          lang.Language
	typ        string
	derivation *semantics.Derivation
}

func (p *program) Language() lang.Language           { return p.l }
func (p *program) File() string                      { return p.p.File }
func (p *program) Syntax() any                       { return p.p }
func (p *program) Type() string                      { return p.typ }
func (p *program) Derivation() *semantics.Derivation { return p.derivation }
func (p *program) Semantics() []string               { return []string{"big", "rules", "small"} }
func (p *program) Inputs() []string                  { return nil }

func (p *program) Run(o lang.RunOptions) (*lang.Result, error) {
	if err := NoArgs(p.p.File, o.Args); err != nil {
		return nil, err
	}
	return lang.Run(p, o, func(sem string) (*lang.Result, error) {
		if sem == "rules" { // Fig 6 as written, as a big-step (fig6.go)
			vs, d, err := EvalRules(p.p, &EvalOptions{Counter: o.Counter, Derive: o.Derive, Fuel: o.Fuel})
			if err != nil {
				return nil, err
			}
			return &lang.Result{Lines: p.p.SourceLines(vs), Derivation: d}, nil
		}
		vs, err := Eval(p.p, &EvalOptions{Counter: o.Counter, Jobs: o.Jobs}) // "big": the engine
		if err != nil {
			return nil, err
		}
		return &lang.Result{Lines: p.p.SourceLines(vs)}, nil
	})
}

// CountsFuel reports that the rules as written count fuel (a map's
// cells, a fold's applications) and the engine none (lang.FuelCounter).
func (p *program) CountsFuel(sem string) bool { return sem == "rules" }

func (p *program) Start(o lang.RunOptions) (*lang.Stepper, error) {
	if err := NoArgs(p.p.File, o.Args); err != nil {
		return nil, err
	}
	pos := semantics.Pos{File: p.p.File, Line: 1, Col: 1}
	if len(p.p.Exprs) > 0 {
		pos = p.p.Exprs[0].At()
	}
	return newStepper(p.p.Exprs, &o.RunOptions, pos, p.p.SourceLines), nil
}

// ValueLines prints values as `arraysem run` does, one per line.
func ValueLines(vs []*Value) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = v.String()
	}
	return out
}

// NoArgs refuses --arg and --data inputs: Remora programs define what
// they use.
func NoArgs(file string, args map[string]string) error {
	if _, ok := args[datafile.DataArg]; ok {
		return semantics.Errorf(semantics.Pos{File: file}, semantics.InputError, "", "Remora programs take no --data inputs (define them in the program)")
	}
	if len(args) > 0 {
		return semantics.Errorf(semantics.Pos{File: file}, semantics.InputError, "", "Remora programs take no --arg inputs (define them in the program)")
	}
	return nil
}

// Rules is the language's rule table.
func (language) Rules() semantics.RuleTable { return Rules }
