package lang

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/arraysem/arraysem/semantics"
)

// Language is one language of the workbench, as a value: its names, the
// files it reads, how it loads (parses and checks) a program, and how it
// checks and prints a syntax tree that a pass produced. Each language
// package provides one (fun.Language, funmem.Language, imp.Language,
// remora.Language, dynamic.Language); the driver's Registry holds them.
type Language interface {
	// Name is the language's name on the command line (--lang, :lang,
	// compile --to): "fun", "remora/dynamic".
	Name() string
	// Title is its name in tables and messages: "FUN".
	Title() string
	// Extensions are the file extensions it reads, with the dot.
	Extensions() []string
	// HashLang lists the #lang lines that pick this language among those
	// sharing an extension; "" stands for a file with no #lang line.
	// Languages that read no #lang line return nil.
	HashLang() []string
	// Dialect names the language's family and its dialect within it
	// (("remora", "typed")), or ("", "") for a language with no dialects;
	// --dialect D picks the language of the same family whose dialect is D.
	Dialect() (family, dialect string)
	// Load parses and checks a program. Errors are *semantics.Error values
	// (syntax or type errors) or plain errors for usage problems.
	Load(file, src string, o LoadOptions) (Program, error)
	// Adopt checks a syntax tree of this language that a pass produced,
	// as Load checks a parsed one.
	Adopt(file string, syntax any, o LoadOptions) (Program, error)
	// Print renders a syntax tree of this language in text that Load
	// reads back.
	Print(syntax any) string
	// Comment starts a line comment in the language ("--", ";", "//"),
	// for notes printed with a program.
	Comment() string
	// Page is the language's reference page among the docs ("fun.md"),
	// which help syntax prints; "" for none.
	Page() string
	// Stepping names the program's small-step semantics (the machine
	// that Start makes and the REPL steps), "" when it has none.
	Stepping() string
	// StagesEnd reports that compile --stages, without --to, stops at
	// this level when it reaches it: the lowest the interpreters run.
	StagesEnd() bool
}

// LoadParsed is Load as the languages write it: parse the text, then
// check the tree as Adopt checks a pass's.
func LoadParsed[P any](l Language, parse func(file, src string) (P, error), file, src string, o LoadOptions) (Program, error) {
	p, err := parse(file, src)
	if err != nil {
		return nil, err
	}
	return l.Adopt(file, p, o)
}

// Tree is a syntax tree given to l's Adopt, as l's tree type P; a tree of
// another type (a pass registered with the wrong target) is a
// *WrongTreeError.
func Tree[P any](l Language, syntax any) (P, error) {
	p, ok := syntax.(P)
	if !ok {
		return p, &WrongTreeError{Lang: l.Title(), Got: fmt.Sprintf("%T", syntax), Want: fmt.Sprintf("%T", p)}
	}
	return p, nil
}

// WrongTreeError is a language given a syntax tree of another type: its
// printer cannot show it, so the driver reports the types.
type WrongTreeError struct {
	Lang      string // the language's title
	Got, Want string // the tree's type, and the language's
}

func (e *WrongTreeError) Error() string {
	return fmt.Sprintf("%s was given a %s, not one of its syntax trees (%s)", e.Lang, e.Got, e.Want)
}

// TreeComparer is implemented by languages that can tell that two of
// their syntax trees are the same program, node for node and position
// for position (FUN's and FUNMEM's: fun.Equal). Adopt is a function of
// the tree, so it gives two such trees the same program: a Memo's walks
// check one and give the program they checked for the others.
type TreeComparer interface {
	SameTree(a, b any) bool
}

// LoadOptions configure loading.
type LoadOptions struct {
	Paper   bool              // refuse extensions to the papers' grammars
	Derive  bool              // build typing derivations
	Infer   bool              // Remora's dynamic dialect: elaborate into the typed core
	Counter semantics.Counter // counts the typing rules applied
}

// Program is a loaded (parsed and checked) program of some language.
type Program interface {
	Language() Language
	File() string
	// Syntax is the checked syntax tree (*fun.Program, *imp.Program,
	// *remora.Program, …), what passes take and give.
	Syntax() any
	// Type is what `arraysem check` prints: the program's type.
	Type() string
	// Derivation is the typing derivation, when Load was asked for one.
	Derivation() *semantics.Derivation
	// Semantics lists the semantics the program runs under, the default
	// first ("big", "small"; FUNMEM: "heap", "small", "value"); none for
	// a level that is compiled to but not run.
	Semantics() []string
	// Inputs are the names of the program's inputs (--arg).
	Inputs() []string
	// Run runs the program under one semantics.
	Run(o RunOptions) (*Result, error)
	// Start makes the small-step machine ready to step the program.
	Start(o RunOptions) (*Stepper, error)
}

