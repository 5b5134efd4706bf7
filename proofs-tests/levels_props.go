package proofstests

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The level-agreement property (fun-funmem-imp) walks the registry of the
// arraysem command (check.NewRegistry) rather than calling the passes by
// name, so that a pass registered there is covered without an edit here.
// A FUN program is compiled by the registry to every level it reaches
// (Registry.Reachable, each by Registry.Compile, which re-checks every
// stage with its language's checker and names a pass whose output is
// rejected); each level's program (and the FUN program itself, and what
// transformations at FUN make of it) is printed and read back, and run
// under each of its semantics, and must agree with FUN's big-step. The
// memory-expanded programs are the FUNMEM variants the passes-valid
// theorem checks (Variants: TransformProgram alone, the simplifier,
// MemoryExpand in both layouts, with and without the simplifier around
// it), each walked on by the registry from FUNMEM to every level below
// it, as FunMemToImp was checked on each before the registry.
//
// The walks are not Registry.Levels' (side-by-side's), which compiles
// every level of every variant from the source again, each prefix
// re-checked each time: on the generated programs that is four times the
// old property's cost. Here the passes a walk shares run once (walks).

// UnrunLevels are the languages whose programs the property compiles and
// re-checks (reads back) but does not run, and why.
var UnrunLevels = map[string]string{
	// gpu-sim simulates every thread of every block: on the generated
	// programs a run costs about ten IMP runs, which would make the
	// property several times slower; gpu-sim/prop_test.go
	// (TestRandomFunPrograms) runs generated FUN programs through CUDA
	// in gpu-sim against the IMP interpreter, under shuffled schedules.
	cuda.LanguageName: "run against IMP by gpu-sim's TestRandomFunPrograms",
}

// LevelStats counts what the level properties saw (fun-funmem-imp and
// remora-levels), for their tests' reports: each test keeps its own, so
// that tests running in parallel do not count each other's cases.
type LevelStats struct {
	sync.Mutex
	// readBack holds the programs of the case being checked (by language,
	// file and text) that read back already: reading back depends on
	// nothing else, and the walks from different variants often reach
	// the same IMP program (a third of them on the generated programs).
	readBack map[readKey]bool
	// checked holds, by their text, the programs of the case whose level
	// agreed with FUN (level): a level whose program is equal to one of
	// them, tree for tree (reflect.DeepEqual: positions, formats and all),
	// gives the same runs, as the semantics are functions of the tree;
	// it counts the runs that program counted, under its own name. The
	// walks from the FUNMEM variants reach such a program often (a
	// quarter of the IMP levels on the generated programs).
	checked map[readKey][]*checkedLevel
	// texts holds the printed programs of the case, by their tree: the
	// walks share programs (the variants' and the levels' are often the
	// same tree), which print the same.
	texts    map[any]string
	Programs int
	// Declined counts the walks a pass declined, by pass and reason
	// (the Remora property: what Lower or Inline does not compile).
	Declined map[string]int
	// Runs counts the runs at each level (by its side-by-side name and
	// semantics: "IMP expanded (gpu) after Simplify small"; the walks
	// from a FUNMEM variant as "IMP after FunMemToImp from MemoryExpand
	// GPU").
	Runs map[string]int
	// Reached counts the programs reached at each language, run or not.
	Reached map[string]int
	// RanOn and StuckToo count the runs where FUN goes wrong: the level
	// ran to the end (IMP checks no bounds, ERRATA I2) or went wrong too.
	RanOn, StuckToo int
	// Rules counts the rules applied by each level's run in its default
	// semantics (at IMP, Fig 12's).
	Rules semantics.Counter
}

// NewLevelStats is an empty LevelStats.
func NewLevelStats() *LevelStats {
	return &LevelStats{Runs: map[string]int{}, Reached: map[string]int{}, Declined: map[string]int{}, Rules: semantics.Counter{}}
}

