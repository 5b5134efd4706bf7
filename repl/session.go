package repl

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/kr/pretty"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Options configure a session.
type Options struct {
	Args     map[string]string // program inputs (--arg)
	Terminal bool              // marks with ANSI underline rather than ⟦ ⟧
	Fuel     int               // the runs' fuel: small-steps' steps, big-steps' iterations (0: the default)
	Registry *lang.Registry    // the languages and passes (nil: check.NewRegistry's)
}

// Session is one REPL session: a loaded program, its stepper, and the
// settings. Exec runs one line of input; the session never ends on a bad
// command or program, it prints the error and goes on.
type Session struct {
	out       io.Writer
	opts      Options
	reg       *lang.Registry
	lang      string // the language of inline input: fun, funmem, imp, remora, remora/dynamic
	loaded    lang.Program
	source    string // the loaded program's text
	file      string // its file name (inline input: "input.EXT")
	defs      []string
	offset    int // the line the typed text starts on in source (after kept definitions)
	errors    int // errors reported, for a piped session's exit status
	st        *stepper
	fuel      int
	schedule  string
	races     string // "stop" (the default) or "report" (:set races)
	seed      int64
	pending   []string     // lines of an incomplete inline input
	interrupt atomic.Bool  // set by Ctrl-C; checked between steps
	evalStats *lang.Result // the last big-step run of typed text (evaluate), for :stats; nil after a load
}

// NewSession starts a session writing to out.
func NewSession(out io.Writer, opts Options) *Session {
	if opts.Args == nil {
		opts.Args = map[string]string{}
	}
	if opts.Registry == nil {
		opts.Registry = check.NewRegistry()
	}
	// Inline input is in the first registered language (FUN) until :lang.
	first := opts.Registry.Languages()[0].Name()
	return &Session{out: out, opts: opts, reg: opts.Registry, lang: first, fuel: opts.Fuel, schedule: "in-order", seed: 1}
}

// Interrupt asks a running :run or :step N to stop at the next step.
func (s *Session) Interrupt() { s.interrupt.Store(true) }

// Pending reports whether the session waits for more lines of an inline
// program (the prompt then says so).
func (s *Session) Pending() bool { return len(s.pending) > 0 }

// Lang is the language of inline input, for the prompt.
func (s *Session) Lang() string { return s.lang }

func (s *Session) printf(format string, args ...any) { fmt.Fprintf(s.out, format, args...) }

// Exec runs one line: a command (":step 3") or a line of program text. It
// reports whether the session should end.
func (s *Session) Exec(line string) (quit bool) {
	s.interrupt.Store(false)
	trimmed := strings.TrimSpace(line)
	if strings.HasPrefix(trimmed, ":") {
		// No language's program has a line starting with ':', so a
		// command ends an incomplete input, which is dropped.
		if len(s.pending) > 0 {
			s.pending = nil
			s.printf("(the incomplete input is dropped)\n")
		}
		return s.command(trimmed)
	}
	if len(s.pending) == 0 && trimmed == "" {
		return false
	}
	if len(s.pending) > 0 && trimmed == "" {
		// A blank line ends an incomplete input: report what is wrong.
		src := strings.Join(s.pending, "\n")
		s.pending = nil
		s.inline(src, true)
		return false
	}
	s.pending = append(s.pending, line)
	src := strings.Join(s.pending, "\n")
	if s.inline(src, false) {
		s.pending = nil
	}
	return false
}

// inline loads program text typed at the prompt. It reports false when
// the text is incomplete and force is not set (more lines may follow).
func (s *Session) inline(src string, force bool) bool {
	if in, ok := s.language().(lang.Interactive); ok {
		if !force && in.Incomplete(src) {
			return false
		}
		return s.interactiveInput(in, src)
	}
	err := s.load(stdinFile, src, false, 0)
	if err != nil && !force && strings.Contains(err.Error(), "end of file") {
		return false
	}
	if err != nil {
		if bare, berr := s.bareExpression(src); bare {
			err = berr
		}
	}
	s.report(err)
	if err == nil {
		s.evaluate()
	}
	return true
}

// stdinFile names text typed at the prompt in positions.
const stdinFile = "<stdin>"

// language is the language of inline input.
func (s *Session) language() lang.Language {
	l, _ := s.reg.Language(s.lang)
	return l
}

