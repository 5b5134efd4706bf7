package check

import (
	"bytes"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/lang"
)

// TestRowLabelsFollowOneScheme: for a program of every source language,
// every row of side-by-side is labelled "LEVEL source" or "LEVEL after
// PASS" (lang.LevelName), where LEVEL is a language's title and the
// labels of a variant's passes and PASS a registered pass; the table
// marks with ▸ exactly the rows whose level is Final, and every language
// a walk reaches has a Final row.
func TestRowLabelsFollowOneScheme(t *testing.T) {
	reg := NewRegistry()
	files := map[string][]string{
		"fun":            {"../examples/fun/fuse_fig8.fun", "../examples/fun/slice.fun", "../examples/fun/matmul.fun"},
		"funmem":         {"../examples/funmem/assert.funmem"},
		"imp":            {"../examples/imp/assert.imp"},
		"remora":         {"../examples/remora/a1_basic_addition.remora", "../examples/remora/fig8_reduce_type.remora"},
		"remora/dynamic": {"../examples/remora-dynamic/booleans.remora"},
	}
	var titles, passes, labels []string
	for _, l := range reg.Languages() {
		titles = append(titles, regexp.QuoteMeta(l.Title()))
	}
	for _, p := range reg.Passes() {
		passes = append(passes, regexp.QuoteMeta(p.Name))
		for _, v := range []lang.Options{{}, lang.Options{}.With("expand").WithString("layout", "gpu"), lang.Options{}.With("expand").WithString("layout", "cpu")} {
			if p.Label != nil && p.Label(v) != "" {
				labels = append(labels, regexp.QuoteMeta(p.Label(v)))
			}
		}
	}
	// Longest first, so that "Remora" does not match the start of
	// "Remora IR".
	byLength := func(a, b string) int { return len(b) - len(a) }
	slices.SortFunc(titles, byLength)
	scheme := regexp.MustCompile(`^(` + strings.Join(titles, "|") + `)((?: (?:` + strings.Join(labels, "|") + `))*) (source|after (?:` + strings.Join(passes, "|") + `))( ▸)?$`)
	type source struct {
		name string
		p    lang.Program
		args map[string]string
	}
	var sources []source
	for name, fs := range files {
		for _, f := range fs {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			spec, err := SpecOf(reg, f, string(src))
			if err != nil || len(spec.Cases) == 0 {
				t.Fatalf("%s: %v (a test block expected)", f, err)
			}
			p := loadFile(t, f)
			if p.Language().Name() != name {
				t.Fatalf("%s is a %s program, not %s", f, p.Language().Name(), name)
			}
			sources = append(sources, source{f, p, spec.Cases[0].Args})
		}
	}
	// The levels no example is written in: a program compiled to them.
	for _, to := range []string{"remora-ir", "cuda"} {
		st, err := reg.Compile(loadFile(t, files["remora"][0]), to, lang.Options{})
		if err != nil {
			t.Fatal(err)
		}
		files[to] = []string{to}
		sources = append(sources, source{files["remora"][0] + " compiled to " + to, st[len(st)-1].Program, nil})
	}
	for _, l := range reg.Languages() {
		if len(l.Extensions()) > 0 && files[l.Name()] == nil {
			t.Errorf("no program of %s here: every source language's labels are to be checked", l.Name())
		}
	}
	for _, s := range sources {
		{
			f, p := s.name, s.p
			rows, _ := SideBySide(reg, p, s.args)
			var b bytes.Buffer
			PrintRows(&b, rows, nil)
			lines := strings.Split(b.String(), "\n")[1 : len(rows)+1]
			final := map[string]bool{}
			for i, line := range lines {
				label, _, _ := strings.Cut(line, "  ")
				m := scheme.FindStringSubmatch(label)
				if m == nil {
					t.Errorf("%s: row %q is not LEVEL source or LEVEL after PASS", f, label)
					continue
				}
				r := rows[i]
				if (m[4] != "") != r.Final || r.Final && r.Declined != nil {
					t.Errorf("%s: row %q: marked %v, Final %v", f, label, m[4] != "", r.Final)
				}
				if (r.Level == rows[0].Level) != (m[3] == "source") {
					t.Errorf("%s: row %d labelled %q: the source is the first row, and the only one", f, i+1, label)
				}
				if r.Declined == nil {
					lang := r.Stages[len(r.Stages)-1].Program.Language().Title()
					final[lang] = final[lang] || r.Final
				}
			}
			for lang, ok := range final {
				if !ok {
					t.Errorf("%s: no row of %s is marked final:\n%s", f, lang, b.String())
				}
			}
		}
	}
}