// add adds another count to s.
func (s *LevelStats) add(o *LevelStats) {
	s.Lock()
	defer s.Unlock()
	s.Programs += o.Programs
	for k, n := range o.Runs {
		s.Runs[k] += n
	}
	for k, n := range o.Reached {
		s.Reached[k] += n
	}
	for k, n := range o.Declined {
		s.Declined[k] += n
	}
	s.RanOn += o.RanOn
	s.StuckToo += o.StuckToo
	s.Rules.Add(o.Rules)
}

// propImp is the level-agreement property over the arraysem command's
// registry.
func propImp(c *Case) string { return LevelsProp(arraycheck.NewRegistry(), nil)(c) }

// levelRun is one run of a level's program under one semantics.
type levelRun struct {
	level, sem string
	r          *lang.Result
	err        error
}

// name is the run's level and semantics, as side-by-side's rows name it.
func (r levelRun) name() string { return r.level + " " + r.sem }

// LevelsProp is the level-agreement property (fun-funmem-imp) over the
// registry reg, counting what it sees in stats (unless nil).
func LevelsProp(reg *lang.Registry, stats *LevelStats) func(c *Case) string {
	return func(c *Case) string { return propLevels(reg, c, stats) }
}

func propLevels(reg *lang.Registry, c *Case, stats *LevelStats) string {
	// The walks from FUN and from the FUNMEM variants share passes (the
	// FUN walk's TransformProgram and Simplify are the variants' where
	// the FUN pipeline changes nothing): each runs once for the case.
	reg = reg.Memo()
	var p lang.Program
	if err := safely("loading the FUN program", func() (err error) {
		p, err = reg.Load("gen.fun", c.Source(), fun.Language.Name(), "", lang.LoadOptions{})
		return err
	}); err != nil {
		return "the generated FUN program does not load: " + err.Error()
	}
	args := caseArgs(c)
	want := levelRun{level: p.Language().Title(), sem: p.Semantics()[0]}
	want.err = safely(want.name(), func() (err error) {
		want.r, err = p.Run(lang.RunOptions{Semantics: want.sem, Args: args})
		return err
	})
	if isPanic(want.err) {
		return want.err.Error()
	}
	levels, err := walks(reg, p, lang.Options{}, false)
	if err != nil {
		return "compiling the FUN program to every level: " + err.Error()
	}
	local := NewLevelStats()
	more, msg := variantLevels(reg, c, p, levels, local)
	if msg != "" {
		return msg
	}
	for _, lv := range append(levels, more...) {
		if msg := local.level(lv, want, args); msg != "" {
			return msg + showLevel(lv, c)
		}
	}
	local.Programs++
	if stats != nil {
		stats.add(local)
	}
	return ""
}

// variantLevels walks each FUNMEM variant of the case (VariantsOf p, the
// case's FUN program as its printed text loads) from FUNMEM to every
// level below it that the property runs, leaving out a variant that is
// the program of a FUNMEM level already walked.
func variantLevels(reg *lang.Registry, c *Case, p lang.Program, levels []lang.Level, s *LevelStats) ([]lang.Level, string) {
	// The variants alone: FUN's run, which a memCase holds too, is the
	// caller's.
	vs, panics, err := VariantsOf(reg, p)
	vs, msg := knownVariants(vs, panics, err, &bugLog{})
	if msg != "" {
		return nil, msg
	}
	from := funmem.Language
	walked := map[string]bool{}
	for _, lv := range levels {
		if q := lv.Program(); q.Language().Name() == from.Name() {
			walked[s.text(q)] = true
		}
	}
	var out []lang.Level
	// The walks made so far, by their variant's program: a variant equal
	// to one walked already, tree for tree (MemoryExpand in the two
	// layouts of a program with no kernel that allocates, a Simplify that
	// changes nothing), walks as it did, the passes being functions of
	// the tree (as Registry.Memo has them).
	type variantWalk struct {
		prog   *fun.Program
		levels []lang.Level
	}
	done := map[string][]variantWalk{} // by the variant's text
	for _, v := range vs {
		text := s.text(v.Program)
		if walked[text] {
			continue
		}
		var st []lang.Level
		for _, d := range done[text] {
			if d.prog == v.Prog || reflect.DeepEqual(d.prog, v.Prog) {
				st = d.levels
				break
			}
		}
		if st == nil {
			q := v.Program // checked by FUNMEM's language on the registry's walk
			// Raw: the variant is run as it is, not simplified again.
			var err error
			st, err = walks(reg, q, lang.Options{}.With("raw"), true)
			if err != nil {
				return nil, fmt.Sprintf("compiling the FUNMEM variant %s: %v%s", v.Name, err, showMem(v.Name, v.Prog, c))
			}
			done[text] = append(done[text], variantWalk{v.Prog, st})
		}
		for _, lv := range st {
			if lv.Program().Language().Name() == from.Name() && len(lv.Stages) == 1 {
				continue // the variant itself: passes-valid runs it
			}
			lv.Name += " from " + v.Name
			out = append(out, lv)
		}
	}
	return out, ""
}

