package funmem

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Language is FUNMEM as a lang.Language: .funmem files, Fig 8's checker,
// the heap-based semantics of Fig 10 (big- and small-step) and the
// value-based one (unmem, Fig 9, then FUN's big-step).
var Language lang.Language = language{lang.Info{LangName: "funmem", LangTitle: "FUNMEM", Exts: []string{".funmem"}, CommentMark: "--", RefPage: "funmem.md", StepName: "small"}}

type language struct{ lang.Info }

func (language) Print(syntax any) string { return Print(syntax.(*fun.Program)) }

func (l language) Load(file, src string, o lang.LoadOptions) (lang.Program, error) {
	return lang.LoadParsed(l, ParseFile, file, src, o)
}

func (l language) Adopt(_ string, syntax any, o lang.LoadOptions) (lang.Program, error) {
	p, err := lang.Tree[*fun.Program](l, syntax)
	if err != nil {
		return nil, err
	}
	info, err := Check(p, &CheckOptions{Paper: o.Paper, Derive: o.Derive, Counter: o.Counter})
	if err != nil {
		return nil, err
	}
	q := &program{p: p, typ: info.ResultString(), derivation: info.Derivation}
	for _, t := range info.Results {
		q.memResults = append(q.memResults, IsMem(t))
	}
	return q, nil
}

// SameTree reports whether a and b are FUNMEM trees of the same program,
// node for node and position for position (fun.Equal): Adopt gives them
// the same program (lang.TreeComparer).
func (language) SameTree(a, b any) bool {
	p, ok := a.(*fun.Program)
	q, ok2 := b.(*fun.Program)
	return ok && ok2 && fun.Equal(p, q)
}

// program is a checked FUNMEM program.
type program struct {
	p          *fun.Program
	typ        string
	derivation *semantics.Derivation
	memResults []bool // which results are memory blocks (not printed)
}

func (p *program) Language() lang.Language           { return Language }
func (p *program) File() string                      { return p.p.File }
func (p *program) Syntax() any                       { return p.p }
func (p *program) Type() string                      { return p.typ }
func (p *program) Derivation() *semantics.Derivation { return p.derivation }
func (p *program) Semantics() []string               { return []string{"heap", "rules", "small", "value"} }
func (p *program) Inputs() []string                  { return fun.InputNames(p.p) }

func (p *program) Run(o lang.RunOptions) (*lang.Result, error) {
	return lang.Run(p, o, func(sem string) (*lang.Result, error) {
		if sem == "value" {
			return p.runValue(o)
		}
		env, h, err := BindInputs(p.p, o.Args)
		if err != nil {
			return nil, err
		}
		h.Record(o.RecordHeap)
		var vs []Value
		var d *semantics.Derivation
		if sem == "rules" { // Fig 10 as written
			vs, d, err = EvalRules(p.p, env, h, HeapOptionsOf(&o.RunOptions))
		} else { // "heap": the engine
			vs, err = EvalHeap(p.p, env, h, HeapOptionsOf(&o.RunOptions))
		}
		if err != nil {
			return nil, err
		}
		r, err := p.result(h, vs, o.Jobs)
		if r != nil && d != nil {
			r.Derivation = d
		}
		return r, err
	})
}

// runValue is the value-based semantics: unmem (Fig 9), then FUN's
// big-step, with the mem inputs read as 0.
func (p *program) runValue(o lang.RunOptions) (*lang.Result, error) {
	b := Unmem(p.p)
	env, err := bindUnmemInputs(p.p, o.Args)
	if err != nil {
		return nil, err
	}
	vs, d, err := fun.Eval(b, env, &fun.EvalOptions{Derive: o.Derive, Counter: o.Counter, Stats: o.Stats, Fuel: o.Fuel})
	if err != nil {
		return nil, err
	}
	var out []semantics.Array
	for i, v := range vs {
		if i < len(p.memResults) && p.memResults[i] {
			continue // every level prints the same lines: blocks are not printed
		}
		out = append(out, v)
	}
	r, err := lang.ArrayResult(p.p.Format, out, o.Jobs)
	if r != nil {
		r.Derivation = d
	}
	return r, err
}

// result reads the array and scalar results off the heap, leaving out the
// blocks, and prints them, both on jobs goroutines when large (readJobs,
// lang.ArrayResult).
func (p *program) result(h *semantics.Heap, vs []Value, jobs int) (*lang.Result, error) {
	var out []semantics.Array
	for _, v := range vs {
		if v.Kind == BlockVal {
			continue
		}
		a, err := readJobs(h, v, jobs)
		if err != nil {
			return nil, semantics.Stuckf(p.p.Body.In, EMemProg.Name, "%v", err)
		}
		out = append(out, a)
	}
	return lang.ArrayResult(p.p.Format, out, jobs)
}

func (p *program) Start(o lang.RunOptions) (*lang.Stepper, error) {
	env, h, err := BindInputs(p.p, o.Args)
	if err != nil {
		return nil, err
	}
	h.Record(o.RecordHeap)
	m := HeapMachine{Opts: HeapOptionsOf(&o.RunOptions)}
	return lang.WithFocus(lang.NewStepper[*Config](m, []*Config{InitialHeap(p.p, env, h)}, &o.RunOptions,
		semantics.Pos{File: p.p.File, Line: 1, Col: 1}, (*Config).String,
		func(cs []*Config) (*lang.Result, error) { return p.result(h, cs[0].Results(), o.Jobs) }), Focus), nil
}

// CheckInputs decides validity (Def 3.1) and race freedom (eq 4) on the
// inputs: what `arraysem check` does after Fig 8.
func (p *program) CheckInputs(args map[string]string) ([]string, error) {
	v, err := CheckValidity(p.p, args)
	if err != nil {
		return nil, err
	}
	return []string{
		fmt.Sprintf("valid (Def 3.1): the value- and heap-based semantics agree on %s", semantics.Plural(v.Results, "array result")),
		fmt.Sprintf("race free (eq 4): %s, %s traced", semantics.Plural(v.Kernels, "kernel"), semantics.Plural(v.Iterations, "iteration")),
	}, nil
}

// Races is CheckInputs: validity's heap run traces every kernel.
func (p *program) Races(args map[string]string) ([]string, error) { return p.CheckInputs(args) }

// Rules is the language's rule table.
func (language) Rules() semantics.RuleTable { return Rules }

// PaperMode says what check --paper refuses (lang.PaperChecker).
func (language) PaperMode() string {
	return "program inputs and scalar results (T-MEM-PROG)"
}

// CountsCosts reports that FUNMEM's semantics fill RunOptions.Stats
// (lang.CostCounter): the heap-based ones (heap_stats.go), and the
// value-based one as FUN's big-step counts the unmem'd program.
func (p *program) CountsCosts(string) bool { return true }

// BigStepFuel marks the big-step as bounded by the fuel too: it counts
// the iterations of kernels, loops and folds (semantics.Budget).
func (p *program) BigStepFuel() {}
