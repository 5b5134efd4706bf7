package check

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Row is one run of the side-by-side table.
type Row struct {
	Level, Semantics string
	Result           *lang.Result // nil when the run went wrong
	Err              error
	Stages           []lang.Stage // the walk that made the level
	// Declined is why the level was not reached (a pass declined the
	// program): the row is shown, not run, and not compared.
	Declined error
	// Reassociated marks a row whose float results agree with the first
	// row's only within semantics.FloatReassociationBound: its program
	// re-associates a float fold (Reassociates), and the comparison was
	// not exact (SideOptions.ExactFloats).
	Reassociated bool
	// NotRun: the run stopped at a bound (its fuel or --max-memory)
	// where another row did not; it is shown as "not run" with the
	// bound, and not compared.
	NotRun bool
	// SameAs names an earlier level whose program is this level's, the
	// same text in the same language (MemoryExpand in a layout that
	// changed nothing, a pass that changed nothing): its runs would be
	// that level's again, so the level is one row, shown, not run and
	// not compared.
	SameAs string
	// Final: the level is the last of its language on its walk, the
	// program the next translation takes (lang.Level.Final); the table
	// marks it with FinalMark.
	Final bool
}

// FinalMark follows the level of a row whose program is the last of its
// language on its walk (Row.Final): "FUN after Interchange ▸" is what
// TransformProgram takes.
const FinalMark = " ▸"

// Label is the row's level as the table shows it: its name
// (lang.LevelName), marked with FinalMark when it is Final.
func (r Row) Label() string {
	if r.Final {
		return r.Level + FinalMark
	}
	return r.Level
}

// Outcome renders a row's results (abbreviated) or its error.
func (r Row) Outcome() string {
	if r.Declined != nil {
		return "not compiled: " + r.Declined.Error()
	}
	if r.NotRun {
		return "not run: " + r.Err.Error()
	}
	if r.SameAs != "" {
		return "not run again: the same program as " + r.SameAs
	}
	if r.Err != nil {
		return "error: " + r.Err.Error()
	}
	if !r.Result.Source && (r.Result.Values != nil || len(r.Result.Lines) == 0) {
		parts := make([]string, len(r.Result.Values))
		for i, v := range r.Result.Values {
			parts[i] = v.Abbrev(8)
		}
		return strings.Join(parts, "  ")
	}
	parts := make([]string, len(r.Result.Lines))
	for i, v := range r.Result.Lines {
		if rs := []rune(v); len(rs) > 60 {
			v = string(rs[:57]) + "..."
		}
		parts[i] = v
	}
	return strings.Join(parts, "  ")
}

// SideBySide runs every semantics of every level the registry reaches p at
// on the same inputs. It returns the rows and, when two disagree, an error
// of kind MismatchError naming the first row that differs from the first,
// the first differing element, and the pass that broke the program; when
// none disagrees but some refused (Row.Refused), an error of kind
// OverflowError saying how many. A row whose program re-associates a
// float fold may agree within semantics.FloatReassociationBound
// (Row.Reassociated).
//
// A row that stops at its fuel or --max-memory where another does not
// is no disagreement: it is marked NotRun, and the rows that ran are
// compared with the first of them.
func SideBySide(reg *lang.Registry, p lang.Program, args map[string]string) ([]Row, error) {
	return SideBySideWith(reg, p, args, SideOptions{})
}

// SideOptions configure a side-by-side run.
type SideOptions struct {
	// Fuel is every row's fuel (RunOptions.Fuel): a small-step's steps, a
	// big-step's iterations. 0 gives the small-steps SmallFuel steps, the
	// rules as written RulesFuel iterations and the other big-steps their
	// default (semantics.DefaultBigFuel).
	Fuel int
	// Only keeps the levels whose language is named here (fun, funmem,
	// imp, cuda, remora, remora-ir, remora/dynamic); nil keeps all.
	Only []string
	// Semantics keeps the rows of the semantics named here, where "big"
	// names every semantics that is not its level's small-step (big,
	// heap, value, sim); nil keeps all.
	Semantics []string
	// Progress, when set, is called as each row starts: its number from
	// 1, the number of rows, its level and semantics (a progress line).
	Progress func(row, rows int, level, sem string)
	// ExactFloats compares float results exactly even where a level's
	// program re-associates a float fold (semantics.FloatReassociationBound).
	ExactFloats bool
}