// walks compiles q to every level it reaches, its own included (what the
// transformations of its level make of it), each walk as Registry.Compile
// makes it, and names each level as side-by-side does (lang.LevelName). Paths are shortest
// paths, so the path to a level is a prefix of the path to a level beyond
// it, and the stages of a walk up to the last at a level are the walk to
// that level: one Compile to each level no other walk passes through gives
// them all, and the passes they share run once. With onlyRun, the levels
// the property does not run (UnrunLevels) are not compiled to.
func walks(reg *lang.Registry, q lang.Program, o lang.Options, onlyRun bool) (levels []lang.Level, err error) {
	var targets []string
	for _, to := range reg.Reachable(q.Language().Name()) {
		if _, unrun := UnrunLevels[to]; !unrun || !onlyRun {
			targets = append(targets, to)
		}
	}
	done := map[string]bool{}
	// Reachable lists levels by distance: the farthest first, backwards.
	for i := len(targets) - 1; i >= 0; i-- {
		if done[targets[i]] {
			continue
		}
		var st []lang.Stage
		if err := safely("Registry.Compile", func() (err error) { st, err = reg.Compile(q, targets[i], o); return err }); err != nil {
			return nil, err
		}
		for k := len(st) - 1; k >= 0; k-- {
			at := st[k].Program.Language().Name()
			if (k == len(st)-1 || st[k+1].Pass.Translation()) && slices.Contains(targets, at) && !done[at] {
				done[at] = true
				levels = append(levels, lang.Level{Name: lang.LevelName(st[:k+1], o), Stages: st[:k+1]})
			}
		}
	}
	slices.Reverse(levels)
	return levels, nil
}

// level checks one level: its program reads back, and each of its
// semantics agrees with FUN (want) and with the level's default
// semantics.
func (s *LevelStats) level(lv lang.Level, want levelRun, args map[string]string) string {
	q := lv.Program()
	// where names the level in a failure (made only for one).
	where := func() string { return fmt.Sprintf("%s (%s)", lv.Name, walk(lv.Stages)) }
	s.Reached[q.Language().Title()]++
	if _, ok := UnrunLevels[q.Language().Name()]; ok {
		// Compile re-checked it; for CUDA that is reading the emitted
		// text back in gpu-sim, so readsBack would do it again.
		return ""
	}
	l := q.Language()
	key := readKey{l.Name(), q.File(), s.text(q)}
	if msg := s.readsBackOnce(q, key); msg != "" {
		return where() + ": " + msg
	}
	for _, c := range s.checked[key] {
		if c.tree == q.Syntax() || reflect.DeepEqual(c.tree, q.Syntax()) {
			c.count(s, lv.Name)
			return ""
		}
	}
	c := &checkedLevel{tree: q.Syntax(), sems: q.Semantics(), rules: make(semantics.Counter, 32)}
	var first levelRun
	for i, sem := range c.sems {
		got := levelRun{level: lv.Name, sem: sem}
		got.err = safely(got.name(), func() (err error) {
			// Rules are counted in the default semantics only, as
			// counting costs a map update per rule applied.
			o := lang.RunOptions{Semantics: sem, Args: args}
			if i == 0 {
				o.Counter = c.rules
			}
			// Below Remora, results print as Remora prints them: the
			// programs carry the format (semantics.Format).
			got.r, err = q.Run(o)
			return err
		})
		if msg := agreeWithFun(want, got); msg != "" {
			return where() + ": " + msg + blameStage(lv, want, args)
		}
		if i == 0 {
			first = got
		} else if d := sameLevel(first, got); d != "" {
			return where() + ": " + d
		}
		switch {
		case want.err != nil && got.err == nil:
			c.ranOn++
		case want.err != nil:
			c.stuckToo++
		}
	}
	c.count(s, lv.Name)
	if s.checked == nil {
		s.checked = map[readKey][]*checkedLevel{}
	}
	s.checked[key] = append(s.checked[key], c)
	return ""
}

