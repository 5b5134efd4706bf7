package cli

import (
	"bytes"
	"regexp"
	"time"

	"github.com/chzyer/readline"

	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/examples"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/repl"
	"github.com/arraysem/arraysem/semantics"
	"github.com/arraysem/arraysem/semantics/datafile"
)

// Command runs the arraysem command as the process does, with its
// memory watchdog (--max-memory), and returns the exit status.
func Command(args []string) int {
	go watchMemory(os.Stderr)
	if len(args) == 0 || args[0] != "repl" { // the prompt takes Ctrl-C itself
		go watchInterrupt(os.Stderr)
	}
	return Main(args, os.Stdout, os.Stderr)
}

// Main runs the command with args and returns the exit status. Every error
// is one line on stderr; nothing panics on bad input. The command works
// in a registry of its own (check.NewRegistry).
func Main(args []string, stdout, stderr io.Writer) int {
	return MainWith(check.NewRegistry(), args, stdout, stderr)
}

// MainWith is Main in the registry reg (a test's, with a pass of its own).
func MainWith(reg *lang.Registry, args []string, stdout, stderr io.Writer) (status int) {
	defer func() {
		// A panic is a bug in arraysem, never the user's fault; say so in one
		// line rather than dumping a stack on a user.
		if r := recover(); r != nil {
			fmt.Fprintf(stderr, "arraysem: internal error: %v (please report this with the input)\n", r)
			status = 3
		}
	}()
	if len(args) == 0 {
		fmt.Fprint(stderr, usage(reg))
		return 2
	}
	cmd, rest := args[0], args[1:]
	switch cmd {
	case "help", "-h", "--help", "-help":
		if len(rest) == 0 {
			fmt.Fprint(stdout, usage(reg))
			return 0
		}
		if rest[0] == "syntax" {
			return helpSyntax(reg, rest[1:], stdout, stderr)
		}
		if rest[0] == "rules" {
			return helpRules(reg, rest[1:], stdout, stderr)
		}
		if len(rest) > 1 || lookup(rest[0]) == nil {
			fmt.Fprintf(stderr, "arraysem: help COMMAND%s (one of %s)\n", semantics.DidYouMean(rest[0], commandNames()), strings.Join(commandNames(), ", "))
			return 2
		}
		cmd, rest = rest[0], []string{"--help"}
	case "version", "--version", "-version":
		fmt.Fprintln(stdout, version())
		return 0
	}
	notices = stderr
	progressOut = nil
	if isTerminal(stderr) {
		progressOut = stderr
	}
	c := lookup(cmd)
	if c == nil {
		fmt.Fprint(stderr, unknownCommand(cmd))
		return 2
	}
	err := c.run(reg, rest, stdout)
	var help helpRequest
	if errors.As(err, &help) {
		c.printHelp(stdout, help.fs)
		return 0
	}
	if err == nil {
		return 0
	}
	fmt.Fprintln(stderr, stderrLine(err))
	return exitStatus(err)
}

// progressOut receives progress lines (rewritten in place), when stderr is
// a terminal; nil otherwise.
var progressOut io.Writer

// screenWidth is the width tables that fold their long columns fit
// (prove --list, gpu-check): $COLUMNS when it is set to a number, else
// the width of the terminal w is; 0 (the whole table, for a file or a
// pipe) when w is not one.
var screenWidth = func(w io.Writer) int {
	if n, err := strconv.Atoi(os.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	f, ok := w.(*os.File)
	if !ok || !readline.IsTerminal(int(f.Fd())) {
		return 0
	}
	width, _, err := readline.GetSize(int(f.Fd()))
	if err != nil {
		return 0
	}
	return width
}

// isTerminal reports whether w is a terminal (a variable, so that tests
// can stand in for one).
var isTerminal = func(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && readline.IsTerminal(int(f.Fd()))
}

// parseShard reads i/n with 1 ≤ i ≤ n.
func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || i < 1 || i > n {
		return 0, 0, fmt.Errorf("want i/n with 1 ≤ i ≤ n, got %q", s)
	}
	return i, n, nil
}

// slurmShard is the shard of a task of a Slurm job array
// (sbatch --array=A-B): task SLURM_ARRAY_TASK_ID of the array's
// SLURM_ARRAY_TASK_MIN…SLURM_ARRAY_TASK_MAX (or SLURM_ARRAY_TASK_COUNT
// tasks), as i/n counted from 1.
func slurmShard(getenv func(string) string) (string, bool) {
	id, err := strconv.Atoi(getenv("SLURM_ARRAY_TASK_ID"))
	if err != nil {
		return "", false
	}
	lo, err := strconv.Atoi(getenv("SLURM_ARRAY_TASK_MIN"))
	if err != nil {
		lo = 0
	}
	n, err := strconv.Atoi(getenv("SLURM_ARRAY_TASK_COUNT"))
	if err != nil {
		hi, err := strconv.Atoi(getenv("SLURM_ARRAY_TASK_MAX"))
		if err != nil {
			return "", false
		}
		n = hi - lo + 1
	}
	return fmt.Sprintf("%d/%d", id-lo+1, n), true
}

// notices receives one-line notices about flags that have no effect.
var notices io.Writer = os.Stderr

// notice prints a one-line notice on stderr.
func notice(msg string) { fmt.Fprintln(notices, "arraysem: notice: "+msg) }

// flagSet reports whether the flag name was given on the command line.
func flagSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// stderrLine is how every command's error reaches stderr, in one format
// (the GNU one): an error with a place starts with it, file:line:col:
// (then RULE: where a rule or pass said it); one without starts with
// "arraysem: ".
func stderrLine(err error) string {
	msg := strings.TrimPrefix(strings.TrimRight(err.Error(), "\n"), "arraysem: ")
	if placed.MatchString(msg) {
		return msg
	}
	return "arraysem: " + msg
}