// RunOptions configure a run: which semantics, the inputs, and the
// options every language's runners share.
type RunOptions struct {
	Semantics string // "" for the default
	// Args are the --arg values, NAME → VALUE, where VALUE may be @FILE
	// (the value read from a data file), and under datafile.DataArg the
	// file of --data, a whole input set (docs/data.md).
	Args map[string]string
	semantics.RunOptions
}

// Result is one run's outcome.
type Result struct {
	// Values are the results as arrays, for the languages whose values
	// are arrays of scalars (FUN, FUNMEM, IMP); nil otherwise.
	Values []semantics.Array
	// Lines are the results as `arraysem run` prints them, one per line.
	Lines      []string
	Steps      int // small-step transitions taken (0 for a big-step)
	Time       time.Duration
	Derivation *semantics.Derivation // the big-step's, when asked for
	// Source: the Lines print the results as the source program of a
	// compile path prints its values (a program carrying a result
	// format, semantics.Format), not as Values print.
	Source bool
	// Stats are the run's cost counters: RunOptions.Stats, filled, when
	// the semantics that ran counts costs (CostCounter); nil when it was
	// not asked for or the semantics counts none (Remora's). Stats.Table
	// prints them, or says that nothing was counted.
	Stats *semantics.Stats
}

// CostCounter is implemented by programs whose semantics fill
// RunOptions.Stats (FUN's, FUNMEM's and IMP's): CountsCosts reports
// whether the named semantics does.
type CostCounter interface {
	CountsCosts(sem string) bool
}

// CountsCosts reports whether p's semantics sem ("" for the default)
// fills RunOptions.Stats.
func CountsCosts(p Program, sem string) bool {
	c, ok := p.(CostCounter)
	if !ok {
		return false
	}
	sem, err := PickSemantics(p, sem)
	return err == nil && c.CountsCosts(sem)
}

// ArrayResult is the result of a run that computed the arrays vs: they
// print as `arraysem run` prints arrays, or, when the program carries a
// result format f, as its source prints its values (Source). jobs is the
// run's RunOptions.Jobs: a large array prints on that many goroutines
// (semantics.Array.StringJobs), the same text.
func ArrayResult(f *semantics.Format, vs []semantics.Array, jobs int) (*Result, error) {
	if f == nil {
		lines := make([]string, len(vs))
		for i, v := range vs {
			lines[i] = v.StringJobs(jobs)
		}
		return &Result{Values: vs, Lines: lines}, nil
	}
	lines, err := f.Lines(vs)
	if err != nil {
		return nil, fmt.Errorf("printing the results as the %s source prints them: %v", f.Source, err)
	}
	return &Result{Values: vs, Lines: lines, Source: true}, nil
}

// InputChecker is implemented by programs whose check goes on to run them
// on inputs: FUNMEM's validity (Def 3.1) and race freedom (eq 4). The
// lines say what was checked.
type InputChecker interface {
	CheckInputs(args map[string]string) ([]string, error)
}

// PaperChecker is implemented by languages whose checker has a paper
// mode (LoadOptions.Paper, check --paper): PaperMode says what it refuses.
// For the others --paper would change nothing, and the driver says so.
type PaperChecker interface {
	PaperMode() string
}

// RaceChecker is implemented by programs with a heap, whose kernels can
// race: Races runs the program and reports race freedom (eq 4) or the
// first race.
type RaceChecker interface {
	Races(args map[string]string) ([]string, error)
}

// Heaped is implemented by the configurations of languages with a heap.
type Heaped interface {
	Heap() *semantics.Heap
}

// Environmental is implemented by configurations that have an
// environment to show (:env).
type Environmental interface {
	Bindings() []semantics.Binding
}

// Timed runs f and records its wall time in the result.
func Timed(f func() (*Result, error)) (*Result, error) {
	start := time.Now()
	r, err := f()
	if r != nil {
		r.Time = time.Since(start)
	}
	return r, err
}

// PickSemantics is the semantics a run asks for: the program's default
// when sem is empty, else sem if the program has it.
func PickSemantics(p Program, sem string) (string, error) {
	all := p.Semantics()
	if len(all) == 0 {
		return "", fmt.Errorf("%s programs are compiled to, not run: arraysem has no semantics for them", p.Language().Title())
	}
	if sem == "" {
		return all[0], nil
	}
	if !slices.Contains(all, sem) {
		return "", fmt.Errorf("%s programs have no %q semantics (they have %s)", p.Language().Name(), sem, strings.Join(all, ", "))
	}
	return sem, nil
}

// Run runs p by its semantics (see PickSemantics): small-step runs go
// through its Stepper; big-step runs through big, given the semantics'
// name. The result carries its time, and o.Stats when the semantics
// counts costs (CostCounter).
func Run(p Program, o RunOptions, big func(sem string) (*Result, error)) (*Result, error) {
	sem, err := PickSemantics(p, o.Semantics)
	if err != nil {
		return nil, err
	}
	r, err := Timed(func() (*Result, error) {
		if sem != p.Language().Stepping() {
			return big(sem)
		}
		s, err := p.Start(o)
		if err != nil {
			return nil, err
		}
		return s.Run()
	})
	if r != nil && o.Stats != nil && CountsCosts(p, sem) {
		r.Stats = o.Stats
	}
	return r, err
}

