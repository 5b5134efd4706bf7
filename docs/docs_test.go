package docs

// The references' examples run, so that they cannot drift from the code.
//
// Convention. A fenced code block whose info string is fun, funmem, imp or
// remora is an example when it states what it gives, in comments of its
// language (-- for FUN, FUNMEM and IMP; ; or ;; for Remora):
//
//	-- args: n=3 xs=[1 2 3]     the inputs (--arg NAME=VALUE, space separated)
//	-- ⇒ [1 2 3]                one expected line of `arraysem run`, in order;
//	                            it may also trail code: (+ 1 2)  ; ⇒ 3
//	-- error: T-SLICE: size     loading or running fails with an error whose
//	                            text contains what follows "error:"
//	-- semantics: big           run only under these semantics (default: all
//	                            the program has, e.g. big and small)
//	-- mode: check              compare what `arraysem check` prints instead:
//	                            the program's type (one line per Remora
//	                            expression), then, for FUNMEM given args,
//	                            validity (Def 3.1) and race freedom (eq 4)
//
// An example is loaded with check.Load under a file name whose extension
// is the info string (a remora block whose first line is
// "#lang remora/dynamic" is in that dialect) and run under each semantics;
// its lines must equal the ⇒ lines. Blocks without ⇒ or error: are
// fragments and are not run. This holds for every docs/*.md. Every name of
// the Remora basis (remora.Basis) must appear in remora.md as `name`.

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
)

type example struct {
	file   string // the Markdown file
	line   int    // the line of the opening fence
	lang   string // fun, funmem, imp, remora
	src    string
	args   map[string]string
	want   []string
	err    string
	sems   []string
	check  bool // mode: check
	tagged bool // has ⇒ or error:
}

var langs = map[string]string{"fun": ".fun", "funmem": ".funmem", "imp": ".imp", "remora": ".remora"}

// examples reads the fenced blocks of a Markdown file.
func examples(t *testing.T, file string) []example {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var out []example
	var cur *example
	var body []string
	for i, line := range strings.Split(string(b), "\n") {
		trim := strings.TrimSpace(line)
		if cur == nil {
			if strings.HasPrefix(trim, "```") {
				info := strings.TrimSpace(strings.TrimPrefix(trim, "```"))
				if _, ok := langs[info]; ok {
					cur = &example{file: file, line: i + 1, lang: info, args: map[string]string{}}
					body = nil
				} else {
					cur = &example{line: -1} // another language: skipped to its end
				}
			}
			continue
		}
		if trim == "```" {
			if cur.line >= 0 {
				cur.src = strings.Join(body, "\n") + "\n"
				parseDirectives(t, cur, body)
				out = append(out, *cur)
			}
			cur = nil
			continue
		}
		body = append(body, line)
	}
	if cur != nil {
		t.Fatalf("%s: unclosed code block", file)
	}
	return out
}

var (
	comment = regexp.MustCompile(`(?:--|;+)\s*(args:|⇒|error:|semantics:|mode:)(.*)$`)
	argRE   = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_']*)=(\[[^=]*\]|\S+)`)
)

func parseDirectives(t *testing.T, e *example, body []string) {
	for _, l := range body {
		m := comment.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		rest := strings.TrimSpace(m[2])
		switch m[1] {
		case "args:":
			for _, a := range argRE.FindAllStringSubmatch(rest, -1) {
				e.args[a[1]] = a[2]
			}
		case "⇒":
			e.want = append(e.want, rest)
			e.tagged = true
		case "error:":
			e.err = rest
			e.tagged = true
		case "semantics:":
			e.sems = strings.Fields(rest)
		case "mode:":
			if rest != "check" && rest != "run" {
				t.Fatalf("%s:%d: unknown mode %q (run or check)", e.file, e.line, rest)
			}
			e.check = rest == "check"
		}
	}
}

func mdFiles(t *testing.T) []string {
	fs, err := filepath.Glob("*.md")
	if err != nil || len(fs) == 0 {
		t.Fatalf("no Markdown files: %v", err)
	}
	return fs
}