// placed matches a message that starts with its place, file:line:col.
var placed = regexp.MustCompile(`^[^\s:]+(:[^\s:]+)*:\d+:\d+: `)

// usageError is a command-line mistake (exit 2).
type usageError struct{ msg string }

// Error is the mistake.
func (e usageError) Error() string { return e.msg }

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

// inputFlags are the flags that give a program its inputs: --arg
// NAME=VALUE, repeatable, whose VALUE may be @FILE (the value read from a
// data file), and --data FILE (a whole input set from a data file).
type inputFlags struct {
	args argList
	data dataFlag
}

// addInputFlags defines --arg and --data on fs.
func addInputFlags(fs *flag.FlagSet) *inputFlags {
	f := &inputFlags{args: argList{}}
	fs.Var(f.args, "arg", "program input NAME=VALUE, or NAME=@FILE to read the value from a data file (repeatable)")
	fs.Var(&f.data, "data", "read the program's inputs from the data `FILE`: a value for each input in order, or for each that is not a size of an array (this project's literals, or Futhark's text or binary data format; docs/data.md)")
	return f
}

// values are the inputs as lang.RunOptions.Args holds them: the --arg
// values, and the --data file under datafile.DataArg.
func (f *inputFlags) values() map[string]string {
	if f.data == "" {
		return f.args
	}
	out := maps.Clone(f.args)
	out[datafile.DataArg] = string(f.data)
	return out
}

// dataFlag is --data FILE, given at most once.
type dataFlag string

// String is the file (flag.Value).
func (d *dataFlag) String() string { return string(*d) }

// Set records the file.
func (d *dataFlag) Set(s string) error {
	switch {
	case s == "":
		return fmt.Errorf("want a FILE")
	case *d != "":
		return fmt.Errorf("given twice")
	}
	*d = dataFlag(s)
	return nil
}

// parse parses flags that may come before or after the positional
// arguments (`arraysem run FILE --arg n=3`), and wants exactly npos of them.
func parse(fs *flag.FlagSet, args []string, npos int, what string) ([]string, error) {
	fs.SetOutput(io.Discard)
	given := args
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
	if err := strayArguments(fs, given, pos, npos); err != nil {
		return nil, err
	}
	if len(pos) != npos {
		return nil, usageError{fmt.Sprintf("%s wants %s", fs.Name(), what)}
	}
	if err := checkJobs(fs); err != nil {
		return nil, err
	}
	if err := checkFuel(fs); err != nil {
		return nil, err
	}
	return pos, applyMemory(fs)
}

// jobsFlag adds --jobs to a command that runs programs; parse checks it.
func jobsFlag(fs *flag.FlagSet) *int {
	return fs.Int("jobs", 0, "run a large kernel's iterations (or map's cells), and print a large result, on up to `N` goroutines (the big-steps of FUN, FUNMEM, IMP and typed Remora; 0: all cores, 1: sequential); results never depend on it")
}

// exactFloatsFlag is --exact-floats: compare float results exactly even
// where a level's program re-associates a float fold.
func exactFloatsFlag(fs *flag.FlagSet) *bool {
	return fs.Bool("exact-floats", false, "compare float results exactly, even where a level's program re-associates a float fold (by default they agree within a relative 1e-9, said as float re-association)")
}

// checkJobs refuses a negative --jobs, if the command has the flag.
func checkJobs(fs *flag.FlagSet) error {
	if f := fs.Lookup("jobs"); f != nil {
		if n, _ := strconv.Atoi(f.Value.String()); n < 0 {
			return usageError{fmt.Sprintf("%s: --jobs %d: want N ≥ 1, or 0 for all cores", fs.Name(), n)}
		}
	}
	return nil
}

// applyMemory applies a parsed --max-memory flag, if the command has one.
func applyMemory(fs *flag.FlagSet) error {
	if f := fs.Lookup("max-memory"); f != nil {
		return setMemory(f.Value.String())
	}
	return nil
}

// parseUpTo is parse for commands that take at most npos positional
// arguments.
func parseUpTo(fs *flag.FlagSet, args []string, npos int, what string) ([]string, error) {
	fs.SetOutput(io.Discard)
	given := args
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, flagError(fs, err)
		}
		if args = fs.Args(); len(args) == 0 {
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	if err := strayArguments(fs, given, pos, npos); err != nil {
		return nil, err
	}
	if len(pos) > npos {
		return nil, usageError{fmt.Sprintf("%s takes %s", fs.Name(), what)}
	}
	if err := checkFuel(fs); err != nil {
		return nil, err
	}
	return pos, applyMemory(fs)
}

// langFlags are the flags that pick a file's language: --lang, and for
// Remora --dialect.
type langFlags struct {
	reg           *lang.Registry
	lang, dialect *string
}

func addLangFlags(reg *lang.Registry, fs *flag.FlagSet) langFlags {
	return langFlags{
		reg:     reg,
		lang:    fs.String("lang", "", "the file's language ("+strings.Join(reg.Names(), ", ")+"), instead of the one its extension says"),
		dialect: fs.String("dialect", "", "Remora dialect: typed or dynamic (default: the file's #lang line)"),
	}
}

func (lf langFlags) load(file string, opts check.Options) (lang.Program, error) {
	src, err := semantics.ReadSource(file)
	if err != nil {
		return nil, usageError{err.Error()}
	}
	opts.Lang, opts.Dialect = *lf.lang, *lf.dialect
	l, err := check.Load(lf.reg, file, string(src), opts)
	if err != nil {
		var se *semantics.Error
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, usageError{err.Error()}
	}
	return l, nil
}