// Caveat is implemented by programs whose level is known to differ from
// the levels above it in a documented way; side-by-side adds the caveat
// to a disagreement in which this level runs where the first one went
// wrong.
type Caveat interface {
	Caveat() string
}

// BigStepFueled is implemented by programs whose big-step the fuel
// (RunOptions.Fuel) bounds as well as their small-step: FUN's, FUNMEM's
// and IMP's, which count the iterations of their kernels, loops and
// folds (semantics.Budget), and the dynamic Remora dialect's, which
// counts its applications. Typed Remora's engine always ends (the typed
// core has no recursion, and its arrays are bounded by --max-memory);
// its rules as written count fuel (FuelCounter).
type BigStepFueled interface {
	BigStepFuel()
}

// FuelCounter is implemented by programs whose big-steps do not all
// count fuel: CountsFuel reports whether the big-step sem does. Typed
// Remora's rules as written (--semantics rules) count the cells of their
// maps and the applications of their folds, its engine none.
type FuelCounter interface {
	CountsFuel(sem string) bool
}

// CountsFuel reports whether p's big-step sem ("" for the default) is
// bounded by RunOptions.Fuel: every big-step of a BigStepFueled program,
// those a FuelCounter names.
func CountsFuel(p Program, sem string) bool {
	if _, ok := p.(BigStepFueled); ok {
		return true
	}
	c, ok := p.(FuelCounter)
	if !ok {
		return false
	}
	sem, err := PickSemantics(p, sem)
	return err == nil && c.CountsFuel(sem)
}

// Elaborator is implemented by languages whose loader can elaborate a
// program into another language's core and report its types
// (LoadOptions.Infer; `check --infer`).
type Elaborator interface {
	Elaborates()
}

// Interactive is implemented by languages whose prompt keeps definitions,
// as Racket's does: text typed at the prompt is split into definitions,
// kept for the inputs that follow, and expressions, loaded with them.
type Interactive interface {
	// Split reads text typed at the prompt into its definitions and its
	// expressions (each as text), and the names the definitions define.
	Split(file, src string) (defs, exprs, names []string, err error)
	// Assemble makes one program's text of the definitions kept so far
	// and text typed at the prompt, and says on which line (from 0) the
	// text starts, so that errors can be given at the text's own lines.
	Assemble(defs []string, text string) (src string, offset int)
	// Incomplete reports whether the text lacks closing brackets, so that
	// more lines may complete it.
	Incomplete(src string) bool
}

// EvalDeriver is implemented by programs whose big-step builds an
// evaluation derivation (RunOptions.Derive): FUN's.
type EvalDeriver interface {
	DerivesEvaluation()
}

// RuleLister is implemented by languages that have a table of their
// rules, by which step output aligns its rule column.
type RuleLister interface {
	Rules() semantics.RuleTable
}

// RuleWidth is the width of a language's longest rule name (at least 12),
// for aligning the rule column of step output.
func RuleWidth(l Language) int {
	w := 12
	if rl, ok := l.(RuleLister); ok {
		for _, r := range rl.Rules() {
			w = max(w, len([]rune(r.Name)))
		}
	}
	return w
}

// Info is what names a language and the facts the driver asks of it, as
// a value a language's type embeds to have Name, Title, Extensions,
// HashLang, Dialect, Comment, Page, Stepping and StagesEnd.
type Info struct {
	LangName, LangTitle string
	Exts                []string
	HashLines           []string // nil: the language reads no #lang line
	Family, DialectName string   // "", "" for a language without dialects
	CommentMark         string   // its line comments' start ("--")
	RefPage             string   // its reference page among the docs ("fun.md")
	StepName            string   // its small-step semantics' name ("small"), "" for none
	EndOfStages         bool     // compile --stages stops here (StagesEnd)
}

// Comment starts a line comment.
func (i Info) Comment() string { return i.CommentMark }

// Page is the language's reference page.
func (i Info) Page() string { return i.RefPage }

// Stepping names the small-step semantics.
func (i Info) Stepping() string { return i.StepName }

// StagesEnd reports that compile --stages stops at the language.
func (i Info) StagesEnd() bool { return i.EndOfStages }

// Name is the language's name on the command line.
func (i Info) Name() string { return i.LangName }

// Title is the language's name in tables and messages.
func (i Info) Title() string { return i.LangTitle }

// Extensions are the file extensions the language reads.
func (i Info) Extensions() []string { return i.Exts }

// HashLang lists the #lang lines that pick the language.
func (i Info) HashLang() []string { return i.HashLines }

// Dialect is the language's family and dialect.
func (i Info) Dialect() (string, string) { return i.Family, i.DialectName }
