// Package harness runs emitted CUDA programs against the IMP interpreter:
// the differential testing of the CUDA backend, shared by the tests and by
// `arraysem gpu-check` (whose verdicts are here: Check). A program is a
// file the registry compiles to CUDA (an IMP file, or a FUN, FUNMEM or
// Remora file through the compile path, MemoryExpand in each layout),
// with the inputs of its test block; the interpreter's result on each
// input, at IMP, is what every backend must print.
package harness

import (
	"errors"
	"fmt"
	"math/rand"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/semantics"
)

// Program is one IMP program to test, with its CUDA text and inputs.
type Program struct {
	Name  string // the file, and the layout for compiled ones
	Imp   *imp.Program
	CUDA  string
	Cases []map[string]string // the inputs of the test block (one empty case if none)
	// Reassociates says that the program re-associates a float fold
	// (imp.ReassociatesFloats): its float results may differ from the
	// interpreter's within semantics.FloatReassociationBound
	// (CompareWithin).
	Reassociates bool
}

// Excluded are the examples that pass the checker but do not reach IMP,
// by their path from the repository root, with the reason: Programs
// skips them, and fails on any other file that stops short of IMP, so an
// example that stops compiling cannot drop out of the differential runs
// unnoticed.
var Excluded = map[string]string{
	// FunMemToImp binds an IMP input to a row-major block; the file is
	// about FUNMEM's input layouts and declares b column-major.
	"examples/funmem/inputs.funmem": "input b is not row-major",
}

// Exclusion is the reason a file is in Excluded (matched on the end of its
// path, so that any directory may hold the repository's examples), or "".
func Exclusion(file string) string {
	slash := filepath.ToSlash(filepath.Clean(file))
	for f, why := range Excluded {
		if slash == f || strings.HasSuffix(slash, "/"+f) {
			return why
		}
	}
	return ""
}

// Programs loads the files (those of a language the registry reg
// compiles to CUDA; others are ignored) and returns the programs that
// reach IMP. Files the checker refuses as their test block expects (the
// examples of parse and type errors), the files of Excluded and the files
// a partial pass declines (lang.Pass's Partial: Inline, Lower, Elaborate)
// are skipped (Load says which and why); other failures, a file the
// checker refuses unexpectedly or a FUN or FUNMEM file that does not
// reach IMP included, are errors.
func Programs(reg *lang.Registry, files []string) ([]*Program, error) {
	ps, _, err := Load(reg, files)
	return ps, err
}

// Load is Programs, with the files whose compile path a pass declines
// (Inline or Lower: a construct it does not compile), by file, with the
// reason.
func Load(reg *lang.Registry, files []string) (ps []*Program, declined map[string]string, err error) {
	declined = map[string]string{}
	for _, file := range files {
		if Exclusion(file) != "" || !slices.Contains(reg.Extensions(), strings.ToLower(filepath.Ext(file))) {
			continue
		}
		src, err := semantics.ReadSource(file)
		if err != nil {
			return nil, nil, err
		}
		l, err := reg.Pick(file, string(src), "", "")
		if err != nil {
			return nil, nil, err
		}
		if _, err := reg.Path(l.Name(), cuda.LanguageName); err != nil || l.Name() == cuda.LanguageName {
			continue // a level that does not compile to CUDA, or CUDA itself
		}
		more, why, err := load(reg, file, file, string(src))
		if err != nil {
			return nil, nil, err
		}
		if why != "" {
			declined[file] = why
		}
		ps = append(ps, more...)
	}
	return ps, declined, nil
}

