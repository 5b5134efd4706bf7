package check

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/semantics"
)

// Languages maps file extensions to language names.
var Languages = map[string]string{".fun": "fun", ".funmem": "funmem", ".imp": "imp", ".remora": "remora"}

// LangOf is the language of a file, from lang if non-empty, else from the
// file's extension.
func LangOf(file, lang string) (string, error) {
	if lang != "" {
		for _, l := range Languages {
			if l == lang {
				return lang, nil
			}
		}
		return "", fmt.Errorf("unknown language %q (fun, funmem, imp, remora)", lang)
	}
	if l, ok := Languages[strings.ToLower(filepath.Ext(file))]; ok {
		return l, nil
	}
	return "", fmt.Errorf("%s: cannot tell the language from the extension (use --lang)", file)
}

// Options configure loading.
type Options struct {
	Lang    string // overrides the extension
	Paper   bool   // refuse extensions to the papers' grammars
	Derive  bool   // build typing derivations
	Counter semantics.Counter
	// Dialect picks Remora's surface: "typed" (REMORA.md §1) or "dynamic"
	// (the rank-annotated untyped dialect of §2); "" follows the file's
	// #lang line, typed when there is none.
	Dialect string
	Infer   bool // Remora's dynamic dialect: elaborate into the typed core (check --infer)
}

// Loaded is a parsed and type-checked program.
type Loaded struct {
	Lang string
	File string
	Fun  *fun.Program // the program, for FUN and FUNMEM (which shares FUN's syntax)
	Imp  *imp.Program // the program, for IMP
	// Remora is the checked and elaborated program, for Remora's typed
	// dialect; Dynamic the program of the dynamic dialect.
	Remora  *remora.Program
	Dynamic *dynamic.Program

	typ        string
	derivation *semantics.Derivation
	memResults []bool // FUNMEM: which results are memory blocks (not printed)
}

// Load parses and type checks src. Errors are *semantics.Error values (kind
// SyntaxError or TypeError) or plain errors for usage problems.
func Load(file, src string, opts Options) (*Loaded, error) {
	lang, err := LangOf(file, opts.Lang)
	if err != nil {
		return nil, err
	}
	if opts.Dialect != "" && lang != "remora" {
		return nil, fmt.Errorf("%s: --dialect picks one of Remora's dialects; this is a %s program", file, lang)
	}
	switch lang {
	case "fun":
		p, err := fun.ParseFile(file, src)
		if err != nil {
			return nil, err
		}
		return LoadFun(p, opts)
	case "funmem":
		p, err := funmem.ParseFile(file, src)
		if err != nil {
			return nil, err
		}
		return LoadFunmem(p, opts)
	case "imp":
		p, err := imp.ParseFile(file, src)
		if err != nil {
			return nil, err
		}
		return LoadImp(p, opts)
	case "remora":
		sexps, line, err := semantics.ReadSExps(file, src)
		if err != nil {
			return nil, err
		}
		dialect, err := RemoraDialect(file, line, opts.Dialect)
		if err != nil {
			return nil, err
		}
		if dialect == "dynamic" {
			p, err := dynamic.ParseSExps(file, sexps)
			if err != nil {
				return nil, err
			}
			return LoadDynamic(p, opts)
		}
		p, err := remora.ParseSExps(file, sexps)
		if err != nil {
			return nil, err
		}
		return LoadRemora(p, opts)
	}
	return nil, fmt.Errorf("%s: the %s language is not available in this version of arraysem", file, lang)
}

// RemoraDialect picks a Remora file's dialect, "typed" or "dynamic": the
// one asked for (--dialect), else the one its #lang line names (as in the
// dialects' Racket implementation: #lang remora/dynamic), else typed.
func RemoraDialect(file, line, asked string) (string, error) {
	switch asked {
	case "typed", "dynamic":
		return asked, nil
	case "":
	default:
		return "", fmt.Errorf("unknown Remora dialect %q (typed or dynamic)", asked)
	}
	switch line {
	case "", "remora", "remora/typed":
		return "typed", nil
	case "remora/dynamic":
		return "dynamic", nil
	}
	return "", fmt.Errorf("%s: #lang %s: arraysem reads #lang remora (the explicitly typed dialect, also with no #lang line) and #lang remora/dynamic (the rank-annotated untyped dialect)", file, line)
}