// interactiveInput handles text of a language whose prompt keeps
// definitions (Remora's): definitions are kept for the inputs that follow
// (as at Racket's prompt); an expression is loaded with them.
func (s *Session) interactiveInput(in lang.Interactive, src string) bool {
	defs, exprs, names, err := in.Split(stdinFile, src)
	if err != nil {
		s.report(err)
		return true
	}
	if len(defs) == 0 && len(exprs) == 0 {
		return true // only comments
	}
	if len(exprs) == 0 {
		// Check the definitions by loading them with a trivial expression.
		prog, offset := in.Assemble(s.defs, src+"\n0")
		if _, err := check.Load(s.reg, stdinFile, prog, check.Options{Lang: s.lang}); err != nil {
			s.report(atLine(err, offset))
			return true
		}
		s.defs = append(s.defs, defs...)
		s.printf("defined %s\n", strings.Join(names, ", "))
		return true
	}
	prog, offset := in.Assemble(s.defs, src)
	if err := s.load(stdinFile, prog, false, offset); err != nil {
		s.report(err)
		return true
	}
	s.defs = append(s.defs, defs...)
	s.evaluate()
	return true
}

// atLine moves an error's position in an assembled program back by offset
// lines, to the line of the text the user typed.
func atLine(err error, offset int) error {
	var se *semantics.Error
	if offset > 0 && errors.As(err, &se) && se.Pos.File == stdinFile && se.Pos.Line > offset {
		moved := *se
		moved.Pos.Line -= offset
		return &moved
	}
	return err
}

// extension is the file extension of a language's programs.
func (s *Session) extension(name string) string {
	if l, ok := s.reg.Language(name); ok && len(l.Extensions()) > 0 {
		return l.Extensions()[0]
	}
	return "." + name
}

// load makes src the session's program and starts stepping it from the
// beginning. Its language is the session's, or (pick) the one its file
// name and #lang line say. Text typed at the prompt after kept
// definitions starts at line offset of src: errors are moved back to its
// own lines. Inputs set for an earlier program that this one does not
// declare are dropped.
func (s *Session) load(file, src string, pick bool, offset int) error {
	opts := check.Options{Lang: s.lang}
	if pick {
		opts.Lang = ""
	}
	l, err := check.Load(s.reg, file, src, opts)
	if err != nil {
		return atLine(err, offset)
	}
	s.loaded, s.source, s.file, s.offset = l, src, file, offset
	s.st, s.evalStats = nil, nil
	declared := map[string]bool{}
	for _, in := range l.Inputs() {
		declared[in] = true
	}
	for k := range s.opts.Args {
		if !declared[k] {
			delete(s.opts.Args, k)
		}
	}
	if _, typed := l.Language().(lang.Interactive); !typed || file != stdinFile {
		s.printf("loaded %s (%s): %s\n", filepath.Base(file), l.Language().Name(), firstLine(l.Type()))
	}
	return nil
}

// evaluate runs the loaded program by its default semantics and prints
// its results, or says which inputs it still needs. Ctrl-C abandons it.
func (s *Session) evaluate() {
	var r *lang.Result
	err := s.interruptible(func() (err error) {
		o := lang.RunOptions{Args: s.args()}
		o.Stats, o.Fuel = &semantics.Stats{}, s.fuel
		r, err = s.loaded.Run(o)
		return err
	})
	if err == nil {
		s.evalStats = r
	}
	var se *semantics.Error
	switch {
	case errors.As(err, &se) && se.Kind == semantics.InputError && strings.Contains(se.Msg, "missing input"):
		s.printf("inputs needed: %s (set them with :set arg NAME=VALUE …, then :run or :step)\n", strings.Join(s.missing(), ", "))
	case err != nil:
		s.report(err)
	default:
		for _, line := range r.Lines {
			s.printf("%s\n", line)
		}
	}
}

// missing lists the loaded program's inputs not set.
func (s *Session) missing() []string {
	var out []string
	for _, in := range s.loaded.Inputs() {
		if _, ok := s.opts.Args[in]; !ok {
			out = append(out, in)
		}
	}
	return out
}