func cmdRun(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	memoryFlag(fs)
	in := addInputFlags(fs)
	sem := fs.String("semantics", "", "the semantics (arraysem help run lists each language's); default the first")
	fuel := fs.Int("fuel", 0, "the run's fuel: a small-step takes at most N steps (0: 10^8); the big-steps of FUN, FUNMEM and IMP at most N iterations of kernels, loops and folds, remora/dynamic's at most N applications, typed Remora's rules at most N cells of maps and applications of folds (0: 10^10)")
	lf := addLangFlags(reg, fs)
	derive := fs.Bool("derive", false, "print the big-step derivation")
	trace := fs.Bool("trace", false, "print each kernel's read/write sets per iteration (FUNMEM and IMP)")
	stats := fs.Bool("stats", false, "after the results, print the run's cost counters (operations, allocations, words, peak live words, kernel launches)")
	jobs := jobsFlag(fs)
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	l, err := lf.load(pos[0], check.Options{})
	if err != nil {
		return err
	}
	o := lang.RunOptions{Semantics: *sem, Args: in.values()}
	o.Fuel, o.Derive, o.Jobs = *fuel, *derive, *jobs
	bigFuel := lang.CountsFuel(l, *sem) // a big-step that counts its fuel too
	if s, err := lang.PickSemantics(l, *sem); err == nil && s != l.Language().Stepping() && flagSet(fs, "fuel") && !bigFuel {
		why := "" // typed Remora's engine: the one big-step that counts none
		if l.Language().Stepping() != "" {
			why = " (it always ends: " + l.Language().Title() + " has no recursion, and --max-memory bounds its arrays); fuel bounds the small-step (--semantics small)"
			if slices.Contains(l.Semantics(), "rules") {
				why += " and the rules as written (--semantics rules)"
			}
		}
		notice("run --fuel: " + l.Language().Title() + "'s " + s + " semantics counts no fuel" + why)
	}
	if *trace {
		if _, heap := l.(lang.RaceChecker); !heap {
			return usageError{"--trace: read/write sets are traced for programs with a heap (FUNMEM and IMP); this is " + l.Language().Title()}
		}
		o.Trace = func(kernel string, tr *semantics.KernelTrace) {
			fmt.Fprintf(stdout, "trace %s\n", kernel)
			for i, a := range tr.Iters() {
				fmt.Fprintf(stdout, "  iteration %d: %s\n", i+1, a.Sets())
			}
		}
	}
	if *stats {
		o.Stats = &semantics.Stats{}
	}
	traced := 0
	if o.Trace != nil {
		show := o.Trace
		o.Trace = func(kernel string, tr *semantics.KernelTrace) { traced++; show(kernel, tr) }
	}
	r, err := l.Run(o)
	if *trace && traced == 0 && err != nil {
		notice("run --trace: no kernel finished before the run stopped, so there is no read/write set to show")
	}
	if err != nil {
		return err
	}
	if *derive {
		if r.Derivation == nil {
			notice("run --derive: this semantics builds no evaluation derivation (FUN's big-steps, big and rules, the rules of IMP, FUNMEM and both Remora dialects, and FUNMEM's value semantics, do)")
		} else {
			fmt.Fprint(stdout, r.Derivation)
		}
	}
	for _, v := range r.Lines {
		fmt.Fprintln(stdout, v)
	}
	if *stats {
		printStats(stdout, l, *sem, r.Stats, "")
	}
	return nil
}

// printStats prints a run's cost counters under a heading that names the
// level and the semantics, each line after prefix (a comment's start, when
// they follow a program).
func printStats(w io.Writer, p lang.Program, sem string, st *semantics.Stats, prefix string) {
	sem, _ = lang.PickSemantics(p, sem)
	fmt.Fprintf(w, "%scost counters (%s, %s semantics):\n", prefix, p.Language().Title(), sem)
	for _, line := range strings.Split(strings.TrimSuffix(st.Table(), "\n"), "\n") {
		fmt.Fprintln(w, prefix+"  "+line)
	}
}

func cmdStep(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("step", flag.ContinueOnError)
	memoryFlag(fs)
	in := addInputFlags(fs)
	n := fs.Int("n", 0, "print at most N steps (0: all)")
	fuel := fs.Int("fuel", 0, "the small-step semantics' fuel: at most N steps (0: 10^8)")
	lf := addLangFlags(reg, fs)
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	l, err := lf.load(pos[0], check.Options{})
	if err != nil {
		return err
	}
	o := lang.RunOptions{Args: in.values()}
	o.Fuel = *fuel
	st, err := l.Start(o)
	if err != nil {
		return err
	}
	width := lang.RuleWidth(l.Language())
	for i := 0; *n <= 0 || i < *n; i++ {
		rule, done, err := st.Step()
		if err != nil || done {
			return err
		}
		fmt.Fprintf(stdout, "%-*s %s\n", width, rule, st.String())
	}
	return nil // stopped where -n asked
}