// LoadDynamic loads a program of Remora's dynamic dialect. It has no types
// to check (its scopes were checked by the parser); with opts.Infer it is
// elaborated into the typed core as far as that goes, and the types are
// what check prints.
func LoadDynamic(p *dynamic.Program, opts Options) (*Loaded, error) {
	l := &Loaded{Lang: "remora", File: p.File, Dynamic: p}
	if !opts.Infer {
		l.typ = fmt.Sprintf("untyped: %d expression%s of #lang remora/dynamic, whose frames are checked as they run (check --infer elaborates into the typed core)", len(p.Exprs), plural(len(p.Exprs)))
		return l, nil
	}
	infs, err := dynamic.InferProgram(p)
	if err != nil {
		return nil, err
	}
	lines := make([]string, len(infs))
	for i, inf := range infs {
		lines[i] = remora.TypeString(inf.Type) + "\n    elaborates to " + inf.Term
	}
	l.typ = strings.Join(lines, "\n")
	return l, nil
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// LoadRemora type checks a Remora program (Figs 7–8) and elaborates it
// into the annotated core.
func LoadRemora(p *remora.Program, opts Options) (*Loaded, error) {
	info, err := remora.Check(p, &remora.CheckOptions{Derive: opts.Derive, Counter: opts.Counter})
	if err != nil {
		return nil, err
	}
	l := &Loaded{Lang: "remora", File: p.File, Remora: p}
	ts := make([]string, len(info.Types))
	for i, t := range info.Types {
		ts[i] = remora.TypeString(t)
	}
	l.typ = strings.Join(ts, "\n")
	switch len(info.Derivations) {
	case 0:
	case 1:
		l.derivation = info.Derivations[0]
	default:
		l.derivation = &semantics.Derivation{Conclusion: "the program's " + fmt.Sprint(len(info.Derivations)) + " expressions", Premises: info.Derivations}
	}
	return l, nil
}

// LoadFun type checks a FUN program.
func LoadFun(p *fun.Program, opts Options) (*Loaded, error) {
	info, err := fun.Check(p, &fun.CheckOptions{Paper: opts.Paper, Derive: opts.Derive, Counter: opts.Counter})
	if err != nil {
		return nil, err
	}
	return &Loaded{Lang: "fun", File: p.File, Fun: p, typ: info.ResultString(), derivation: info.Derivation}, nil
}

// LoadFunmem type checks a FUNMEM program (Fig 8).
func LoadFunmem(p *fun.Program, opts Options) (*Loaded, error) {
	info, err := funmem.Check(p, &funmem.CheckOptions{Paper: opts.Paper, Derive: opts.Derive, Counter: opts.Counter})
	if err != nil {
		return nil, err
	}
	l := &Loaded{Lang: "funmem", File: p.File, Fun: p, typ: info.ResultString(), derivation: info.Derivation}
	for _, t := range info.Results {
		l.memResults = append(l.memResults, funmem.IsMem(t))
	}
	return l, nil
}

// LoadImp checks an IMP program (declarations before use, ints and
// blocks kept apart).
func LoadImp(p *imp.Program, opts Options) (*Loaded, error) {
	if err := imp.Check(p, opts.Counter); err != nil {
		return nil, err
	}
	return &Loaded{Lang: "imp", File: p.File, Imp: p, typ: imp.ResultString(p)}, nil
}

// Semantics lists the semantics a loaded program can run under, the
// default first.
func (l *Loaded) Semantics() []string {
	if l.Lang == "funmem" {
		return []string{"heap", "small", "value"}
	}
	return []string{"big", "small"}
}

// TypeString is the program's type, for `arraysem check`.
func (l *Loaded) TypeString() string { return l.typ }

// Derivation is the typing derivation, if one was built.
func (l *Loaded) Derivation() *semantics.Derivation { return l.derivation }

// Run is one run's outcome.
type Run struct {
	Results    []semantics.Array
	Lines      []string // the results as printed, for languages whose values are not int arrays (Remora)
	Steps      int      // small-step transitions taken (0 for big-step)
	Time       time.Duration
	Derivation *semantics.Derivation
}

// RunOptions configure a run.
type RunOptions struct {
	Semantics string            // "" for the default
	Args      map[string]string // --arg values
	Fuel      int               // small-step fuel; 0 for the default
	Derive    bool              // build the evaluation derivation (big-step)
	Counter   semantics.Counter
	OnStep    func(rule, config string) // called after each small step
	// OnState is called after each small step too, with the configuration
	// itself (fun.Config, *funmem.Config, *imp.Config, remora.Expr or
	// dynamic.Expr), for a caller that inspects it (the REPL's :env, :heap).
	OnState func(rule, config string, state any)
	// Schedule orders FUNMEM's and IMP's kernel iterations in the
	// small-step (nil: in order).
	Schedule semantics.Schedule
	// RecordHeap makes FUNMEM's and IMP's heaps collect their reads and
	// writes (semantics.Heap.TakeAccesses) for OnState's caller.
	RecordHeap bool
	// Trace receives FUNMEM kernels' per-iteration read and write sets.
	Trace func(kernel string, iters []semantics.IterAccess)
}

// Run runs the program under one semantics.
func (l *Loaded) Run(o RunOptions) (*Run, error) {
	sem := o.Semantics
	if sem == "" {
		sem = l.Semantics()[0]
	}
	known := false
	for _, s := range l.Semantics() {
		known = known || s == sem
	}
	if !known {
		return nil, fmt.Errorf("%s programs have no %q semantics (they have %s)", l.Lang, sem, strings.Join(l.Semantics(), ", "))
	}
	start := time.Now()
	var r *Run
	var err error
	switch l.Lang {
	case "funmem":
		r, err = l.runFunmem(sem, o)
	case "imp":
		r, err = l.runImp(sem, o)
	case "remora":
		r, err = l.runRemora(sem, o)
	default:
		r, err = runFun(l.Fun, sem, o)
	}
	if err != nil {
		return nil, err
	}
	r.Time = time.Since(start)
	return r, nil
}

// Strings are the results as `arraysem run` prints them, one per line.
func (r *Run) Strings() []string {
	if r.Lines != nil {
		return r.Lines
	}
	out := make([]string, len(r.Results))
	for i, v := range r.Results {
		out[i] = v.String()
	}
	return out
}

func (l *Loaded) runRemora(sem string, o RunOptions) (*Run, error) {
	if len(o.Args) > 0 {
		return nil, semantics.Errorf(semantics.Pos{File: l.File}, semantics.InputError, "", "Remora programs take no --arg inputs (define them in the program)")
	}
	if l.Dynamic != nil {
		return l.runDynamic(sem, o)
	}
	r := &Run{Lines: []string{}}
	if sem == "big" {
		vs, err := remora.Eval(l.Remora, &remora.EvalOptions{Counter: o.Counter})
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			r.Lines = append(r.Lines, v.String())
		}
		return r, nil
	}
	on := stepHook(o, remora.ExprString)
	for _, e := range l.Remora.Exprs {
		v, n, err := remora.RunSmall(e, o.Fuel, o.Counter, on)
		r.Steps += n
		if err != nil {
			return nil, err
		}
		r.Lines = append(r.Lines, v.String())
	}
	return r, nil
}