// interruptible runs f, which must not change the session, and returns its
// error; Ctrl-C (Interrupt) stops it at its next iteration or step
// (semantics.Interrupt), or, past a second (a run that counts neither),
// abandons it: it runs on in the background and what it finds is
// dropped.
func (s *Session) interruptible(f func() error) error {
	done := make(chan error, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("internal error: %v (please report this with the input)", r)
			}
		}()
		done <- f()
	}()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case err := <-done:
			return err
		case <-tick.C:
			if s.interrupt.Load() {
				// The run stops at its next iteration or step
				// (semantics.Interrupt); one that counts none (typed
				// Remora's big-step, gpu-sim) is left to end in the
				// background after a second.
				semantics.Interrupt()
				select {
				case <-done:
				case <-time.After(time.Second):
				}
				semantics.ResetInterrupt()
				return errInterrupted
			}
		}
	}
}

var errInterrupted = errors.New("interrupted")

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}

// stopStepper drops the session's stepper (the next step starts again).
func (s *Session) stopStepper() { s.st = nil }

// stepper is the session's stepper, started on first use.
func (s *Session) stepper() *stepper {
	if s.st == nil {
		s.st = newStepper(s.loaded, s.runOptions)
	}
	return s.st
}

// runOptions are the options of a run of the stepper, made afresh for
// each (a random schedule starts from its seed again).
func (s *Session) runOptions() lang.RunOptions {
	sched, _ := semantics.ParseSchedule(s.schedule, s.seed)
	o := lang.RunOptions{Args: s.args()}
	o.Fuel, o.Schedule = s.fuel, sched
	if s.races == "report" {
		o.Races = func(race error) { s.printf("race (reported; the run goes on): %v\n", race) }
	}
	return o
}

// args are the session's inputs (:set arg) that the loaded program
// declares: inputs set for one program do not trouble the next.
func (s *Session) args() map[string]string {
	declared := map[string]bool{}
	for _, in := range s.loaded.Inputs() {
		declared[in] = true
	}
	out := map[string]string{}
	for k, v := range s.opts.Args {
		if declared[k] {
			out[k] = v
		}
	}
	return out
}

// report prints an error in the one-line form arraysem's commands use,
// naming the session's settings where the message names the command
// line's flags.
func (s *Session) report(err error) {
	if err == nil {
		return
	}
	s.errors++
	msg := err.Error()
	msg = strings.ReplaceAll(msg, "raise it with --fuel N", "raise it with :set fuel N")
	msg = strings.ReplaceAll(msg, "give it with --arg", "give it with :set arg")
	if before, list, ok := strings.Cut(msg, "give them with --arg "); ok {
		// :set arg takes every NAME=VALUE after one arg.
		msg = before + "give them with :set arg " + strings.ReplaceAll(list, " --arg ", " ")
	}
	msg = strings.ReplaceAll(msg, "check --infer", ":check")
	s.printf("error: %s\n", msg)
}

// command runs a :command.
func (s *Session) command(line string) bool {
	fields := strings.Fields(line)
	name, args := fields[0], fields[1:]
	c, ok := commands[name]
	if !ok {
		s.errors++
		s.printf("error: unknown command %s (:help lists them)\n", name)
		return false
	}
	if c.needsProgram && s.loaded == nil {
		s.errors++
		s.printf("error: %s: no program loaded (type one, or :load FILE)\n", name)
		return false
	}
	defer func() {
		if r := recover(); r != nil {
			s.printf("internal error: %v (please report this with the input; the session goes on)\n", r)
		}
	}()
	if err := c.run(s, args); err != nil {
		if errors.Is(err, errQuit) {
			s.stopStepper()
			return true
		}
		s.report(err)
	}
	return false
}

var errQuit = errors.New("quit")

type command struct {
	args, help   string
	needsProgram bool
	run          func(s *Session, args []string) error
}

// commands is the command table; :help prints it.
var commands map[string]*command