// keeps reports whether the options keep the row of semantics sem of a
// level of language l.
func (o SideOptions) keeps(l lang.Language, sem string) bool {
	if o.Only != nil && !slices.Contains(o.Only, l.Name()) {
		return false
	}
	if o.Semantics == nil || slices.Contains(o.Semantics, sem) {
		return true
	}
	return sem != l.Stepping() && slices.Contains(o.Semantics, "big")
}

// SmallFuel is the fuel of a side-by-side's small-step rows when none is
// given: a small-step takes a microsecond or more a step, so a row of a
// program of 10^6 elements would take minutes where the big-steps take a
// second; past it the row is marked "not run", not the table's failure.
const SmallFuel = 1_000_000

// RulesFuel is the fuel of a side-by-side's rows of the rules as written
// (the `rules` semantics of FUN, FUNMEM, IMP and both Remora dialects:
// tree walkers, ten to fifty times slower than the engines) when none is
// given, in iterations of kernels, loops and folds (typed Remora's: cells
// of maps, applications of folds; the dynamic dialect's: applications,
// β and δ): the engines' rows check programs of 10^6 elements and more,
// and the rules' would take as long as all the others together, so past
// it they are marked "not run" (--fuel N runs them).
const RulesFuel = 100_000

// SideBySideWith is SideBySide with options.
func SideBySideWith(reg *lang.Registry, p lang.Program, args map[string]string, o SideOptions) ([]Row, error) {
	levels, err := reg.Levels(p)
	if err != nil {
		return nil, err
	}
	// same[i] is the earlier level whose program level i's is.
	same := make([]string, len(levels))
	first := map[string]string{} // language and text → the first level with them
	for i, lv := range levels {
		if lv.Declined != nil || !slices.ContainsFunc(lv.Program().Semantics(), func(sem string) bool { return o.keeps(lv.Program().Language(), sem) }) {
			continue
		}
		key := lv.Program().Language().Name() + "\x00" + lv.Stages[len(lv.Stages)-1].Text()
		if name, ok := first[key]; ok {
			same[i] = name
		} else {
			first[key] = lv.Name
		}
	}
	total := 0
	for i, lv := range levels {
		if lv.Declined == nil && same[i] == "" {
			for _, sem := range lv.Program().Semantics() {
				if o.keeps(lv.Program().Language(), sem) {
					total++
				}
			}
		}
	}
	var rows []Row
	started := 0
	for i, lv := range levels {
		if lv.Declined != nil {
			if o.Only == nil && o.Semantics == nil { // a level not reached has no language
				rows = append(rows, Row{Level: lv.Name, Semantics: "-", Declined: lv.Declined})
			}
			continue
		}
		if same[i] != "" {
			rows = append(rows, Row{Level: lv.Name, Semantics: "-", SameAs: same[i], Stages: lv.Stages, Final: lv.Final})
			continue
		}
		for _, sem := range lv.Program().Semantics() {
			if !o.keeps(lv.Program().Language(), sem) {
				continue
			}
			if started++; o.Progress != nil {
				o.Progress(started, total, lv.Name, sem)
			}
			fuel := o.Fuel
			switch {
			case fuel > 0:
			case sem == lv.Program().Language().Stepping():
				fuel = SmallFuel
			case sem == "rules":
				fuel = RulesFuel
			}
			row := runFuel(lv.Stages, sem, args, fuel)
			row.Level, row.Stages, row.Final = lv.Name, lv.Stages, lv.Final
			var se *semantics.Error
			if row.Err != nil && (!errors.As(row.Err, &se) || se.Kind == semantics.InputError || se.Kind == semantics.InterruptError) {
				return nil, row.Err
			}
			rows = append(rows, row)
		}
	}
	if len(rows) == 0 {
		return nil, fmt.Errorf("side-by-side: --only and --semantics leave no row to run")
	}
	markNotRun(rows)
	return rows, agree(rows, args, o)
}

