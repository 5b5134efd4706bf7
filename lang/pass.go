package lang

import (
	"fmt"
	"slices"
)

// Pass is a translation from one language to another (From ≠ To), or a
// transformation within one (From = To: a simplifier, memory expansion,
// fusion), as a value. The driver finds a path of translations between two
// levels, runs each level's pipeline of transformations (Pipeline), and
// re-checks every pass's output with the target language's checker.
type Pass struct {
	Name     string // as the paper names it: "TransformProgram", "MemoryExpand"
	From, To string // language names
	Doc      string // one line: what it does, and where the paper gives it
	// Options are the compile options the pass reads, declared here (its
	// flags, their help and validation come from these): a bool option
	// may switch the pass off (Disables) or select the pipeline that
	// holds it (Selects).
	Options []Option
	// Label names the variant of a level the pass makes, for the rows of
	// side-by-side ("expanded (gpu)"); nil or "" for none.
	Label func(o Options) string
	// Run transforms a syntax tree of From into one of To, and says what
	// it did, one line a note (fusion's decisions, slicing's; nil when
	// it has nothing to say): compile --stages prints them with the
	// stage.
	Run func(syntax any, o Options) (out any, notes []string, err error)
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
	// Partial: the pass translates a part of its source language by
	// design, and declining the rest is its documented limit (Inline,
	// Lower, Elaborate); a decline of another pass is a failure the
	// differential tests report.
	Partial bool
}

// Translation reports whether the pass changes the language.
func (p *Pass) Translation() bool { return p.From != p.To }

// Declares reports whether the pass declares the option name.
func (p *Pass) Declares(name string) bool {
	return slices.ContainsFunc(p.Options, func(o Option) bool { return o.Name == name })
}

// Disabled reports whether o switches the pass off (an option it
// declares with Disables is set).
func (p *Pass) Disabled(o Options) bool {
	for _, opt := range p.Options {
		if opt.Switch == Disables && o.Bool(opt.Name) {
			return true
		}
	}
	return false
}

// Where says at which levels of a walk a pipeline runs.
type Where int

// The places.
const (
	Anywhere Where = iota // at the source program's level and at a level arrived at
	Arrived               // only at a level the walk arrived at by a translation
	AtSource              // only at the source program's own level
)

// Pipeline is the sequence of transformations a walk runs at one level,
// as data: a name, the level, the passes by name in order. A level may
// have several, which options select (When) and which run at a level
// arrived at or at the source (At): FUNMEM's "funmem" is Simplify after
// the translation into it, and "funmem-expanded" (--expand) is
// Simplify, MemoryExpand, Simplify. A pass the options switch off
// (Pass.Disabled: --raw, --no-fuse) is left out of the walk.
type Pipeline struct {
	Name   string
	Level  string   // the language
	Passes []string // transformations of Level, by name
	When   string   // a bool option that selects it over the level's plain pipeline ("": none)
	At     Where
	Doc    string
}

// Variant is one set of compile options side-by-side runs every level
// with; its rows are named by the labels of the passes that ran.
type Variant struct {
	Options Options
}

// Stage is one step of a walk: the pass that ran (Pass is nil for the
// source program) and the checked program it produced.
type Stage struct {
	Pass    *Pass
	Program Program
	Notes   []string // what the pass said (Pass.Run)
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

// Notes renders a pass's notes, one line each (a note prints as
// file:line:col: message), for a Pass's Run to return.
func Notes[N fmt.Stringer](notes []N) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.String()
	}
	return out
}