func init() {
	commands = map[string]*command{
		":load":    {"FILE", "load a program (the language follows the extension)", false, (*Session).cmdLoad},
		":lang":    {"LANGUAGE", "the language of programs typed at the prompt", false, (*Session).cmdLang},
		":step":    {"[N]", "take N small steps (default 1): the rule, then the configuration with the contractum marked", true, (*Session).cmdStep},
		":back":    {"[N]", "undo N steps (default 1)", true, (*Session).cmdBack},
		":run":     {"", "run to the end and print the results (Ctrl-C stops)", true, (*Session).cmdRun},
		":reset":   {"", "go back to the start", true, (*Session).cmdReset},
		":rules":   {"", "the rules fired so far, with counts", true, (*Session).cmdRules},
		":stats":   {"", "the cost counters (ops, allocs, words, peak words, kernels) of the steps taken, or of the last run", true, (*Session).cmdStats},
		":env":     {"", "the environment of the current configuration", true, (*Session).cmdEnv},
		":heap":    {"", "the heap's blocks; cells the last step read (r) or wrote (w) marked", true, (*Session).cmdHeap},
		":trace":   {"", "the read and write sets, per iteration, of the kernels finished so far", true, (*Session).cmdTrace},
		":races":   {"", "check the program for races (FUNMEM: validity and eq 4; IMP: the kernels' traces)", true, (*Session).cmdRaces},
		":type":    {"", "the program's type", true, (*Session).cmdType},
		":derive":  {"[eval]", "the typing derivation (eval: the big-step's derivation, by FUN's big-step or by the rules as written of IMP, FUNMEM and both Remora dialects)", true, (*Session).cmdDerive},
		":check":   {"", "types, and for FUNMEM validity and race freedom", true, (*Session).cmdCheck},
		":side":    {"", "the side-by-side table of every semantics and level", true, (*Session).cmdSide},
		":compile": {"LEVEL [--expand|--no-expand] [--switch] [--prelude]", "translate the program to LEVEL (:help lists the levels); --expand runs MemoryExpand, which the way to cuda runs unless --no-expand (as compile --to cuda); --switch steps the translation from now on (CUDA's is run, in gpu-sim); CUDA prints without its prelude unless --prelude", true, (*Session).cmdCompile},
		":set":     {"fuel N | schedule in-order|reverse|random [SEED] | races stop|report | arg NAME=VALUE …", "settings (fuel 0: the default; races report: a racing kernel runs on, its race said; NAME= unsets an input; NAME=@FILE reads its value from a data file)", false, (*Session).cmdSet},
		":show":    {"", "the current configuration again", true, (*Session).cmdShow},
		":dump":    {"", "a debug dump of the current configuration's Go value", true, (*Session).cmdDump},
		":help":    {"", "this list", false, (*Session).cmdHelp},
		":quit":    {"", "end the session", false, func(*Session, []string) error { return errQuit }},
	}
}

