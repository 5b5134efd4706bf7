package cli

import (
	"io"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestErrorsThatHelp: a mistyped command or flag gets the name meant, in
// a line or two (not the whole usage); inputs written without --arg, or
// an array literal the shell split, get the command line to type; every
// missing input is named at once; a negative --fuel is refused before
// the program is read.
func TestErrorsThatHelp(t *testing.T) {
	fig2 := "examples/fun/fig2.fun"
	for _, tc := range []struct {
		name   string
		args   []string
		stderr string // the whole of stderr
	}{
		{"mistyped command", []string{"rnu", fig2},
			"arraysem: unknown command \"rnu\" (did you mean run?)\narraysem help lists the commands (one of " + strings.Join(commandNames(), ", ") + ")\n"},
		{"a file for a command", []string{fig2},
			"arraysem: unknown command \"" + fig2 + "\" (to run the program: arraysem run " + fig2 + ")\narraysem help lists the commands (one of " + strings.Join(commandNames(), ", ") + ")\n"},
		{"mistyped flag", []string{"run", fig2, "--ag", "xsize=3"},
			"arraysem: run: unknown flag --ag (did you mean --arg?); arraysem help run lists its flags\n"},
		{"one-letter flag in the wrong case", []string{"step", "-N", "3", fig2},
			"arraysem: step: unknown flag -N (did you mean -n?); arraysem help step lists its flags\n"},
		{"one-letter flag replaced", []string{"step", "-m", "3", fig2},
			"arraysem: step: unknown flag -m; arraysem help step lists its flags\n"},
		{"flag far from any", []string{"check", "--frobnicate", fig2},
			"arraysem: check: unknown flag --frobnicate; arraysem help check lists its flags\n"},
		{"inputs without --arg", []string{"run", fig2, "xsize=3", "ysize=4"},
			"arraysem: run: inputs are given as --arg xsize=3 --arg ysize=4\n"},
		{"inputs without --arg in the repl", []string{"repl", fig2, "xsize=3"},
			"arraysem: repl: inputs are given as --arg xsize=3\n"},
		{"split literal", []string{"run", "examples/fun/matmul.fun", "--arg", "n=2", "--arg", "a=[[1", "2]", "[3", "4]]"},
			"arraysem: run: the shell split an array literal at its blanks: quote it, --arg 'a=[[1 2] [3 4]]'\n"},
		{"split literal, flag with =", []string{"side-by-side", "--arg=a=[1", "2]", fig2},
			"arraysem: side-by-side: the shell split an array literal at its blanks: quote it, --arg 'a=[1 2]'\n"},
		{"all missing inputs", []string{"run", fig2},
			fig2 + ":12:7: missing inputs xsize : int, ysize : int, zcond : int (give them with --arg xsize=VALUE --arg ysize=VALUE --arg zcond=VALUE)\n"},
		{"the missing inputs left", []string{"run", fig2, "--arg", "ysize=4"},
			fig2 + ":12:7: missing inputs xsize : int, zcond : int (give them with --arg xsize=VALUE --arg zcond=VALUE)\n"},
		{"negative fuel", []string{"run", fig2, "--fuel", "-1"},
			"arraysem: run: --fuel -1: fuel is a number of steps (0: the default)\n"},
		{"negative fuel, step", []string{"step", "--fuel=-5", fig2},
			"arraysem: step: --fuel -5: fuel is a number of steps (0: the default)\n"},
		{"repl of a missing file, as run", []string{"repl", "nope.fun"},
			"arraysem: open nope.fun: no such file or directory\n"},
		{"run of a missing file", []string{"run", "nope.fun"},
			"arraysem: open nope.fun: no such file or directory\n"},
		{"repl of a directory, as run", []string{"repl", "examples"},
			"arraysem: examples: a directory, not a regular file\n"},
		{"run of a directory", []string{"run", "examples"},
			"arraysem: examples: a directory, not a regular file\n"},
		{"negative fuel, repl", []string{"repl", "--fuel", "-1"},
			"arraysem: repl: --fuel -1: fuel is a number of steps (0: the default)\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, status := run(t, tc.args...)
			if status != 2 || out != "" || errs != tc.stderr {
				t.Errorf("arraysem %v: status %d\nstdout:\n%s\nstderr:\n%s\nwant stderr:\n%s", tc.args, status, out, errs, tc.stderr)
			}
		})
	}
	if _, errs, status := run(t, "help", "rnu"); status != 2 || !strings.HasPrefix(errs, "arraysem: help COMMAND (did you mean run?) (one of run, ") {
		t.Errorf("help rnu: status %d, %q", status, errs)
	}
	// Positionals that are neither inputs nor a split literal keep the
	// plain message.
	if _, errs, status := run(t, "run", fig2, fig2); status != 2 || errs != "arraysem: run wants one FILE\n" {
		t.Errorf("run FILE FILE: status %d, %q", status, errs)
	}
}

