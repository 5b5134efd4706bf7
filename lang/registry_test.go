package lang

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// A toy language for the registry's tests: a program is a list of words
// (its syntax a *toy), which loads from space-separated text; a level
// "rejects" a word its checker refuses. Passes append words.
type toy struct{ words []string }

type toyLang struct {
	Info
	refuse string // a word the checker rejects
}

func newToy(name string) *toyLang {
	return &toyLang{Info: Info{LangName: name, LangTitle: strings.ToUpper(name), Exts: []string{"." + name}, CommentMark: "#", StepName: "small"}}
}

func (l *toyLang) Load(file, src string, o LoadOptions) (Program, error) {
	return l.Adopt(file, &toy{strings.Fields(src)}, o)
}

func (l *toyLang) Adopt(file string, syntax any, _ LoadOptions) (Program, error) {
	t, err := Tree[*toy](l, syntax)
	if err != nil {
		return nil, err
	}
	if l.refuse != "" && slices.Contains(t.words, l.refuse) {
		return nil, fmt.Errorf("%s refuses %q", l.Name(), l.refuse)
	}
	return &toyProg{l: l, file: file, t: t}, nil
}

func (l *toyLang) Print(syntax any) string { return strings.Join(syntax.(*toy).words, " ") }

type toyProg struct {
	l    *toyLang
	file string
	t    *toy
}

func (p *toyProg) Language() Language                { return p.l }
func (p *toyProg) File() string                      { return p.file }
func (p *toyProg) Syntax() any                       { return p.t }
func (p *toyProg) Type() string                      { return "words" }
func (p *toyProg) Derivation() *semantics.Derivation { return nil }
func (p *toyProg) Semantics() []string               { return []string{"big", "small"} }
func (p *toyProg) Inputs() []string                  { return nil }
func (p *toyProg) Run(o RunOptions) (*Result, error) {
	return Run(p, o, func(string) (*Result, error) { return &Result{Lines: []string{p.l.Print(p.t)}}, nil })
}
func (p *toyProg) Start(RunOptions) (*Stepper, error) { return nil, errors.New("no machine") }

// add is a pass from one toy language to another appending a word.
func add(name, from, to, word string, opts ...Option) Pass {
	return Pass{Name: name, From: from, To: to, Doc: "adds " + word, Options: opts,
		Run: func(s any, o Options) (any, []string, error) {
			t := s.(*toy)
			w := word
			if v := o.Str("suffix"); v != "" && slices.ContainsFunc(opts, func(x Option) bool { return x.Name == "suffix" }) {
				w += v
			}
			return &toy{append(slices.Clip(t.words), w)}, []string{"added " + w}, nil
		}}
}

// toys is a registry of three levels a → b → c, with the transformations
// Opt (switched off by --no-opt, reads --suffix) and Extra (selected by
// --extra) at b.
func toys() (*Registry, map[string]*toyLang) {
	ls := map[string]*toyLang{"a": newToy("a"), "b": newToy("b"), "c": newToy("c")}
	r := &Registry{}
	r.AddLanguage(ls["a"], ls["b"], ls["c"])
	r.AddPass(
		add("AtoB", "a", "b", "ab"),
		add("BtoC", "b", "c", "bc"),
		add("Opt", "b", "b", "opt",
			Option{Name: "no-opt", Kind: BoolOption, Switch: Disables, Help: "skip Opt"},
			Option{Name: "suffix", Kind: StringOption, Values: []string{"!", "?"}, Help: "a suffix"}),
		add("Extra", "b", "b", "extra", Option{Name: "extra", Kind: BoolOption, Switch: Selects, Help: "run Extra"}),
	)
	r.AddPipeline(
		Pipeline{Name: "b", Level: "b", Passes: []string{"Opt"}},
		Pipeline{Name: "b-extra", Level: "b", When: "extra", Passes: []string{"Opt", "Extra"}},
	)
	return r, ls
}