// load is the programs of one file, compiled by the registry's walk to
// CUDA: none for a file the checker refuses, one for IMP (which has no
// MemoryExpand to run), one per layout of MemoryExpand for the levels
// above; or none and why, when a pass declines the file.
func load(reg *lang.Registry, name, file, src string) ([]*Program, string, error) {
	spec, err := check.SpecOf(reg, file, src)
	if err != nil {
		return nil, "", fmt.Errorf("%s: %v", name, err)
	}
	l, err := check.Load(reg, file, src, check.Options{})
	if err != nil {
		if spec.LoadError != nil {
			return nil, "", nil // a checker example, whose test block expects the error
		}
		msg := firstLine(err.Error())
		if !strings.HasPrefix(msg, file) {
			msg = name + ": " + msg
		}
		return nil, "", errors.New(msg)
	}
	var cases []map[string]string
	for _, c := range spec.Cases {
		cases = append(cases, c.Args)
	}
	if len(cases) == 0 {
		cases = []map[string]string{{}}
	}
	type variant struct {
		layout string // MemoryExpand's, "" for none
		o      lang.Options
	}
	variants := []variant{{"", lang.Options{}}}
	if _, err := reg.Path(l.Language().Name(), imp.Language.Name()); err == nil && l.Language().Name() != imp.Language.Name() {
		variants = variants[:0]
		for _, lay := range funmem.LayoutOption.Values {
			variants = append(variants, variant{lay, lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, lay)})
		}
	}
	// A program's name gives the layouts that compile the file to it:
	// where two give the same program (one MemoryExpand finds nothing
	// to expand in), it is run once, "(--expand --layout gpu, cpu)".
	var out []*Program
	var layouts [][]string
	named := func(lays []string) string {
		if len(lays) == 0 || lays[0] == "" {
			return name
		}
		return fmt.Sprintf("%s (--expand --layout %s)", name, strings.Join(lays, ", "))
	}
	for _, v := range variants {
		st, err := reg.Compile(l, cuda.LanguageName, v.o)
		var pe *lang.PassError
		if err != nil && lang.Declines(err) && errors.As(err, &pe) && pe.Pass.Partial {
			return nil, firstLine(err.Error()), nil // the pass's documented limit
		}
		if err != nil {
			return nil, "", fmt.Errorf("%s does not compile to IMP and CUDA: %v", named([]string{v.layout}), err)
		}
		ip := st[len(st)-2].Program.Syntax().(*imp.Program) // EmitCUDA's input
		text := st[len(st)-1].Text()
		if i := slices.IndexFunc(out, func(q *Program) bool { return q.CUDA == text }); i >= 0 {
			layouts[i] = append(layouts[i], v.layout)
			out[i].Name = named(layouts[i])
			continue
		}
		layouts = append(layouts, []string{v.layout})
		out = append(out, &Program{Name: named([]string{v.layout}), Imp: ip, CUDA: text, Cases: cases, Reassociates: imp.ReassociatesFloats(ip)})
	}
	return out, "", nil
}

// Examples are the programs of the repository's examples that reach IMP
// (examples/imp, examples/fun, examples/funmem under root), and the
// benchmark programs of examples/cuda/bench (FUN and typed Remora).
func Examples(reg *lang.Registry, root string) ([]*Program, error) {
	var files []string
	for _, g := range []string{"imp/*.imp", "fun/*.fun", "funmem/*.funmem", "cuda/bench/*.fun", "cuda/bench/*.remora"} {
		fs, err := filepath.Glob(filepath.Join(root, "examples", filepath.FromSlash(g)))
		if err != nil || len(fs) == 0 {
			return nil, fmt.Errorf("no examples in %s: %v", g, err)
		}
		files = append(files, fs...)
	}
	return Programs(reg, files)
}

// Expect is the interpreter's verdict on one input: the lines `arraysem
// run` prints, or the exit status of its error (1 stuck, 2 bad input);
// Race marks a race, which only gpu-sim can see.
type Expect struct {
	Lines  []string
	Status int
	Race   bool
	Err    string
}

// Interpret runs the IMP interpreter (big-step) on one input.
func Interpret(p *imp.Program, args map[string]string) Expect {
	l, err := imp.Language.Adopt(p.File, p, lang.LoadOptions{})
	if err != nil {
		return Expect{Status: 2, Err: err.Error()}
	}
	r, err := l.Run(lang.RunOptions{Args: args})
	if err != nil {
		var se *semantics.Error
		if errors.As(err, &se) {
			return Expect{Status: se.Kind.ExitStatus(), Race: se.Kind == semantics.RaceError, Err: err.Error()}
		}
		return Expect{Status: 2, Err: err.Error()}
	}
	return Expect{Lines: r.Lines}
}

// Args are an input's arguments as the emitted program takes them
// (cuda.Argv: NAME=VALUE, sorted, after --data FILE).
func Args(m map[string]string) []string { return cuda.Argv(m) }

// Reassociated is the verdict of a run whose float results agree with
// the interpreter's within semantics.FloatReassociationBound only.
const Reassociated = "ok (float re-association)"

// CompareWithin is Compare, but when reassoc (the program re-associates
// a float fold, and the comparison is not asked to be exact), an output
// whose floats are within the bound of the interpreter's, and whose
// text is otherwise the same, agrees, with the verdict Reassociated.
func CompareWithin(want Expect, got cuda.Outcome, reassoc bool) (verdict, detail string) {
	verdict, detail = Compare(want, got)
	if verdict == "DISAGREE" && reassoc && want.Status == 0 && got.Status == 0 && !sanitized(got) &&
		semantics.CloseLines(want.Lines, strings.Split(strings.TrimSuffix(got.Stdout, "\n"), "\n")) {
		return Reassociated, semantics.FloatReassociationWithin
	}
	return verdict, detail
}