func cmdCheck(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("check", flag.ContinueOnError)
	memoryFlag(fs)
	derive := fs.Bool("derive", false, "print the typing derivation")
	paper := fs.Bool("paper", false, "accept only the paper's grammar")
	infer := fs.Bool("infer", false, "Remora's dynamic dialect: elaborate into the typed core and report its types")
	lf := addLangFlags(reg, fs)
	in := addInputFlags(fs)
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	vals := in.values()
	l, err := lf.load(pos[0], check.Options{Derive: *derive, Paper: *paper, Infer: *infer})
	if err != nil {
		if d := semantics.PartialDerivation(err); *derive && d != nil {
			fmt.Fprint(stdout, d) // down to the rule that failed
		}
		return err
	}
	if _, ok := l.Language().(lang.PaperChecker); *paper && !ok {
		var have []string
		for _, o := range reg.Languages() {
			if pc, ok := o.(lang.PaperChecker); ok {
				have = append(have, o.Title()+"'s refuses "+pc.PaperMode())
			}
		}
		notice("check --paper: " + l.Language().Title() + "'s checker has no paper mode (" + strings.Join(have, "; ") + "); its extensions are listed in arraysem help syntax " + l.Language().Name())
	}
	if _, ok := l.(lang.InputChecker); len(vals) > 0 && !ok {
		notice("check --arg/--data: inputs are used by FUNMEM's validity and race checks; " + l.Language().Title() + " is type checked without them")
	}
	if _, ok := l.Language().(lang.Elaborator); *infer && !ok {
		return usageError{"check --infer elaborates Remora's dynamic dialect (#lang remora/dynamic, or --dialect dynamic)"}
	}
	if *derive {
		if d := l.Derivation(); d != nil {
			fmt.Fprint(stdout, d)
		} else {
			why := "check --derive: " + l.Language().Name() + " builds no typing derivation"
			if _, ok := l.Language().(lang.Elaborator); ok && !*infer {
				why += " (check --infer --derive gives the typed core's of its elaboration)"
			}
			notice(why)
		}
	}
	fmt.Fprintln(stdout, l.Type())
	ic, ok := l.(lang.InputChecker)
	if !ok {
		return nil
	}
	if len(vals) == 0 && len(l.Inputs()) > 0 {
		fmt.Fprintf(stdout, "validity (Def 3.1) and race freedom (eq 4) are decided on inputs: give them with --arg or --data (%s)\n", strings.Join(l.Inputs(), ", "))
		return nil
	}
	lines, err := ic.CheckInputs(vals)
	if err != nil {
		return err
	}
	for _, line := range lines {
		fmt.Fprintln(stdout, line)
	}
	return nil
}