// checkedLevel is a program of a level that agreed with FUN, and what its
// runs counted.
type checkedLevel struct {
	tree            any
	sems            []string
	ranOn, stuckToo int
	rules           semantics.Counter // the rules its default semantics applied
}

// count counts c's runs in s, as the runs of the level named level.
func (c *checkedLevel) count(s *LevelStats, level string) {
	for _, sem := range c.sems {
		s.Runs[levelRun{level: level, sem: sem}.name()]++
	}
	s.RanOn += c.ranOn
	s.StuckToo += c.stuckToo
	s.Rules.Add(c.rules)
}

// sameLevel compares a run with the level's default semantics: a
// small-step (lang.Run's "small", the machine that refines the default
// big-step) agrees with it exactly, errors included (their positions and
// messages); another semantics (FUNMEM's value semantics, which has no
// memory) gives the same results or goes wrong alike, as side-by-side
// compares levels (errors differ in rule and position).
func sameLevel(first, got levelRun) string {
	if got.sem == "small" {
		return sameRun(first, got)
	}
	switch {
	case (first.err == nil) != (got.err == nil):
		return fmt.Sprintf("%s gives %s\n%s gives %s", first.name(), show(first), got.name(), show(got))
	case first.err != nil:
		if k1, k2 := semErr(first.err), semErr(got.err); k1 == nil || k2 == nil || k1.Kind != k2.Kind {
			return fmt.Sprintf("%s and %s go wrong differently: %v; %v", first.name(), got.name(), first.err, got.err)
		}
		return ""
	}
	return sameResults(first, got)
}

// agreeWithFun compares a run with FUN's big-step: where FUN runs to the
// end, every level must give its results, and a race is a bad
// translation; where FUN goes wrong, a level may go wrong in any way or
// run on (IMP and the CUDA made from it check no bounds, ERRATA I2), but
// must not crash or reject the inputs.
func agreeWithFun(want, got levelRun) string {
	if isPanic(got.err) {
		return got.err.Error()
	}
	if lang.IsInputError(got.err) {
		return fmt.Sprintf("%s rejects the inputs FUN takes: %v", got.name(), got.err)
	}
	if want.err != nil {
		return ""
	}
	if se := semErr(got.err); se != nil && se.Kind == semantics.RaceError {
		return fmt.Sprintf("%s races: %v", got.name(), got.err)
	}
	if got.err != nil {
		return fmt.Sprintf("%s gives %s, %s gives error %v", want.name(), show(want), got.name(), got.err)
	}
	return sameResults(want, got)
}

// sameResults compares the results of two runs that ran to the end: as
// arrays where both have them, else as the lines arraysem run prints.
func sameResults(a, b levelRun) string {
	if a.r.Values != nil && b.r.Values != nil {
		if len(a.r.Values) != len(b.r.Values) {
			return fmt.Sprintf("%s gives %d results, %s %d", a.name(), len(a.r.Values), b.name(), len(b.r.Values))
		}
		for i := range a.r.Values {
			if d := semantics.FirstDifference(a.r.Values[i], b.r.Values[i]); d != "" {
				return fmt.Sprintf("result %d: %s\n%s gives %s\n%s gives %s", i+1, d, a.name(), show(a), b.name(), show(b))
			}
		}
		return ""
	}
	if !slices.Equal(a.r.Lines, b.r.Lines) {
		return fmt.Sprintf("%s gives %s\n%s gives %s", a.name(), show(a), b.name(), show(b))
	}
	return ""
}