// TestHelpSyntaxNames: help syntax takes the names users guess for a
// language (a dialect alone or with its family, an extension, a title),
// suggests a name for a near miss, and pages a reference on a terminal.
func TestHelpSyntaxNames(t *testing.T) {
	for name, heading := range map[string]string{
		"remora-dynamic": "# The basis of `#lang remora/dynamic`",
		"dynamic":        "# The basis of `#lang remora/dynamic`",
		"remora_dynamic": "# The basis of `#lang remora/dynamic`",
		"Remora/Dynamic": "# The basis of `#lang remora/dynamic`",
		"rir":            "# Remora IR",
		".rir":           "# Remora IR",
		"Remora IR":      "# Remora IR",
		"typed":          "# Remora: the explicitly typed dialect",
		"remora/typed":   "# Remora: the explicitly typed dialect",
		"cu":             "# The CUDA backend",
		".funmem":        "# FUNMEM",
		"bibliography":   "# ",
	} {
		if out, errs, status := run(t, "help", "syntax", name); status != 0 || !strings.HasPrefix(out, heading) {
			t.Errorf("help syntax %q: status %d, %q…, %s", name, status, out[:min(len(out), 60)], errs)
		}
	}
	if _, errs, status := run(t, "help", "syntax", "remora-dinamic"); status != 2 || !strings.Contains(errs, `no reference for "remora-dinamic" (did you mean remora-dynamic?); one of `) {
		t.Errorf("help syntax remora-dinamic: status %d, %q", status, errs)
	}
	if _, errs, status := run(t, "help", "syntax", "cobol"); status != 2 || strings.Contains(errs, "did you mean") {
		t.Errorf("help syntax cobol: status %d, %q", status, errs)
	}

	// On a terminal the reference goes through $PAGER.
	saved := isTerminal
	isTerminal = func(io.Writer) bool { return true }
	defer func() { isTerminal = saved }()
	t.Setenv("PAGER", "sed -n 1s/^/paged:/p")
	if out, errs, status := run(t, "help", "syntax", "fun"); status != 0 || out != "paged:# FUN: syntax and semantics as implemented\n" {
		t.Errorf("help syntax fun on a terminal: status %d, %q, %s", status, out, errs)
	}
	t.Setenv("PAGER", "no-such-pager-anywhere")
	if out, _, status := run(t, "help", "syntax", "fun"); status != 0 || !strings.HasPrefix(out, "# FUN") || len(out) < 1000 {
		t.Errorf("help syntax fun with no pager: status %d, %d bytes", status, len(out))
	}
}

// TestVersion: --version names the commit, from the build information or
// the linker-set Version, or says how to have one recorded.
func TestVersion(t *testing.T) {
	bi := &debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "4530dad0123456789abcdef"}, {Key: "vcs.time", Value: "2026-11-28T21:05:00Z"}, {Key: "vcs.modified", Value: "true"}}}
	for _, c := range []struct {
		bi     *debug.BuildInfo
		ok     bool
		linked string
		want   string
	}{
		{bi, true, "", "arraysem (devel) commit 4530dad01234 (modified) of 2026-11-28 go1.26"},
		{bi, true, "v1.2-3-g4530dad", "arraysem (devel) v1.2-3-g4530dad go1.26"},
		{&debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"}}, true, "v1.2", "arraysem (devel) v1.2 go1.26"},
		{&debug.BuildInfo{GoVersion: "go1.26", Main: debug.Module{Version: "(devel)"}}, true, "", "arraysem (devel) go1.26 (no commit recorded: build in a git checkout without -buildvcs=false, or set the version with -ldflags \"-X github.com/arraysem/arraysem/internal/cli.Version=REV\")"},
		{nil, false, "v1.2", "arraysem v1.2"},
		{nil, false, "", "arraysem (no build information)"},
	} {
		if got := versionOf(c.bi, c.ok, c.linked); got != c.want {
			t.Errorf("versionOf(linked %q) = %q, want %q", c.linked, got, c.want)
		}
	}
}

// TestProveListFits: prove --list wraps its theorem column to the
// terminal's width, and prints it whole with --wide or off a terminal.
func TestProveListFits(t *testing.T) {
	widest := func(out string) int {
		w := 0
		for _, l := range strings.Split(out, "\n") {
			w = max(w, utf8.RuneCountInString(l))
		}
		return w
	}
	plain, _, status := run(t, "prove", "--list")
	if status != 0 || widest(plain) <= 100 {
		t.Fatalf("prove --list off a terminal: status %d, %d columns (want the whole table, over 100)", status, widest(plain))
	}
	saved := screenWidth
	screenWidth = func(io.Writer) int { return 100 }
	defer func() { screenWidth = saved }()
	fit, _, _ := run(t, "prove", "--list")
	if widest(fit) > 100 || !strings.Contains(fit, "fun-big-small") {
		t.Errorf("prove --list on a 100-column terminal: %d columns", widest(fit))
	}
	if wide, _, _ := run(t, "prove", "--list", "--wide"); wide != plain {
		t.Errorf("prove --list --wide on a terminal differs from the whole table")
	}
}