func (l *Loaded) runDynamic(sem string, o RunOptions) (*Run, error) {
	r := &Run{Lines: []string{}}
	if sem == "big" {
		vs, err := dynamic.Eval(l.Dynamic, &dynamic.EvalOptions{Counter: o.Counter})
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			r.Lines = append(r.Lines, v.String())
		}
		return r, nil
	}
	on := stepHook(o, dynamic.ExprString)
	for _, e := range l.Dynamic.Exprs {
		v, n, err := dynamic.RunSmall(e, o.Fuel, o.Counter, on)
		r.Steps += n
		if err != nil {
			return nil, err
		}
		r.Lines = append(r.Lines, v.String())
	}
	return r, nil
}

// stepHook is what a language's small-step runner calls after each step:
// it hands the printed configuration to OnStep and the configuration
// itself to OnState (nil when neither is set).
func stepHook[C any](o RunOptions, print func(C) string) func(string, C) {
	if o.OnStep == nil && o.OnState == nil {
		return nil
	}
	return func(rule string, c C) {
		s := print(c)
		if o.OnStep != nil {
			o.OnStep(rule, s)
		}
		if o.OnState != nil {
			o.OnState(rule, s, c)
		}
	}
}

func (l *Loaded) runImp(sem string, o RunOptions) (*Run, error) {
	env, h, err := imp.BindInputs(l.Imp, o.Args)
	if err != nil {
		return nil, err
	}
	h.Record(o.RecordHeap)
	opts := &imp.Options{Counter: o.Counter, Schedule: o.Schedule}
	if o.Trace != nil {
		opts.Trace = func(k *imp.Kernel, iters []semantics.IterAccess) {
			o.Trace(k.At.String()+": kernel "+k.X.Name+" <= "+fun.PrintSExp(k.Bound), iters)
		}
	}
	r := &Run{}
	if sem == "big" {
		r.Results, err = imp.Eval(l.Imp, env, h, opts)
		return r, err
	}
	on := stepHook(o, (*imp.Config).String)
	r.Results, r.Steps, err = imp.RunSmall(l.Imp, env, h, o.Fuel, opts, on)
	return r, err
}

