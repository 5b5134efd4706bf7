package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/internal/bench"
)

// cmdBench is `arraysem bench`: the issue "Performance"'s table, each
// workload measured beside its floor and its target (internal/bench).
func cmdBench(args []string, stdout io.Writer) error {
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
	if runHasJobs() {
		opts.Jobs = runWithJobs
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

// runHasJobs reports whether `arraysem run` takes --jobs, from its flag
// set: the jobs row measures the flag through the command itself, so it
// is built exactly when the command has it.
func runHasJobs() bool {
	var help helpRequest
	return errors.As(lookup("run").run([]string{"--help"}, io.Discard), &help) && help.fs.Lookup("jobs") != nil
}

// runWithJobs runs a program through `arraysem run FILE --jobs J`,
// written to a temporary file, its output discarded.
func runWithJobs(ext, src string, args map[string]string, jobs int) error {
	dir, err := os.MkdirTemp("", "arraysem-bench")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "bench"+ext)
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		return err
	}
	argv := []string{file, "--jobs", strconv.Itoa(jobs)}
	names := make([]string, 0, len(args))
	for k := range args {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		argv = append(argv, "--arg", k+"="+args[k])
	}
	// The command's function, not Main, so that the globals Main sets
	// for the bench command (notices, progress) stay as they are.
	if err := lookup("run").run(argv, io.Discard); err != nil {
		return fmt.Errorf("arraysem run %s: %w", strings.Join(argv, " "), err)
	}
	return nil
}
