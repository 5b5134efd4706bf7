// Command arraysem runs, checks and steps programs of the array languages
// of the papers in ../shared/papers under their executable semantics.
//
// Usage:
//
//	arraysem run FILE [--arg NAME=VALUE]... [--semantics big|small] [--fuel N] [--derive]
//	arraysem step FILE [--arg NAME=VALUE]... [-n N] [--fuel N]
//	arraysem check FILE [--derive] [--paper] [--arg NAME=VALUE]...
//	arraysem compile FILE --to fun|funmem|imp [--expand] [--layout gpu|cpu] [--raw] [--stages]
//	arraysem side-by-side FILE [--arg NAME=VALUE]...
//	arraysem cover [--n N] [--seed S]
//	arraysem test DIR [-v]
//	arraysem demo
//
// Exit status: 0 success; 1 the program went wrong (stuck, out of fuel,
// race, disagreement); 2 bad input (usage, parse, type or input error).
package main

import (
	"time"

	"github.com/chzyer/readline"

	_ "embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/funmem"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/repl"
	"github.com/arraysem/arraysem/semantics"
)

func main() { os.Exit(Main(os.Args[1:], os.Stdout, os.Stderr)) }

const usage = `usage: arraysem COMMAND [ARGS]

commands:
  run FILE [--arg NAME=VALUE]... [--semantics S] [--fuel N] [--derive] [--trace]
        run a program and print each result on its own line; S is big or small
        for FUN, IMP and Remora, heap, small or value for FUNMEM (--trace: FUNMEM and
        IMP kernels' read/write sets per iteration)
  step FILE [--arg NAME=VALUE]... [-n N] [--fuel N]
        print one line per small step: the rule, then the configuration
  check FILE [--derive] [--paper] [--infer] [--arg NAME=VALUE]...
        type check a program and print its type; for FUNMEM, then check
        validity (Def 3.1) and race freedom (eq 4) on the inputs given; for
        Remora's dynamic dialect, --infer elaborates into the typed core
  compile FILE --to fun|funmem|imp [--expand] [--layout gpu|cpu] [--raw] [--stages]
        translate FUN to FUNMEM (TransformProgram, then the simplifier unless
        --raw), optionally MemoryExpand, and FUNMEM to IMP (FunMemToImp);
        --stages prints every stage
  test DIR [-v]
        run the golden tests (the -- == blocks) of every program under DIR
  side-by-side FILE [--arg NAME=VALUE]...
        run every semantics at every level (FUN, FUNMEM plain and expanded,
        IMP) on the same inputs, in one table, with a verdict
  prove [--property NAME] [--n N] [--seed S] [--shard i/n] [--for D] [--json FILE]
  prove --merge FILE...    prove --list
        run the theorems' properties (proofs-tests/THEOREMS.md) over N generated
        cases each; --shard splits the cases among machines, --json writes the
        shard's report and --merge joins the reports into one; --for 1h runs
        rounds of N with seeds S, S+1, … for that long
  cover [--n N] [--seed S]
        generate N random well-typed FUN programs (and N/3 Remora ones), run
        each through every level, and print how often each rule of Figs 3, 4,
        8, 10, 12 (FUN, FUNMEM, IMP) and of Remora's Figs 6-8 applied
  repl [FILE] [--arg NAME=VALUE]... [--fuel N]
        an interactive session: load or type programs of any language, step
        them forwards and back, inspect environments, heaps and kernels'
        read/write sets, types, derivations, translations (:help lists the
        commands); piped input runs a script without prompts
  demo  run a built-in example (Fig 2 of the FUN paper) through every level
        and semantics

The language follows the extension (.fun, .funmem, .imp, .remora); --lang
overrides it. Remora files are the explicitly typed dialect (REMORA.md §1),
or the rank-annotated untyped dialect of §2 when the first line is
#lang remora/dynamic; --dialect typed|dynamic overrides the #lang line.
Exit status: 0 ok, 1 the program went wrong, 2 bad input.
`