// sameRun compares two runs exactly: the same results, or errors of the
// same text.
func sameRun(a, b levelRun) string {
	switch {
	case a.err != nil || b.err != nil:
		if a.err == nil || b.err == nil || a.err.Error() != b.err.Error() {
			return fmt.Sprintf("%s gives %s\n%s gives %s", a.name(), show(a), b.name(), show(b))
		}
		return ""
	}
	return sameResults(a, b)
}

// show renders a run's outcome.
func show(r levelRun) string {
	if r.err != nil {
		return "error " + r.err.Error()
	}
	return "(" + strings.Join(r.r.Lines, ", ") + ")"
}

// readsBackOnce is readsBackText, asked once for each program text of a
// case; key is q's.
func (s *LevelStats) readsBackOnce(q lang.Program, key readKey) string {
	if s.readBack[key] {
		return ""
	}
	msg := readsBackText(q, key.text)
	if msg == "" {
		if s.readBack == nil {
			s.readBack = map[readKey]bool{}
		}
		s.readBack[key] = true
	}
	return msg
}

// text is q printed by its language, printed once for each tree of the
// case (a tree that cannot be a map key, which no language here has, is
// printed each time).
func (s *LevelStats) text(q lang.Program) string {
	t := q.Syntax()
	if tt := reflect.TypeOf(t); tt == nil || !tt.Comparable() {
		return q.Language().Print(t)
	}
	if text, ok := s.texts[t]; ok {
		return text
	}
	text := q.Language().Print(t)
	if s.texts == nil {
		s.texts = map[any]string{}
	}
	s.texts[t] = text
	return text
}

// readKey is what reading a program back depends on: its language, file
// name and text (a struct, not the three joined, which copied the text).
type readKey struct{ lang, file, text string }

// readsBackText checks that a level's program q, which prints as text,
// is text its language loads back, printing the same: what compile --to
// writes, arraysem reads.
func readsBackText(q lang.Program, text string) string {
	l := q.Language()
	var again lang.Program
	err := safely(l.Title()+" Load", func() (err error) { again, err = l.Load(q.File(), text, lang.LoadOptions{}); return err })
	if err != nil {
		return fmt.Sprintf("the %s program does not read back: %v", l.Title(), err)
	}
	if t := l.Print(again.Syntax()); t != text {
		return fmt.Sprintf("the %s program does not print as it was read back:\n%s", l.Title(), joinLines("| ", t))
	}
	return ""
}

// walk names the passes of a level's walk.
func walk(st []lang.Stage) string {
	names := make([]string, len(st))
	for i, s := range st {
		names[i] = s.Name()
	}
	return strings.Join(names, " → ")
}

// blameStage names the pass that broke the program: the first stage of
// the level's walk whose program, run by its default semantics, does not
// agree with FUN.
func blameStage(lv lang.Level, want levelRun, args map[string]string) string {
	for _, st := range lv.Stages[1:] {
		if _, ok := UnrunLevels[st.Program.Language().Name()]; ok {
			continue
		}
		got := levelRun{level: st.Program.Language().Title() + " after " + st.Name(), sem: st.Program.Semantics()[0]}
		got.err = safely(got.name(), func() (err error) {
			got.r, err = st.Program.Run(lang.RunOptions{Args: args})
			return err
		})
		if agreeWithFun(want, got) != "" {
			return fmt.Sprintf("\nthe first stage that differs is the output of %s (%s → %s)", st.Pass.Name, st.Pass.From, st.Pass.To)
		}
	}
	return ""
}

// showLevel renders a level's program for a failure report.
func showLevel(lv lang.Level, c *Case) string {
	q := lv.Program()
	run := "-- arraysem run q" + q.Language().Extensions()[0]
	if len(c.Inputs) > 0 {
		run += " " + c.ArgList()
	}
	return fmt.Sprintf("\n%s program:\n%s\n%s", lv.Name, joinLines("| ", q.Language().Print(q.Syntax())), run)
}
