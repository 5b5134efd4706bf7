package check

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/arraysem/arraysem/fun"
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
}

// Loaded is a parsed and type-checked program.
type Loaded struct {
	Lang string
	File string
	Fun  *fun.Program
	Info *fun.Info
}

// Load parses and type checks src. Errors are *semantics.Error values (kind
// SyntaxError or TypeError) or plain errors for usage problems.
func Load(file, src string, opts Options) (*Loaded, error) {
	lang, err := LangOf(file, opts.Lang)
	if err != nil {
		return nil, err
	}
	switch lang {
	case "fun":
		p, err := fun.ParseFile(file, src)
		if err != nil {
			return nil, err
		}
		info, err := fun.Check(p, &fun.CheckOptions{Paper: opts.Paper, Derive: opts.Derive, Counter: opts.Counter})
		if err != nil {
			return nil, err
		}
		return &Loaded{Lang: lang, File: file, Fun: p, Info: info}, nil
	}
	return nil, fmt.Errorf("%s: the %s language is not available in this version of arraysem", file, lang)
}

// Semantics lists the semantics a loaded program can run under, the
// default first.
func (l *Loaded) Semantics() []string { return []string{"big", "small"} }

// TypeString is the program's type, for `arraysem check`.
func (l *Loaded) TypeString() string { return l.Info.ResultString() }

// Derivation is the typing derivation, if one was built.
func (l *Loaded) Derivation() *semantics.Derivation { return l.Info.Derivation }

// Run is one run's outcome.
type Run struct {
	Results    []semantics.Array
	Steps      int // small-step transitions taken (0 for big-step)
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
}

// Run runs the program under one semantics.
func (l *Loaded) Run(o RunOptions) (*Run, error) {
	sem := o.Semantics
	if sem == "" {
		sem = l.Semantics()[0]
	}
	env, err := fun.BindInputs(l.Fun, o.Args)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	r := &Run{}
	switch sem {
	case "big":
		r.Results, r.Derivation, err = fun.Eval(l.Fun, env, &fun.EvalOptions{Derive: o.Derive, Counter: o.Counter})
	case "small":
		var on func(string, fun.Config)
		if o.OnStep != nil {
			on = func(rule string, c fun.Config) {
				s := c.String()
				if b := c.Bound(); b != "" {
					s = "{" + b + "} " + s
				}
				o.OnStep(rule, s)
			}
		}
		r.Results, r.Steps, err = fun.RunSmall(l.Fun, env, o.Fuel, o.Counter, on)
	default:
		return nil, fmt.Errorf("%s programs have no %q semantics (they have %s)", l.Lang, sem, strings.Join(l.Semantics(), ", "))
	}
	r.Time = time.Since(start)
	if err != nil {
		return nil, err
	}
	return r, nil
}