// Main runs the command with args and returns the exit status. Every error
// is one line on stderr; nothing panics on bad input.
func Main(args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		// A panic is a bug in arraysem, never the user's fault; say so in one
		// line rather than dumping a stack on a user.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "arraysem: internal error: %v (please report this with the input)\n", r)
			status = 3
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	cmd, rest := args[0], args[1:]
	var err error
	switch cmd {
	case "run":
		err = cmdRun(rest, stdout)
	case "step":
		err = cmdStep(rest, stdout)
	case "check":
		err = cmdCheck(rest, stdout)
	case "test":
		err = cmdTest(rest, stdout)
	case "compile":
		err = cmdCompile(rest, stdout)
	case "gpu-sim":
		err = cmdGpuSim(rest, stdout) // gpu.go
	case "gpu-check":
		err = cmdGpuCheck(rest, stdout) // gpu.go
	case "side-by-side":
		err = cmdSide(rest, stdout)
	case "cover":
		err = cmdCover(rest, stdout)
	case "prove":
		err = cmdProve(args[1:], stdout)
	case "repl":
		err = cmdRepl(args[1:], stdout)
	case "demo":
		err = cmdDemo(rest, stdout)
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		fmt.Fprintf(stderr, "arraysem: unknown command %q\n\n%s", cmd, usage)
		return 2
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, strings.TrimRight(err.Error(), "\n"))
	return exitStatus(err)
}

// usageError is a command-line mistake (exit 2).
type usageError struct{ msg string }

// Error formats the mistake for stderr.
func (e usageError) Error() string { return "arraysem: " + e.msg }

// failed is an error already reported in full on stdout (exit 1).
type failed struct{ msg string }

// Error is the summary line.
func (e failed) Error() string { return e.msg }

func exitStatus(err error) int {
	var se *semantics.Error
	if errors.As(err, &se) {
		return se.Kind.ExitStatus()
	}
	var f failed
	if errors.As(err, &f) {
		return 1
	}
	return 2
}

// argList collects repeated --arg NAME=VALUE flags.
type argList map[string]string

// String is unused (flag.Value).
func (a argList) String() string { return "" }

// Set records one NAME=VALUE.
func (a argList) Set(s string) error {
	name, val, ok := strings.Cut(s, "=")
	if !ok || name == "" {
		return fmt.Errorf("want NAME=VALUE, got %q", s)
	}
	if _, dup := a[name]; dup {
		return fmt.Errorf("%s given twice", name)
	}
	a[name] = val
	return nil
}

// parse parses flags that may come before or after the positional
// arguments (`arraysem run FILE --arg n=3`), and wants exactly npos of them.
func parse(fs *flag.FlagSet, args []string, npos int, what string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, usageError{fmt.Sprintf("%s: %v", fs.Name(), err)}
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if len(pos) != npos {
		return nil, usageError{fmt.Sprintf("%s wants %s", fs.Name(), what)}
	}
	return pos, nil
}

// langFlags are the flags that pick a file's language: --lang, and for
// Remora --dialect.
type langFlags struct{ lang, dialect *string }

func addLangFlags(fs *flag.FlagSet) langFlags {
	return langFlags{
		lang:    fs.String("lang", "", "language"),
		dialect: fs.String("dialect", "", "Remora dialect: typed or dynamic (default: the file's #lang line)"),
	}
}

func (lf langFlags) load(file string, opts check.Options) (*check.Loaded, error) {
	opts.Dialect = *lf.dialect
	return load(file, *lf.lang, opts)
}

