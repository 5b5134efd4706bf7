package check

import (
	"errors"
	"fmt"
	"io"
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
}

// SideOptions configure SideBySideWith.
type SideOptions struct {
	// ExactFloats compares float results exactly even where a level's
	// program re-associates a float fold (semantics.FloatReassociationBound).
	ExactFloats bool
}

// Outcome renders a row's results (abbreviated) or its error.
func (r Row) Outcome() string {
	if r.Declined != nil {
		return "not compiled: " + r.Declined.Error()
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
func SideBySide(reg *lang.Registry, p lang.Program, args map[string]string) ([]Row, error) {
	return SideBySideWith(reg, p, args, SideOptions{})
}

// SideBySideWith is SideBySide with options.
func SideBySideWith(reg *lang.Registry, p lang.Program, args map[string]string, o SideOptions) ([]Row, error) {
	levels, err := reg.Levels(p)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, lv := range levels {
		if lv.Declined != nil {
			rows = append(rows, Row{Level: lv.Name, Semantics: "-", Declined: lv.Declined})
			continue
		}
		for _, sem := range lv.Program().Semantics() {
			row := run(lv.Stages, sem, args)
			row.Level, row.Stages = lv.Name, lv.Stages
			var se *semantics.Error
			if row.Err != nil && (!errors.As(row.Err, &se) || se.Kind == semantics.InputError) {
				return nil, row.Err
			}
			rows = append(rows, row)
		}
	}
	return rows, agree(rows, args, o)
}

// run runs the last program of a walk under one semantics (a program
// compiled from Remora prints its results as the source does: it carries
// their format, semantics.Format).
func run(stages []lang.Stage, sem string, args map[string]string) Row {
	o := lang.RunOptions{Semantics: sem, Args: args}
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
	first := rows[0]
	for i, r := range rows[1:] {
		if r.Declined != nil || r.Refused(first) {
			continue
		}
		if what := differ(first, r); what != "" {
			if !o.ExactFloats && closeRows(first, r) && Reassociates(r.Stages) {
				rows[i+1].Reassociated = true
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
		if kind(first.Err) != kind(r.Err) {
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
	n := 0
	for _, r := range rows[1:] {
		if r.Declined == nil && r.Refused(rows[0]) {
			n++
		}
	}
	return n
}

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
		if r.Declined == nil {
			runs++
		}
		if r.Err == nil && r.Declined == nil {
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
		t = append(t, append(append([]string{r.Level, r.Semantics, outcome, steps}, costs...), tm))
	}
	table.Print(w, t)
	close := ""
	if n := reassociated(rows); n > 0 && verdict == nil || kind(verdict) == semantics.OverflowError && n > 0 {
		close = fmt.Sprintf(", %d of them (≈) within %s of the first row's floats: their programs re-associate a float fold (--exact-floats compares exactly)", n, semantics.FloatReassociationWithin)
	}
	switch {
	case kind(verdict) == semantics.OverflowError:
		n := Refusals(rows)
		fmt.Fprintf(w, "\nverdict: refused: %s stop on a 64-bit integer overflow (%s); the other %d agree%s\n", semantics.Plural(n, "run"), semantics.OverflowNote, runs-n, close)
	case verdict != nil:
		msg := verdict.Error()
		var se *semantics.Error
		if errors.As(verdict, &se) {
			msg = se.Msg
		}
		fmt.Fprintf(w, "\nverdict: DISAGREE (%s)\n", msg)
	case rows[0].Err != nil:
		fmt.Fprintf(w, "\nverdict: agree: every level and semantics goes wrong (%v)\n", kind(rows[0].Err))
	case close != "":
		fmt.Fprintf(w, "\nverdict: agree (float re-association): %d runs give the same results%s\n", runs, close)
	default:
		fmt.Fprintf(w, "\nverdict: agree: %d runs give the same results\n", runs)
	}
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
