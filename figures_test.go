package main

import (
	"go/scanner"
	"go/token"
	"os"
	"path"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeFiguresPointAtTheirRules: each row of README's tables of
// where a figure lives ("| Fig 4 (big-step) | E-IF-TRUE … | `fun/fig4.go`
// … |") names files that exist and that, together, define every rule the
// row lists: their code (comments left out, so a file that only mentions
// a rule does not count) uses the rule, by the variable its package's
// rule table (rules.go) gives it (EKernel) or by its name in a string
// ("E-KERNEL"), so that the table stays true as rules move between files. A file named
// without a directory ("heap.go") is in the directory of the file named
// before it in the row.
func TestReadmeFiguresPointAtTheirRules(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	fileRe := regexp.MustCompile("`((?:[a-z0-9_-]+/)*[a-z0-9_]+\\.go)`")
	ruleRe := regexp.MustCompile(`\b[A-Z]+(?:-[A-Z0-9]+)+\b`)
	// The variables of the rule tables: name → variables, by directory.
	tableRe := regexp.MustCompile(`(?m)^\s*([A-Za-z0-9_]+)\s*=\s*semantics\.Rule\{Name: "([^"]+)"`)
	vars := map[string]map[string][]string{}
	varsIn := func(dir string) map[string][]string {
		if m, ok := vars[dir]; ok {
			return m
		}
		m := map[string][]string{}
		if src, err := os.ReadFile(path.Join(dir, "rules.go")); err == nil {
			for _, d := range tableRe.FindAllStringSubmatch(string(src), -1) {
				m[d[2]] = append(m[d[2]], d[1])
			}
		}
		vars[dir] = m
		return m
	}
	rows := 0
	for i, line := range strings.Split(string(data), "\n") {
		cells := strings.Split(line, " | ")
		if !strings.HasPrefix(line, "| Fig ") && !strings.HasPrefix(line, "| extension") || len(cells) < 3 {
			continue
		}
		where := strings.Join(cells[2:], " | ")
		var text strings.Builder
		dir := ""
		files := 0
		var dirs []string
		for _, m := range fileRe.FindAllStringSubmatch(where, -1) {
			f := m[1]
			if strings.Contains(f, "/") {
				dir = path.Dir(f)
			} else {
				f = path.Join(dir, f)
			}
			src, err := os.ReadFile(f)
			if err != nil {
				t.Errorf("README.md:%d: %v", i+1, err)
				continue
			}
			text.WriteString(codeOf(t, f, src))
			files++
			dirs = append(dirs, path.Dir(f))
		}
		if files == 0 {
			continue
		}
		rows++
		for _, rule := range ruleRe.FindAllString(cells[1], -1) {
			names := []string{regexp.QuoteMeta(rule)}
			for _, d := range dirs {
				names = append(names, varsIn(d)[rule]...)
			}
			if !regexp.MustCompile(`\b(` + strings.Join(names, "|") + `)\b`).MatchString(text.String()) {
				t.Errorf("README.md:%d: %s names %s, which none of its files (%s) names", i+1, strings.TrimPrefix(cells[0], "| "), rule, strings.TrimSpace(where))
			}
		}
	}
	if rows < 10 {
		t.Errorf("only %d rows of figures found in README.md", rows)
	}
}

// codeOf is the Go source src of file f without its comments: its
// identifiers and literals, one per line.
func codeOf(t *testing.T, f string, src []byte) string {
	t.Helper()
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile(f, -1, len(src)), src, nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return b.String()
		}
		if tok == token.IDENT || tok == token.STRING || tok == token.CHAR {
			b.WriteString(lit)
			b.WriteByte('\n')
		}
	}
}
