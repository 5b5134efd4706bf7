package proofstests

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/semantics"
)

// The code names rules by the values of the languages' rule tables, so a
// misspelt rule there does not compile. The tests below do the same for
// the rule names written in text: the golden files' rules and error
// markers, the examples' comments (their Rules: paragraphs and expected
// errors), and the coverage report's figures.

// ruleLike is how the papers' rule names look in text: T-MEM-LMAD,
// E-IMP-IF-TRUE, IMP-SCOPE. Remora's reduction rules (β, lift, …) are
// words, checked where they stand as an error's rule.
var ruleLike = regexp.MustCompile(`\b[A-Z]+(?:-[A-Z0-9]+)+\b`)

// leadingRule is the rule an error marker or expected error starts with:
// "RULE: message".
var leadingRule = regexp.MustCompile(`^\s*([^\s:\\]+): `)

// ruleLanguage is a language's golden files and examples, with the rules
// their text may name: its own table, and those of the levels its
// comments compare it with (FUNMEM's scalar rules and its examples'
// "stuck in E-IOTA (value)" are FUN's).
type ruleLanguage struct {
	name     string
	goldens  []string // testdata files, relative to the repository root
	comment  string
	examples string // the examples' directory, relative to the repository root
	tables   []semantics.RuleTable
}

var ruleLanguages = []ruleLanguage{
	{"fun", []string{"fun/testdata/parse.txt", "fun/testdata/check.txt"}, "--", "examples/fun",
		[]semantics.RuleTable{fun.Rules}},
	{"funmem", []string{"funmem/testdata/parse.txt", "funmem/testdata/check.txt"}, "--", "examples/funmem",
		[]semantics.RuleTable{funmem.Rules, fun.Rules}},
	{"imp", []string{"imp/testdata/parse.txt", "imp/testdata/check.txt"}, "--", "examples/imp",
		[]semantics.RuleTable{imp.Rules, funmem.Rules, fun.Rules}},
	{"remora", []string{"remora/testdata/parse.txt", "remora/testdata/check.txt"}, ";", "examples/remora",
		[]semantics.RuleTable{remora.Rules}},
	{"remora/dynamic", []string{"remora/dynamic/testdata/parse.txt", "remora/dynamic/testdata/run.txt",
		"remora/dynamic/testdata/infer.txt"}, ";", "examples/remora-dynamic",
		[]semantics.RuleTable{dynamic.Rules, remora.Rules}},
}

// known reports whether name is a rule of one of the tables.
func (l ruleLanguage) known(name string) bool {
	return slices.ContainsFunc(l.tables, func(t semantics.RuleTable) bool { _, ok := t.Lookup(name); return ok })
}

// checkLeading reports an unknown rule at the start of an expected error
// (re), when it looks like a rule: a T-…-style name, or a word that names
// a rule of some language (so that "lift:" is checked but "unbox:", the
// start of a parse error's message, is not).
func (l ruleLanguage) checkLeading(t *testing.T, where, re string) {
	t.Helper()
	m := leadingRule.FindStringSubmatch(re)
	if m == nil {
		return
	}
	if r := m[1]; (ruleLike.MatchString(r) || anyTableHas(r)) && !l.known(r) {
		t.Errorf("%s: the expected error names %s, which is not a rule of %s", where, r, l.name)
	}
}

func anyTableHas(name string) bool {
	for _, l := range ruleLanguages {
		if l.known(name) {
			return true
		}
	}
	return false
}

// TestGoldenRuleNames: every rule a golden file's markers name is in its
// language's table.
func TestGoldenRuleNames(t *testing.T) {
	t.Parallel()
	for _, l := range ruleLanguages {
		for _, path := range l.goldens {
			for _, c := range golden.Read(t, filepath.Join("..", path), l.comment) {
				where := path + ":" + c.Name()
				for _, r := range c.Rules {
					if !l.known(r) {
						t.Errorf("%s: rules marker names %s, which is not a rule of %s", where, r, l.name)
					}
				}
				if c.ErrRe != nil {
					l.checkLeading(t, where, c.ErrRe.String())
				}
			}
		}
	}
}

// TestExampleRuleNames: every rule-like name in the examples' comments
// (headers, Rules: paragraphs, expected errors) is in the tables of the
// example's language, and every expected error's leading rule too.
func TestExampleRuleNames(t *testing.T) {
	t.Parallel()
	for _, l := range ruleLanguages {
		files, err := filepath.Glob(filepath.Join("..", l.examples, "*"))
		if err != nil || len(files) == 0 {
			t.Fatalf("%s: no examples (%v)", l.examples, err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			for i, line := range strings.Split(string(src), "\n") {
				text, ok := strings.CutPrefix(strings.TrimSpace(line), l.comment)
				if !ok {
					continue
				}
				text = strings.TrimLeft(text, l.comment) // Remora's examples comment with ";;"
				where := filepath.Base(file) + ":" + strconv.Itoa(i+1)
				for _, r := range ruleLike.FindAllString(text, -1) {
					if !l.known(r) {
						t.Errorf("%s: the comment names %s, which is not a rule of %s", where, r, l.name)
					}
				}
				if e, ok := strings.CutPrefix(strings.TrimSpace(text), "error:"); ok {
					l.checkLeading(t, where, e)
				}
			}
		}
	}
}

// TestCoverRuleNames: the coverage report's figures list rules of the
// tables, each once.
func TestCoverRuleNames(t *testing.T) {
	t.Parallel()
	tables := []semantics.RuleTable{fun.Rules, funmem.Rules, imp.Rules, remora.Rules}
	seen := map[string]bool{}
	for _, f := range Figures {
		for _, r := range f.Rules {
			if !slices.ContainsFunc(tables, func(t semantics.RuleTable) bool { _, ok := t.Lookup(r); return ok }) {
				t.Errorf("%s: %s is not in a rule table", f.Name, r)
			}
			if seen[f.Name+r] {
				t.Errorf("%s: %s twice", f.Name, r)
			}
			seen[f.Name+r] = true
		}
	}
}

// TestRuleTables: each table names each rule once, with a figure and a
// line of doc.
func TestRuleTables(t *testing.T) {
	t.Parallel()
	for _, l := range ruleLanguages {
		names := map[string]bool{}
		for _, r := range l.tables[0] {
			if r.Name == "" || r.Figure == "" || r.Doc == "" {
				t.Errorf("%s: incomplete rule %+v", l.name, r)
			}
			if names[r.Name] {
				t.Errorf("%s: %s twice", l.name, r.Name)
			}
			names[r.Name] = true
		}
	}
}
