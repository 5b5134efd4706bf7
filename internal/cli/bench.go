package cli

import (
	"flag"
	"fmt"
	"github.com/arraysem/arraysem/lang"
	"io"
	"os"
	"strings"

	"github.com/arraysem/arraysem/internal/bench"
)

// cmdBench is `arraysem bench`: the issue "Performance"'s table, each
// workload measured beside its floor and its target (internal/bench).
func cmdBench(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	var rows []string
	fs.Func("row", "measure only this row (repeatable; one of "+strings.Join(bench.RowNames(), ", ")+")", func(s string) error {
		if _, ok := bench.RowNamed(s); !ok {
			return fmt.Errorf("no row %q (one of %s)", s, strings.Join(bench.RowNames(), ", "))
		}
		rows = append(rows, s)
		return nil
	})
	quick := fs.Bool("quick", false, "small sizes and budgets: the whole table in under 30 s, to check that every row runs (its figures are not the targets')")
	jsonOut := fs.String("json", "", "also write the measurements, every size, to FILE as JSON")
	clock := fs.String("clock", "cpu", "time by process CPU time (cpu: the work, whatever else the machine runs) or by wall time (wall)")
	if _, err := parse(fs, args, 0, "no FILE"); err != nil {
		return err
	}
	if *clock != "cpu" && *clock != "wall" {
		return usageError{fmt.Sprintf("bench: --clock %q: want cpu or wall", *clock)}
	}
	// The JSON file is created before the rows are measured, so that a
	// path that cannot be written is a usage error at once, not after
	// minutes of measuring.
	var jsonFile *os.File
	if *jsonOut != "" {
		f, err := os.Create(*jsonOut)
		if err != nil {
			return usageError{"bench: --json: " + err.Error()}
		}
		defer f.Close()
		jsonFile = f
	}
	opts := bench.Options{Rows: rows, Quick: *quick, Clock: *clock}
	if progressOut != nil {
		opts.Progress = func(row string, i, n int) {
			fmt.Fprintf(progressOut, "\r\x1b[Kbench: %s (row %d of %d)", row, i, n)
		}
		defer fmt.Fprint(progressOut, "\r\x1b[K")
	}
	rep, err := bench.Run(opts)
	if err != nil {
		return usageError{"bench: " + err.Error()}
	}
	bench.Print(stdout, rep)
	if jsonFile != nil {
		if err := bench.WriteJSON(jsonFile, rep); err != nil {
			return err
		}
		return jsonFile.Close()
	}
	return nil
}
