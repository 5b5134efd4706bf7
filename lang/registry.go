package lang

import (
	"errors"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Registry holds the languages and the passes between them: the graph
// that compile --to, --stages, side-by-side, the REPL and the tests walk.
// Adding a level is adding a language and a pass to it.
type Registry struct {
	langs    []Language
	passes   []*Pass
	variants []Variant
}

// AddLanguage registers a language.
func (r *Registry) AddLanguage(ls ...Language) {
	r.langs = append(r.langs, ls...)
}

// AddPass registers passes; transformations of one level run in the order
// they were registered.
func (r *Registry) AddPass(ps ...Pass) {
	for _, p := range ps {
		p := p
		r.passes = append(r.passes, &p)
	}
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
	Pass *Pass
	Err  error
	Text string // the rejected program, when there is one
}

// Error says which pass broke the program and how.
func (e *PassError) Error() string {
	if e.Text == "" {
		return fmt.Sprintf("%s: %v", e.Pass.Name, e.Err)
	}
	return fmt.Sprintf("%s produced a %s program that its checker rejects: %v\n%s", e.Pass.Name, e.Pass.To, e.Err, e.Text)
}

// Unwrap is the checker's or the pass's error.
func (e *PassError) Unwrap() error { return e.Err }

// Compile walks from p's level to the level to: the translations of the
// shortest path, and at each level the transformations that o enables. It
// returns every stage, the source first and the result last; each stage's
// program was checked by its language. When a pass fails, the error comes
// with the stages made before it.
func (r *Registry) Compile(p Program, to string, o CompileOptions) ([]Stage, error) {
	path, err := r.Path(p.Language().Name(), to)
	if err != nil {
		return nil, err
	}
	stages := []Stage{{Program: p}}
	cur := p
	apply := func(q *Pass) error {
		out, err := q.Run(cur.Syntax(), o)
		if err != nil {
			return &PassError{Pass: q, Err: err}
		}
		target, ok := r.Language(q.To)
		if !ok {
			return &PassError{Pass: q, Err: fmt.Errorf("its target %q is not a registered language", q.To)}
		}
		next, err := target.Adopt(cur.File(), out, LoadOptions{})
		var wrong *WrongTreeError
		if errors.As(err, &wrong) {
			return &PassError{Pass: q, Err: err} // its printer cannot show the tree
		}
		if err != nil {
			return &PassError{Pass: q, Err: err, Text: target.Print(out)}
		}
		stages = append(stages, Stage{Pass: q, Program: next})
		cur = next
		return nil
	}
	level := func(arrived bool) error {
		w := Walk{Options: o, Arrived: arrived}
		for _, q := range r.passes {
			if q.Translation() || q.From != cur.Language().Name() || (q.When != nil && !q.When(w)) {
				continue
			}
			if err := apply(q); err != nil {
				return err
			}
			w.Ran = append(w.Ran, q.Name)
		}
		return nil
	}
	if err := level(false); err != nil {
		return stages, err
	}
	for _, q := range path {
		if err := apply(q); err != nil {
			return stages, err
		}
		if err := level(true); err != nil {
			return stages, err
		}
	}
	return stages, nil
}

// Level is a program at one level of the compile path, and the stages
// that made it.
type Level struct {
	Name   string // "FUN", "FUNMEM expanded (gpu)", …
	Stages []Stage
	// Declined is why the walk to this level stopped, when a pass on it
	// declined the program (a construct it does not translate, such as
	// Lower's refusals): the level has no stages then and is not run.
	Declined error
}

// Program is the level's program (its last stage's).
func (l Level) Program() Program { return l.Stages[len(l.Stages)-1].Program }

// Levels lists every level p can be run at: p itself, then each level it
// compiles to under each variant, leaving out walks that run the same
// passes as an earlier one. A level is named by its language's title and
// the labels of the passes that made its variant. A walk on which a pass
// declines the program (it fails without output, see Declines) gives a
// level with Declined set, once per pass and reason; a pass whose output
// its checker rejects is an error.
func (r *Registry) Levels(p Program) ([]Level, error) {
	levels := []Level{{Name: p.Language().Title(), Stages: []Stage{{Program: p}}}}
	seen := map[string]bool{" | ": true}
	variants := append([]Variant{{}}, r.variants...)
	for _, v := range variants {
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
					levels = append(levels, Level{Name: lang.Title(), Declined: err})
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
				continue
			}
			key := strings.Join(names, " → ") + " | " + strings.Join(labels, " ")
			if seen[key] {
				continue
			}
			seen[key] = true
			lang, _ := r.Language(to)
			levels = r.rows(levels, seen, st, len(st)-1, v.Options)
			levels = append(levels, Level{Name: strings.Join(append([]string{lang.Title()}, labels...), " "), Stages: st})
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
func (r *Registry) rows(levels []Level, seen map[string]bool, st []Stage, n int, o CompileOptions) []Level {
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
		lang, _ := r.Language(q.To)
		levels = append(levels, Level{Name: strings.Join(append([]string{lang.Title()}, labels...), " ") + " after " + q.Name, Stages: st[:k+1]})
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
	return errors.As(err, &pe) && pe.Text == "" && !errors.As(err, &wrong)
}

// IsInputError reports whether err is a bad input (--arg) rather than a
// program going wrong.
func IsInputError(err error) bool {
	var se *semantics.Error
	return errors.As(err, &se) && se.Kind == semantics.InputError
}

// Clone is a copy of the registry that can be added to without changing
// r (tests register passes in a clone).
func (r *Registry) Clone() *Registry {
	return &Registry{langs: slices.Clone(r.langs), passes: slices.Clone(r.passes), variants: slices.Clone(r.variants)}
}

// Unread lists the options o sets that no pass of the walk from p's
// level to level to reads (Pass.Reads): they would change nothing. stages
// is that walk under o; for --raw, which switches passes off, the passes
// that count are those of the walk without it.
func (r *Registry) Unread(p Program, to string, o CompileOptions, stages []Stage) []string {
	read := func(name string, st []Stage) bool {
		for _, s := range st {
			if s.Pass != nil && slices.Contains(s.Pass.Reads, name) {
				return true
			}
		}
		return false
	}
	var out []string
	for _, name := range o.Set() {
		st := stages
		// An option that switches passes off is read by them when they
		// would run without it: the walk without it tells.
		plain, off := o, true
		switch name {
		case OptRaw:
			plain.Raw = false
		case OptNoFuse:
			plain.NoFuse = false
		case OptNoSlice:
			plain.NoSlice = false
		default:
			off = false
		}
		if off {
			st, _ = r.Compile(p, to, plain)
		}
		if !read(name, st) {
			out = append(out, name)
		}
	}
	return out
}