func load(file, lang string, opts check.Options) (*check.Loaded, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	opts.Lang = lang
	l, err := check.Load(file, string(src), opts)
	if err != nil {
		var se *semantics.Error
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	return l, nil
}

func cmdRun(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	vals := argList{}
	fs.Var(vals, "arg", "program input NAME=VALUE (repeatable)")
	sem := fs.String("semantics", "", "big or small")
	fuel := fs.Int("fuel", 0, "small-step fuel")
	lf := addLangFlags(fs)
	derive := fs.Bool("derive", false, "print the big-step derivation")
	trace := fs.Bool("trace", false, "print FUNMEM kernels' read/write sets per iteration")
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	l, err := lf.load(pos[0], check.Options{})
	if err != nil {
		return err
	}
	o := check.RunOptions{Semantics: *sem, Args: vals, Fuel: *fuel, Derive: *derive}
	if *trace {
		if l.Lang != "funmem" && l.Lang != "imp" {
			return usageError{"--trace: read/write sets are traced for FUNMEM and IMP programs"}
		}
		o.Trace = func(kernel string, iters []semantics.IterAccess) {
			fmt.Fprintf(stdout, "trace %s\n", kernel)
			for i, a := range iters {
				fmt.Fprintf(stdout, "  iteration %d: %s\n", i+1, a.Sets())
			}
		}
	}
	r, err := l.Run(o)
	if err != nil {
		return err
	}
	if *derive && r.Derivation != nil {
		fmt.Fprint(stdout, r.Derivation)
	}
	for _, v := range r.Strings() {
		fmt.Fprintln(stdout, v)
	}
	return nil
}

func cmdStep(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("step", flag.ContinueOnError)
	vals := argList{}
	fs.Var(vals, "arg", "program input NAME=VALUE (repeatable)")
	n := fs.Int("n", 0, "print at most N steps (0: all)")
	fuel := fs.Int("fuel", 0, "small-step fuel")
	lf := addLangFlags(fs)
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	l, err := lf.load(pos[0], check.Options{})
	if err != nil {
		return err
	}
	f := *fuel
	if *n > 0 && (f == 0 || *n < f) {
		f = *n
	}
	count := 0
	_, err = l.Run(check.RunOptions{Semantics: "small", Args: vals, Fuel: f, OnStep: func(rule, config string) {
		count++
		fmt.Fprintf(stdout, "%-12s %s\n", rule, config)
	}})
	var se *semantics.Error
	if *n > 0 && count == *n && errors.As(err, &se) && se.Kind == semantics.FuelError {
		return nil // stopped where -n asked
	}
	return err
}

func cmdCheck(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	derive := fs.Bool("derive", false, "print the typing derivation")
	paper := fs.Bool("paper", false, "accept only the paper's grammar")
	infer := fs.Bool("infer", false, "Remora's dynamic dialect: elaborate into the typed core and report its types")
	lf := addLangFlags(fs)
	vals := argList{}
	fs.Var(vals, "arg", "program input NAME=VALUE, for FUNMEM's validity check")
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	l, err := lf.load(pos[0], check.Options{Derive: *derive, Paper: *paper, Infer: *infer})
	if err != nil {
		return err
	}
	if *infer && l.Dynamic == nil {
		return usageError{"check --infer elaborates Remora's dynamic dialect (#lang remora/dynamic, or --dialect dynamic)"}
	}
	if *derive {
		fmt.Fprint(stdout, l.Derivation())
	}
	fmt.Fprintln(stdout, l.TypeString())
	if l.Lang != "funmem" {
		return nil
	}
	v, err := check.CheckValidity(l, vals)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "valid (Def 3.1): the value- and heap-based semantics agree on %d array results\n", v.Results)
	fmt.Fprintf(stdout, "race free (eq 4): %d kernels, %d iterations traced\n", v.Kernels, v.Iterations)
	return nil
}

func cmdCompile(args []string, stdout io.Writer) error {
	if toCuda(args) {
		return cmdCompileCuda(args, stdout) // gpu.go
	}
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	to := fs.String("to", "", "target level: fun, funmem or imp")
	expand := fs.Bool("expand", false, "run MemoryExpand")
	layout := fs.String("layout", "gpu", "MemoryExpand's layout: gpu (coalesced) or cpu (a row per thread)")
	raw := fs.Bool("raw", false, "skip the simplifier")
	stages := fs.Bool("stages", false, "print every stage")
	lang := fs.String("lang", "", "language")
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	if *to == "" {
		return usageError{"compile: --to fun, funmem or imp"}
	}
	lay, err := funmem.ParseLayout(*layout)
	if err != nil {
		return usageError{"compile: " + err.Error()}
	}
	l, err := load(pos[0], *lang, check.Options{})
	if err != nil {
		return err
	}
	st, err := check.Compile(l, check.CompileOptions{To: *to, Expand: *expand, Layout: lay, Raw: *raw})
	if err != nil {
		return usageError{err.Error()}
	}
	if !*stages {
		st = st[len(st)-1:]
	}
	for i, s := range st {
		if *stages {
			if i > 0 {
				fmt.Fprintln(stdout)
			}
			fmt.Fprintf(stdout, "-- stage %d: %s (%s)\n", i, s.Name, s.Lang)
		}
		fmt.Fprint(stdout, s.Text())
	}
	return nil
}