func runFun(p *fun.Program, sem string, o RunOptions) (*Run, error) {
	env, err := fun.BindInputs(p, o.Args)
	if err != nil {
		return nil, err
	}
	r := &Run{}
	if sem == "big" {
		r.Results, r.Derivation, err = fun.Eval(p, env, &fun.EvalOptions{Derive: o.Derive, Counter: o.Counter})
		return r, err
	}
	on := stepHook(o, func(c fun.Config) string {
		s := c.String()
		if b := c.Bound(); b != "" {
			s = "{" + b + "} " + s
		}
		return s
	})
	r.Results, r.Steps, err = fun.RunSmall(p, env, o.Fuel, o.Counter, on)
	return r, err
}

func (l *Loaded) runFunmem(sem string, o RunOptions) (*Run, error) {
	if sem == "value" {
		// The value-based semantics: unmem (Fig 9), then FUN's big-step,
		// with the mem inputs read as 0.
		args := map[string]string{}
		for k, v := range o.Args {
			args[k] = v
		}
		for _, m := range funmem.MemInputs(l.Fun) {
			args[m] = "0"
		}
		r, err := runFun(funmem.Unmem(l.Fun), "big", RunOptions{Args: args, Derive: o.Derive, Counter: o.Counter})
		if err != nil {
			return nil, err
		}
		r.Results = l.dropBlocks(r.Results)
		return r, nil
	}
	env, h, err := funmem.BindInputs(l.Fun, o.Args)
	if err != nil {
		return nil, err
	}
	h.Record(o.RecordHeap)
	opts := &funmem.HeapOptions{Counter: o.Counter, Schedule: o.Schedule}
	if o.Trace != nil {
		opts.Trace = func(s *fun.Stm, iters []semantics.IterAccess) {
			o.Trace(s.Exp.Pos().String()+": "+strings.SplitN(fun.PrintStm(s, true), " do ", 2)[0], iters)
		}
	}
	r := &Run{}
	var vs []funmem.Value
	if sem == "heap" {
		vs, err = funmem.EvalHeap(l.Fun, env, h, opts)
	} else {
		on := stepHook(o, (*funmem.Config).String)
		vs, r.Steps, err = funmem.RunHeapSmall(l.Fun, env, h, o.Fuel, opts, on)
	}
	if err != nil {
		return nil, err
	}
	for _, v := range vs {
		if v.Kind == funmem.BlockVal {
			continue
		}
		a, err := funmem.Read(h, v)
		if err != nil {
			return nil, semantics.Stuckf(l.Fun.Body.In, "E-MEM-PROG", "%v", err)
		}
		r.Results = append(r.Results, a)
	}
	return r, nil
}

// dropBlocks leaves out the results that are memory blocks (DESIGN.md:
// every level prints the same lines).
func (l *Loaded) dropBlocks(vs []semantics.Array) []semantics.Array {
	var out []semantics.Array
	for i, v := range vs {
		if i < len(l.memResults) && l.memResults[i] {
			continue
		}
		out = append(out, v)
	}
	return out
}
