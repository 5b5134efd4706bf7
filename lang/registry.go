package lang

import (
	"errors"
	"fmt"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Registry holds the languages and the passes between them: the graph
// that compile --to, --stages, side-by-side, the REPL and the tests walk.
// Adding a level is adding a language and a pass to it.
type Registry struct {
	langs     []Language
	passes    []*Pass
	pipelines []*Pipeline
	variants  []Variant
	memo      map[memoKey]Stage // the stages a Memo's walks made
	adopted   map[adoptKey][]Program
	// defaults are the declared string options with a default, by name:
	// what Complete fills in at every walk, kept as AddPass registers
	// them rather than gathered and sorted from the passes per walk.
	defaults []Option
}

// adoptKey is what a Memo's walker adopted a tree as: its target language
// and the file it gave Adopt.
type adoptKey struct{ lang, file string }

// AddLanguage registers a language.
func (r *Registry) AddLanguage(ls ...Language) {
	r.langs = append(r.langs, ls...)
}

// AddPass registers passes. A transformation runs where a pipeline names
// it (AddPipeline). Two passes of one name must start at different
// languages (the name and the language find a pass), and passes that
// declare one option must declare it alike: both are bugs of the
// registration, and panic.
func (r *Registry) AddPass(ps ...Pass) {
	for _, p := range ps {
		p := p
		if q := r.Find(p.Name, p.From); q != nil {
			panic(fmt.Sprintf("lang: two passes %s from %s", p.Name, p.From))
		}
		for _, o := range p.Options {
			if d, ok := r.Option(o.Name); ok && (d.Kind != o.Kind || d.Default != o.Default || !slices.Equal(d.Values, o.Values)) {
				panic(fmt.Sprintf("lang: pass %s declares --%s unlike another pass", p.Name, o.Name))
			}
		}
		r.passes = append(r.passes, &p)
		for _, o := range p.Options {
			if o.Kind == StringOption && o.Default != "" && !slices.ContainsFunc(r.defaults, func(d Option) bool { return d.Name == o.Name }) {
				r.defaults = append(r.defaults, o)
			}
		}
		slices.SortFunc(r.defaults, func(a, b Option) int { return strings.Compare(a.Name, b.Name) })
	}
}

// AddPipeline registers pipelines, each replacing a registered one of
// its name; every pass they name must be a registered transformation of
// their level (a bug of the registration, which panics, otherwise).
func (r *Registry) AddPipeline(ps ...Pipeline) {
	for _, p := range ps {
		p := p
		for _, name := range p.Passes {
			if q := r.Find(name, p.Level); q == nil || q.Translation() {
				panic(fmt.Sprintf("lang: pipeline %s names %s, no transformation of %s", p.Name, name, p.Level))
			}
		}
		if i := slices.IndexFunc(r.pipelines, func(x *Pipeline) bool { return x.Name == p.Name }); i >= 0 {
			r.pipelines[i] = &p
			continue
		}
		r.pipelines = append(r.pipelines, &p)
	}
}

// Append registers transformations and runs each last in every pipeline
// of its level (in a new pipeline of the level's name, where it has
// none): an optional pass is one Append, its switch an option it
// declares (Disables).
func (r *Registry) Append(ps ...Pass) {
	for _, p := range ps {
		if p.Translation() {
			panic(fmt.Sprintf("lang: Append(%s): a translation, not a transformation", p.Name))
		}
		r.AddPass(p)
		found := false
		for _, pl := range r.pipelines {
			if pl.Level == p.From {
				found = true
				q := *pl
				q.Passes = append(slices.Clip(q.Passes), p.Name)
				r.AddPipeline(q)
			}
		}
		if !found {
			r.AddPipeline(Pipeline{Name: p.From, Level: p.From, Passes: []string{p.Name}})
		}
	}
}

// Pipelines lists the registered pipelines in registration order.
func (r *Registry) Pipelines() []*Pipeline { return slices.Clone(r.pipelines) }

// Find is the pass of that name starting at language from, or nil.
func (r *Registry) Find(name, from string) *Pass {
	for _, p := range r.passes {
		if p.Name == name && p.From == from {
			return p
		}
	}
	return nil
}

// Options lists every option the passes declare, by name, once each.
func (r *Registry) Options() []Option {
	var out []Option
	for _, p := range r.passes {
		for _, o := range p.Options {
			if !slices.ContainsFunc(out, func(x Option) bool { return x.Name == o.Name }) {
				out = append(out, o)
			}
		}
	}
	slices.SortFunc(out, func(a, b Option) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Option is the declaration of the option name.
func (r *Registry) Option(name string) (Option, bool) {
	for _, p := range r.passes {
		for _, o := range p.Options {
			if o.Name == name {
				return o, true
			}
		}
	}
	return Option{}, false
}

// Complete is o with the declared default of every string option it
// leaves out, after checking that every option it sets is declared, of
// its kind, and valid.
func (r *Registry) Complete(o Options) (Options, error) {
	for _, name := range o.Set() {
		d, ok := r.Option(name)
		if !ok {
			return o, fmt.Errorf("no pass reads a compile option --%s", name)
		}
		if d.Kind == StringOption {
			if err := d.Check(o.Str(name)); err != nil {
				return o, err
			}
		}
	}
	// The defaults o leaves out are set in one copy of its strings.
	var strs map[string]string
	for _, d := range r.defaults {
		if o.Str(d.Name) == "" {
			if strs == nil {
				strs = make(map[string]string, len(o.strs)+len(r.defaults))
				for k, v := range o.strs {
					strs[k] = v
				}
			}
			strs[d.Name] = d.Default
		}
	}
	if strs != nil {
		o.strs = strs
	}
	return o, nil
}

// Pipeline is the pipeline a walk runs at level: among the level's
// pipelines that apply (At; When unset, or set in o), the one an option
// selects, else the one for exactly this place (arrived or at the
// source), else the first; nil when none applies.
func (r *Registry) Pipeline(level string, o Options, arrived bool) *Pipeline {
	var best *Pipeline
	score := func(p *Pipeline) int {
		s := 0
		if p.When != "" {
			s += 2
		}
		if p.At != Anywhere {
			s++
		}
		return s
	}
	for _, p := range r.pipelines {
		switch {
		case p.Level != level, p.When != "" && !o.Bool(p.When),
			p.At == Arrived && !arrived, p.At == AtSource && arrived:
			continue
		}
		if best == nil || score(p) > score(best) {
			best = p
		}
	}
	return best
}

// AddVariant registers a set of compile options for side-by-side; the
// plain options (none) are always the first.
func (r *Registry) AddVariant(vs ...Variant) { r.variants = append(r.variants, vs...) }

// Languages lists the registered languages in registration order.
func (r *Registry) Languages() []Language { return slices.Clone(r.langs) }

// Passes lists the registered passes in registration order.
func (r *Registry) Passes() []*Pass { return slices.Clone(r.passes) }

// Names lists the languages' names.
func (r *Registry) Names() []string {
	out := make([]string, len(r.langs))
	for i, l := range r.langs {
		out[i] = l.Name()
	}
	return out
}

// Language finds a language by name.
func (r *Registry) Language(name string) (Language, bool) {
	for _, l := range r.langs {
		if l.Name() == name {
			return l, true
		}
	}
	return nil, false
}

// Extensions lists every registered file extension.
func (r *Registry) Extensions() []string {
	var out []string
	for _, l := range r.langs {
		for _, e := range l.Extensions() {
			if !slices.Contains(out, e) {
				out = append(out, e)
			}
		}
	}
	return out
}

// Pick chooses the language of a file: the one named by lang if it is not
// empty, else the one its extension and #lang line select; dialect, if not
// empty, then picks that dialect of the language's family.
func (r *Registry) Pick(file, src, lang, dialect string) (Language, error) {
	var l Language
	if lang != "" {
		var ok bool
		if l, ok = r.Language(lang); !ok {
			return nil, fmt.Errorf("unknown language %q (%s)", lang, strings.Join(r.Names(), ", "))
		}
	} else {
		var err error
		if l, err = r.byExtension(file, src, dialect != ""); err != nil {
			return nil, err
		}
	}
	if dialect == "" {
		return l, nil
	}
	family, _ := l.Dialect()
	var known []string
	for _, m := range r.langs {
		f, d := m.Dialect()
		if f == family && f != "" {
			if d == dialect {
				return m, nil
			}
			known = append(known, d)
		}
	}
	if family == "" {
		return nil, fmt.Errorf("%s: --dialect picks a dialect of a language that has several; this is a %s program", file, l.Name())
	}
	return nil, fmt.Errorf("unknown %s dialect %q (%s)", family, dialect, strings.Join(known, " or "))
}

// byExtension picks by the file's extension and, among the languages
// sharing it, by its #lang line (any of them when a dialect will be
// picked anyway).
func (r *Registry) byExtension(file, src string, anyDialect bool) (Language, error) {
	ext := strings.ToLower(filepath.Ext(file))
	var cands []Language
	for _, l := range r.langs {
		if slices.Contains(l.Extensions(), ext) {
			cands = append(cands, l)
		}
	}
	switch {
	case len(cands) == 0:
		return nil, fmt.Errorf("%s: cannot tell the language from the extension (%s; or use --lang)", file, strings.Join(r.Extensions(), ", "))
	case len(cands) == 1 || anyDialect:
		return cands[0], nil
	}
	line := HashLangLine(src)
	var lines []string
	for _, l := range cands {
		if slices.Contains(l.HashLang(), line) {
			return l, nil
		}
		for _, h := range l.HashLang() {
			if h != "" {
				lines = append(lines, "#lang "+h+" ("+l.Title()+")")
			}
		}
	}
	return nil, fmt.Errorf("%s: #lang %s: arraysem reads %s", file, line, strings.Join(lines, ", "))
}

// HashLangLine is what a #lang first line names ("remora/dynamic"), or ""
// when the text has none. Blank lines and ;-comments may come before it.
func HashLangLine(src string) string {
	for _, line := range strings.Split(src, "\n") {
		t := strings.TrimSpace(line)
		if t == "" || strings.HasPrefix(t, ";") {
			continue
		}
		if rest, ok := strings.CutPrefix(t, "#lang"); ok && (rest == "" || rest[0] == ' ' || rest[0] == '\t') {
			return strings.TrimSpace(rest)
		}
		return ""
	}
	return ""
}

// Load picks the file's language (see Pick) and loads the program.
func (r *Registry) Load(file, src, lang, dialect string, o LoadOptions) (Program, error) {
	l, err := r.Pick(file, src, lang, dialect)
	if err != nil {
		return nil, err
	}
	return l.Load(file, src, o)
}

// Path is the shortest chain of translations from one language to another
// (none when they are the same), or an error naming where from can go.
func (r *Registry) Path(from, to string) ([]*Pass, error) {
	if _, ok := r.Language(to); !ok {
		return nil, fmt.Errorf("unknown level %q (%s)", to, strings.Join(r.Names(), ", "))
	}
	prev := map[string]*Pass{from: nil}
	queue := []string{from}
	for len(queue) > 0 && prev[to] == nil && from != to {
		cur := queue[0]
		queue = queue[1:]
		for _, p := range r.passes {
			if p.From == cur && p.Translation() {
				if _, seen := prev[p.To]; !seen {
					prev[p.To] = p
					queue = append(queue, p.To)
				}
			}
		}
	}
	if _, ok := prev[to]; !ok {
		return nil, fmt.Errorf("cannot compile %s to %s (%s compiles to %s)", from, to, from, strings.Join(r.Reachable(from), ", "))
	}
	var path []*Pass
	for at := to; at != from; at = prev[at].From {
		path = append(path, prev[at])
	}
	slices.Reverse(path)
	return path, nil
}

// Reachable lists the levels a language compiles to, itself first, then
// by distance (in registration order among equals).
func (r *Registry) Reachable(from string) []string {
	out := []string{from}
	for i := 0; i < len(out); i++ {
		for _, p := range r.passes {
			if p.From == out[i] && p.Translation() && !slices.Contains(out, p.To) {
				out = append(out, p.To)
			}
		}
	}
	return out
}

// PassError is a pass whose output its target language's checker
// rejects, or that failed: it names the pass that broke the program.
type PassError struct {
	Pass  *Pass
	Err   error
	Text  string // the rejected program, when there is one
	Panic string // the stack, when the pass panicked (Err is the panic's value)
}

// Error says which pass broke the program and how.
func (e *PassError) Error() string {
	if e.Panic != "" {
		return fmt.Sprintf("%s panics: %v\n%s", e.Pass.Name, e.Err, e.Panic)
	}
	if e.Text == "" {
		return fmt.Sprintf("%s: %v", e.Pass.Name, e.Err)
	}
	return fmt.Sprintf("%s produced a %s program that its checker rejects: %v\n%s", e.Pass.Name, e.Pass.To, e.Err, e.Text)
}

// Unwrap is the checker's or the pass's error.
func (e *PassError) Unwrap() error { return e.Err }

// Positioned is the error of a pass that refused the program at a place
// in it, as one line "file:line:col: RULE: message" (the pass's name for
// the rule when the error names none); nil when the pass broke (its
// output rejected, a panic) or its error has no position.
func (e *PassError) Positioned() *semantics.Error {
	var se *semantics.Error
	if e.Text != "" || e.Panic != "" || !errors.As(e.Err, &se) || !se.Pos.IsValid() {
		return nil
	}
	out := *se
	if out.Rule == "" {
		out.Rule = e.Pass.Name
	}
	return &out
}

// Compile walks from p's level to the level to: the translations of the
// shortest path, and at each level the pipeline that o selects (less the
// passes o switches off). It returns every stage, the source first and
// the result last; each stage's program was checked by its language. When
// a pass fails, the error comes with the stages made before it.
func (r *Registry) Compile(p Program, to string, o Options) ([]Stage, error) {
	path, err := r.Path(p.Language().Name(), to)
	if err != nil {
		return nil, err
	}
	if o, err = r.Complete(o); err != nil {
		return nil, err
	}
	w := &walker{r: r, o: o, stages: []Stage{{Program: p}}}
	level := func(arrived bool) error {
		pl := r.Pipeline(w.cur().Language().Name(), o, arrived)
		if pl == nil {
			return nil
		}
		for _, name := range pl.Passes {
			q := r.Find(name, pl.Level)
			if q.Disabled(o) {
				continue
			}
			if err := w.apply(q); err != nil {
				return err
			}
		}
		return nil
	}
	if err := level(false); err != nil {
		return w.stages, err
	}
	for _, q := range path {
		if err := w.apply(q); err != nil {
			return w.stages, err
		}
		if err := level(true); err != nil {
			return w.stages, err
		}
	}
	return w.stages, nil
}

// RunPasses runs exactly the passes named, in order, from p (each found
// by its name and the language the walk is at, Find), re-checking after
// each, as futhark dev --pass does; o is every pass's options (a pass
// that o switches off runs all the same: it was asked for by name).
func (r *Registry) RunPasses(p Program, names []string, o Options) ([]Stage, error) {
	o, err := r.Complete(o)
	if err != nil {
		return nil, err
	}
	w := newWalker(r, o, p, len(names))
	for _, name := range names {
		at := w.cur().Language().Name()
		q := r.Find(name, at)
		if q == nil {
			var from []string
			for _, x := range r.passes {
				if x.From == at {
					from = append(from, x.Name)
				}
			}
			return w.stages, fmt.Errorf("no pass %s starts at %s (the passes from %s: %s)", name, at, at, strings.Join(from, ", "))
		}
		if err := w.apply(q); err != nil {
			return w.stages, err
		}
	}
	return w.stages, nil
}

// RunPipeline runs the pipeline named from p (whose level must be the
// pipeline's), less the passes o switches off, re-checking after each.
func (r *Registry) RunPipeline(p Program, name string, o Options) ([]Stage, error) {
	var pl *Pipeline
	for _, x := range r.pipelines {
		if x.Name == name {
			pl = x
		}
	}
	if pl == nil {
		return nil, fmt.Errorf("no pipeline %s", name)
	}
	if at := p.Language().Name(); at != pl.Level {
		return nil, fmt.Errorf("the pipeline %s runs at %s, not at %s", name, pl.Level, at)
	}
	o, err := r.Complete(o)
	if err != nil {
		return nil, err
	}
	w := newWalker(r, o, p, len(pl.Passes))
	for _, n := range pl.Passes {
		q := r.Find(n, pl.Level)
		if q.Disabled(o) {
			continue
		}
		if err := w.apply(q); err != nil {
			return w.stages, err
		}
	}
	return w.stages, nil
}

// walker applies passes one after the other, each output checked by its
// target language.
type walker struct {
	r      *Registry
	o      Options
	stages []Stage
}

// newWalker is a walker at p with room for the stages of n passes.
func newWalker(r *Registry, o Options, p Program, n int) *walker {
	stages := make([]Stage, 1, n+1)
	stages[0] = Stage{Program: p}
	return &walker{r: r, o: o, stages: stages}
}

func (w *walker) cur() Program { return w.stages[len(w.stages)-1].Program }

func (w *walker) apply(q *Pass) (err error) {
	cur := w.cur()
	if w.r.memo != nil {
		key, ok := memoKeyOf(q, cur, w.o)
		if st, seen := w.r.memo[key]; ok && seen {
			w.stages = append(w.stages, st)
			return nil
		}
		if ok {
			defer func() {
				if err == nil {
					w.r.memo[key] = w.stages[len(w.stages)-1]
				}
			}()
		}
	}
	defer func() {
		// A pass that panics is a bug of its own: an error naming it,
		// with the stack, not a crash of the walk's caller.
		if v := recover(); v != nil {
			err = &PassError{Pass: q, Err: fmt.Errorf("%v", v), Panic: string(debug.Stack())}
		}
	}()
	out, notes, err := q.Run(cur.Syntax(), w.o)
	if err != nil {
		return &PassError{Pass: q, Err: err}
	}
	target, ok := w.r.Language(q.To)
	if !ok {
		return &PassError{Pass: q, Err: fmt.Errorf("its target %q is not a registered language", q.To)}
	}
	next, err := w.adopt(target, cur, out)
	var wrong *WrongTreeError
	if errors.As(err, &wrong) {
		return &PassError{Pass: q, Err: err} // its printer cannot show the tree
	}
	if err != nil {
		return &PassError{Pass: q, Err: err, Text: target.Print(out)}
	}
	w.stages = append(w.stages, Stage{Pass: q, Program: next, Notes: notes})
	return nil
}

// adopt is target.Adopt(cur.File(), out, LoadOptions{}), out being a
// pass's output from cur. A Memo's walks give the program they adopted
// before when out is the same tree as its (TreeComparer: node for node
// and position for position), as checking out would give that program
// again; that program's tree stands for out from then on, so the passes
// applied to it again are remembered too. A pass that changes nothing
// is the likeliest: cur is compared first.
func (w *walker) adopt(target Language, cur Program, out any) (Program, error) {
	file := cur.File()
	c, ok := target.(TreeComparer)
	if w.r.memo == nil || !ok {
		return target.Adopt(file, out, LoadOptions{})
	}
	key := adoptKey{lang: target.Name(), file: file}
	adopted := w.r.adopted[key]
	// (A program of a type that == cannot compare is not cur.)
	first := reflect.TypeOf(cur).Comparable() && slices.Contains(adopted, cur)
	if first && c.SameTree(cur.Syntax(), out) {
		return cur, nil
	}
	for _, p := range adopted {
		if !(first && p == cur) && c.SameTree(p.Syntax(), out) {
			return p, nil
		}
	}
	p, err := target.Adopt(file, out, LoadOptions{})
	if err == nil {
		w.r.adopted[key] = append(w.r.adopted[key], p)
	}
	return p, err
}

// Level is a program at one level of the compile path, and the stages
// that made it.
type Level struct {
	Name   string // LevelName: "FUN source", "Remora IR after Inline", "IMP expanded (gpu) after Simplify", …
	Stages []Stage
	// Final marks the last program of its language on its walk: the one
	// the next translation takes (or the walk's result). A level whose
	// walk's later passes at its language changed nothing is the final
	// one when no row shows them.
	Final bool
	// Declined is why the walk to this level stopped, when a pass on it
	// declined the program (a construct it does not translate, such as
	// Lower's refusals): the level has no stages then and is not run.
	Declined error
}

// Program is the level's program (its last stage's).
func (l Level) Program() Program { return l.Stages[len(l.Stages)-1].Program }

// LevelName names the program a walk's stages make, one scheme for
// every level: its language's title, the labels of the passes that made
// its variant (Pass.Label under o), then "source" for the walk of no
// pass, else "after" and the pass that ran last: "FUN source", "Remora IR
// after Inline", "IMP expanded (gpu) after Simplify".
func LevelName(st []Stage, o Options) string {
	return levelName(st[len(st)-1].Program.Language().Title(), st, o)
}

// levelName is LevelName with the language's title given: the stages'
// last may be a pass that declined, with no program.
func levelName(title string, st []Stage, o Options) string {
	name := []string{title}
	for _, s := range st[1:] {
		if s.Pass.Label != nil {
			if l := s.Pass.Label(o); l != "" {
				name = append(name, l)
			}
		}
	}
	if len(st) == 1 {
		return strings.Join(append(name, "source"), " ")
	}
	return strings.Join(name, " ") + " after " + st[len(st)-1].Pass.Name
}

// Levels lists every level p can be run at: p itself, then each level it
// compiles to under each variant, leaving out walks that run the same
// passes as an earlier one. Each is named by LevelName, and the last of
// its language on its walk is marked Final. A walk on which a pass
// declines the program (it fails without output, see Declines) gives a
// level with Declined set, once per pass and reason; a pass whose output
// its checker rejects is an error.
func (r *Registry) Levels(p Program) ([]Level, error) {
	src := []Stage{{Program: p}}
	levels := []Level{{Name: LevelName(src, Options{}), Stages: src}}
	seen := map[string]bool{" | ": true}
	variants := append([]Variant{{}}, r.variants...)
	for vi, v := range variants {
		for _, to := range r.Reachable(p.Language().Name()) {
			st, err := r.Compile(p, to, v.Options)
			if err != nil {
				if !Declines(err) {
					return nil, err
				}
				// The Row stages made before the pass that declined.
				levels = r.rows(levels, seen, st, len(st), v.Options)
				// Named by the level the declining pass makes, once per
				// pass and reason (fresh names, x%12, differ from walk
				// to walk).
				var pe *PassError
				errors.As(err, &pe)
				if key := "declined | " + freshNumbers.ReplaceAllString(err.Error(), "%"); !seen[key] {
					seen[key] = true
					lang, _ := r.Language(pe.Pass.To)
					levels = append(levels, Level{Name: levelName(lang.Title(), append(slices.Clip(st), Stage{Pass: pe.Pass}), v.Options), Declined: err})
				}
				continue
			}
			var names, labels []string
			for _, s := range st[1:] {
				names = append(names, s.Name())
				if s.Pass.Label != nil {
					if l := s.Pass.Label(v.Options); l != "" {
						labels = append(labels, l)
					}
				}
			}
			if to == p.Language().Name() && len(labels) == 0 {
				// The walk to the source's own level, no variant: its
				// transformations (FUN's slicing and fusion) give rows
				// of their own when they change the program, not a
				// second level of the source's name.
				levels = r.rows(levels, seen, st, len(st), v.Options)
				if vi == 0 {
					// The last row shown (the source, when no pass
					// changed it) is the program the next translation
					// takes; a change no row shows gets one.
					if last := &levels[len(levels)-1]; last.Stages[len(last.Stages)-1].Text() == st[len(st)-1].Text() {
						last.Final = true
					} else {
						seen[strings.Join(names, " → ")+" | "] = true
						levels = append(levels, Level{Name: LevelName(st, v.Options), Stages: st, Final: true})
					}
				}
				continue
			}
			key := strings.Join(names, " → ") + " | " + strings.Join(labels, " ")
			if seen[key] {
				continue
			}
			seen[key] = true
			levels = r.rows(levels, seen, st, len(st)-1, v.Options)
			levels = append(levels, Level{Name: LevelName(st, v.Options), Stages: st, Final: true})
		}
	}
	return levels, nil
}

// rows adds a level for each of the first n stages of a walk made by a
// Row pass that transformations at its level follow on the walk (or that
// is the last stage made, when a later pass declined): the Remora IR
// after Explicitize and after Inline; and for each RowWhenChanged stage
// that changed the program (FUN after Slice, after Fuse). seen holds the walks already
// listed, by their passes and labels.
func (r *Registry) rows(levels []Level, seen map[string]bool, st []Stage, n int, o Options) []Level {
	var names, labels []string
	for k := 1; k < n; k++ {
		q := st[k].Pass
		names = append(names, q.Name)
		if q.Label != nil {
			if l := q.Label(o); l != "" {
				labels = append(labels, l)
			}
		}
		switch {
		case q.RowWhenChanged:
			if st[k].Text() == st[k-1].Text() {
				continue
			}
		case !q.Row || (k+1 < len(st) && st[k+1].Pass.Translation()):
			continue
		}
		key := strings.Join(names, " → ") + " | " + strings.Join(labels, " ")
		if seen[key] {
			continue
		}
		seen[key] = true
		levels = append(levels, Level{Name: LevelName(st[:k+1], o), Stages: st[:k+1]})
	}
	return levels
}

// freshNumbers are the numbers of fresh names (x%12), which differ from
// one walk to the next.
var freshNumbers = regexp.MustCompile(`%[0-9]+`)

// Declines reports whether a compile error is a pass declining the
// program (it failed, without output for its target's checker to reject)
// rather than a broken pass.
func Declines(err error) bool {
	var pe *PassError
	var wrong *WrongTreeError
	return errors.As(err, &pe) && pe.Text == "" && pe.Panic == "" && !errors.As(err, &wrong)
}

// IsInputError reports whether err is a bad input (--arg) rather than a
// program going wrong.
func IsInputError(err error) bool {
	var se *semantics.Error
	return errors.As(err, &se) && se.Kind == semantics.InputError
}

// Clone is a copy of the registry that can be added to without changing
// r (tests register passes in a clone). It remembers no stage.
func (r *Registry) Clone() *Registry {
	return &Registry{langs: slices.Clone(r.langs), passes: slices.Clone(r.passes), pipelines: slices.Clone(r.pipelines), variants: slices.Clone(r.variants),
		defaults: slices.Clone(r.defaults)}
}

// Memo is a copy of r whose walks (Compile, RunPasses, RunPipeline)
// remember the stages they make: a pass applied again to a program tree
// it was applied to (of the same file), under the same values of the
// options it declares, gives the stage it gave, the program its target
// language checked then, without running or checking again. A pass's
// output depends on nothing else (Pass.Options lists what it reads, see
// Unread), so the walks of the copy make the stages r's would, and the
// passes several walks share run once: the property campaigns walk each
// generated program, and the variants made of it, to every level, with
// one Memo per program. A pass's output that is the same tree as a
// program the walks checked before (TreeComparer) is not checked again:
// its stage holds that program, whose tree is equal to the output. The
// copy keeps every program its walks made
// (drop it with them), and is for one goroutine. Memo of a Memo is
// itself.
func (r *Registry) Memo() *Registry {
	if r.memo != nil {
		return r
	}
	m := r.Clone()
	m.memo = map[memoKey]Stage{}
	m.adopted = map[adoptKey][]Program{}
	return m
}

// memoKey is what a pass's stage depends on: the pass, the program it
// was applied to (its tree and file), and the values of the options it
// declares.
type memoKey struct {
	pass *Pass
	tree any
	file string
	opts string
}

// memoKeyOf is the key of applying q to cur under o, and whether there
// is one (a tree that is not comparable, which no language here has, is
// not remembered).
func memoKeyOf(q *Pass, cur Program, o Options) (memoKey, bool) {
	tree := cur.Syntax()
	if t := reflect.TypeOf(tree); t == nil || !t.Comparable() {
		return memoKey{}, false
	}
	return memoKey{pass: q, tree: tree, file: cur.File(), opts: o.valuesOf(q.Options)}, true
}

// Unread lists the options o sets that no pass of the walk from p's
// level to level to reads (Pass.Options): they would change nothing.
// stages is that walk under o; an option that switches passes off is
// read by them when they would run without it, so for those the walk
// without it tells.
func (r *Registry) Unread(p Program, to string, o Options, stages []Stage) []string {
	read := func(name string, st []Stage) bool {
		for _, s := range st {
			if s.Pass != nil && s.Pass.Declares(name) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, name := range o.Set() {
		st := stages
		if d, ok := r.Option(name); ok && d.Kind == BoolOption && d.Switch == Disables {
			st, _ = r.Compile(p, to, o.Without(name))
		}
		if !read(name, st) {
			out = append(out, name)
		}
	}
	return out
}
