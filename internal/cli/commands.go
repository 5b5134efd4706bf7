package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime/debug"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/arraysem/arraysem/docs"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// command is one of arraysem's commands: its arguments, what it does, an
// example that runs as written (from the repository's root, after
// `go build -o arraysem .`), and the function that runs it.
type command struct {
	name, args, doc, example string
	run                      func(reg *lang.Registry, args []string, stdout io.Writer) error
}

// commands lists the commands in the order usage shows them.
var commands []*command

func init() {
	commands = []*command{
		{"run", "FILE [--arg NAME=VALUE|NAME=@FILE]... [--data FILE] [--semantics S] [--fuel N] [--derive] [--trace] [--stats] [--jobs N]",
			"run a program and print each result on its own line, under the semantics S of its language, the default first (FUN, IMP, Remora, Remora IR, Remora (dynamic): big, rules, small; FUNMEM: heap, rules, small, value; CUDA: sim), where FUN's, IMP's and both Remora dialects' big and FUNMEM's heap are the engines and rules the figure's big-step as written (Fig 4, Fig 12, Fig 10; for Remora the big-step Fig 6's reduction rules derive, for Remora (dynamic) §2's rules, Fig 6's on untyped terms), which --derive prints as a derivation (--trace: FUNMEM and IMP kernels' read/write sets per iteration; --stats: the run's cost counters after its results; --jobs N: the big-steps of FUN, FUNMEM (heap) and IMP run a large kernel's iterations, and typed Remora's a large map's cells, on up to N cores, default all, with the same results)",
			"./arraysem run examples/fun/fig2.fun --arg xsize=3 --arg ysize=4 --arg zcond=1", cmdRun},
		{"step", "FILE [--arg NAME=VALUE|NAME=@FILE]... [--data FILE] [-n N] [--fuel N]",
			"print one line per small step: the rule, then the configuration",
			"./arraysem step examples/fun/fig2.fun --arg xsize=3 --arg ysize=4 --arg zcond=0", cmdStep},
		{"check", "FILE [--derive] [--paper] [--infer] [--arg NAME=VALUE|NAME=@FILE]... [--data FILE]",
			"type check a program and print its type; for FUNMEM, then check validity (Def 3.1) and race freedom (eq 4) on the inputs given; for Remora's dynamic dialect, --infer elaborates into the typed core",
			"./arraysem check examples/funmem/fig7.funmem --arg xsize=2 --arg ysize=3 --arg zcond=1", cmdCheck},
		{"compile", "FILE [--to LEVEL | --stages | --passes A,B,...] [OPTION]... [--no-expand] [--explain-fusion] [--stats] | --list-passes",
			"translate a program down to LEVEL along the registry's translations, running at each level its pipeline of transformations (the simplifiers, size slicing, fusion and the map–reduce interchange, MemoryExpand); on the way to cuda MemoryExpand runs by default, as --expand (--layout gpu unless given), so that no kernel allocates what it can hoist, and --no-expand leaves it out; --list-passes lists every pass with its doc and the options it reads (the OPTIONs: --arg, --expand, --layout, --no-fuse, --no-interchange, --no-slice, --raw), and the pipelines; --passes runs exactly the passes named, in order, each output checked again; --stages prints every stage (down to IMP when --to is left out); --explain-fusion says what fused and why the rest did not; --stats runs the compiled program on the --arg inputs and prints its cost counters (kernel launches, allocations, words allocated, operations executed, peak live words)",
			"./arraysem compile examples/fun/fig2.fun --to imp --stages", cmdCompile},
		{"gpu-sim", "FILE.cu [--stats] [--block N] [--schedule in-order|reverse|random[:SEED]] [--engine compiled|reference] [NAME=VALUE|NAME=@FILE]... [--data FILE]",
			"run a CUDA file that compile --to cuda emitted in the SIMT simulator and print what the built program prints; it reports races between threads, out-of-bounds accesses, reads of unwritten memory and divergent barriers; --stats prints each kernel's launches, threads, global load/store requests and the 32-byte sectors they touch; --engine reference runs the kernels in the tree walker the compiled engine (the default) is checked against",
			"./arraysem gpu-sim examples/cuda/kernel.cu n=4 m=2 --stats", cmdGpuSim},
		{"gpu-check", "DIR [--sim|--host|--nvcc] [--exact-floats] [--wide]",
			"compile every program under DIR that reaches IMP to CUDA (FUN, FUNMEM and Remora in both layouts of MemoryExpand, once where they give one program) and run it on every input of its test block, in gpu-sim (--sim, the default), as a sanitized host build with clang++-14 (--host) or on the GPU with nvcc (--nvcc), against the IMP interpreter; prints a report and exits 1 on a disagreement; where a program re-associates a float fold (a parallel float + or * reduction), floats within a relative 1e-9 of the interpreter's agree, as \"ok (float re-association)\", unless --exact-floats; the report fits the terminal ($COLUMNS when set): the file's column wraps, inputs are cut short with …, and each row's detail goes on indented lines below it, unless --wide (and off a terminal, in a file or a pipe, it is printed whole)",
			"./arraysem gpu-check examples/imp", cmdGpuCheck},
		{"test", "DIR [-v] [--levels] [--exact-floats] [--jobs N]",
			"run the golden tests (the -- == blocks) of every program under DIR; --levels also runs each case at every level its file compiles to and expects the same result (floats within a relative 1e-9 where the level's program re-associates a float fold, counted as float re-association, unless --exact-floats)",
			"./arraysem test examples/", cmdTest},
		{"side-by-side", "FILE [--arg NAME=VALUE|NAME=@FILE]... [--data FILE] [--fuel N] [--only LANG,...] [--semantics S,...] [--exact-floats] [--jobs N]",
			"run every semantics at every level and stage the program compiles to on the same inputs, in one table; a row's level is LEVEL source (the program as given) or LEVEL after PASS (the pass that made it last), and ▸ marks the last row of each level on its walk, the program the next translation takes: the program's own level (Remora (dynamic) is elaborated into Remora, Remora after Elaborate), the Remora IR after each of Explicitize, Inline and Simplify, FUN after Slice, after Fuse and after Interchange (a row each where the pass changed the program; from Remora, FUN after Interchange always), FUNMEM after Simplify (TransformProgram's output, simplified), IMP after Simplify (FunMemToImp's output, simplified) and CUDA after EmitCUDA (in gpu-sim), then FUNMEM, IMP and CUDA again, expanded by MemoryExpand in each layout, the layout in the level (FUNMEM expanded (gpu) after Simplify, IMP expanded (cpu) after Simplify); with a verdict: agree, DISAGREE (naming the pass that broke the program), or refused (a level of a program with exact integers that stopped on a 64-bit overflow); a row that stops at its fuel or --max-memory where others do not is marked not run, with its bound, and not compared; a level whose program, as printed, is an earlier level's of the same language is one row, not run again, naming that level (--fuel N: every row's fuel; default 10^6 steps for the small-steps, 10^5 iterations (Remora: cells and fold applications; Remora (dynamic): applications) for the rules as written, 10^10 iterations for the other big-steps); --only fun,imp (languages by name: every row of their levels) and --semantics big choose the rows; a level whose program re-associates a float fold (a parallel float + or * reduction) agrees within a relative 1e-9 of the first row's floats, marked ≈ and said in the verdict (agree (float re-association)), unless --exact-floats",
			"./arraysem side-by-side examples/fun/matmul.fun --arg n=2 --arg m=2 --arg p=2 --arg 'a=[[1 2] [3 4]]' --arg 'b=[[5 6] [7 8]]'", cmdSide},
		{"dataset", "-g TYPE... [-s SEED] [-b] [--TYPE-bounds=LO:HI]...",
			"write random values of the TYPEs, in order, to stdout as a data file that run --data, --arg NAME=@FILE and the emitted CUDA program read, as futhark dataset writes them: text (Futhark's literals) or, with -b, Futhark's binary data format; TYPE is sizes in brackets then i8, i16, i32, i64, u8, u16, u32, u64, f16, f32, f64 or bool ([10000000]i64); ints are drawn from the type's whole range and floats from 0 to 1 unless --i64-bounds=LO:HI (--f64-bounds, …) says otherwise; the same seed gives the same file (docs/data.md)",
			"./arraysem dataset -s 42 -g '[5]i64' -g f64 --i64-bounds=-9:9", cmdDataset},
		{"prove", "[--property NAME] [--n N] [--seed S] [--shard i/n] [--for D] [--json FILE] | --merge FILE... | --list [--wide]",
			"run the theorems' properties (proofs-tests/THEOREMS.md) over N generated cases each; --shard splits the cases among machines, --json writes the shard's report and --merge joins the reports into one; --for 1h runs rounds of N with seeds S, S+1, … for that long; --list prints the properties, wrapped to the terminal's width ($COLUMNS when set) unless --wide",
			"./arraysem prove --property fun-big-small --n 200", cmdProve},
		{"cover", "[--n N] [--seed S]",
			"generate N random well-typed FUN programs (and N/3 Remora ones), run each through every level, and print how often each rule of Figs 3, 4, 8, 10, 12 (FUN, FUNMEM, IMP) and of Remora's Figs 6-8 applied",
			"./arraysem cover --n 300", cmdCover},
		{"repl", "[FILE] [--arg NAME=VALUE|NAME=@FILE]... [--fuel N]",
			"an interactive session: load or type programs of any language, step them forwards and back, inspect environments, heaps and kernels' read/write sets, types, derivations, translations (:help lists the commands); piped input runs a script without prompts",
			"./arraysem repl examples/fun/fig2.fun --arg xsize=3 --arg ysize=4 --arg zcond=1", cmdRepl},
		{"bench", "[--row NAME]... [--quick] [--json FILE] [--clock cpu|wall]",
			"measure the workloads of docs/performance.md through the public APIs, each at a ladder of sizes within a time budget, and print a table: the figure at the largest size, its growth exponent (log time against log n), its floor (a plain Go loop over the same data, or the run it is compared with), the ratio, the target and whether it is met; a row whose feature does not exist yet says not built",
			"./arraysem bench --quick --row lambda-map", cmdBench},
		{"demo", "",
			"run a built-in example (Fig 2 of the FUN paper) through every level and semantics, then a Remora program (Appendix A.2 of the compiler report) down the compile path, stage by stage",
			"./arraysem demo", cmdDemo},
	}
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func commandNames() []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c.name
	}
	return out
}

