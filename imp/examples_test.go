package imp_test

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The examples of examples/imp are golden tests (`arraysem test`, run by
// main_test.go). Each starts with a comment saying what it shows and,
// for the programs that run, a "Rules:" paragraph naming the rules of
// Fig 12 and of the extensions it exercises ("stuck in R" for the rule it
// gets stuck in). This test keeps those comments honest: every rule a
// header names is applied by some case of the file under both semantics,
// or is the rule of some case's error, and every rule of Fig 12 or of the
// extensions the cases apply is named; and together the examples
// exercise every rule of Fig 12 and every extension's.

var fig12Rules = imp.Rules.Names("Fig 12")

var ruleName = regexp.MustCompile(`\bE-IMP-[A-Z]+(?:-[A-Z]+)*\b|\bIMP-(?:SCOPE|TYPE|FOR|ASSERT|REDUCE|SCAN)\b|\bI-(?:FOR|ASSERT|REDUCE|SCAN)\b`)

// extensionRules are the evaluation rules of the extensions, which the
// examples' headers name as they name Fig 12's.
var extensionRules = []string{imp.IFor.Name, imp.IAssert.Name, imp.IReduce.Name, imp.IScan.Name, imp.EImpDecFloat.Name}

// headerRules is the set of rule names in a file's "Rules:" paragraph:
// the comment lines from the one starting "-- Rules:" up to "-- ==".
func headerRules(src string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(src, "\n") {
		t := strings.TrimSpace(l)
		if t == "-- ==" || !strings.HasPrefix(t, "--") {
			break
		}
		if strings.HasPrefix(t, "-- Rules:") {
			in = true
		}
		if in {
			out = append(out, ruleName.FindAllString(t, -1)...)
		}
	}
	return out
}

func TestExamplesRules(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "imp", "*.imp"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	total := map[string]bool{}
	for _, file := range files {
		name := filepath.Base(file)
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(string(src), "-- ") {
			t.Errorf("%s: does not start with a comment saying what it shows", name)
		}
		spec, err := check.ParseSpec(string(src), "--")
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		l, err := check.Load(check.NewRegistry(), file, string(src), check.Options{})
		if err != nil {
			if spec.LoadError == nil {
				t.Errorf("%s: %v", name, err)
			}
			// A checker example: its comment names its rule.
			if r := ruleOf(err); !strings.Contains(strings.SplitN(string(src), "-- ==", 2)[0], r) {
				t.Errorf("%s: the comment does not name %s, the rule the checker refuses it by", name, r)
			}
			continue
		}
		listed := headerRules(string(src))
		if len(listed) == 0 {
			t.Errorf("%s: no Rules: paragraph in the header", name)
		}
		applied := map[string]map[string]bool{"big": {}, "small": {}}
		for _, sem := range []string{"big", "small"} {
			counter := semantics.Counter{}
			for _, c := range spec.Cases {
				o := lang.RunOptions{Semantics: sem, Args: c.Args}
				o.Counter = counter
				_, err := l.Run(o)
				var se *semantics.Error
				if errors.As(err, &se) {
					applied[sem][se.Rule] = true
				}
			}
			for r := range counter {
				applied[sem][r] = true
			}
		}
		for _, r := range listed {
			for _, sem := range []string{"big", "small"} {
				if !applied[sem][r] {
					t.Errorf("%s: the header names %s, which no case applies under the %s-step semantics (applied: %s)", name, r, sem, setList(applied[sem]))
				}
			}
		}
		named := map[string]bool{}
		for _, r := range listed {
			named[r] = true
		}
		for r := range applied["big"] {
			total[r] = true
			if (strings.HasPrefix(r, "E-IMP-") || strings.HasPrefix(r, "I-")) && !named[r] {
				t.Errorf("%s: the cases apply %s, which the header's Rules: paragraph does not name", name, r)
			}
		}
	}
	for _, r := range append(fig12Rules, extensionRules...) {
		if !total[r] {
			t.Errorf("no example of examples/imp applies %s", r)
		}
	}
}

func setList(s map[string]bool) string {
	var out []string
	for k := range s {
		out = append(out, k)
	}
	sort.Strings(out)
	return strings.Join(out, " ")
}
