package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"github.com/arraysem/arraysem/lang"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/semantics"
	"github.com/mattn/go-runewidth"
)

// The CUDA backend's commands: gpu-sim and gpu-check (compile --to cuda
// is a walk of the registry, whose last pass is cuda.Emit).

// cmdGpuSim is gpu-sim FILE.cu [--stats] [--block N] [--schedule S]
// [--engine E] [NAME=VALUE]...: the file run in the simulator, printing
// what the compiled program prints; --stats adds the per-kernel table
// after the results.
func cmdGpuSim(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gpu-sim", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	stats := fs.Bool("stats", false, "print per-kernel launches, threads, requests and sectors")
	block := fs.Int("block", 256, "threads per block")
	sched := fs.String("schedule", "in-order", "in-order, reverse or random[:SEED]")
	engine := fs.String("engine", "compiled", "compiled (the default) or reference (the tree walker)")
	fuel := fs.Int64("fuel", 0, "the run's fuel: at most N statements over all threads (0: 10^10)")
	in := addInputFlags(fs)
	memoryFlag(fs)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return flagError(fs, err)
		}
		args = fs.Args()
		if len(args) == 0 {
			break
		}
		pos, args = append(pos, args[0]), args[1:]
	}
	if err := applyMemory(fs); err != nil {
		return err
	}
	if len(pos) == 0 {
		return usageError{"gpu-sim wants FILE.cu [NAME=VALUE]..."}
	}
	if *fuel <= 0 { // every run is bounded
		*fuel = semantics.DefaultBigFuel
	}
	if *block < 1 || *block > 1024 {
		return usageError{"gpu-sim: --block wants 1 to 1024 threads"}
	}
	s, err := gpusim.ParseSchedule(*sched)
	if err != nil {
		return usageError{"gpu-sim: " + err.Error()}
	}
	if *engine != "compiled" && *engine != "reference" {
		return usageError{"gpu-sim: --engine wants compiled or reference"}
	}
	if *engine == "compiled" {
		// Kernels the compiled engine cannot compile run in the tree
		// walker (Options.Engine "").
		*engine = ""
	}
	src, err := semantics.ReadSource(pos[0])
	if err != nil {
		return usageError{err.Error()}
	}
	prog, err := gpusim.Parse(pos[0], string(src))
	if err != nil {
		return simErr(err)
	}
	// The file's main reads its arguments as the built program does
	// (cuda.Argv): --data FILE, NAME=VALUE, NAME=@FILE.
	inputs := append(cuda.Argv(in.values()), pos[1:]...)
	out, st, err := gpusim.Run(prog, inputs, gpusim.Options{Block: *block, Schedule: s, Stats: *stats, Engine: *engine, Fuel: *fuel})
	fmt.Fprint(stdout, out)
	if err != nil {
		return simErr(err)
	}
	if st != nil {
		st.Print(stdout)
	}
	return nil
}

// simErr gives gpu-sim's errors their exit status: 2 for a file it cannot
// read or bad input, 1 for a program that went wrong.
func simErr(err error) error {
	var se *gpusim.Error
	if errors.As(err, &se) && se.ExitStatus() == 2 {
		return usageError{err.Error()}
	}
	if se != nil && se.ExitStatus() == semantics.InterruptError.ExitStatus() {
		return semantics.Errorf(semantics.Pos{}, semantics.InterruptError, "", "%v", err) // Ctrl-C: exit 130
	}
	return failed{err.Error()}
}

// cmdGpuCheck is gpu-check DIR [--sim|--host|--nvcc]: every program of
// DIR (and its subdirectories) that reaches IMP, on every input of its
// test block, run by a backend and compared with the IMP interpreter,
// in a table.
func cmdGpuCheck(reg *lang.Registry, args []string, stdout io.Writer) error {
	fs := flag.NewFlagSet("gpu-check", flag.ContinueOnError)
	sim := fs.Bool("sim", false, "run in gpu-sim (the default)")
	host := fs.Bool("host", false, "build with clang++-14 for the host, with the sanitizers, and run")
	nvcc := fs.Bool("nvcc", false, "build with nvcc -std=c++17 -O2 and run on the GPU")
	exact := exactFloatsFlag(fs)
	wide := fs.Bool("wide", false, "print the table's long columns whole, not folded to the terminal's width")
	memoryFlag(fs)
	pos, err := parse(fs, args, 1, "one DIR")
	if err != nil {
		return err
	}
	backend := harness.Sim
	switch {
	case *host && !*nvcc && !*sim:
		backend = harness.Host
	case *nvcc && !*host && !*sim:
		backend = harness.Nvcc
	case *host || *nvcc:
		return usageError{"gpu-check: one of --sim, --host, --nvcc"}
	}
	ps, declined, files, err := gpuCheckLoad(reg, pos[0])
	if err != nil {
		return err
	}
	width := screenWidth(stdout)
	if *wide {
		width = 0
	}
	var head []string
	if backend == harness.Nvcc {
		if _, err := exec.LookPath("nvcc"); err != nil {
			return usageError{"gpu-check --nvcc: nvcc is not on PATH"}
		}
		head = append(head,
			"device: "+toolInfo("nvidia-smi", "--query-gpu=name,driver_version", "--format=csv,noheader"),
			"nvcc: "+toolInfo("nvcc", "--version"))
	}
	// The device's lines come before the runs, which can be long.
	writeLines(stdout, head, width)
	rep, err := gpuCheck(ps, declined, files, backend, *exact)
	if err != nil {
		return err
	}
	rep.write(stdout, width)
	if rep.bad > 0 {
		return failed{fmt.Sprintf("gpu-check: %d of %d runs disagree with the interpreter", rep.bad, rep.runs)}
	}
	return nil
}