// usage is what `arraysem help` prints, with the languages of reg.
func usage(reg *lang.Registry) string {
	var b strings.Builder
	b.WriteString("usage: arraysem COMMAND [ARGS]\n\ncommands:\n")
	for _, c := range commands {
		fmt.Fprintf(&b, "  %s %s\n", c.name, c.args)
		b.WriteString(wrap(c.doc, "        ", 78))
	}
	// The languages, their extensions and references come from the
	// registry and docs/, so this paragraph follows what is registered.
	b.WriteString("\n")
	b.WriteString(wrap(fmt.Sprintf("arraysem help COMMAND (or arraysem COMMAND --help) shows a command's flags "+
		"and an example; arraysem help syntax LANG a language's reference (%s; papers is the bibliography, data the format of data files); "+
		"arraysem help rules LANG the rules of a language's tables, each with its figure and doc; "+
		"arraysem --version the version.", strings.Join(referenceNames(reg), ", ")), "", 78))
	b.WriteString(wrap(fmt.Sprintf("The language follows the extension (%s); --lang overrides it, on every "+
		"command that takes a FILE. Remora files are the explicitly typed dialect, or the rank-annotated "+
		"untyped dialect of §2 of \"The semantics of rank polymorphism\" when the first line is "+
		"#lang remora/dynamic; --dialect typed|dynamic overrides the #lang line.", strings.Join(reg.Extensions(), ", ")), "", 78))
	b.WriteString("Exit status: 0 ok, 1 the program went wrong, 2 bad input.\n")
	return b.String()
}