// bounded reports whether r stopped at a bound of its run: its fuel, or
// the dynamic dialect's depth (semantics.FuelError), or --max-memory (an
// allocation it could not afford: semantics.PastMaxMemory).
func (r Row) bounded() bool {
	return r.ran() && (kind(r.Err) == semantics.FuelError || semantics.PastMaxMemory(r.Err))
}

// mixedBounds reports whether every row that ran stopped at a bound, and
// not every one at the same kind of bound.
func mixedBounds(rows []Row) bool {
	var kinds []semantics.Kind
	for _, r := range rows {
		if !r.ran() {
			continue
		}
		if !r.bounded() {
			return false
		}
		if k := kind(r.Err); !slices.Contains(kinds, k) {
			kinds = append(kinds, k)
		}
	}
	return len(kinds) > 1
}

// ran reports whether r is a run: not a level a pass declined, nor one
// that is the same program as an earlier level.
func (r Row) ran() bool { return r.Declined == nil && r.SameAs == "" }

// markNotRun marks NotRun the rows that stopped at their bound while
// some row did not (when every row stops at its bound, they agree that
// the program does not end within it, and are compared as before).
func markNotRun(rows []Row) {
	if !slices.ContainsFunc(rows, func(r Row) bool { return r.ran() && !r.bounded() }) {
		return
	}
	for i := range rows {
		rows[i].NotRun = rows[i].bounded()
	}
}

// reference is the row the others are compared with: the first that ran
// (not declined, not NotRun), or the first when none did.
func reference(rows []Row) Row {
	for _, r := range rows {
		if r.ran() && !r.NotRun {
			return r
		}
	}
	for _, r := range rows {
		if r.ran() {
			return r
		}
	}
	return rows[0]
}

// NotRuns counts the rows marked NotRun.
func NotRuns(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.NotRun {
			n++
		}
	}
	return n
}

// run runs the last program of a walk under one semantics (a program
// compiled from Remora prints its results as the source does: it carries
// their format, semantics.Format).
func run(stages []lang.Stage, sem string, args map[string]string) Row {
	return runFuel(stages, sem, args, 0)
}

// runFuel is run with the given fuel (0: the semantics' default).
func runFuel(stages []lang.Stage, sem string, args map[string]string, fuel int) Row {
	o := lang.RunOptions{Semantics: sem, Args: args}
	o.Fuel = fuel
	o.Stats = &semantics.Stats{}
	r, err := stages[len(stages)-1].Program.Run(o)
	return Row{Semantics: sem, Result: r, Err: err}
}

// agree compares every row with the first: the same results, or both
// going wrong (errors differ in position from level to level, so only
// their kinds are compared). A row that refuses (Refused) is not
// compared. A row whose program re-associates a float fold agrees when
// its results are within the bound (marked Reassociated), unless
// o.ExactFloats.
func agree(rows []Row, args map[string]string, o SideOptions) error {
	first := reference(rows)
	for i, r := range rows {
		if !r.ran() || r.NotRun || r.Refused(first) || sameRow(r, first) {
			continue
		}
		if what := differ(first, r); what != "" {
			if !o.ExactFloats && closeRows(first, r) && Reassociates(r.Stages) {
				rows[i].Reassociated = true
				continue
			}
			if pass := blame(first, r, args); pass != "" {
				what += "; " + pass
			}
			return &semantics.Error{Kind: semantics.MismatchError, Rule: "side-by-side", Msg: "disagreement: " + what}
		}
	}
	if n := Refusals(rows); n > 0 {
		return &semantics.Error{Kind: semantics.OverflowError, Rule: "side-by-side",
			Msg: fmt.Sprintf("refused: %s stop on a 64-bit integer overflow (%s); the other runs agree", semantics.Plural(n, "run"), semantics.OverflowNote)}
	}
	return nil
}