// CommandNames lists the commands, for completion.
func CommandNames() []string {
	var out []string
	for n := range commands {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func (s *Session) cmdHelp([]string) error {
	rows := [][]string{{"command", "arguments", "what"}}
	for _, n := range CommandNames() {
		c := commands[n]
		rows = append(rows, []string{n, c.args, c.help})
	}
	table.Print(s.out, rows)
	s.printf("Languages and levels: %s.\n", strings.Join(s.reg.Names(), ", "))
	s.printf("Anything else is program text in the current language (%s); an incomplete\nprogram continues on the next line, a blank line ends it.\n", s.lang)
	return nil
}

func (s *Session) cmdLoad(args []string) error {
	if len(args) != 1 {
		return errors.New(":load FILE")
	}
	src, err := semantics.ReadSource(args[0])
	if err != nil {
		return err
	}
	l, err := s.reg.Pick(args[0], string(src), "", "")
	if err != nil {
		return err
	}
	old := s.lang
	s.lang = l.Name()
	if err := s.load(args[0], string(src), true, 0); err != nil {
		s.lang = old
		return err
	}
	s.defs = nil
	if in, ok := l.(lang.Interactive); ok {
		// The file's definitions are in scope at the prompt.
		if defs, _, _, err := in.Split(args[0], string(src)); err == nil {
			s.defs = defs
		}
	}
	s.evaluate()
	return nil
}

func (s *Session) cmdLang(args []string) error {
	names := strings.Join(s.reg.Names(), "|")
	if len(args) != 1 {
		return fmt.Errorf(":lang %s (now %s)", names, s.lang)
	}
	if _, ok := s.reg.Language(args[0]); !ok {
		return fmt.Errorf("unknown language %s (%s)", args[0], strings.ReplaceAll(names, "|", ", "))
	}
	if args[0] != s.lang {
		s.defs = nil
	}
	s.lang = args[0]
	s.printf("language %s\n", s.lang)
	return nil
}

func count(args []string) (int, error) {
	if len(args) == 0 {
		return 1, nil
	}
	n, err := strconv.Atoi(args[0])
	if err != nil || n < 1 || len(args) > 1 {
		return 0, fmt.Errorf("want a positive count, got %s", strings.Join(args, " "))
	}
	return n, nil
}

func (s *Session) cmdStep(args []string) error {
	n, err := count(args)
	if err != nil {
		return err
	}
	if l := s.loaded.Language(); l.Stepping() == "" {
		// Nothing to step through (CUDA): the step is the whole run, in
		// the level's own semantics (gpu-sim), as :run does.
		sem, _ := lang.PickSemantics(s.loaded, "")
		s.printf("%s has no small-step semantics: :step runs it whole, by its semantics %s\n", l.Title(), sem)
		s.evaluate()
		return nil
	}
	st := s.stepper()
	for i := 0; i < n; i++ {
		if s.interrupt.Load() {
			s.printf("interrupted after %s\n", semantics.Plural(len(st.recs), "step"))
			return nil
		}
		if !st.next() {
			return s.finished()
		}
		s.showStep(st.current())
	}
	return nil
}

// finished reports a run that has ended: its results, or its error.
func (s *Session) finished() error {
	st := s.st
	if st.err != nil {
		var se *semantics.Error
		if errors.As(st.err, &se) && se.Kind == semantics.FuelError {
			return st.err
		}
		return fmt.Errorf("%v (after %s)", st.err, semantics.Plural(len(st.recs), "step"))
	}
	s.printf("⟨done⟩ after %s\n", semantics.Plural(len(st.recs), "step"))
	for _, line := range st.res.Lines {
		s.printf("%s\n", line)
	}
	return nil
}

func (s *Session) cmdBack(args []string) error {
	n, err := count(args)
	if err != nil {
		return err
	}
	target := 0
	if s.st != nil {
		target = max(0, len(s.st.recs)-n)
	}
	s.goTo(target)
	return s.cmdShow(nil)
}

// goTo goes back to step k.
func (s *Session) goTo(k int) {
	s.st = s.stepper().back(k)
}

func (s *Session) cmdReset([]string) error {
	s.goTo(0)
	return s.cmdShow(nil)
}

func (s *Session) cmdRun([]string) error {
	if l := s.loaded.Language(); l.Stepping() == "" {
		// A level without a small-step machine (CUDA) runs by its
		// default semantics (gpu-sim's).
		sem, _ := lang.PickSemantics(s.loaded, "")
		s.printf("%s has no small-step semantics: run by its semantics %s\n", l.Title(), sem)
		s.evaluate()
		return nil
	}
	st := s.stepper()
	for {
		if s.interrupt.Load() {
			s.printf("interrupted after %s (:step goes on, :run too)\n", semantics.Plural(len(st.recs), "step"))
			return nil
		}
		if !st.next() {
			return s.finished()
		}
	}
}

func (s *Session) cmdShow([]string) error {
	if s.st == nil || s.st.current() == nil {
		s.printf("step 0: the program\n%s", withNewline(withoutHeader(s.source, s.loaded.Language().Comment())))
		return nil
	}
	c := s.st.current()
	s.printf("step %d: %s\n", len(s.st.recs), c.config)
	return nil
}

// withoutHeader is a program's text without its leading comment lines
// (the header of an example file, which :load showed once), those that
// start with comment.
func withoutHeader(src, comment string) string {
	lines := strings.Split(src, "\n")
	i := 0
	for i < len(lines) {
		t := strings.TrimSpace(lines[i])
		if t != "" && !strings.HasPrefix(t, comment) {
			break
		}
		i++
	}
	return strings.Join(lines[i:], "\n")
}

// Errors is the number of errors the session reported.
func (s *Session) Errors() int { return s.errors }

func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}

func (s *Session) cmdRules([]string) error {
	counts := map[string]int{}
	var order []string
	if s.st != nil {
		for _, r := range s.st.recs {
			if counts[r.rule] == 0 {
				order = append(order, r.rule)
			}
			counts[r.rule]++
		}
	}
	if len(order) == 0 {
		s.printf("no steps taken\n")
		return nil
	}
	rows := [][]string{{"rule", "fired"}}
	for _, r := range order {
		rows = append(rows, []string{r, strconv.Itoa(counts[r])})
	}
	table.Print(s.out, rows)
	return nil
}

// cmdStats prints the cost counters (semantics.Stats): those of the
// small steps taken so far (after :run, the whole run's), or, before any
// step, those of the last run of typed text by its default semantics.
func (s *Session) cmdStats([]string) error {
	title := s.loaded.Language().Title()
	switch {
	case s.st != nil && len(s.st.recs) > 0:
		if !s.st.counts {
			s.printf("%s's small-step counts no costs\n", title)
			return nil
		}
		what := "the " + semantics.Plural(len(s.st.recs), "step") + " taken"
		if s.st.done && s.st.err == nil {
			what = "the run (" + semantics.Plural(len(s.st.recs), "step") + ")"
		}
		s.printf("cost counters of %s:\n%s", what, s.st.recs[len(s.st.recs)-1].stats.Table())
	case s.evalStats != nil:
		if s.evalStats.Stats == nil {
			s.printf("%s's semantics counts no costs\n", title)
			return nil
		}
		s.printf("cost counters of the last run:\n%s", s.evalStats.Stats.Table())
	default:
		s.printf("no run yet (:step, :run)\n")
	}
	return nil
}

func (s *Session) state() any {
	if s.st == nil || s.st.current() == nil {
		return nil
	}
	return s.st.current().state
}

func (s *Session) cmdEnv([]string) error {
	state := s.state()
	st, ok := state.(lang.Environmental)
	if state != nil && !ok || state == nil && len(s.defs) > 0 {
		s.printf("%s's small-step substitutes values for variables: the configuration is the whole state\n", s.loaded.Language().Title())
		if len(s.defs) > 0 {
			s.printf("definitions: %s\n", strings.Join(s.defs, "\n             "))
		}
		return nil
	}
	if !ok {
		s.printf("no environment yet (:step first)\n")
		return nil
	}
	bs := st.Bindings()
	if len(bs) == 0 {
		s.printf("the environment is empty\n")
		return nil
	}
	rows := [][]string{{"variable", "value"}}
	for _, b := range bs {
		rows = append(rows, []string{b.Name, b.Value})
	}
	table.Print(s.out, rows)
	return nil
}

func (s *Session) cmdHeap([]string) error {
	if _, ok := s.loaded.(lang.RaceChecker); !ok {
		s.printf("%s has no heap (FUNMEM and IMP do)\n", s.loaded.Language().Name())
		return nil
	}
	st, ok := s.state().(lang.Heaped)
	if !ok {
		s.printf("no heap yet (:step first)\n")
		return nil
	}
	showHeap(s.out, st.Heap(), s.st.current().accesses)
	return nil
}

func (s *Session) cmdTrace([]string) error {
	if _, ok := s.loaded.(lang.RaceChecker); !ok {
		s.printf("%s has no kernels to trace (FUNMEM and IMP do)\n", s.loaded.Language().Name())
		return nil
	}
	var last []kernelTrace
	if s.st != nil {
		for _, r := range s.st.recs {
			last = append(last, r.traces...)
		}
	}
	if len(last) == 0 {
		s.printf("no kernel has finished yet\n")
		return nil
	}
	for _, k := range last {
		s.printf("kernel %s\n", k.kernel)
		for i, a := range k.iters {
			s.printf("  iteration %d: %s\n", i+1, a.Sets())
		}
	}
	return nil
}

func (s *Session) cmdRaces([]string) error {
	rc, ok := s.loaded.(lang.RaceChecker)
	if !ok {
		s.printf("%s has no heap, so no races (FUNMEM and IMP do)\n", s.loaded.Language().Name())
		return nil
	}
	var lines []string
	if err := s.interruptible(func() (err error) {
		lines, err = rc.Races(s.args())
		return err
	}); err != nil {
		return err
	}
	for _, line := range lines {
		s.printf("%s\n", line)
	}
	return nil
}

func (s *Session) cmdType([]string) error {
	s.printf("%s\n", s.loaded.Type())
	return nil
}

// reload loads the session's program again with other options.
func (s *Session) reload(opts check.Options) (lang.Program, error) {
	opts.Lang = s.loaded.Language().Name()
	return check.Load(s.reg, s.file, s.source, opts)
}

func (s *Session) cmdDerive(args []string) error {
	if len(args) == 1 && args[0] == "eval" {
		o := lang.RunOptions{Args: s.args()} // the default semantics: FUN's big-step
		o.Fuel = s.fuel
		o.Derive = true
		if _, ok := s.loaded.(lang.EvalDeriver); !ok {
			// Elsewhere the rules as written build the derivation
			// (IMP, FUNMEM, Remora (dynamic)).
			if !slices.Contains(s.loaded.Semantics(), "rules") {
				return fmt.Errorf("evaluation derivations are built by FUN's big-steps and by the rules as written (IMP, FUNMEM, Remora (dynamic)); this is %s", s.loaded.Language().Name())
			}
			o.Semantics = "rules"
		}
		var r *lang.Result
		if err := s.interruptible(func() (err error) {
			r, err = s.loaded.Run(o)
			return err
		}); err != nil {
			return err
		}
		s.printf("%s", r.Derivation)
		return nil
	}
	if len(args) > 0 {
		return errors.New(":derive [eval]")
	}
	if _, ok := s.loaded.Language().(lang.Elaborator); ok {
		return errors.New("the dynamic dialect has no typing derivation (:check shows what --infer elaborates)")
	}
	l, err := s.reload(check.Options{Derive: true})
	if err != nil {
		return err
	}
	if d := l.Derivation(); d != nil {
		s.printf("%s", d)
	} else {
		s.printf("%s builds no typing derivation\n", l.Language().Name())
	}
	return nil
}

func (s *Session) cmdCheck([]string) error {
	if _, ok := s.loaded.Language().(lang.Elaborator); ok {
		l, err := s.reload(check.Options{Infer: true})
		if err != nil {
			return err
		}
		s.printf("%s\n", l.Type())
		return nil
	}
	s.printf("%s\n", s.loaded.Type())
	if ic, ok := s.loaded.(lang.InputChecker); ok {
		var lines []string
		if err := s.interruptible(func() (err error) {
			lines, err = ic.CheckInputs(s.args())
			return err
		}); err != nil {
			return err
		}
		for _, line := range lines {
			s.printf("%s\n", line)
		}
	}
	return nil
}

func (s *Session) cmdSide([]string) error {
	var rows []check.Row
	var verdict error
	if err := s.interruptible(func() error {
		rows, verdict = check.SideBySideWith(s.reg, s.loaded, s.args(), check.SideOptions{Fuel: s.fuel})
		return nil
	}); err != nil {
		return err
	}
	if rows == nil {
		return verdict
	}
	check.PrintRows(s.out, rows, verdict)
	return nil
}

func (s *Session) cmdCompile(args []string) error {
	var to string
	var expand, noExpand, switchTo, prelude bool
	const usage = ":compile LEVEL [--expand|--no-expand] [--switch] [--prelude]"
	for _, a := range args {
		switch a {
		case "--expand":
			expand = true
		case "--no-expand":
			noExpand = true
		case "--switch":
			switchTo = true
		case "--prelude":
			prelude = true
		default:
			if to != "" {
				return errors.New(usage)
			}
			to = a
		}
	}
	if to == "" || expand && noExpand {
		return errors.New(usage)
	}
	// As compile --to cuda: MemoryExpand runs on the way to CUDA unless
	// --no-expand.
	expand = expand || to == cuda.LanguageName && !noExpand
	var stages []lang.Stage
	if err := s.interruptible(func() (err error) {
		o := lang.Options{}
		if expand {
			o = o.With(funmem.ExpandOption.Name)
		}
		stages, err = s.reg.Compile(s.loaded, to, o)
		return err
	}); err != nil {
		return err
	}
	last := stages[len(stages)-1]
	text := last.Text()
	if prelude {
		s.printf("%s", withNewline(text))
	} else {
		s.printf("%s", withNewline(withoutPrelude(text)))
	}
	if !switchTo {
		return nil
	}
	s.lang = last.Program.Language().Name()
	return s.load("compiled"+s.extension(s.lang), text, false, 0)
}

// withoutPrelude is an emitted CUDA program with its fixed prelude (a
// thousand lines the same for every program) left out and said where it
// was; other programs are returned as they are.
func withoutPrelude(text string) string {
	const begin, end = "// ==== arraysem prelude: begin", "// ==== arraysem prelude: end"
	i, j := strings.Index(text, begin), strings.Index(text, end)
	if i < 0 || j < i {
		return text
	}
	k := j + strings.IndexByte(text[j:], '\n') + 1
	if k <= j {
		k = len(text)
	}
	n := strings.Count(text[i:k], "\n")
	return text[:i] + fmt.Sprintf("// (the prelude, %d lines, left out: :compile cuda --prelude prints it)\n", n) + text[k:]
}

func (s *Session) cmdSet(args []string) error {
	if len(args) < 2 {
		return errors.New(":set fuel N | schedule in-order|reverse|random [SEED] | races stop|report | arg NAME=VALUE … (NAME= unsets)")
	}
	switch args[0] {
	case "fuel":
		n, err := strconv.Atoi(args[1])
		if err != nil || n < 0 || len(args) != 2 {
			return fmt.Errorf("fuel is a number of steps (0: the default), got %s", strings.Join(args[1:], " "))
		}
		s.fuel = n
		if n == 0 {
			s.printf("fuel: the default\n")
		} else {
			s.printf("fuel %d\n", n)
		}
	case "schedule":
		seed := s.seed
		if len(args) == 3 {
			n, err := strconv.ParseInt(args[2], 10, 64)
			if err != nil {
				return fmt.Errorf("a seed is a number, got %s", args[2])
			}
			seed = n
		}
		if _, err := semantics.ParseSchedule(args[1], seed); err != nil {
			return err
		}
		s.schedule, s.seed = args[1], seed
		what := args[1]
		if args[1] == "random" {
			what = fmt.Sprintf("random, seed %d", seed)
		}
		s.printf("schedule %s (the order FUNMEM's and IMP's small-step runs kernel iterations in)\n", what)
	case "arg":
		pairs, err := argPairs(strings.Join(args[1:], " "))
		if err != nil {
			return err
		}
		for _, p := range pairs {
			if p[1] == "" {
				delete(s.opts.Args, p[0])
			} else {
				s.opts.Args[p[0]] = p[1]
			}
		}
		s.printf("inputs %s\n", argsString(s.opts.Args))
	case "races":
		switch {
		case len(args) != 2 || args[1] != "stop" && args[1] != "report":
			return fmt.Errorf(":set races stop|report, got %s", strings.Join(args[1:], " "))
		case args[1] == "report":
			s.printf("races reported, and the run goes on as hardware would run it (FUNMEM's and IMP's small-steps)\n")
		default:
			s.printf("races stop the run\n")
		}
		s.races = args[1]
	default:
		return fmt.Errorf("unknown setting %s (fuel, schedule, races, arg)", args[0])
	}
	// Settings apply from the start of the program.
	if s.loaded != nil {
		s.stopStepper()
		s.st = nil
	}
	return nil
}

// argPairs reads NAME=VALUE … where a value may hold blanks inside
// brackets ([[1 2] [3 4]]); NAME= (no value) unsets NAME.
func argPairs(text string) ([][2]string, error) {
	var out [][2]string
	rs := []rune(strings.TrimSpace(text))
	for i := 0; i < len(rs); {
		for i < len(rs) && rs[i] == ' ' {
			i++
		}
		start, depth := i, 0
		for i < len(rs) && (rs[i] != ' ' || depth > 0) {
			switch rs[i] {
			case '[':
				depth++
			case ']':
				depth--
			}
			i++
		}
		item := string(rs[start:i])
		k, v, ok := strings.Cut(item, "=")
		if !ok || k == "" || depth != 0 {
			return nil, fmt.Errorf("an input is NAME=VALUE (NAME= unsets it), got %s", item)
		}
		out = append(out, [2]string{k, v})
	}
	return out, nil
}

func argsString(args map[string]string) string {
	if len(args) == 0 {
		return "(none)"
	}
	var ks []string
	for k := range args {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	for i, k := range ks {
		ks[i] = k + "=" + args[k]
	}
	return strings.Join(ks, " ")
}

func (s *Session) cmdDump([]string) error {
	if st := s.state(); st != nil {
		s.printf("%# v\n", pretty.Formatter(st))
		return nil
	}
	s.printf("%# v\n", pretty.Formatter(s.loaded))
	return nil
}