func load(t *testing.T, r *Registry, file, src string) Program {
	t.Helper()
	p, err := r.Load(file, src, "", "", LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func stageNames(st []Stage) string {
	var out []string
	for _, s := range st {
		out = append(out, s.Name())
	}
	return strings.Join(out, " ")
}

// TestCompileWalksPipelines: a walk translates along the shortest path
// and runs each level's pipeline, the one its options select, less the
// passes they switch off.
func TestCompileWalksPipelines(t *testing.T) {
	r, _ := toys()
	p := load(t, r, "x.a", "x")
	for _, tc := range []struct {
		o      Options
		stages string
		text   string
	}{
		{Options{}, "source AtoB Opt BtoC", "x ab opt bc"},
		{Options{}.With("no-opt"), "source AtoB BtoC", "x ab bc"},
		{Options{}.With("extra"), "source AtoB Opt Extra BtoC", "x ab opt extra bc"},
		{Options{}.With("extra").With("no-opt"), "source AtoB Extra BtoC", "x ab extra bc"},
		{Options{}.WithString("suffix", "!"), "source AtoB Opt BtoC", "x ab opt! bc"},
	} {
		st, err := r.Compile(p, "c", tc.o)
		if err != nil {
			t.Fatalf("%s: %v", tc.o.Flags(), err)
		}
		if got := stageNames(st); got != tc.stages {
			t.Errorf("%s: stages %s, want %s", tc.o.Flags(), got, tc.stages)
		}
		if got := st[len(st)-1].Text(); got != tc.text {
			t.Errorf("%s: %q, want %q", tc.o.Flags(), got, tc.text)
		}
	}
	// A source at b runs b's pipeline first; c has none.
	if st, err := r.Compile(load(t, r, "y.b", "y"), "c", Options{}); err != nil || stageNames(st) != "source Opt BtoC" {
		t.Errorf("from b: %v, %v", stageNames(st), err)
	}
	if _, err := r.Compile(p, "a", Options{}); err != nil {
		t.Errorf("to its own level: %v", err)
	}
}

// TestCompileRefuses: an unknown level, a level not reached, an option
// no pass declares, an invalid value, a pass whose output its checker
// rejects, and a pass that panics.
func TestCompileRefuses(t *testing.T) {
	r, ls := toys()
	p := load(t, r, "x.a", "x")
	for _, tc := range []struct {
		to   string
		o    Options
		want string
	}{
		{"z", Options{}, `unknown level "z" (a, b, c)`},
		{"a", Options{}, ""},
		{"c", Options{}.With("bogus"), "no pass reads a compile option --bogus"},
		{"c", Options{}.WithString("suffix", "#"), "--suffix #: want ! or ?"},
	} {
		_, err := r.Compile(p, tc.to, tc.o)
		if got := fmt.Sprint(err); tc.want == "" && err != nil || tc.want != "" && !strings.Contains(got, tc.want) {
			t.Errorf("to %s %s: %v, want %q", tc.to, tc.o.Flags(), err, tc.want)
		}
	}
	if _, err := r.Compile(load(t, r, "c.c", "z"), "a", Options{}); err == nil || !strings.Contains(err.Error(), "cannot compile c to a (c compiles to c)") {
		t.Errorf("c to a: %v", err)
	}
	ls["c"].refuse = "bc"
	_, err := r.Compile(p, "c", Options{})
	var pe *PassError
	if !errors.As(err, &pe) || pe.Pass.Name != "BtoC" || pe.Text != "x ab opt bc" || Declines(err) {
		t.Errorf("a rejected output: %v", err)
	}
	ls["c"].refuse = ""
	r.AddPass(Pass{Name: "Boom", From: "c", To: "c", Run: func(any, Options) (any, []string, error) { panic("boom") }})
	r.AddPipeline(Pipeline{Name: "c", Level: "c", Passes: []string{"Boom"}})
	_, err = r.Compile(p, "c", Options{})
	if !errors.As(err, &pe) || pe.Panic == "" || !strings.HasPrefix(err.Error(), "Boom panics: boom") || Declines(err) {
		t.Errorf("a pass that panics: %v", err)
	}
}

// TestRunPasses runs passes by name in any order, each from the level the
// last left, and says which passes start where it is when one does not.
func TestRunPasses(t *testing.T) {
	r, _ := toys()
	p := load(t, r, "x.a", "x")
	st, err := r.RunPasses(p, []string{"AtoB", "Extra", "Opt", "Opt", "BtoC"}, Options{}.With("no-opt"))
	if err != nil || st[len(st)-1].Text() != "x ab extra opt opt bc" {
		t.Errorf("RunPasses: %q, %v", stageNames(st), err)
	}
	if st[2].Notes[0] != "added extra" {
		t.Errorf("notes %v", st[2].Notes)
	}
	if _, err := r.RunPasses(p, []string{"Opt"}, Options{}); err == nil || err.Error() != "no pass Opt starts at a (the passes from a: AtoB)" {
		t.Errorf("a pass from elsewhere: %v", err)
	}
	b := load(t, r, "y.b", "y")
	if st, err := r.RunPipeline(b, "b-extra", Options{}.With("no-opt")); err != nil || stageNames(st) != "source Extra" {
		t.Errorf("RunPipeline: %s, %v", stageNames(st), err)
	}
	if _, err := r.RunPipeline(p, "b", Options{}); err == nil {
		t.Error("a pipeline run at another level")
	}
}

// TestAppendAndUnread: an optional pass is one Append (it joins every
// pipeline of its level), and an option no pass of a walk reads is said.
func TestAppendAndUnread(t *testing.T) {
	r, _ := toys()
	r.Append(add("Late", "b", "b", "late", Option{Name: "no-late", Kind: BoolOption, Switch: Disables, Help: "skip Late"}))
	r.Append(add("Final", "c", "c", "final"))
	p := load(t, r, "x.a", "x")
	for o, want := range map[string]string{"": "x ab opt late bc final", "extra": "x ab opt extra late bc final"} {
		opts := Options{}
		if o != "" {
			opts = opts.With(o)
		}
		st, err := r.Compile(p, "c", opts)
		if err != nil || st[len(st)-1].Text() != want {
			t.Errorf("--%s: %q, %v", o, st[len(st)-1].Text(), err)
		}
	}
	st, _ := r.Compile(p, "b", Options{}.With("no-late").With("no-opt").With("extra"))
	if got := r.Unread(p, "b", Options{}.With("no-late").With("no-opt").With("extra"), st); len(got) != 0 {
		t.Errorf("unread on a walk that reads them: %v", got)
	}
	if _, err := r.RunPasses(p, []string{"AtoB"}, Options{}); err != nil {
		t.Errorf("RunPasses AtoB: %v", err)
	}
	if got := r.Unread(load(t, r, "z.c", "z"), "c", Options{}.With("no-late").WithString("suffix", "!"), nil); !slices.Equal(got, []string{"no-late", "suffix"}) {
		t.Errorf("unread at c: %v", got)
	}
	if d, ok := r.Option("suffix"); !ok || d.Kind != StringOption || len(r.Options()) != 4 {
		t.Errorf("options %v", r.Options())
	}
}

// TestLevelsAndRows: the levels of a program, one per level and variant,
// named by the labels of the passes of the variant's walk.
func TestLevelsAndRows(t *testing.T) {
	r, _ := toys()
	r.Find("Extra", "b").Label = func(Options) string { return "extra" }
	r.AddVariant(Variant{Options: Options{}.With("extra")})
	lv, err := r.Levels(load(t, r, "x.a", "x"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range lv {
		names = append(names, l.Name)
	}
	if got, want := strings.Join(names, ", "), "A source, B after Opt, C after BtoC, B extra after Extra, C extra after BtoC"; got != want {
		t.Errorf("levels %s, want %s", got, want)
	}
	if got := stageNames(lv[4].Stages); got != "source AtoB Opt Extra BtoC" {
		t.Errorf("C extra's stages: %s", got)
	}
	for _, l := range lv {
		if !l.Final {
			t.Errorf("%s is the last of its language on its walk, not marked Final", l.Name)
		}
	}
}

// TestLevelsFinal: at the source's own level, a transformation that
// changes the program gives a row, the last of which is Final (the
// program the translation takes); one that asks for no row of its own
// still gives the program it makes a Final row, so that no program a
// walk translates goes unshown; a Row pass followed by another at its
// level is not Final.
func TestLevelsFinal(t *testing.T) {
	levels := func(r *Registry, file string) string {
		lv, err := r.Levels(load(t, r, file, "y"))
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, l := range lv {
			if l.Final {
				out = append(out, l.Name+" ▸")
			} else {
				out = append(out, l.Name)
			}
		}
		return strings.Join(out, ", ")
	}
	r, _ := toys()
	if got, want := levels(r, "y.b"), "B source, B after Opt ▸, C after BtoC ▸"; got != want {
		t.Errorf("Opt asking for no row: %s, want %s", got, want)
	}
	r.Find("Opt", "b").RowWhenChanged = true
	if got, want := levels(r, "y.b"), "B source, B after Opt ▸, C after BtoC ▸"; got != want {
		t.Errorf("Opt's row when it changes the program: %s, want %s", got, want)
	}
	r, _ = toys()
	r.Find("Opt", "b").Row = true
	r.AddVariant(Variant{Options: Options{}.With("extra")})
	if got, want := levels(r, "y.a"), "A source ▸, B after Opt ▸, C after BtoC ▸, B after Extra ▸, C after BtoC ▸"; got != want {
		t.Errorf("a Row pass: %s, want %s", got, want)
	}
	r, _ = toys()
	r.AddPipeline(Pipeline{Name: "b", Level: "b", Passes: []string{"Opt", "Extra"}})
	r.Find("Opt", "b").Row = true
	if got, want := levels(r, "y.a"), "A source ▸, B after Opt, B after Extra ▸, C after BtoC ▸"; got != want {
		t.Errorf("a Row pass followed at its level: %s, want %s", got, want)
	}
}

// TestRegistrationBugsPanic: two passes of a name at a level, an option
// declared unlike another's, a pipeline naming a translation.
func TestRegistrationBugsPanic(t *testing.T) {
	for i, f := range []func(r *Registry){
		func(r *Registry) { r.AddPass(add("Opt", "b", "b", "x")) },
		func(r *Registry) {
			r.AddPass(add("Other", "a", "a", "x", Option{Name: "suffix", Kind: BoolOption}))
		},
		func(r *Registry) { r.AddPipeline(Pipeline{Name: "bad", Level: "a", Passes: []string{"AtoB"}}) },
		func(r *Registry) { r.Append(add("AtoC", "a", "c", "x")) },
	} {
		r, _ := toys()
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("registration %d: no panic", i)
				}
			}()
			f(r)
		}()
	}
}

// TestPickSemantics: the default, a named one, an unknown one, and a
// level with none.
func TestPickSemantics(t *testing.T) {
	r, _ := toys()
	p := load(t, r, "x.a", "x")
	if s, err := PickSemantics(p, ""); s != "big" || err != nil {
		t.Errorf("default: %s %v", s, err)
	}
	if _, err := PickSemantics(p, "lazy"); err == nil || err.Error() != `a programs have no "lazy" semantics (they have big, small)` {
		t.Errorf("unknown: %v", err)
	}
	if _, err := PickSemantics(noSemantics{p}, ""); err == nil || !strings.Contains(err.Error(), "compiled to, not run") {
		t.Errorf("none: %v", err)
	}
	var o Options
	for i := range 3 {
		o = o.WithString("k"+strconv.Itoa(i), "v")
	}
	if got := o.Flags(); got != "--k0 v --k1 v --k2 v" {
		t.Errorf("Flags %q", got)
	}
}

type noSemantics struct{ Program }

func (noSemantics) Semantics() []string { return nil }

// TestMemo: a Memo's walks make the stages the registry's walks make, and
// a pass applied again to a program it was applied to, under the same
// values of the options it declares, gives its stage without running:
// the walks to b and to c share AtoB and Opt; --extra (which Opt does not
// declare) shares Opt too, --suffix (which it declares) does not.
func TestMemo(t *testing.T) {
	r, _ := toys()
	runs := map[string]int{}
	for _, q := range r.Passes() {
		run := q.Run
		q.Run = func(s any, o Options) (any, []string, error) {
			runs[q.Name]++
			return run(s, o)
		}
	}
	m := r.Memo()
	if m.Memo() != m || r.memo != nil {
		t.Fatal("Memo of a Memo is not itself, or the registry remembers")
	}
	p := load(t, r, "x.a", "x")
	texts := func(st []Stage) string {
		var out []string
		for _, s := range st {
			out = append(out, s.Name()+": "+s.Text())
		}
		return strings.Join(out, "; ")
	}
	for _, w := range []struct {
		to   string
		o    Options
		runs string
	}{
		{"b", Options{}, "map[AtoB:1 Opt:1]"},
		{"c", Options{}, "map[AtoB:1 BtoC:1 Opt:1]"},
		{"c", Options{}.With("extra"), "map[AtoB:1 BtoC:2 Extra:1 Opt:1]"},
		{"c", Options{}.WithString("suffix", "!"), "map[AtoB:1 BtoC:3 Extra:1 Opt:2]"},
		{"c", Options{}.WithString("suffix", "!"), "map[AtoB:1 BtoC:3 Extra:1 Opt:2]"},
	} {
		got, err := m.Compile(p, w.to, w.o)
		if err != nil {
			t.Fatal(err)
		}
		want, err := r.Compile(p, w.to, w.o)
		if err != nil {
			t.Fatal(err)
		}
		if texts(got) != texts(want) {
			t.Errorf("to %s %s: the memo's walk is %s, the registry's %s", w.to, w.o.Flags(), texts(got), texts(want))
		}
		// The registry's own walk ran every pass again: count the memo's.
		for _, s := range want[1:] {
			runs[s.Pass.Name]--
		}
		if fmt.Sprint(runs) != w.runs {
			t.Errorf("to %s %s: runs %v, want %s", w.to, w.o.Flags(), runs, w.runs)
		}
	}
}

// sameToy is a toy language that tells equal word lists apart from
// others (TreeComparer), counting what it adopts.
type sameToy struct {
	*toyLang
	adopts int
}

func (l *sameToy) Adopt(file string, syntax any, o LoadOptions) (Program, error) {
	l.adopts++
	return l.toyLang.Adopt(file, syntax, o)
}

func (l *sameToy) SameTree(a, b any) bool {
	x, ok := a.(*toy)
	y, ok2 := b.(*toy)
	return ok && ok2 && slices.Equal(x.words, y.words)
}

// TestMemoAdoptsSameTreeOnce: a Memo's walk adopts a pass's output that
// is the same tree as one it adopted before (TreeComparer) no more: its
// stage is the program adopted then, and the passes applied to it again
// are remembered. Its stages read as the registry's own walks', and a
// tree the checker refused is checked again (and refused again).
func TestMemoAdoptsSameTreeOnce(t *testing.T) {
	b := &sameToy{toyLang: newToy("b")}
	b.refuse = "bad"
	r := &Registry{}
	r.AddLanguage(newToy("a"), b)
	counting := false
	runs := map[string]int{}
	count := func(q Pass) Pass {
		run := q.Run
		q.Run = func(s any, o Options) (any, []string, error) {
			if counting {
				runs[q.Name]++
			}
			return run(s, o)
		}
		return q
	}
	same := func(name string) Pass { // a copy of its input: an equal tree
		return count(Pass{Name: name, From: "b", To: "b", Run: func(s any, _ Options) (any, []string, error) {
			return &toy{slices.Clone(s.(*toy).words)}, nil, nil
		}})
	}
	r.AddPass(count(add("AtoB", "a", "b", "ab")), same("Same"), same("Again"), count(add("Bad", "b", "b", "bad")))
	texts := func(st []Stage) string {
		var out []string
		for _, s := range st {
			out = append(out, s.Name()+": "+s.Text())
		}
		return strings.Join(out, "; ")
	}
	p := load(t, r, "x.a", "x")
	m := r.Memo()
	for _, w := range []struct {
		passes []string
		adopts int // the memo's, so far
		runs   string
	}{
		{[]string{"AtoB", "Same"}, 1, "map[AtoB:1 Same:1]"},
		{[]string{"AtoB", "Same", "Same"}, 1, "map[AtoB:1 Same:1]"},
		{[]string{"AtoB", "Again", "Same"}, 1, "map[Again:1 AtoB:1 Same:1]"},
		{[]string{"AtoB", "Bad"}, 2, "map[Again:1 AtoB:1 Bad:1 Same:1]"},
		{[]string{"AtoB", "Same", "Bad"}, 3, "map[Again:1 AtoB:1 Bad:2 Same:1]"},
	} {
		saved := b.adopts
		want, werr := r.RunPasses(p, w.passes, Options{})
		b.adopts = saved
		counting = true
		got, gerr := m.RunPasses(p, w.passes, Options{})
		counting = false
		if fmt.Sprint(gerr) != fmt.Sprint(werr) {
			t.Errorf("%v: the memo's walk fails with %v, the registry's with %v", w.passes, gerr, werr)
		}
		if texts(got) != texts(want) {
			t.Errorf("%v: the memo's walk is %s, the registry's %s", w.passes, texts(got), texts(want))
		}
		if fmt.Sprint(runs) != w.runs || b.adopts != w.adopts {
			t.Errorf("%v: runs %v, %d adopted; want %s, %d", w.passes, runs, b.adopts, w.runs, w.adopts)
		}
		if len(got) > 2 && got[2].Program != got[1].Program {
			t.Errorf("%v: the stage of %s is not the program adopted before", w.passes, got[2].Pass.Name)
		}
	}
}

// TestCompleteDefaults: Complete fills in the default of every declared
// string option that o leaves out (the list AddPass keeps, as Options
// lists the declarations), in a copy of o's values, and a clone keeps its
// own list.
func TestCompleteDefaults(t *testing.T) {
	r, _ := toys()
	r.AddPass(
		add("Lay", "c", "c", "lay", Option{Name: "layout", Kind: StringOption, Default: "cpu", Values: []string{"cpu", "gpu"}}),
		add("Lay2", "b", "b", "lay2", Option{Name: "layout", Kind: StringOption, Default: "cpu", Values: []string{"cpu", "gpu"}},
			Option{Name: "arch", Kind: StringOption, Default: "sm"}),
	)
	want := func(r *Registry, o Options) Options { // Complete as the declarations read
		for _, d := range r.Options() {
			if d.Kind == StringOption && o.Str(d.Name) == "" && d.Default != "" {
				o = o.WithString(d.Name, d.Default)
			}
		}
		return o
	}
	c := r.Clone()
	c.AddPass(add("Tune", "a", "a", "tune", Option{Name: "tune", Kind: StringOption, Default: "fast"}))
	for _, reg := range []*Registry{r, c} {
		for _, o := range []Options{{}, Options{}.WithString("layout", "gpu"), Options{}.WithString("suffix", "!"), Options{}.With("extra").WithString("arch", "x")} {
			orig := o.Flags()
			got, err := reg.Complete(o)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := got.Flags(), want(reg, o).Flags(); g != w {
				t.Errorf("Complete(%q) = %q, want %q", orig, g, w)
			}
			if o.Flags() != orig {
				t.Errorf("Complete changed its argument %q to %q", orig, o.Flags())
			}
		}
	}
	if got, _ := r.Complete(Options{}); got.Str("tune") != "" {
		t.Errorf("the clone's pass declares a default in the original: %q", got.Flags())
	}
}