// wrap breaks text into lines of at most width columns (runes), each
// indented.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	line := indent
	for _, w := range strings.Fields(text) {
		if len(line) > len(indent) && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(w) > width {
			b.WriteString(line + "\n")
			line = indent
		}
		if len(line) > len(indent) {
			line += " "
		}
		line += w
	}
	if len(line) > len(indent) {
		b.WriteString(line + "\n")
	}
	return b.String()
}

// helpSyntax is `arraysem help syntax LANG`: the language's reference
// (docs/LANG.md, embedded), or the list of references.
func helpSyntax(reg *lang.Registry, args []string, stdout, stderr io.Writer) int {
	names := referenceNames(reg)
	if len(args) != 1 {
		fmt.Fprintf(stderr, "arraysem: help syntax LANG (one of %s)\n", strings.Join(names, ", "))
		return 2
	}
	text, ok := reference(reg, args[0])
	if !ok {
		hint := ""
		if s := semantics.Suggest(strings.ToLower(args[0]), append(names, aliasNames(reg)...)); s != "" {
			hint = fmt.Sprintf(" (did you mean %s?)", s)
		}
		fmt.Fprintf(stderr, "arraysem: help syntax: no reference for %q%s; one of %s\n", args[0], hint, strings.Join(names, ", "))
		return 2
	}
	if !isTerminal(stdout) || !page(text, stdout) {
		fmt.Fprint(stdout, text)
	}
	return 0
}