// TestStepShowsEverything: step marks the end of each expression of a
// Remora file with its value, and no IMP step line ends with an empty
// configuration; IMP's steps show what they bound and wrote.
func TestStepShowsEverything(t *testing.T) {
	out, errs, status := run(t, "step", "examples/remora/fig7_length_sugar.remora")
	if status != 0 || strings.Count(out, "⟨done⟩ ") != 3 || !strings.HasSuffix(out, "⟨done⟩ 5\n") {
		t.Errorf("step of a Remora file of three expressions: status %d, %d ⟨done⟩\n%s%s", status, strings.Count(out, "⟨done⟩ "), out, errs)
	}
	// An instantiation says what it bound: the term after it prints as
	// the application before it did.
	if !strings.Contains(out, "Iβ           {d := 3, @c := [2]} ") || !strings.Contains(out, "Tβ           {t := int} (length{int | 3 [2]} ") {
		t.Errorf("step of a Remora file: Iβ and Tβ do not say what they instantiated:\n%s", out)
	}
	out, errs, status = run(t, "step", "examples/imp/fig13.imp", "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=1")
	if status != 0 {
		t.Fatalf("step fig13.imp: status %d: %s", status, errs)
	}
	for _, want := range []string{"{zsize = 0}", "{xmem = ℓ1 (2 words)}", "{ℓ1[1] ← 2} [kernel i = 2 of 2] ⟨iteration 2 done⟩", "{zmem = ℓ1} ⟨branch done⟩", "⟨end⟩ return zsize, zmem"} {
		if !strings.Contains(out, want) {
			t.Errorf("step fig13.imp shows no %q:\n%s", want, out)
		}
	}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if fields := strings.Fields(line); len(fields) < 2 || strings.HasSuffix(line, "] ") || strings.HasSuffix(line, " ") {
			t.Errorf("step line with an empty configuration: %q", line)
		}
	}
}

// TestOneErrorFormat: every command's error is one line in one format
// (GNU's): an error with a place starts with file:line:col: and then its
// rule, pass or message; one without starts with "arraysem: ". Never
// both ("arraysem: f.fun:3:1: …"), never a rule "-" for none, never the
// command named twice.
func TestOneErrorFormat(t *testing.T) {
	bad := writeFile(t, "bad.fun", "input (n : int)\nlet (x : int) = n +\nin (x)\n")
	div := writeFile(t, "div.fun", "let (x : int) = 1 / 0\nin (x)\n")
	src, errs, status := run(t, "compile", "examples/imp/kernel.imp", "--to", "cuda")
	if status != 0 {
		t.Fatalf("compile: %s", errs)
	}
	cu := writeFile(t, "k.cu", src)
	for _, args := range [][]string{
		{"run", bad}, {"check", bad}, {"step", bad}, {"compile", "--to", "imp", bad},
		{"side-by-side", bad}, {"gpu-check", bad},
		{"run", div}, {"run", "--semantics", "small", div}, {"run", "--semantics", "nope", div},
		{"gpu-sim", cu}, {"gpu-sim", cu, "n=x"}, {"gpu-sim", bad},
		{"run", "nope.fun"}, {"prove", "--for", "0s"}, {"side-by-side", "--only", "nope", div},
		{"run", "examples/fun/fig2.fun"},
	} {
		_, errs, status := run(t, args...)
		lines := strings.Split(strings.TrimSuffix(errs, "\n"), "\n")
		l := lines[len(lines)-1]
		switch {
		case status == 0:
			t.Errorf("arraysem %v: status 0", args)
		case placed.MatchString(l) == strings.HasPrefix(l, "arraysem: "):
			t.Errorf("arraysem %v: %q neither starts with its place nor with arraysem: (or both)", args, l)
		case strings.HasPrefix(l, "arraysem: ") && placed.MatchString(strings.TrimPrefix(l, "arraysem: ")):
			t.Errorf("arraysem %v: %q: arraysem: before a place", args, l)
		case strings.Contains(l, ": -: "):
			t.Errorf("arraysem %v: %q: a rule -", args, l)
		case strings.Count(l, args[0]+":") > 1:
			t.Errorf("arraysem %v: %q names the command twice", args, l)
		}
	}
}