// sanitized reports whether a sanitizer reported on the run.
func sanitized(got cuda.Outcome) bool {
	for _, bad := range sanitizers {
		if strings.Contains(got.Stderr, bad) {
			return true
		}
	}
	return false
}

// sanitizers are what the sanitizers' reports start with.
var sanitizers = []string{"runtime error:", "AddressSanitizer", "LeakSanitizer", "ThreadSanitizer"}

// Compare judges an outcome against the interpreter's: "ok", or
// "DISAGREE" with what differs. A sanitizer's report is a disagreement
// even when the output agrees.
func Compare(want Expect, got cuda.Outcome) (verdict, detail string) {
	for _, bad := range sanitizers {
		if strings.Contains(got.Stderr, bad) {
			return "DISAGREE", "sanitizer: " + firstLine(got.Stderr[strings.Index(got.Stderr, bad):])
		}
	}
	if got.Status == -1 {
		return "DISAGREE", "did not finish: " + firstLine(got.Stderr)
	}
	if want.Status != 0 {
		if got.Status != want.Status {
			return "DISAGREE", fmt.Sprintf("interpreter: %s (exit %d); program: exit %d, %q", want.Err, want.Status, got.Status, got.Stdout)
		}
		return "ok", firstLine(got.Stderr)
	}
	text := strings.Join(want.Lines, "\n") + "\n"
	if got.Status != 0 || got.Stdout != text {
		return "DISAGREE", fmt.Sprintf("interpreter: %q; program: exit %d, %q %s", text, got.Status, got.Stdout, firstLine(got.Stderr))
	}
	return "ok", ""
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}

// Bundle joins the programs' files into one translation unit, so that a
// compiler's start-up and the prelude's headers are paid once: the
// prelude, then each file's text after its prelude verbatim inside a
// namespace of its own, then a main that runs program K (the first
// argument) with the other arguments. Only a test's time differs from
// building the files one by one.
func Bundle(ps []*Program) string {
	var b strings.Builder
	b.WriteString(cuda.Prelude)
	for i, p := range ps {
		_, rest, _ := strings.Cut(p.CUDA, cuda.PreludeEnd)
		fmt.Fprintf(&b, "\nnamespace arraysem_p%d {\n%s} // namespace arraysem_p%d\n", i, rest, i)
	}
	b.WriteString("\nint main(int argc, char **argv) {\n    if (argc < 2) return 2;\n    switch (atoi(argv[1])) {\n")
	for i := range ps {
		fmt.Fprintf(&b, "    case %d: return arraysem_p%d::main(argc - 1, argv + 1);\n", i, i)
	}
	b.WriteString("    }\n    return 2;\n}\n")
	return b.String()
}

// GenerateFUN is program seed of the FUN generator of proofs-tests (of
// size seed mod MaxGenSize, as the tests draw them), as the text of a FUN
// file named name: the program, after a test block with the inputs it was
// generated with and the FUN interpreter's verdict (its lines, or its
// error's message without the position), so that `arraysem test` and
// gpu-check read it as they read an example.
func GenerateFUN(reg *lang.Registry, seed int64, name string) (string, error) {
	c := proofstests.Generate(rand.New(rand.NewSource(seed)), int(seed%proofstests.MaxGenSize), proofstests.DefaultGenConfig)
	src := c.Source()
	l, err := check.Load(reg, name, src, check.Options{})
	if err != nil {
		return "", fmt.Errorf("generated seed %d: %v", seed, err)
	}
	args := map[string]string{}
	for _, in := range c.Inputs {
		args[in.Name] = in.Value.String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "-- Program %d of the FUN generator of proofs-tests (go test ./cuda/harness -run TestWriteCorpus -corpus DIR).\n-- ==\n", seed)
	fmt.Fprintf(&b, "-- input { %s }\n", strings.Join(Args(args), " "))
	r, err := l.Run(lang.RunOptions{Args: args})
	if err != nil {
		msg := firstLine(err.Error())
		if i := strings.LastIndex(msg, ": E-"); i >= 0 {
			msg = msg[i+2:]
		}
		fmt.Fprintf(&b, "-- error: %s\n", regexp.QuoteMeta(msg))
	} else {
		fmt.Fprintf(&b, "-- output { %s }\n", strings.Join(r.Lines, " "))
	}
	return b.String() + src, nil
}

// Generated are programs first to last of the FUN generator (GenerateFUN),
// each compiled to IMP in both layouts, with the inputs they were
// generated with.
func Generated(reg *lang.Registry, first, last int64) ([]*Program, error) {
	var out []*Program
	for seed := first; seed <= last; seed++ {
		src, err := GenerateFUN(reg, seed, "gen.fun")
		if err != nil {
			return nil, err
		}
		ps, _, err := load(reg, fmt.Sprintf("generated seed %d", seed), "gen.fun", src)
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}