func TestExamples(t *testing.T) {
	n := 0
	for _, f := range mdFiles(t) {
		for _, e := range examples(t, f) {
			if !e.tagged {
				continue
			}
			n++
			name := fmt.Sprintf("%s:%d", e.file, e.line)
			t.Run(name, func(t *testing.T) { runExample(t, e) })
		}
	}
	if n == 0 {
		t.Fatal("no examples found")
	}
}

func runExample(t *testing.T, e example) {
	file := fmt.Sprintf("%s_%d%s", strings.TrimSuffix(e.file, ".md"), e.line, langs[e.lang])
	p, err := check.Load(check.NewRegistry(), file, e.src, check.Options{})
	if err != nil {
		if e.err != "" && strings.Contains(err.Error(), e.err) {
			return
		}
		t.Fatalf("%s:%d: load: %v\n%s", e.file, e.line, err, e.src)
	}
	if e.check {
		checkExample(t, e, p)
		return
	}
	sems := e.sems
	if len(sems) == 0 {
		sems = p.Semantics()
	}
	for _, sem := range sems {
		r, err := p.Run(lang.RunOptions{Semantics: sem, Args: e.args})
		if e.err != "" {
			if err == nil {
				t.Errorf("%s:%d: %s: ran to %q, want an error containing %q", e.file, e.line, sem, r.Lines, e.err)
			} else if !strings.Contains(err.Error(), e.err) {
				t.Errorf("%s:%d: %s: error %q, want one containing %q", e.file, e.line, sem, err, e.err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s:%d: %s: %v", e.file, e.line, sem, err)
			continue
		}
		if !slices.Equal(r.Lines, e.want) {
			t.Errorf("%s:%d: %s semantics gives\n\t%s\nwant\n\t%s", e.file, e.line, sem,
				strings.Join(r.Lines, "\n\t"), strings.Join(e.want, "\n\t"))
		}
	}
}

// checkExample compares what `arraysem check` prints.
func checkExample(t *testing.T, e example, p lang.Program) {
	lines := strings.Split(p.Type(), "\n")
	var err error
	if ic, ok := p.(lang.InputChecker); ok && len(e.args) > 0 {
		var more []string
		more, err = ic.CheckInputs(e.args)
		lines = append(lines, more...)
	}
	switch {
	case e.err != "" && err == nil:
		t.Errorf("%s:%d: check gives %q, want an error containing %q", e.file, e.line, lines, e.err)
	case e.err != "" && !strings.Contains(err.Error(), e.err):
		t.Errorf("%s:%d: check: error %q, want one containing %q", e.file, e.line, err, e.err)
	case e.err == "" && err != nil:
		t.Errorf("%s:%d: check: %v", e.file, e.line, err)
	case e.err == "" && !slices.Equal(lines, e.want):
		t.Errorf("%s:%d: check gives\n\t%s\nwant\n\t%s", e.file, e.line,
			strings.Join(lines, "\n\t"), strings.Join(e.want, "\n\t"))
	}
}

// TestBasisDocumented checks that remora.md names every primitive of the
// typed dialect's basis, in backquotes.
func TestBasisDocumented(t *testing.T) {
	b, err := os.ReadFile("remora.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	var names []string
	for name := range remora.Basis {
		names = append(names, name)
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("remora.Basis is empty")
	}
	for _, name := range names {
		if !strings.Contains(doc, "`"+name+"`") {
			t.Errorf("remora.md does not document basis primitive `%s`", name)
		}
	}
}

// TestPages checks the embedded references: every language's page (as
// the registry names it) and the bibliography are Markdown documents.
func TestPages(t *testing.T) {
	pages := []string{Bibliography}
	for _, l := range check.NewRegistry().Languages() {
		if l.Page() == "" {
			t.Errorf("%s names no reference page", l.Name())
		}
		pages = append(pages, l.Page())
	}
	for _, name := range pages {
		s, ok := Page(name)
		if !ok || !strings.HasPrefix(s, "# ") {
			t.Errorf("Page(%q) = %.20q, %v; want a Markdown document", name, s, ok)
		}
	}
	if _, ok := Page("cobol.md"); ok {
		t.Error("Page(cobol.md) reports a page")
	}
}
