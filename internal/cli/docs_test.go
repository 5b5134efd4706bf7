package cli

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
)

// docPrograms loads a program of every source language the examples
// have, and compiles them to every level they reach, so that the tests
// below can ask each registered language's programs what they have
// (their semantics) and each program what side-by-side runs of it.
func docPrograms(t *testing.T, reg *lang.Registry) (sources []lang.Program, byLang map[string]lang.Program) {
	t.Helper()
	byLang = map[string]lang.Program{}
	for _, file := range []string{"examples/fun/fig2.fun", "examples/funmem/fig7.funmem", "examples/imp/fig13.imp",
		"examples/remora/a2_implicit_map.remora", "examples/remora-dynamic/rp2_dot.remora"} {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		p, err := check.Load(reg, file, string(src), check.Options{})
		if err != nil {
			t.Fatal(err)
		}
		sources = append(sources, p)
		byLang[p.Language().Name()] = p
		for _, to := range reg.Reachable(p.Language().Name()) {
			st, err := reg.Compile(p, to, lang.Options{})
			if err != nil {
				t.Fatalf("compile %s --to %s: %v", file, to, err)
			}
			if _, ok := byLang[to]; !ok {
				byLang[to] = st[len(st)-1].Program
			}
		}
	}
	for _, l := range reg.Languages() {
		if byLang[l.Name()] == nil {
			t.Fatalf("no example reaches %s: add one to docPrograms", l.Name())
		}
	}
	return sources, byLang
}

// semanticsList is how help run lists each language's semantics, from
// the registry: languages with the same semantics together, in the
// registry's order, each list with its default first.
func semanticsList(reg *lang.Registry, byLang map[string]lang.Program) string {
	var order []string
	titles := map[string][]string{}
	for _, l := range reg.Languages() {
		sems := strings.Join(byLang[l.Name()].Semantics(), ", ")
		if titles[sems] == nil {
			order = append(order, sems)
		}
		titles[sems] = append(titles[sems], l.Title())
	}
	parts := make([]string, len(order))
	for i, sems := range order {
		parts[i] = strings.Join(titles[sems], ", ") + ": " + sems
	}
	return strings.Join(parts, "; ")
}

// helpText is `arraysem help NAME` with its lines joined by blanks, so
// that a phrase is found wherever the text wraps.
func helpText(t *testing.T, name string) string {
	t.Helper()
	out, errs, status := run(t, "help", name)
	if status != 0 {
		t.Fatalf("help %s: status %d: %s", name, status, errs)
	}
	return strings.Join(strings.Fields(out), " ")
}