// differ says how r differs from first, or "".
func differ(first, r Row) string {
	switch {
	case (first.Err == nil) != (r.Err == nil):
		what := fmt.Sprintf("%s %s: %s, but %s %s: %s", first.Level, first.Semantics, first.Outcome(), r.Level, r.Semantics, r.Outcome())
		if c, ok := r.program().(lang.Caveat); ok && first.Err != nil {
			what += " (" + c.Caveat() + ")"
		}
		return what
	case first.Err != nil:
		// Two rows stopped at their bounds agree that the program does
		// not end within them, whichever bound each met (fuel, or
		// --max-memory: a small-step's frame of 10^8 applications).
		if kind(first.Err) != kind(r.Err) && !(first.bounded() && r.bounded()) {
			return fmt.Sprintf("%s %s and %s %s go wrong differently: %v; %v", first.Level, first.Semantics, r.Level, r.Semantics, first.Err, r.Err)
		}
	case first.Result.Values != nil && r.Result.Values != nil && !first.Result.Source && !r.Result.Source:
		if len(first.Result.Values) != len(r.Result.Values) {
			return fmt.Sprintf("%s %s gives %d results, %s %s %d", first.Level, first.Semantics, len(first.Result.Values), r.Level, r.Semantics, len(r.Result.Values))
		}
		for i := range first.Result.Values {
			if d := semantics.Compare(first.Result.Values[i], r.Result.Values[i], first.Level+" "+first.Semantics, r.Level+" "+r.Semantics); d != "" {
				return fmt.Sprintf("result %d, %s", i+1, d)
			}
		}
	default:
		a, b := first.Result.Lines, r.Result.Lines
		for i := range max(len(a), len(b)) {
			if i >= len(a) || i >= len(b) || a[i] != b[i] {
				return fmt.Sprintf("result %d: %s %s gives %s, %s %s gives %s", i+1, first.Level, first.Semantics, first.Outcome(), r.Level, r.Semantics, r.Outcome())
			}
		}
	}
	return ""
}

// Refused reports whether r stopped on a 64-bit integer overflow where
// first did not (semantics.OverflowError): a compiled level of a program
// whose integers are exact, refusing a value it cannot hold. That is no
// disagreement: the level says so, rather than print a wrapped value.
func (r Row) Refused(first Row) bool {
	return kind(r.Err) == semantics.OverflowError && kind(first.Err) != semantics.OverflowError
}

// Refusals counts the rows that refused (Refused).
func Refusals(rows []Row) int {
	n, first := 0, reference(rows)
	for _, r := range rows {
		if r.Declined == nil && !r.NotRun && !sameRow(r, first) && r.Refused(first) {
			n++
		}
	}
	return n
}

// sameRow reports whether a and b are the same run (level and semantics).
func sameRow(a, b Row) bool { return a.Level == b.Level && a.Semantics == b.Semantics }

func (r Row) program() lang.Program {
	if len(r.Stages) == 0 {
		return nil
	}
	return r.Stages[len(r.Stages)-1].Program
}

func kind(err error) semantics.Kind {
	var se *semantics.Error
	if errors.As(err, &se) {
		return se.Kind
	}
	return -1
}

// blame finds the pass that broke a program: the first stage of r's walk
// whose program, run by its default semantics, differs from first.
func blame(first, r Row, args map[string]string) string {
	for i, st := range r.Stages[min(1, len(r.Stages)):] {
		got := run(r.Stages[:i+2], "", args)
		got.Level, got.Semantics = st.Program.Language().Title()+" after "+st.Name(), st.Program.Semantics()[0]
		if differ(first, got) != "" {
			return fmt.Sprintf("the first stage that differs is the output of %s (%s → %s)", st.Pass.Name, st.Pass.From, st.Pass.To)
		}
	}
	return ""
}