func cmdCompile(reg *lang.Registry, args []string, stdout io.Writer) (err error) {
	fs := flag.NewFlagSet("compile", flag.ContinueOnError)
	to := fs.String("to", "", "the level to compile to ("+strings.Join(reg.Names(), ", ")+")")
	stages := fs.Bool("stages", false, "print every stage")
	passes := fs.String("passes", "", "run exactly these registered passes, in order, re-checking after each (a comma-separated list; compile --list-passes names them)")
	list := fs.Bool("list-passes", false, "list the registered passes, with their docs and options, and the pipelines")
	stats := fs.Bool("stats", false, "run the compiled program on the --arg inputs and print its cost counters after it, as comments (kernel launches, allocations, words allocated, operations executed, peak live words)")
	explain := fs.Bool("explain-fusion", false, "print fusion's decisions: which producers fused into which consumers, and why the others did not (with --stages, every optimising pass's notes)")
	noExpand := fs.Bool("no-expand", false, "with --to cuda, leave MemoryExpand out (on the way to CUDA it runs unless this is given: --expand is the default there), so that kernels allocate from the device heap")
	memoryFlag(fs)
	opts := optionFlags(reg, fs)
	lf := addLangFlags(reg, fs)
	pos, err := parseUpTo(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	if *list {
		listPasses(reg, stdout)
		return nil
	}
	if len(pos) == 0 {
		return usageError{"compile takes one FILE"}
	}
	if *to == "" && !*stages && *passes == "" {
		return usageError{"compile: say which level to compile to, --to LEVEL (" + strings.Join(reg.Names(), ", ") + "), --stages for every stage, or --passes A,B,… for those passes"}
	}
	if *passes != "" && *to != "" {
		return usageError{"compile: --passes runs the passes named, --to walks to a level: give one"}
	}
	o, err := opts()
	if err != nil {
		return usageError{"compile: " + err.Error()}
	}
	if o, err = readArgFiles(o); err != nil {
		return err
	}
	// On the way to CUDA MemoryExpand runs by default: a GPU kernel that
	// allocates serialises on the device heap (§5 of the memory paper:
	// "generation of working GPU code must use memory expansion").
	expand := funmem.ExpandOption.Name
	autoExpand := false
	switch {
	case *noExpand && o.Bool(expand):
		return usageError{"compile: --expand and --no-expand: give one"}
	case *noExpand && *to != cuda.LanguageName:
		notice(fmt.Sprintf("compile --no-expand: only --to %s runs MemoryExpand by default (--to %s runs it with --expand)", cuda.LanguageName, *to))
	case !*noExpand && *to == cuda.LanguageName && !o.Bool(expand):
		o, autoExpand = o.With(expand), true
	}
	l, err := lf.load(pos[0], check.Options{})
	if err != nil {
		return err
	}
	var st []lang.Stage
	if *passes != "" {
		st, err = reg.RunPasses(l, strings.Split(*passes, ","), o)
	} else {
		if *to == "" {
			*to = stagesTarget(reg, l.Language().Name())
		}
		st, err = reg.Compile(l, *to, o)
	}
	var pe *lang.PassError
	if errors.As(err, &pe) && pe.Positioned() != nil {
		// A refusal at a place in the program: file:line:col: RULE:
		// message, as every other error, not "arraysem: PASS: …".
		return pe.Positioned()
	}
	if err != nil {
		return usageError{err.Error()}
	}
	if *to != "" {
		// An option no pass on this walk reads would change nothing: say so.
		for _, name := range reg.Unread(l, *to, o, st) {
			if d, _ := reg.Option(name); d.Kind == lang.MapOption && *stats {
				continue // --stats runs the program on the --arg values
			}
			if name == expand && autoExpand {
				continue // the default, on a walk without FUNMEM (from IMP)
			}
			notice(fmt.Sprintf("compile --%s: no pass from %s to %s reads it (%s)", name, l.Language().Name(), *to, optionReader(reg, name)))
		}
	}
	vals := o.Map("arg")
	last := st[len(st)-1].Program.Language()
	if !*stages {
		if *explain {
			printNotes(stdout, st, "Fuse", last.Comment()+" ")
		}
		fmt.Fprint(stdout, st[len(st)-1].Text())
		return compileStats(stdout, st, vals, *stats)
	}
	defer func() {
		if err == nil {
			err = compileStats(stdout, st, vals, *stats)
		}
	}()
	for i, s := range st {
		if i > 0 {
			fmt.Fprintln(stdout)
		}
		text := s.Text()
		if i > 0 && s.Pass.RowWhenChanged && text == st[i-1].Text() {
			// An optimising pass that found nothing to do: said, not
			// printed again.
			fmt.Fprintf(stdout, "-- stage %d: %s (%s): no change\n", i, s.Name(), s.Program.Language().Name())
			if *explain {
				printNotes(stdout, st[i-1:i+1], s.Name(), "--   ")
			}
			continue
		}
		fmt.Fprintf(stdout, "-- stage %d: %s (%s)\n", i, s.Name(), s.Program.Language().Name())
		if *explain && i > 0 {
			printNotes(stdout, st[i-1:i+1], s.Name(), "--   ")
		}
		fmt.Fprint(stdout, text)
	}
	return nil
}

// readArgFiles reads the files of compile's --arg NAME=@FILE: a default
// compiled into the program is the value the file holds, written as a
// literal, so that the emitted program needs no file to run.
func readArgFiles(o lang.Options) (lang.Options, error) {
	m := o.Map("arg")
	var out map[string]string
	for name, v := range m {
		file, ok := strings.CutPrefix(v, "@")
		if !ok {
			continue
		}
		if out == nil {
			out = maps.Clone(m)
		}
		dv, err := datafile.ReadOne(file)
		if err != nil {
			return o, err
		}
		out[name] = dv.Array.String()
	}
	if out == nil {
		return o, nil
	}
	return o.WithMap("arg", out), nil
}

// optionFlags defines a flag for every compile option the registered
// passes declare (lang.Option: its kind, help and validation), and
// returns how to read them once the flags are parsed.
func optionFlags(reg *lang.Registry, fs *flag.FlagSet) func() (lang.Options, error) {
	type flagOf struct {
		opt  lang.Option
		b    *bool
		s    *string
		pair argList
	}
	var all []*flagOf
	for _, d := range reg.Options() {
		f := &flagOf{opt: d}
		switch d.Kind {
		case lang.BoolOption:
			f.b = fs.Bool(d.Name, false, d.Help)
		case lang.StringOption:
			f.s = fs.String(d.Name, d.Default, d.Help)
		case lang.MapOption:
			f.pair = argList{}
			fs.Var(f.pair, d.Name, d.Help)
		}
		all = append(all, f)
	}
	return func() (lang.Options, error) {
		var o lang.Options
		for _, f := range all {
			switch {
			case f.b != nil && *f.b:
				o = o.With(f.opt.Name)
			case f.s != nil && flagSet(fs, f.opt.Name):
				if err := f.opt.Check(*f.s); err != nil {
					return o, err
				}
				o = o.WithString(f.opt.Name, *f.s)
			case f.pair != nil:
				o = o.WithMap(f.opt.Name, f.pair)
			}
		}
		return o, nil
	}
}

// listPasses is compile --list-passes: every registered pass, with what
// it reads and its doc, and the pipelines that order the transformations.
func listPasses(reg *lang.Registry, w io.Writer) {
	fmt.Fprintln(w, "passes (compile --passes A,B,… runs any of them in order, each from the level the last one left):")
	for _, p := range reg.Passes() {
		fmt.Fprintf(w, "\n  %s  (%s → %s)\n", p.Name, p.From, p.To)
		fmt.Fprintf(w, "%s", wrap(p.Doc, "      ", 78))
		for _, o := range p.Options {
			fmt.Fprintf(w, "      --%s: %s\n", o.Name, o.Help)
		}
	}
	fmt.Fprintln(w, "\npipelines (the transformations a walk runs at each level):")
	for _, pl := range reg.Pipelines() {
		when := ""
		if pl.When != "" {
			when = " with --" + pl.When
		}
		switch pl.At {
		case lang.Arrived:
			when += ", arrived at by a translation"
		case lang.AtSource:
			when += ", at the source program's level"
		}
		fmt.Fprintf(w, "  %s (%s%s): %s\n", pl.Name, pl.Level, when, strings.Join(pl.Passes, ", "))
	}
}

// compileStats is compile --stats: the compiled program (the last stage)
// run on the --arg inputs under its default semantics, its counters
// printed as comments after it.
func compileStats(w io.Writer, st []lang.Stage, args map[string]string, on bool) error {
	if !on {
		return nil
	}
	p := st[len(st)-1].Program
	r, err := p.Run(lang.RunOptions{Args: args, RunOptions: semantics.RunOptions{Stats: &semantics.Stats{}}})
	if err != nil {
		if lang.IsInputError(err) {
			return usageError{"compile --stats runs the compiled program: " + err.Error()}
		}
		return err
	}
	fmt.Fprintln(w)
	printStats(w, p, "", r.Stats, p.Language().Comment()+" ")
	if sim, ok := p.Syntax().(interface{ Program() *gpusim.Program }); ok {
		return gpuStats(w, sim.Program(), args, p.Language().Comment()+" ")
	}
	return nil
}

// gpuStats is compile --stats of a CUDA program: gpu-sim's table of the
// run (sectors moved against the program's minimum, coalescing, launches,
// idle threads, allocations in kernels), and the kernels whose threads
// allocate, as comments after prefix.
func gpuStats(w io.Writer, prog *gpusim.Program, args map[string]string, prefix string) error {
	var in []string
	for k, v := range args {
		in = append(in, k+"="+v)
	}
	sort.Strings(in)
	_, st, err := gpusim.Run(prog, in, gpusim.Options{Stats: true})
	if err != nil {
		return simErr(err)
	}
	fmt.Fprintf(w, "%sgpu-sim (blocks of 256 threads):\n", prefix)
	fmt.Fprint(w, st.Table(prefix+"  "))
	alloc := "none"
	if ks := prog.File.Allocating(); len(ks) > 0 {
		alloc = strings.Join(ks, ", ")
	}
	fmt.Fprintf(w, "%skernels whose threads allocate: %s\n", prefix, alloc)
	return nil
}

// printNotes prints, as comments, the notes of the stages made by the
// pass named (what Pass.Run said: fusion's decisions, slicing's).
func printNotes(w io.Writer, st []lang.Stage, pass, prefix string) {
	for i := 1; i < len(st); i++ {
		if st[i].Pass.Name != pass {
			continue
		}
		for _, line := range st[i].Notes {
			fmt.Fprintln(w, prefix+line)
		}
	}
}

// stagesTarget is where compile --stages goes without --to: the first
// level it reaches that stops the stages (lang.Language's StagesEnd:
// IMP, the lowest the interpreters run), else the farthest it reaches.
func stagesTarget(reg *lang.Registry, from string) string {
	levels := reg.Reachable(from)
	for _, name := range levels {
		if l, ok := reg.Language(name); ok && l.StagesEnd() {
			return name
		}
	}
	return levels[len(levels)-1]
}

// optionReader says which passes read a compile option, from the
// registry's declarations, for the notice about an unread one.
func optionReader(reg *lang.Registry, name string) string {
	var by []string
	for _, p := range reg.Passes() {
		if p.Declares(name) && !slices.Contains(by, p.Name) {
			by = append(by, p.Name)
		}
	}
	if len(by) == 0 {
		return "no registered pass reads it"
	}
	return "read by " + strings.Join(by, " and ")
}

func cmdTest(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("test", flag.ContinueOnError)
	memoryFlag(fs)
	verbose := fs.Bool("v", false, "list passing files too")
	levels := fs.Bool("levels", false, "also run each case at every level its file compiles to (as side-by-side does), expecting the same output or the same kind of error")
	exact := exactFloatsFlag(fs)
	jobs := jobsFlag(fs)
	pos, err := parse(fs, args, 1, "one DIR")
	if err != nil {
		return err
	}
	semantics.SetDefaultJobs(*jobs) // the runs are built by check.RunGolden
	out, err := check.RunGolden(reg, pos[0], stdout, check.GoldenOptions{Verbose: *verbose, Levels: *levels, ExactFloats: *exact})
	if err != nil {
		return usageError{"test: " + err.Error()}
	}
	if out.Failed > 0 {
		return failed{fmt.Sprintf("test: %d of %s failed", out.Failed, semantics.Plural(out.Passed+out.Failed, "check"))}
	}
	// Programs without a test block have been noted; only a directory
	// with no program at all is a mistake in the command.
	if out.Passed == 0 && out.Untested == 0 {
		return usageError{"test: no programs under " + pos[0]}
	}
	return nil
}

// The demo's programs, as the examples hold them.
var (
	demoSource = examples.Fig2
	demoRemora = examples.A2ImplicitMap
)

func cmdProve(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("prove", flag.ContinueOnError)
	property := fs.String("property", "", "run only this property (--list names them)")
	n := fs.Int("n", 1000, "cases per property, over all shards")
	seed := fs.Int64("seed", 1, "campaign seed")
	shard := fs.String("shard", "1/1", "run shard i of n (1-based): cases k with k mod n = i-1 (default: from a Slurm job array's SLURM_ARRAY_TASK_ID, else 1/1)")
	jsonOut := fs.String("json", "", "write the shard's report to FILE (for --merge)")
	merge := fs.Bool("merge", false, "merge the shard reports given as arguments into one")
	list := fs.Bool("list", false, "list the properties and the theorems they check")
	forTime := fs.Duration("for", 0, "run rounds of N cases per property, seeds S, S+1, …, until this time has passed (e.g. 1h)")
	wide := fs.Bool("wide", false, "with --list: print the table's long columns whole, not wrapped to the terminal's width")
	memoryFlag(fs)
	fs.SetOutput(io.Discard)
	if err := fs.Parse(args); err != nil {
		return flagError(fs, err)
	}
	if err := applyMemory(fs); err != nil {
		return err
	}
	if *list {
		rows := [][]string{{"property", "theorem", "source"}}
		for _, t := range proofstests.Theorems {
			rows = append(rows, []string{t.Name, t.Statement, t.Source})
		}
		if *wide {
			table.Print(stdout, rows)
		} else {
			table.PrintFit(stdout, rows, screenWidth(stdout))
		}
		return nil
	}
	var results []proofstests.ProveResult
	if *merge {
		if len(fs.Args()) == 0 {
			return usageError{"prove --merge wants the shards' report files"}
		}
		var reports [][]proofstests.ProveResult
		for _, f := range fs.Args() {
			data, err := semantics.ReadSource(f)
			if err != nil {
				return usageError{err.Error()}
			}
			rep, err := proofstests.ReadReport(bytes.NewReader(data))
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
		// The merged campaign's rounds, said rather than summed into the
		// counts unseen: once when every property's are the same.
		var lines []string
		for _, m := range merged {
			line := ""
			switch {
			case len(m.ShardRounds) > 0:
				line = fmt.Sprintf("the shards ran different numbers of rounds of %d cases per property (seeds %d, %d, …): %v, shard 1 first", m.N, m.Seed, m.Seed+1, m.ShardRounds)
			case m.Rounds > 1:
				line = fmt.Sprintf("%d rounds of %d cases per property (seeds %d…%d)", m.Rounds, m.N, m.Seed, m.Seed+int64(m.Rounds)-1)
			}
			lines = append(lines, line)
		}
		if len(lines) > 0 && slices.Min(lines) == slices.Max(lines) {
			lines = lines[:1]
		} else {
			for i := range lines {
				lines[i] = merged[i].Property + ": " + lines[i]
			}
		}
		for _, l := range lines {
			if !strings.HasSuffix(l, ": ") && l != "" {
				fmt.Fprintln(stdout, l)
			}
		}
	} else {
		if len(fs.Args()) > 0 {
			return usageError{"prove takes no FILE (--merge does)"}
		}
		if *n < 0 {
			return usageError{fmt.Sprintf("prove: --n %d: want a count of cases ≥ 0", *n)}
		}
		if flagSet(fs, "for") && *forTime <= 0 {
			return usageError{fmt.Sprintf("prove: --for %v: want a duration > 0", *forTime)}
		}
		spec, from := *shard, "--shard"
		if !flagSet(fs, "shard") {
			if env, ok := slurmShard(os.Getenv); ok {
				spec, from = env, "the Slurm job array (SLURM_ARRAY_TASK_ID)"
			}
		}
		i, k, err := parseShard(spec)
		if err != nil {
			return usageError{fmt.Sprintf("prove: shard from %s: %v", from, err)}
		}
		opts := proofstests.ProveOptions{Property: *property, N: *n, Seed: *seed, Shard: i, Shards: k}
		var done func()
		opts.Progress, done = progressLine()
		defer done()
		var rs []proofstests.ProveResult
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
	table.Print(stdout, rows)
	for _, r := range results {
		for _, f := range r.Failures {
			fmt.Fprintf(stdout, "\n%s: case %d (seed %d, size %d) fails:\n%s\n%s\n", r.Property, f.Case, f.Seed, f.Size, f.Message, f.Program)
		}
	}
	if failures > 0 {
		return failed{fmt.Sprintf("prove: %d counterexamples", failures)}
	}
	return nil
}

// stdin is what repl reads (a variable for the tests).
var stdin io.Reader = os.Stdin

func cmdRepl(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("repl", flag.ContinueOnError)
	memoryFlag(fs)
	vals := argList{}
	fs.Var(vals, "arg", "program input NAME=VALUE, or NAME=@FILE to read the value from a data file (repeatable; :set arg in the session)")
	fuel := fs.Int("fuel", 0, "the runs' fuel: a small-step takes at most N steps (0: 10^8), a big-step at most N iterations (0: 10^10)")
	pos, err := parseUpTo(fs, args, 1, "at most one FILE")
	if err != nil {
		return err
	}
	file := ""
	if len(pos) == 1 {
		file = pos[0]
		// As run says it: a file that cannot be read, or is no regular
		// file, is bad input before the session starts.
		if _, err := semantics.ReadSource(file); err != nil {
			return usageError{err.Error()}
		}
	}
	terminal := false
	if f, ok := stdin.(*os.File); ok {
		terminal = readline.IsTerminal(int(f.Fd())) && stdout == os.Stdout && readline.IsTerminal(int(os.Stdout.Fd()))
	}
	err = repl.Run(stdin, stdout, repl.Options{Args: vals, Fuel: *fuel}, file, terminal)
	var se *repl.SessionErrors
	if errors.As(err, &se) {
		return failed{se.Error()}
	}
	return err
}

func cmdDemo(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("demo", flag.ContinueOnError)
	memoryFlag(fs)
	if _, err := parse(fs, args, 0, "no arguments"); err != nil {
		return err
	}
	const file = "examples/fun/fig2.fun"
	l, err := check.Load(reg, file, demoSource, check.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s (Fig 2 of the FUN paper, made a whole program):\n\n%s\n", file, indent(demoSource))
	fmt.Fprintf(stdout, "type: %s\n\n", l.Type())
	// The paper's figures are the translations of the program as written:
	// without size slicing, which the next step shows.
	for _, to := range []struct{ lang, fig string }{{funmem.Language.Name(), "Fig 7"}, {imp.Language.Name(), "Fig 13"}} {
		st, err := reg.Compile(l, to.lang, lang.Options{}.With("no-slice").With("no-fuse"))
		if err != nil {
			return err
		}
		fmt.Fprintf(stdout, "compiled to %s (arraysem compile %s --to %s --no-slice --no-fuse; cf. %s):\n\n%s\n", strings.ToUpper(to.lang), file, to.lang, to.fig, indent(st[len(st)-1].Text()))
	}
	st, err := reg.Compile(l, l.Language().Name(), lang.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "size-sliced (arraysem compile %s --to fun --stages --explain-fusion): the size zsize is computed before the array, from a slice of the if with no recurrence (Size Slicing, Figs 15 and 23):\n\n", file)
	var notes strings.Builder
	printNotes(&notes, st, "Slice", "-- ")
	fmt.Fprintf(stdout, "%s\n", indent(notes.String()+st[len(st)-1].Text()))
	for _, args := range []map[string]string{
		{"xsize": "3", "ysize": "4", "zcond": "1"},
		{"xsize": "3", "ysize": "4", "zcond": "0"},
	} {
		fmt.Fprintf(stdout, "arraysem side-by-side %s %s\n\n", file, argsString(args))
		rows, verdict := check.SideBySide(reg, l, args)
		if rows == nil {
			return verdict
		}
		check.PrintRows(stdout, rows, verdict)
		if verdict != nil {
			return failed{"demo: " + verdict.Error()}
		}
		fmt.Fprintln(stdout)
	}
	return demoRemoraPath(reg, stdout)
}

// demoRemoraPath is the demo's second half: a Remora program (Appendix
// A.2 of the compiler report) down the compile path, its stages printed,
// then run at every stage and level.
func demoRemoraPath(reg *lang.Registry, stdout io.Writer) error {
	const file = "examples/remora/a2_implicit_map.remora"
	l, err := check.Load(reg, file, demoRemora, check.Options{})
	if err != nil {
		return err
	}
	st, err := reg.Compile(l, fun.Language.Name(), lang.Options{})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s, down the compile path from Remora (arraysem compile %s --stages):\n\n", file, file)
	for _, s := range st {
		fmt.Fprintf(stdout, "-- %s (%s):\n%s\n", s.Name(), s.Program.Language().Name(), indent(s.Text()))
	}
	fmt.Fprintf(stdout, "arraysem side-by-side %s\n\n", file)
	rows, verdict := check.SideBySide(reg, l, nil)
	if rows == nil {
		return verdict
	}
	check.PrintRows(stdout, rows, verdict)
	if verdict != nil {
		return failed{"demo: " + verdict.Error()}
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
	slices.Sort(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = "--arg " + k + "=" + args[k]
	}
	return strings.Join(parts, " ")
}

func cmdSide(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("side-by-side", flag.ContinueOnError)
	memoryFlag(fs)
	in := addInputFlags(fs)
	fuel := fs.Int("fuel", 0, "every row's fuel: a small-step's steps, a big-step's iterations (0: 10^6 steps for the small-steps, 10^10 iterations for the big-steps); a row past it is marked not run")
	only := fs.String("only", "", "run only the levels of these languages, comma-separated (fun,funmem,imp,cuda,remora,remora-ir): a language's name, not a row's label (funmem keeps every FUNMEM row, expanded ones too)")
	sems := fs.String("semantics", "", "run only these semantics, comma-separated (big, rules, small, heap, value, sim; big: every one that is not a small-step)")
	lf := addLangFlags(reg, fs)
	exact := exactFloatsFlag(fs)
	jobs := jobsFlag(fs)
	pos, err := parse(fs, args, 1, "one FILE")
	if err != nil {
		return err
	}
	semantics.SetDefaultJobs(*jobs) // the runs are built by check.SideBySide
	l, err := lf.load(pos[0], check.Options{})
	if err != nil {
		return err
	}
	o := check.SideOptions{Fuel: *fuel, Only: commaList(*only), Semantics: commaList(*sems), ExactFloats: *exact}
	if progressOut != nil { // on a terminal: which row runs
		o.Progress = func(row, rows int, level, sem string) {
			fmt.Fprintf(progressOut, "\r\x1b[Kside-by-side: %s %s (row %d of %d)", level, sem, row, rows)
		}
	}
	for _, name := range o.Only {
		if _, ok := reg.Language(name); !ok {
			return usageError{fmt.Sprintf("side-by-side --only: no language %q (%s)", name, strings.Join(reg.Names(), ", "))}
		}
	}
	rows, verdict := check.SideBySideWith(reg, l, in.values(), o)
	if progressOut != nil {
		fmt.Fprint(progressOut, "\r\x1b[K") // the table replaces the progress line
	}
	if rows == nil {
		return verdict
	}
	check.PrintRows(stdout, rows, verdict)
	if verdict != nil {
		return failed{"side-by-side: " + verdict.Error()}
	}
	return nil
}

// progressLine is a campaign's progress line on a terminal (progressOut):
// count, rate and time left, rewritten in place at most ten times a
// second; done erases it. Elsewhere it is nil and done does nothing.
func progressLine() (show func(proofstests.Progress), done func()) {
	if progressOut == nil {
		return nil, func() {}
	}
	var last time.Time
	show = func(p proofstests.Progress) {
		if now := time.Now(); now.Sub(last) >= 100*time.Millisecond || p.Done == p.Total {
			last = now
			fmt.Fprintf(progressOut, "\r\x1b[K%s", p)
		}
	}
	return show, func() { fmt.Fprint(progressOut, "\r\x1b[K") }
}

func cmdCover(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("cover", flag.ContinueOnError)
	n := fs.Int("n", 300, "programs to generate")
	seed := fs.Int64("seed", 1, "generator seed")
	if _, err := parse(fs, args, 0, "no FILE"); err != nil {
		return err
	}
	if *n < 1 {
		return usageError{fmt.Sprintf("cover: --n %d: want a number of programs ≥ 1", *n)}
	}
	progress, done := progressLine()
	cov, err := proofstests.Cover(*n, *seed, progress)
	done()
	if err != nil {
		return failed{"cover: " + err.Error()}
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
	table.Print(stdout, rows)
	zero := cov.Zero()
	fmt.Fprintf(stdout, "\n%d programs (seed %d); %d rules never applied\n", *n, *seed, len(zero))
	if len(zero) > 0 {
		return failed{"cover: rules never applied: " + strings.Join(zero, ", ")}
	}
	return nil
}

// commaList splits a comma-separated flag's value (nil for "").
func commaList(s string) []string {
	if s == "" {
		return nil
	}
	var out []string
	for _, x := range strings.Split(s, ",") {
		if x = strings.TrimSpace(x); x != "" {
			out = append(out, x)
		}
	}
	return out
}