// TestHelpFollowsRegistry: what help says of the languages, their
// semantics, the levels side-by-side runs and the compile options is
// what the registry has, so that adding a language, a semantics, a pass
// or an option fails here until the help says so.
func TestHelpFollowsRegistry(t *testing.T) {
	reg := check.NewRegistry()
	sources, byLang := docPrograms(t, reg)

	// run: every language's semantics, the default first.
	want := "(" + semanticsList(reg, byLang) + ")"
	if run := helpText(t, "run"); !strings.Contains(run, want) {
		t.Errorf("help run does not list the semantics as the registry has them; want the phrase\n%s\nin\n%s", want, run)
	}

	// side-by-side: every level it makes a row of, by its language's
	// title, the pass after which it runs a stage, and its variant's
	// label; and the passes whose stages have rows of their own.
	side := helpText(t, "side-by-side")
	var named []string
	for _, p := range sources {
		levels, err := reg.Levels(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, lv := range levels {
			if lv.Declined != nil {
				continue
			}
			title := lv.Program().Language().Title()
			named = append(named, title)
			rest, _ := strings.CutPrefix(lv.Name, title)
			rest, after, _ := strings.Cut(rest, " after ")
			if after != "" {
				named = append(named, after)
			}
			named = append(named, strings.FieldsFunc(rest, func(r rune) bool { return r == ' ' || r == '(' || r == ')' })...)
			for _, s := range lv.Stages[1:] {
				if s.Pass.Row || s.Pass.RowWhenChanged {
					named = append(named, s.Pass.Name)
				}
			}
		}
	}
	for _, l := range reg.Languages() {
		named = append(named, l.Title())
	}
	slices.Sort(named)
	var missing []string
	for _, w := range slices.Compact(named) {
		if !regexp.MustCompile(`(^|[\s,;(])` + regexp.QuoteMeta(w) + `($|[\s,;):])`).MatchString(side) {
			missing = append(missing, w)
		}
	}
	if len(missing) > 0 {
		t.Errorf("help side-by-side does not name %q, which the registry's levels have:\n%s", missing, side)
	}

	// compile: the OPTIONs are the options the registered passes declare.
	var opts []string
	for _, o := range reg.Options() {
		opts = append(opts, "--"+o.Name)
	}
	want = "(the OPTIONs: " + strings.Join(opts, ", ") + ")"
	if c := helpText(t, "compile"); !strings.Contains(c, want) {
		t.Errorf("help compile does not list the options the passes declare; want the phrase\n%s\nin\n%s", want, c)
	}
}

// TestReadmeFollowsRegistry: README's lists of levels, of the Remora
// compile path's stages, of the compile flags, and its architecture
// diagram's translations and pipelines are the registry's.
func TestReadmeFollowsRegistry(t *testing.T) {
	reg := check.NewRegistry()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	flat := strings.Join(strings.Fields(readme), " ")
	title := func(name string) string {
		l, ok := reg.Language(name)
		if !ok {
			t.Fatalf("no language %s", name)
		}
		return l.Title()
	}

	// The levels a program runs at, from FUN and from Remora.
	for _, from := range []string{"fun", "remora"} {
		chain := []string{title(from)}
		for _, to := range reg.Reachable(from) {
			if to != from {
				chain = append(chain, title(to))
			}
		}
		if want := strings.Join(chain, " → "); !strings.Contains(flat, want) {
			t.Errorf("README does not show the levels from %s as the registry has them: want %q", from, want)
		}
	}
	var others []string
	for _, to := range reg.Reachable("remora") {
		if to != "remora" && to != "fun" {
			others = append(others, to)
		}
	}
	if want := "--to fun # or " + strings.Join(others, ", "); !strings.Contains(flat, want) {
		t.Errorf("README's compile example from Remora does not list the levels it reaches: want %q", want)
	}

	// The Remora compile path's table: a row per pass from a Remora level.
	for _, p := range reg.Passes() {
		if !strings.HasPrefix(p.From, "remora") {
			continue
		}
		levels := p.From + " → " + p.To
		if !p.Translation() {
			levels = p.From
		}
		if !regexp.MustCompile(`(?m)^\| ` + regexp.QuoteMeta(p.Name) + `( \([^)]*\))? \| ` + regexp.QuoteMeta(levels) + ` \|`).MatchString(readme) {
			t.Errorf("README's table of the Remora compile path has no row | %s | %s |", p.Name, levels)
		}
	}

	// The compile flags the passes' options make.
	m := regexp.MustCompile("The compile command's flags \\(([^)]*)\\)").FindStringSubmatch(flat)
	if m == nil {
		t.Fatal("README no longer lists the compile command's flags")
	}
	var opts, listed []string
	for _, o := range reg.Options() {
		opts = append(opts, "--"+o.Name)
	}
	for _, f := range strings.Split(m[1], ", ") {
		listed = append(listed, strings.Trim(f, "`"))
	}
	slices.Sort(listed)
	if !slices.Equal(listed, opts) {
		t.Errorf("README lists the compile flags %v; the passes declare %v", listed, opts)
	}

	// The architecture diagram: every translation and every pipeline.
	_, diagram, _ := strings.Cut(readme, "## Architecture")
	_, diagram, _ = strings.Cut(diagram, "```\n")
	diagram, _, _ = strings.Cut(diagram, "```")
	var words []string
	for _, w := range strings.Fields(strings.Map(func(r rune) rune {
		if strings.ContainsRune("│┌┐└┘▲▼", r) {
			return ' '
		}
		return r
	}, diagram)) {
		if strings.Trim(w, "─") != "" { // arrows without a pass are lines
			words = append(words, w)
		}
	}
	diagram = strings.Join(words, " ")
	for _, p := range reg.Passes() {
		if p.Translation() && !strings.Contains(diagram, p.From+" ──"+p.Name+"──▶ "+p.To) {
			t.Errorf("README's architecture diagram lacks the translation %s ──%s──▶ %s", p.From, p.Name, p.To)
		}
	}
	for _, pl := range reg.Pipelines() {
		if want := `"` + pl.Name + `": ` + strings.Join(pl.Passes, ", "); !strings.Contains(diagram, want) {
			t.Errorf("README's architecture diagram lacks the pipeline %s", want)
		}
	}
}