func cmdTest(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	verbose := fs.Bool("v", false, "list passing files too")
	pos, err := parse(fs, args, 1, "one DIR")
	if err != nil {
		return err
	}
	out, err := check.RunGolden(pos[0], stdout, *verbose)
	if err != nil {
		return usageError{err.Error()}
	}
	if out.Failed > 0 {
		return failed{fmt.Sprintf("arraysem test: %d of %d checks failed", out.Failed, out.Passed+out.Failed)}
	}
	if out.Passed == 0 {
		return usageError{"test: no programs under " + pos[0]}
	}
	return nil
}

//go:embed examples/fun/fig2.fun
var demoSource string

func cmdProve(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	property := fs.String("property", "", "run only this property (--list names them)")
	n := fs.Int("n", 1000, "cases per property, over all shards")
	seed := fs.Int64("seed", 1, "campaign seed")
	shard := fs.String("shard", "1/1", "run shard i of n (1-based): cases k with k mod n = i-1")
	jsonOut := fs.String("json", "", "write the shard's report to FILE (for --merge)")
	merge := fs.Bool("merge", false, "merge the shard reports given as arguments into one")
	list := fs.Bool("list", false, "list the properties and the theorems they check")
	forTime := fs.Duration("for", 0, "run rounds of N cases per property, seeds S, S+1, …, until this time has passed (e.g. 1h)")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	if *list {
		rows := [][]string{{"property", "theorem", "source"}}
		for _, t := range proofstests.Theorems {
			rows = append(rows, []string{t.Name, t.Statement, t.Source})
		}
		check.Table(stdout, rows)
		return nil
	}
	var results []proofstests.ProveResult
	if *merge {
		if len(fs.Args()) == 0 {
			return usageError{"prove --merge wants the shards' report files"}
		}
		var reports [][]proofstests.ProveResult
		for _, f := range fs.Args() {
			file, err := os.Open(f)
			if err != nil {
				return usageError{err.Error()}
			}
			rep, err := proofstests.ReadReport(file)
			file.Close()
			if err != nil {
				return usageError{fmt.Sprintf("%s: %v", f, err)}
			}
			reports = append(reports, rep)
		}
		merged, err := proofstests.MergeReports(reports)
		if err != nil {
			return usageError{"prove --merge: " + err.Error()}
		}
		results = merged
	} else {
		if len(fs.Args()) > 0 {
			return usageError{"prove takes no FILE (--merge does)"}
		}
		var i, k int
		if _, err := fmt.Sscanf(*shard, "%d/%d", &i, &k); err != nil || i < 1 || i > k {
			return usageError{"--shard i/n with 1 ≤ i ≤ n, got " + *shard}
		}
		opts := proofstests.ProveOptions{Property: *property, N: *n, Seed: *seed, Shard: i - 1, Shards: k, Progress: os.Stderr}
		var rs []proofstests.ProveResult
		var err error
		if *forTime > 0 {
			var rounds int
			rs, rounds, err = proofstests.ProveFor(opts, *forTime)
			fmt.Fprintf(stdout, "%d rounds of %d cases per property (seeds %d…%d)\n", rounds, *n, *seed, *seed+int64(rounds)-1)
		} else {
			rs, err = proofstests.Prove(opts)
		}
		if err != nil {
			return usageError{"prove: " + err.Error()}
		}
		results = rs
		if *jsonOut != "" {
			f, err := os.Create(*jsonOut)
			if err != nil {
				return usageError{err.Error()}
			}
			if err := proofstests.WriteReport(f, rs); err != nil {
				f.Close()
				return err
			}
			if err := f.Close(); err != nil {
				return err
			}
		}
	}
	rows := [][]string{{"property", "cases", "failed", "time"}}
	failures := 0
	for _, r := range results {
		rows = append(rows, []string{r.Property, fmt.Sprint(r.Cases), fmt.Sprint(len(r.Failures)), r.Elapsed.Round(time.Millisecond).String()})
		failures += len(r.Failures)
	}
	check.Table(stdout, rows)
	for _, r := range results {
		for _, f := range r.Failures {
			fmt.Fprintf(stdout, "\n%s: case %d (seed %d, size %d) fails:\n%s\n%s\n", r.Property, f.Case, f.Seed, f.Size, f.Message, f.Program)
		}
	}
	if failures > 0 {
		return failed{fmt.Sprintf("arraysem prove: %d counterexamples", failures)}
	}
	return nil
}

// stdin is what repl reads (a variable for the tests).
var stdin io.Reader = os.Stdin