// page shows text through the user's pager ($PAGER, else less -FRX,
// which prints a text that fits the screen and quits), for a reference
// read on a terminal; false when there is no pager to run.
func page(text string, stdout io.Writer) bool {
	args := strings.Fields(os.Getenv("PAGER"))
	if len(args) == 0 {
		args = []string{"less", "-FRX"}
	}
	path, err := exec.LookPath(args[0])
	if err != nil {
		return false
	}
	cmd := exec.Command(path, args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader(text), stdout, os.Stderr
	if cmd.Start() != nil {
		return false
	}
	cmd.Wait() // the pager's status is the user's quitting it, not an error
	return true
}

// reference is help syntax's page for name: a registered language's
// reference (its Page), found by its name or by a name users guess for
// it (referenceLanguage), "papers", the bibliography, or "data", the
// format of data files.
func reference(reg *lang.Registry, name string) (string, bool) {
	name = strings.ToLower(strings.TrimSpace(name))
	switch name {
	case "papers", "bibliography":
		return docs.Page(docs.Bibliography)
	case "data":
		return docs.Page(docs.DataFormat)
	}
	l, ok := referenceLanguage(reg, name)
	if !ok || l.Page() == "" {
		return "", false
	}
	return docs.Page(l.Page())
}

// referenceLanguage finds the language name means: its name, its title,
// a file extension it reads (rir, .cu), its dialect alone (dynamic,
// typed) or with its family (remora/typed, remora-dynamic).
func referenceLanguage(reg *lang.Registry, name string) (lang.Language, bool) {
	if l, ok := reg.Language(name); ok {
		return l, true
	}
	for _, l := range reg.Languages() {
		if slices.Contains(aliases(l), name) {
			return l, true
		}
	}
	return nil, false
}

// aliases are the other names help syntax takes for l, lower case.
func aliases(l lang.Language) []string {
	out := []string{strings.ToLower(l.Title())}
	for _, ext := range l.Extensions() {
		out = append(out, ext, strings.TrimPrefix(ext, "."))
	}
	if family, dialect := l.Dialect(); dialect != "" {
		out = append(out, dialect, family+"/"+dialect, family+"-"+dialect, family+"_"+dialect, family+" "+dialect)
	}
	return out
}

// aliasNames are every language's aliases, for a suggestion.
func aliasNames(reg *lang.Registry) []string {
	var out []string
	for _, l := range reg.Languages() {
		out = append(out, aliases(l)...)
	}
	return out
}

// helpRules is `arraysem help rules LANG`: the rules of the language's
// rule table (lang.RuleLister), one per line with its figure and doc, so
// that the docs the code names its rules by are read.
func helpRules(reg *lang.Registry, args []string, stdout, stderr io.Writer) int {
	var names []string
	for _, l := range reg.Languages() {
		if _, ok := l.(lang.RuleLister); ok {
			names = append(names, l.Name())
		}
	}
	slices.Sort(names)
	if len(args) != 1 {
		fmt.Fprintf(stderr, "arraysem: help rules LANG (one of %s)\n", strings.Join(names, ", "))
		return 2
	}
	l, ok := referenceLanguage(reg, strings.ToLower(strings.TrimSpace(args[0])))
	rl, lists := l.(lang.RuleLister)
	if !ok || !lists {
		fmt.Fprintf(stderr, "arraysem: help rules: no rule table for %q (one of %s)\n", args[0], strings.Join(names, ", "))
		return 2
	}
	rules := rl.Rules()
	nameW, figW := 0, 0
	for _, r := range rules {
		nameW, figW = max(nameW, utf8.RuneCountInString(r.Name)), max(figW, utf8.RuneCountInString(r.Figure))
	}
	fmt.Fprintf(stdout, "the rules of %s (%d), by name, figure and doc:\n", l.Title(), len(rules))
	indent := strings.Repeat(" ", nameW+figW+4)
	for _, r := range rules {
		head := r.Name + strings.Repeat(" ", nameW-utf8.RuneCountInString(r.Name)+2) +
			r.Figure + strings.Repeat(" ", figW-utf8.RuneCountInString(r.Figure)+2)
		doc := wrap(r.Doc, indent, max(78, len(indent)+30))
		fmt.Fprint(stdout, head+strings.TrimPrefix(doc, indent))
	}
	return 0
}

// referenceNames are the names help syntax takes, sorted: the languages
// with a reference in this build, papers and data.
func referenceNames(reg *lang.Registry) []string {
	out := []string{"data", "papers"}
	for _, l := range reg.Languages() {
		if _, ok := reference(reg, l.Name()); ok {
			out = append(out, l.Name())
		}
	}
	slices.Sort(out)
	return out
}

// helpRequest is a command asked for its help (-h, --help).
type helpRequest struct{ fs *flag.FlagSet }

// Error is never shown: Main prints the command's help instead.
func (helpRequest) Error() string { return "help requested" }

// flagError is a flag set's parse error as arraysem reports it: a help
// request, or a usage error (exit 2).
func flagError(fs *flag.FlagSet, err error) error {
	if errors.Is(err, flag.ErrHelp) {
		return helpRequest{fs}
	}
	if u := unknownFlag(fs, err); u != nil {
		return u
	}
	return usageError{fmt.Sprintf("%s: %v", fs.Name(), err)}
}

// printHelp prints a command's usage, what it does, its flags and its
// example.
func (c *command) printHelp(w io.Writer, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: arraysem %s %s\n\n%s", c.name, c.args, wrap(c.doc, "", 78))
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n > 0 {
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(io.Discard)
	}
	fmt.Fprintf(w, "\nexample:\n  %s\n", c.example)
}

// Version is the version a build sets with the linker, for a build that
// records no commit itself (GOFLAGS=-buildvcs=false, or outside a git
// checkout): go build -ldflags "-X github.com/arraysem/arraysem/internal/cli.Version=$(git describe --always --dirty)".
var Version string

// version is what --version prints: the module's version, the commit it
// was built from (from the build information Go records, or Version),
// and the Go version, so that results can be cited.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	return versionOf(bi, ok, Version)
}

// versionOf is version for the build information bi (ok false when
// there is none) and the linker-set version linked.
func versionOf(bi *debug.BuildInfo, ok bool, linked string) string {
	if !ok {
		if linked != "" {
			return "arraysem " + linked
		}
		return "arraysem (no build information)"
	}
	out := "arraysem " + bi.Main.Version
	var rev, when, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = " (modified)"
			}
		}
	}
	switch {
	case linked != "":
		out += " " + linked
	case rev != "":
		out += " commit " + rev[:min(12, len(rev))] + modified
		if t, err := time.Parse(time.RFC3339, when); err == nil {
			out += " of " + t.UTC().Format("2006-01-02")
		}
	}
	out += " " + bi.GoVersion
	if linked == "" && rev == "" {
		out += " (no commit recorded: build in a git checkout without -buildvcs=false, or set the version with -ldflags \"-X github.com/arraysem/arraysem/internal/cli.Version=REV\")"
	}
	return out
}
