// Package harness runs emitted CUDA programs against the IMP interpreter:
// the differential testing of the CUDA backend, shared by the tests and by
// `arraysem gpu-check`. A program is an example that reaches IMP (an IMP
// file, or a FUN or FUNMEM file through FUN → FUNMEM → MemoryExpand → IMP
// in each layout), with the inputs of its test block; the interpreter's
// result on each input is what every backend must print.
package harness

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Program is one IMP program to test, with its CUDA text and inputs.
type Program struct {
	Name  string // the file, and the layout for compiled ones
	Imp   *imp.Program
	CUDA  string
	Cases []map[string]string // the inputs of the test block (one empty case if none)
}

// Programs loads the files (.imp, .fun, .funmem; others are ignored) and
// returns the programs that reach IMP. Files the checker refuses (the
// examples of type errors) are skipped; other failures are errors.
func Programs(files []string) ([]*Program, error) {
	var out []*Program
	for _, file := range files {
		ext := filepath.Ext(file)
		if ext != ".imp" && ext != ".fun" && ext != ".funmem" {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		spec, err := check.ParseSpec(string(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", file, err)
		}
		l, err := check.Load(file, string(src), check.Options{})
		if err != nil {
			continue // a checker example
		}
		var cases []map[string]string
		for _, c := range spec.Cases {
			cases = append(cases, c.Args)
		}
		if len(cases) == 0 {
			cases = []map[string]string{{}}
		}
		add := func(name string, p *imp.Program) error {
			f, err := cuda.Emit(p, cuda.Options{})
			if err != nil {
				return fmt.Errorf("%s: %v", name, err)
			}
			out = append(out, &Program{Name: name, Imp: p, CUDA: f.String(), Cases: cases})
			return nil
		}
		if p, ok := l.Syntax().(*imp.Program); ok {
			if err := add(file, p); err != nil {
				return nil, err
			}
			continue
		}
		for _, lay := range []string{"gpu", "cpu"} {
			st, err := check.Compile(l, "imp", lang.CompileOptions{Expand: true, Layout: lay})
			if err != nil {
				break // FUNMEM programs that are not valid do not compile
			}
			if err := add(fmt.Sprintf("%s (--expand --layout %s)", file, lay), st[len(st)-1].Program.Syntax().(*imp.Program)); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// Examples are the programs of the repository's examples that reach IMP
// (examples/imp, examples/fun, examples/funmem under root).
func Examples(root string) ([]*Program, error) {
	var files []string
	for _, d := range []string{"imp", "fun", "funmem"} {
		fs, err := filepath.Glob(filepath.Join(root, "examples", d, "*."+d))
		if err != nil || len(fs) == 0 {
			return nil, fmt.Errorf("no examples in %s: %v", d, err)
		}
		files = append(files, fs...)
	}
	return Programs(files)
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

// Args are an input's NAME=VALUE arguments, sorted.
func Args(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	sort.Strings(out)
	return out
}

// Compare judges an outcome against the interpreter's: "ok", or
// "DISAGREE" with what differs. A sanitizer's report is a disagreement
// even when the output agrees.
func Compare(want Expect, got cuda.Outcome) (verdict, detail string) {
	for _, bad := range []string{"runtime error:", "AddressSanitizer", "LeakSanitizer", "ThreadSanitizer"} {
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