func cmdRepl(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("repl", flag.ContinueOnError)
	vals := argList{}
	fs.Var(vals, "arg", "program input NAME=VALUE (repeatable)")
	fuel := fs.Int("fuel", 0, "small-step fuel")
	if err := fs.Parse(args); err != nil {
		return usageError{err.Error()}
	}
	pos := fs.Args()
	if len(pos) > 1 {
		return usageError{"repl takes at most one FILE"}
	}
	file := ""
	if len(pos) == 1 {
		file = pos[0]
	}
	terminal := false
	if f, ok := stdin.(*os.File); ok {
		terminal = readline.IsTerminal(int(f.Fd())) && stdout == os.Stdout && readline.IsTerminal(int(os.Stdout.Fd()))
	}
	return repl.Run(stdin, stdout, repl.Options{Args: vals, Fuel: *fuel}, file, terminal)
}

func cmdDemo(args []string, stdout io.Writer) error {
	if len(args) > 0 {
		return usageError{"demo takes no arguments"}
	}
	const file = "examples/fun/fig2.fun"
	l, err := check.Load(file, demoSource, check.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s (Fig 2 of the FUN paper, made a whole program):\n\n%s\n", file, indent(demoSource))
	fmt.Fprintf(stdout, "type: %s\n\n", l.TypeString())
	for _, to := range []string{"funmem", "imp"} {
		st, err := check.Compile(l, check.CompileOptions{To: to})
		if err != nil {
			return err
		}
		fig := map[string]string{"funmem": "Fig 7", "imp": "Fig 13"}[to]
		fmt.Fprintf(stdout, "compiled to %s (arraysem compile %s --to %s; cf. %s):\n\n%s\n", strings.ToUpper(to), file, to, fig, indent(st[len(st)-1].Text()))
	}
	for _, args := range []map[string]string{
		{"xsize": "3", "ysize": "4", "zcond": "1"},
		{"xsize": "3", "ysize": "4", "zcond": "0"},
	} {
		fmt.Fprintf(stdout, "arraysem side-by-side %s %s\n\n", file, argsString(args))
		rows, verdict := check.SideBySide(l, args)
		if rows == nil {
			return verdict
		}
		check.PrintRows(stdout, rows, verdict)
		if verdict != nil {
			return failed{"demo: " + verdict.Error()}
		}
		fmt.Fprintln(stdout)
	}
	return nil
}

func indent(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = "    " + l
	}
	return strings.Join(lines, "\n") + "\n"
}

func argsString(args map[string]string) string {
	var keys []string
	for k := range args {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "--arg " + k + "=" + args[k]
	}
	return strings.Join(parts, " ")
}

func cmdSide(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("side-by-side", flag.ContinueOnError)
	vals := argList{}
	fs.Var(vals, "arg", "program input NAME=VALUE (repeatable)")
	lf := addLangFlags(fs)
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	l, err := lf.load(pos[0], check.Options{})
	if err != nil {
		return err
	}
	rows, verdict := check.SideBySide(l, vals)
	if rows == nil {
		return verdict
	}
	check.PrintRows(stdout, rows, verdict)
	if verdict != nil {
		return failed{"arraysem side-by-side: " + verdict.Error()}
	}
	return nil
}

func cmdCover(args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("cover", flag.ContinueOnError)
	n := fs.Int("n", 300, "programs to generate")
	seed := fs.Int64("seed", 1, "generator seed")
	if _, err := parse(fs, args, 0, "no FILE"); err != nil {
		return err
	}
	cov, err := proofstests.Cover(*n, *seed)
	if err != nil {
		return failed{"arraysem cover: " + err.Error()}
	}
	rows := [][]string{{"figure", "rule", "applied"}}
	for _, f := range proofstests.Figures {
		for _, r := range f.Rules {
			hits := fmt.Sprint(cov[f.Name][r])
			if cov[f.Name][r] == 0 {
				hits = "0  ← never"
			}
			rows = append(rows, []string{f.Name, r, hits})
		}
	}
	check.Table(stdout, rows)
	zero := cov.Zero()
	fmt.Fprintf(stdout, "\n%d programs (seed %d); %d rules never applied\n", *n, *seed, len(zero))
	if len(zero) > 0 {
		return failed{"arraysem cover: rules never applied: " + strings.Join(zero, ", ")}
	}
	return nil
}
