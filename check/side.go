package check

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/semantics"
	"github.com/mattn/go-runewidth"
)

// Level is a program at one level of the compile path.
type Level struct {
	Name    string // "FUN", "FUNMEM", "FUNMEM expanded (gpu)", "IMP", …
	Program *Loaded
}

// Levels lists the levels a program can be run at: for FUN, itself, its
// FUNMEM translation plain and memory-expanded in both layouts, and the
// IMP translations of those; for FUNMEM, the same from FUNMEM down; for
// IMP, itself.
func Levels(l *Loaded) ([]Level, error) {
	levels := []Level{{Name: strings.ToUpper(l.Lang), Program: l}}
	if l.Lang == "imp" || l.Lang == "remora" {
		return levels, nil // Remora's compile path is not built yet
	}
	type variant struct {
		name   string
		expand bool
		layout funmem.Layout
	}
	variants := []variant{{"", false, funmem.GPU}, {" expanded (gpu)", true, funmem.GPU}, {" expanded (cpu)", true, funmem.CPU}}
	for _, v := range variants {
		for _, to := range []string{"funmem", "imp"} {
			if l.Lang == "funmem" && to == "funmem" && !v.expand {
				continue // the program itself
			}
			st, err := Compile(l, CompileOptions{To: to, Expand: v.expand, Layout: v.layout})
			if err != nil {
				return nil, err
			}
			last := st[len(st)-1]
			var m *Loaded
			if last.Imp != nil {
				m, err = LoadImp(last.Imp, Options{})
			} else {
				m, err = LoadFunmem(last.Program, Options{})
			}
			if err != nil {
				return nil, err
			}
			levels = append(levels, Level{Name: strings.ToUpper(to) + v.name, Program: m})
		}
	}
	return levels, nil
}

// Row is one run of the side-by-side table.
type Row struct {
	Level, Semantics string
	Results          []semantics.Array
	Lines            []string // Remora's printed results
	Err              error
	Steps            int
	Time             time.Duration
}

// Outcome renders a row's results (abbreviated) or its error.
func (r Row) Outcome() string {
	if r.Err != nil {
		return "error: " + r.Err.Error()
	}
	if r.Lines != nil {
		parts := make([]string, len(r.Lines))
		for i, v := range r.Lines {
			if rs := []rune(v); len(rs) > 60 {
				v = string(rs[:57]) + "..."
			}
			parts[i] = v
		}
		return strings.Join(parts, "  ")
	}
	parts := make([]string, len(r.Results))
	for i, v := range r.Results {
		parts[i] = v.Abbrev(8)
	}
	return strings.Join(parts, "  ")
}

// SideBySide runs every semantics of every level on the same inputs. It
// returns the rows and, when two disagree, an error of kind MismatchError
// naming the first row that differs from the first and the first
// differing element.
func SideBySide(l *Loaded, args map[string]string) ([]Row, error) {
	levels, err := Levels(l)
	if err != nil {
		return nil, err
	}
	var rows []Row
	for _, lv := range levels {
		for _, sem := range lv.Program.Semantics() {
			r, err := lv.Program.Run(RunOptions{Semantics: sem, Args: args})
			row := Row{Level: lv.Name, Semantics: sem, Err: err}
			if err == nil {
				row.Results, row.Lines, row.Steps, row.Time = r.Results, r.Lines, r.Steps, r.Time
			} else if _, bad := err.(*semantics.Error); !bad {
				return nil, err
			} else if se := err.(*semantics.Error); se.Kind == semantics.InputError {
				return nil, err
			}
			rows = append(rows, row)
		}
	}
	return rows, agree(rows)
}

// agree compares every row with the first: the same results, or both
// going wrong (errors differ in position from level to level, so only
// their kinds are compared).
func agree(rows []Row) error {
	first := rows[0]
	for _, r := range rows[1:] {
		what := ""
		switch {
		case (first.Err == nil) != (r.Err == nil):
			what = fmt.Sprintf("%s %s: %s, but %s %s: %s", first.Level, first.Semantics, first.Outcome(), r.Level, r.Semantics, r.Outcome())
			if first.Err != nil && strings.HasPrefix(r.Level, "IMP") {
				what += " (IMP checks no bounds: FunMemToImp makes slices skip and indexing a read at the computed offset; ERRATA I2)"
			}
		case first.Err != nil:
			if first.Err.(*semantics.Error).Kind != r.Err.(*semantics.Error).Kind {
				what = fmt.Sprintf("%s %s and %s %s go wrong differently: %v; %v", first.Level, first.Semantics, r.Level, r.Semantics, first.Err, r.Err)
			}
		case first.Lines != nil:
			for i := range first.Lines {
				if i >= len(r.Lines) || first.Lines[i] != r.Lines[i] {
					what = fmt.Sprintf("result %d: %s %s gives %s, %s %s gives %s", i+1, first.Level, first.Semantics, first.Outcome(), r.Level, r.Semantics, r.Outcome())
					break
				}
			}
		case len(first.Results) != len(r.Results):
			what = fmt.Sprintf("%s %s gives %d results, %s %s %d", first.Level, first.Semantics, len(first.Results), r.Level, r.Semantics, len(r.Results))
		default:
			for i := range first.Results {
				if d := semantics.Compare(first.Results[i], r.Results[i], first.Level+" "+first.Semantics, r.Level+" "+r.Semantics); d != "" {
					what = fmt.Sprintf("result %d, %s", i+1, d)
					break
				}
			}
		}
		if what != "" {
			return &semantics.Error{Kind: semantics.MismatchError, Rule: "side-by-side", Msg: "disagreement: " + what}
		}
	}
	return nil
}

// PrintRows prints the side-by-side table and its verdict line.
func PrintRows(w io.Writer, rows []Row, verdict error) {
	table := [][]string{{"level", "semantics", "result", "steps", "time"}}
	for _, r := range rows {
		steps := "-"
		if r.Steps > 0 {
			steps = fmt.Sprint(r.Steps)
		}
		t := "-"
		if r.Err == nil {
			t = r.Time.Round(time.Microsecond).String()
		}
		table = append(table, []string{r.Level, r.Semantics, r.Outcome(), steps, t})
	}
	Table(w, table)
	switch {
	case verdict != nil:
		fmt.Fprintf(w, "\nverdict: DISAGREE (%s)\n", verdict.(*semantics.Error).Msg)
	case rows[0].Err != nil:
		fmt.Fprintf(w, "\nverdict: agree: every level and semantics goes wrong (%v)\n", rows[0].Err.(*semantics.Error).Kind)
	default:
		fmt.Fprintf(w, "\nverdict: agree: %d runs give the same results\n", len(rows))
	}
}

// Table prints rows as aligned columns; widths count display cells, so the
// papers' Unicode (ℓ, ⟨⟩, …) lines up.
func Table(w io.Writer, rows [][]string) {
	widths := map[int]int{}
	for _, r := range rows {
		for i, c := range r {
			widths[i] = max(widths[i], runewidth.StringWidth(c))
		}
	}
	for _, r := range rows {
		var b strings.Builder
		for i, c := range r {
			if i < len(r)-1 {
				b.WriteString(runewidth.FillRight(c, widths[i]+2))
			} else {
				b.WriteString(c)
			}
		}
		fmt.Fprintln(w, strings.TrimRight(b.String(), " "))
	}
}