// PrintRows prints the side-by-side table and its verdict line; a row
// that agrees within the float re-association bound shows ≈ before its
// results. The cost counters (ops, words allocated, peak live words, kernel launches) are
// those of the runs whose semantics counts them (semantics.Stats); "-"
// where it counts none.
func PrintRows(w io.Writer, rows []Row, verdict error) {
	t := [][]string{{"level", "semantics", "result", "steps", "ops", "words", "peak", "kernels", "time"}}
	runs := 0
	for _, r := range rows {
		steps, tm := "-", "-"
		costs := []string{"-", "-", "-", "-"}
		if r.ran() && !r.NotRun {
			runs++
		}
		if r.Err == nil && r.ran() {
			if r.Result.Steps > 0 {
				steps = fmt.Sprint(r.Result.Steps)
			}
			if st := r.Result.Stats; st != nil {
				costs = []string{fmt.Sprint(st.Ops), fmt.Sprint(st.Words), fmt.Sprint(st.PeakWords), fmt.Sprint(st.Kernels)}
			}
			tm = r.Result.Time.Round(time.Microsecond).String()
		}
		outcome := r.Outcome()
		if r.Reassociated {
			outcome = "≈ " + outcome // within the float re-association bound
		}
		t = append(t, append(append([]string{r.Label(), r.Semantics, outcome, steps}, costs...), tm))
	}
	table.Print(w, t)
	close := ""
	if n := reassociated(rows); n > 0 && verdict == nil || kind(verdict) == semantics.OverflowError && n > 0 {
		close = fmt.Sprintf(", %d of them (≈) within %s of the first row's floats: their programs re-associate a float fold (--exact-floats compares exactly)", n, semantics.FloatReassociationWithin)
	}
	notRun := ""
	if n := NotRuns(rows); n > 0 {
		notRun = fmt.Sprintf("; %s not run past %s (--fuel N, --max-memory)", semantics.Plural(n, "row"), map[bool]string{true: "its bound", false: "their bounds"}[n == 1])
	}
	if n := declined(rows); n > 0 {
		notRun += fmt.Sprintf("; %s not compiled (a pass declined the program)", semantics.Plural(n, "level"))
	}
	if n := sameAs(rows); n > 0 {
		notRun += fmt.Sprintf("; %s the same program as an earlier level, not run again", semantics.Plural(n, "level"))
	}
	switch {
	case kind(verdict) == semantics.OverflowError:
		n := Refusals(rows)
		fmt.Fprintf(w, "\nverdict: refused: %s stop on a 64-bit integer overflow (%s); the other %d agree%s%s\n", semantics.Plural(n, "run"), semantics.OverflowNote, runs-n, close, notRun)
	case verdict != nil:
		msg := verdict.Error()
		var se *semantics.Error
		if errors.As(verdict, &se) {
			msg = se.Msg
		}
		fmt.Fprintf(w, "\nverdict: DISAGREE (%s)\n", msg)
	case mixedBounds(rows):
		fmt.Fprintf(w, "\nverdict: agree: every level and semantics stops at its bound (out of fuel, or past --max-memory: raise --fuel N or --max-memory)%s\n", notRun)
	case reference(rows).Err != nil:
		fmt.Fprintf(w, "\nverdict: agree: every level and semantics goes wrong (%v)%s\n", kind(reference(rows).Err), notRun)
	case close != "":
		fmt.Fprintf(w, "\nverdict: agree (float re-association): %d runs give the same results%s%s\n", runs, close, notRun)
	default:
		fmt.Fprintf(w, "\nverdict: agree: %d runs give the same results%s\n", runs, notRun)
	}
}

// declined counts the levels a pass declined the program at.
func declined(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.Declined != nil {
			n++
		}
	}
	return n
}

// sameAs counts the levels whose program is an earlier level's.
func sameAs(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.SameAs != "" {
			n++
		}
	}
	return n
}

// reassociated counts the rows that agree within the float bound.
func reassociated(rows []Row) int {
	n := 0
	for _, r := range rows {
		if r.Reassociated {
			n++
		}
	}
	return n
}
