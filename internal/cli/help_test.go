package cli

import (
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/semantics"
)

// TestHelp: help COMMAND and COMMAND --help print the command's usage,
// flags and example and exit 0; every example runs as written.
func TestHelp(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{"help", c.name}, {c.name, "--help"}, {c.name, "-h"}} {
			out, errs, status := run(t, args...)
			if status != 0 || !strings.HasPrefix(out, "usage: arraysem "+c.name) || !strings.Contains(out, "\nexample:\n  ./arraysem "+c.name) || errs != "" {
				t.Errorf("arraysem %v: status %d\n%s%s", args, status, out, errs)
			}
		}
		if c.name == "prove" || c.name == "cover" {
			continue // campaigns: run by their own tests
		}
		t.Run("example "+c.name, func(t *testing.T) {
			words := shellWords(c.example)
			if words[0] != "./arraysem" {
				t.Fatalf("the example does not start with ./arraysem: %s", c.example)
			}
			saved := stdin
			stdin = strings.NewReader(":quit\n")
			defer func() { stdin = saved }()
			out, errs, status := run(t, words[1:]...)
			if status != 0 {
				t.Errorf("%s: status %d\n%s%s", c.example, status, out, errs)
			}
		})
	}
	for _, args := range [][]string{{"version"}, {"--version"}} {
		if out, _, status := run(t, args...); status != 0 || !strings.HasPrefix(out, "arraysem ") {
			t.Errorf("arraysem %v: status %d, %q", args, status, out)
		}
	}
	if _, errs, status := run(t, "help", "bogus"); status != 2 || !strings.Contains(errs, "help COMMAND") {
		t.Errorf("help bogus: status %d, %q", status, errs)
	}
	for _, l := range []string{"fun", "funmem", "imp", "remora", "remora/dynamic", "papers", "data"} {
		if out, errs, status := run(t, "help", "syntax", l); status != 0 || !strings.HasPrefix(out, "# ") {
			t.Errorf("help syntax %s: status %d, %q", l, status, errs)
		}
	}
	if _, errs, status := run(t, "help", "syntax", "cobol"); status != 2 || !strings.Contains(errs, "no reference") {
		t.Errorf("help syntax cobol: status %d, %q", status, errs)
	}
}

// TestHelpRules: help rules LANG prints every rule of the language's
// table, each once, with its figure and (the start of) its doc.
func TestHelpRules(t *testing.T) {
	for _, tc := range []struct {
		lang  string
		rules semantics.RuleTable
	}{{"fun", fun.Rules}, {"imp", imp.Rules}, {"funmem", funmem.Rules}, {"remora/dynamic", dynamic.Rules}} {
		out, errs, status := run(t, "help", "rules", tc.lang)
		if status != 0 {
			t.Fatalf("help rules %s: status %d, %s", tc.lang, status, errs)
		}
		for _, r := range tc.rules {
			words := strings.Fields(r.Doc)
			re := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(r.Name) + ` +` + regexp.QuoteMeta(r.Figure) + ` +` + regexp.QuoteMeta(strings.Join(words[:min(3, len(words))], " ")))
			if len(re.FindAllString(out, -1)) != 1 {
				t.Errorf("help rules %s: no line for %s (%s: %s):\n%s", tc.lang, r.Name, r.Figure, r.Doc, out)
			}
		}
	}
	if out, _, _ := run(t, "help", "rules", "fun"); !strings.Contains(strings.Join(strings.Fields(out), " "), "E-KERNEL Fig 4 kernel x <= y do b stacks the results of b for x = 1 … E(y)") {
		t.Errorf("help rules fun: E-KERNEL's doc, counting from 1, is not shown:\n%s", out)
	}
	for _, args := range [][]string{{"help", "rules"}, {"help", "rules", "cobol"}} {
		if _, errs, status := run(t, args...); status != 2 || !strings.Contains(errs, "help rules") {
			t.Errorf("%v: status %d, %q", args, status, errs)
		}
	}
}

// shellWords splits a command line at blanks outside single quotes.
func shellWords(s string) []string {
	var out []string
	var cur strings.Builder
	quoted, have := false, false
	for _, r := range s {
		switch {
		case r == '\'':
			quoted, have = !quoted, true
		case r == ' ' && !quoted:
			if have {
				out = append(out, cur.String())
				cur.Reset()
				have = false
			}
		default:
			cur.WriteRune(r)
			have = true
		}
	}
	if have {
		out = append(out, cur.String())
	}
	return out
}

// TestBinaryLinksNoTesting: the arraysem command links neither the testing
// package nor gopter (campaigns run through proofs-tests' Prove, whose
// gopter adapters are test files).
func TestBinaryLinksNoTesting(t *testing.T) {
	gobin, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	out, err := exec.Command(gobin, "list", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "testing" || strings.HasPrefix(dep, "github.com/leanovate/gopter") {
			t.Errorf("the arraysem command links %s", dep)
		}
	}
}

// TestEveryLanguageHasAReference: help syntax LANG works for every
// registered language, so a new level comes with its reference.
func TestEveryLanguageHasAReference(t *testing.T) {
	reg := check.NewRegistry()
	for _, l := range reg.Languages() {
		if _, ok := reference(reg, l.Name()); !ok {
			t.Errorf("help syntax %s: no reference in docs/", l.Name())
		}
	}
}

// TestPackageDocListsCommands: the command's package doc lists exactly the
// commands, with their arguments, that `arraysem help` does.
func TestPackageDocListsCommands(t *testing.T) {
	src, err := os.ReadFile("main.go")
	if err != nil {
		t.Fatal(err)
	}
	var doc []string
	for _, line := range strings.Split(string(src), "\n") {
		if rest, ok := strings.CutPrefix(line, "//\tarraysem "); ok {
			doc = append(doc, rest)
		}
	}
	var want []string
	for _, c := range commands {
		want = append(want, strings.TrimSpace(c.name+" "+c.args))
	}
	if !slices.Equal(doc, want) {
		t.Errorf("main.go's package doc lists\n%s\nbut help lists\n%s", strings.Join(doc, "\n"), strings.Join(want, "\n"))
	}
}