// gpuCheckLoad lists the files under dir (sorted) and loads those that
// reach IMP (harness.Load), with the reasons of those it declined.
func gpuCheckLoad(reg *lang.Registry, dir string) (ps []*harness.Program, declined map[string]string, files []string, err error) {
	err = filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		return nil, nil, nil, usageError{err.Error()}
	}
	sort.Strings(files)
	ps, declined, err = harness.Load(reg, files)
	if err != nil {
		return nil, nil, nil, usageError{err.Error()}
	}
	if len(ps) == 0 && len(declined) == 0 && !slices.ContainsFunc(files, func(f string) bool { return harness.Exclusion(f) != "" }) {
		// As test: checking nothing is a mistake in the command, not a pass.
		return nil, nil, nil, usageError{"gpu-check: no program that compiles to CUDA under " + dir}
	}
	return ps, declined, files, nil
}

// gpuReport is what gpu-check found: its table (a header row, then a row
// per excluded file and per run) and the lines said below it. Running and
// printing are apart, so that one run prints at any width.
type gpuReport struct {
	cells     [][]string
	tail      []string
	runs, bad int
}

// gpuCheck runs the loaded programs ps by backend, each on every input of
// its test block, against the IMP interpreter; files are the directory's
// files, of which those excluded or declined (by harness.Load) get a row
// that says why, rather than being left out in silence.
func gpuCheck(ps []*harness.Program, declined map[string]string, files []string, backend string, exact bool) (*gpuReport, error) {
	dir, err := os.MkdirTemp("", "arraysem-gpu-check")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rep := &gpuReport{cells: [][]string{{"file", "input", "backend", "verdict", "time", "detail"}}}
	for _, f := range files {
		why := harness.Exclusion(f)
		if why == "" {
			why = declined[f]
		}
		if why != "" {
			rep.cells = append(rep.cells, []string{f, "", backend, "excluded", "", why})
		}
	}
	rows, bad := harness.Check(ps, backend, dir, exact)
	close := 0
	for _, r := range rows {
		if r.Verdict == harness.Reassociated {
			close++
		}
		rep.cells = append(rep.cells, []string{r.File, r.Input, r.Backend, r.Verdict, r.Time.Round(time.Millisecond).String(), r.Detail})
	}
	rep.runs, rep.bad = len(rows), bad
	rep.tail = append(rep.tail, fmt.Sprintf("%d programs, %d runs, %d disagree", len(ps), len(rows), bad))
	if close > 0 {
		rep.tail = append(rep.tail, fmt.Sprintf("(%s agree within %s of the interpreter's floats: their programs re-associate a float fold; --exact-floats compares exactly)", semantics.Plural(close, "run"), semantics.FloatReassociationWithin))
	}
	return rep, nil
}

// write prints the report folded to width (whole when width ≤ 0).
func (rep *gpuReport) write(w io.Writer, width int) {
	printCheckTable(w, rep.cells, width)
	writeLines(w, rep.tail, width)
}

// writeLines prints lines of a report, each folded to the width as the
// table is (whole when width ≤ 0).
func writeLines(w io.Writer, lines []string, width int) {
	for _, line := range lines {
		if width <= 0 {
			fmt.Fprintln(w, line)
			continue
		}
		for _, l := range table.WrapText(line, width) {
			fmt.Fprintln(w, l)
		}
	}
}

// printCheckTable prints gpu-check's table: whole when width ≤ 0 or it
// fits; else folded to width, the file's column wrapped, the input cut
// short with "…", and each row's detail on lines of its own below the
// row, indented and wrapped (--wide prints the table whole).
func printCheckTable(w io.Writer, rows [][]string, width int) {
	widest := 0
	var whole bytes.Buffer
	table.Print(&whole, rows)
	for _, l := range strings.Split(whole.String(), "\n") {
		widest = max(widest, runewidth.StringWidth(l))
	}
	if width <= 0 || widest <= width {
		w.Write(whole.Bytes())
		return
	}
	last := len(rows[0]) - 1
	short := make([][]string, len(rows))
	for i, r := range rows {
		short[i] = r[:last]
	}
	for i, lines := range table.FitRows(short, width, table.Keep, table.Cut) {
		for _, l := range lines {
			fmt.Fprintln(w, l)
		}
		if i == 0 {
			continue
		}
		for _, l := range table.WrapText(rows[i][last], max(width-4, table.MinNarrowed)) {
			if l != "" {
				fmt.Fprintln(w, "    "+l)
			}
		}
	}
}

// toolInfo is the line a tool prints about itself: nvcc --version's
// release line ("Cuda compilation tools, release …"; its last line is
// only the build), else the last line (the device and driver from
// nvidia-smi), or "unknown" and why, so that a report never leaves the
// line blank.
func toolInfo(name string, args ...string) string {
	out, err := exec.Command(name, args...).Output()
	text := strings.TrimSpace(string(out))
	if err != nil || text == "" {
		if err == nil {
			err = errors.New("no output")
		}
		return fmt.Sprintf("unknown (%s: %v)", name, err)
	}
	lines := strings.Split(text, "\n")
	for _, l := range lines {
		if strings.Contains(l, ", release ") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[len(lines)-1])
}
