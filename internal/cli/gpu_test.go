package cli

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/internal/planted"
	"github.com/mattn/go-runewidth"
)

// The commands of gpu.go, end to end: compile --to cuda, gpu-sim and
// gpu-check, with their exit statuses.

func writeCU(t *testing.T, args ...string) string {
	t.Helper()
	out, errs, status := run(t, append([]string{"compile"}, args...)...)
	if status != 0 {
		t.Fatalf("compile %v: status %d: %s", args, status, errs)
	}
	f := filepath.Join(t.TempDir(), "prog.cu")
	if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// plantedCU writes gpu-sim's planted program name (the CUDA of
// examples/imp/kernel.imp, emitted now, with the edits of
// gpu-sim/testdata/planted/name.txt, which say why they plant the bug) to
// name.cu in a temporary directory, and returns its path.
func plantedCU(t *testing.T, name string) string {
	t.Helper()
	src, err := planted.Program(".", name)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(t.TempDir(), name+".cu")
	if err := os.WriteFile(f, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func TestGpuSimCommand(t *testing.T) {
	cu := writeCU(t, "examples/imp/kernel.imp", "--to", "cuda")
	for _, c := range []struct {
		args   []string
		status int
		out    string // a regular expression for stdout, stderr for a failure
	}{
		{[]string{cu, "n=4", "m=2"}, 0, `^\[1 4 9 16\]\n\[\[1 2\] \[2 4\] \[3 6\] \[4 8\]\]\n\[7 7\]\n$`},
		{[]string{cu, "--arg", "n=2", "--arg", "m=1", "--schedule", "random:3", "--block", "1"}, 0, `^\[1 4\]\n\[\[1\] \[2\]\]\n\[7\]\n$`},
		// Bad input names the file, no line of it; a stuck state and a
		// race name the source program's position (the file's sites).
		{[]string{cu, "n=4"}, 2, `^arraysem: \S*prog\.cu: missing input m : int \(give it with --arg m=VALUE\)\n$`},
		{[]string{cu, "n=-1", "m=2"}, 1, `^examples/imp/kernel\.imp:31:1: E-IMP-ALLOC: allocation of negative size -1\n$`},
		{[]string{cu, "n=4", "m=2", "--schedule", "sideways"}, 2, `want in-order, reverse or random`},
		{[]string{plantedCU(t, "race"), "n=4", "m=2"}, 1, `^examples/imp/kernel\.imp:35:3: gpu-sim race: data race in arraysem_kernel_1: thread 2 .* thread 1 `},
		{[]string{plantedCU(t, "unsupported"), "n=4", "m=2"}, 2, `unsupported\.cu:\d+:5: unsupported construct "while"`},
		{[]string{"examples/imp/kernel.imp"}, 2, `does not contain arraysem's CUDA prelude`},
	} {
		out, errs, status := run(t, append([]string{"gpu-sim"}, c.args...)...)
		text := out
		if c.status != 0 {
			text = errs
		}
		if status != c.status || !regexp.MustCompile(c.out).MatchString(text) {
			t.Errorf("gpu-sim %v: status %d, stdout %q, stderr %q; want status %d and %s", c.args, status, out, errs, c.status, c.out)
		}
	}
}

// TestCompileCudaDefaults: --arg values are compiled in, and the command
// line of the built program overrides them.
func TestCompileCudaDefaults(t *testing.T) {
	cu := writeCU(t, "examples/imp/kernel.imp", "--to", "cuda", "--arg", "n=2", "--arg", "m=1")
	if out, errs, status := run(t, "gpu-sim", cu); status != 0 || out != "[1 4]\n[[1] [2]]\n[7]\n" {
		t.Errorf("defaults: status %d, %q, %s", status, out, errs)
	}
	if out, errs, status := run(t, "gpu-sim", cu, "n=1"); status != 0 || out != "[1]\n[[1]]\n[7]\n" {
		t.Errorf("override: status %d, %q, %s", status, out, errs)
	}
}

// sectorsPerLoad reads the total row's load sectors per request of a
// --stats table.
func sectorsPerLoad(t *testing.T, table string) float64 {
	t.Helper()
	for _, l := range strings.Split(table, "\n") {
		f := strings.Fields(l)
		if len(f) == 15 && f[0] == "total" {
			v, err := strconv.ParseFloat(f[7], 64)
			if err != nil {
				t.Fatal(err)
			}
			return v
		}
	}
	t.Fatalf("no total row in\n%s", table)
	return 0
}

// TestStatsLayouts: on the matrix product, memory expansion's GPU layout
// (threads' arrays interleaved) touches fewer sectors per load request
// than the CPU layout (a row per thread), as "Compiling a functional array
// language with non-semantic memory information" §5 argues it should.
func TestStatsLayouts(t *testing.T) {
	a := "a=[[1 2 3 4] [5 6 7 8] [1 1 1 1] [2 2 2 2] [3 3 3 3] [4 4 4 4] [5 5 5 5] [6 6 6 6]]"
	b := "b=[[1 2 3 4 5 6 7 8] [1 1 1 1 1 1 1 1] [2 2 2 2 2 2 2 2] [3 3 3 3 3 3 3 3]]"
	per := map[string]float64{}
	var results []string
	for _, lay := range []string{"gpu", "cpu"} {
		cu := writeCU(t, "examples/fun/matmul.fun", "--to", "cuda", "--expand", "--layout", lay)
		out, errs, status := run(t, "gpu-sim", cu, "--stats", a, b)
		if status != 0 {
			t.Fatalf("%s: status %d: %s", lay, status, errs)
		}
		result, table, _ := strings.Cut(out, "\nkernel")
		results = append(results, result)
		per[lay] = sectorsPerLoad(t, "kernel"+table)
	}
	if results[0] != results[1] {
		t.Errorf("the layouts compute different products: %q, %q", results[0], results[1])
	}
	if !(per["gpu"] < per["cpu"]) {
		t.Errorf("load sectors per request: gpu layout %.2f, cpu layout %.2f; want the gpu layout's fewer", per["gpu"], per["cpu"])
	}
	t.Logf("load sectors per request: gpu layout %.2f, cpu layout %.2f", per["gpu"], per["cpu"])
}

func TestGpuCheckCommand(t *testing.T) {
	out, errs, status := run(t, "gpu-check", "examples/imp")
	if status != 0 || !regexp.MustCompile(`\d+ programs, \d+ runs, 0 disagree\n$`).MatchString(out) {
		t.Errorf("gpu-check examples/imp: status %d, %s\n%s", status, errs, out)
	}
	if !strings.Contains(out, "race.imp") || !strings.Contains(out, "race found") {
		t.Errorf("gpu-check does not show the race of race.imp:\n%s", out)
	}
	if _, _, status := run(t, "gpu-check", "examples/imp", "--host", "--nvcc"); status != 2 {
		t.Errorf("two backends: status %d, want 2", status)
	}
	// A directory with no program checks nothing: a mistake, as for test.
	if _, errs, status := run(t, "gpu-check", t.TempDir()); status != 2 || !strings.Contains(errs, "no program that compiles to CUDA") {
		t.Errorf("gpu-check on an empty directory: status %d, %s", status, errs)
	}
}

// TestCudaExamplesCurrent: the CUDA files in examples/cuda are what the
// emitter makes of their sources today (they are the help's and README's
// gpu-sim examples, and gpu-sim reads only the current prelude).
func TestCudaExamplesCurrent(t *testing.T) {
	for cu, src := range map[string]string{"examples/cuda/kernel.cu": "examples/imp/kernel.imp"} {
		want, err := os.ReadFile(cu)
		if err != nil {
			t.Fatal(err)
		}
		out, errs, status := run(t, "compile", src, "--to", "cuda")
		if status != 0 || out != string(want) {
			t.Errorf("%s is not what compile %s --to cuda prints now (regenerate it): status %d %s", cu, src, status, errs)
		}
	}
}

// fakeNvcc is an nvcc for machines without the CUDA toolkit: it builds
// its input for the host with clang++-14 (the prelude's ARRAYSEM_HOST
// mapping), taking nvcc's -o and ignoring its other options, and says
// what it is to --version as nvcc does: the release line, then a build
// line last.
const fakeNvcc = `#!/bin/sh
out=""
in=""
while [ $# -gt 0 ]; do
  case "$1" in
    --version) printf 'nvcc: NVIDIA (R) Cuda compiler driver\nCuda compilation tools, release 0.0 (fake nvcc: clang++-14 -DARRAYSEM_HOST)\nBuild fake\n'; exit 0 ;;
    -o) out="$2"; shift 2 ;;
    -*) shift ;;
    *) in="$1"; shift ;;
  esac
done
exec clang++-14 -x c++ -std=c++17 -DARRAYSEM_HOST -pthread -o "$out" "$in"
`

// TestGpuCheckNvcc runs gpu-check --nvcc end to end with a fake nvcc on
// PATH (no GPU has been lent to this project; see docs/gpu-results.md):
// the lookup of nvcc, the report's device and nvcc lines (unknown without
// nvidia-smi), the build with cuda.NvccCommand's arguments, and the runs
// compared with the interpreter, a stuck state and a race included.
func TestGpuCheckNvcc(t *testing.T) {
	if _, err := exec.LookPath("clang++-14"); err != nil {
		t.Skip("clang++-14 is not on PATH")
	}
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "nvcc"), []byte(fakeNvcc), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	dir := t.TempDir()
	for _, f := range []string{"kernel.imp", "stuck_div.imp", "race.imp"} {
		src, err := os.ReadFile(filepath.Join("examples", "imp", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out, errs, status := run(t, "gpu-check", dir, "--nvcc")
	for _, re := range []string{
		`(?m)^device: \S`,
		`(?m)^nvcc: Cuda compilation tools, release 0\.0 \(fake nvcc: clang\+\+-14 -DARRAYSEM_HOST\)$`,
		`kernel\.imp\s+m=2 n=3\s+nvcc\s+ok`,
		`stuck_div\.imp\s+.*nvcc\s+ok`,
		`race\.imp\s+.*nvcc\s+skip\s+.*only gpu-sim checks races`,
		`(?m)^3 programs, \d+ runs, 0 disagree$`,
	} {
		if !regexp.MustCompile(re).MatchString(out) {
			t.Errorf("gpu-check --nvcc: no match for %s; status %d, stderr %s\n%s", re, status, errs, out)
		}
	}
	if status != 0 {
		t.Errorf("gpu-check --nvcc: status %d, stderr %s", status, errs)
	}
}

// TestGpuResultsMap: the map program docs/gpu-results.md gives for timing
// runs, and prints what the page says, in the interpreter and, compiled,
// in gpu-sim.
func TestGpuResultsMap(t *testing.T) {
	page, err := os.ReadFile("docs/gpu-results.md")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?s)cat > map\.fun <<'EOF'\n(.*?)\nEOF\n`).FindSubmatch(page)
	want := regexp.MustCompile(`arraysem run map\.fun --arg n=1000 --arg k=3 +# (\[.*\])`).FindSubmatch(page)
	if m == nil || want == nil {
		t.Fatal("docs/gpu-results.md: no map.fun, or no expected output of its run")
	}
	f := writeFile(t, "map.fun", string(m[1])+"\n")
	if out, errs, status := run(t, "run", f, "--arg", "n=1000", "--arg", "k=3"); status != 0 || out != string(want[1])+"\n" {
		t.Errorf("run map.fun: status %d, %q, %s; the page says %s", status, out, errs, want[1])
	}
	cu := writeCU(t, f, "--to", "cuda")
	if out, errs, status := run(t, "gpu-sim", cu, "n=1000", "k=3"); status != 0 || out != string(want[1])+"\n" {
		t.Errorf("gpu-sim map.cu: status %d, %q, %s; the page says %s", status, out, errs, want[1])
	}
}

// TestGpuCheckFitsTheScreen: on a screen (screenWidth) no line of
// gpu-check is wider than it: the file's column wraps, the inputs are
// cut short with "…" and each row's detail goes on indented lines below
// it, whole; with --wide, as off a terminal, every cell is whole.
func TestGpuCheckFitsTheScreen(t *testing.T) {
	widest := func(out string) int {
		w := 0
		for _, l := range strings.Split(out, "\n") {
			w = max(w, runewidth.StringWidth(l))
		}
		return w
	}
	// The times differ from run to run, and with them the blanks; so do
	// fresh names (x%2026).
	fresh := regexp.MustCompile(`%[0-9]+`)
	norm := func(out string) string {
		return strings.Join(strings.Fields(fresh.ReplaceAllString(durationRe.ReplaceAllString(out, "T"), "%")), " ")
	}
	saved := screenWidth
	defer func() { screenWidth = saved }()
	// The command runs twice for each directory: off a terminal (whole)
	// and on 60 columns; the other widths print one run's report, as the
	// command prints it (gpuReport.write), rather than running again.
	for _, dir := range []string{"examples/fun", "examples/remora"} {
		screenWidth = saved
		whole, errs, status := run(t, "gpu-check", dir)
		if status != 0 || widest(whole) <= 100 {
			t.Fatalf("gpu-check %s off a terminal: status %d, %d columns (want the whole table, over 100)\n%s", dir, status, widest(whole), errs)
		}
		screenWidth = func(io.Writer) int { return 60 }
		fit60, _, status := run(t, "gpu-check", dir)
		if status != 0 || widest(fit60) > 60 {
			t.Errorf("gpu-check %s on 60 columns: status %d, %d columns:\n%s", dir, status, widest(fit60), fit60)
		}
		ps, declined, files, err := gpuCheckLoad(check.NewRegistry(), dir)
		if err != nil {
			t.Fatal(err)
		}
		rep, err := gpuCheck(ps, declined, files, harness.Sim, false)
		if err != nil {
			t.Fatal(err)
		}
		var all bytes.Buffer
		rep.write(&all, 0)
		if norm(all.String()) != norm(whole) {
			t.Errorf("gpu-check %s: its report printed whole differs from the command's table:\n%s", dir, all.String())
		}
		for _, width := range []int{100, 60} {
			var b bytes.Buffer
			rep.write(&b, width)
			fit := b.String()
			if widest(fit) > width {
				t.Errorf("gpu-check %s on %d columns: %d columns:\n%s", dir, width, widest(fit), fit)
			}
			if width == 60 && norm(fit) != norm(fit60) {
				t.Errorf("gpu-check %s: its report on 60 columns differs from the command's:\n%s", dir, fit)
			}
			if dir == "examples/fun" && !strings.Contains(fit, "…") {
				t.Errorf("gpu-check %s on %d columns cuts no input short:\n%s", dir, width, fit)
			}
			if dir == "examples/remora" && width == 100 {
				// A detail whole, below its row.
				_, detail, _ := strings.Cut(whole, "fig8_reduce_type.remora")
				_, detail, _ = strings.Cut(detail, "excluded")
				detail, _, _ = strings.Cut(detail, "\n")
				if !strings.Contains(fit, "\n    Lower: examples/remora/fig8_reduce_type.remora:23:5: ") || !strings.Contains(norm(fit), norm(detail)) {
					t.Errorf("gpu-check %s on %d columns: the detail %q is not whole below its row:\n%s", dir, width, detail, fit)
				}
			}
		}
	}
	// --wide prints the whole table on any terminal.
	dir := t.TempDir()
	src, err := os.ReadFile("examples/fun/fig2.fun")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "a_program_with_a_rather_long_name.fun"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	screenWidth = saved
	whole, _, _ := run(t, "gpu-check", dir)
	screenWidth = func(io.Writer) int { return 30 }
	wide, _, status := run(t, "gpu-check", dir, "--wide")
	if status != 0 || widest(whole) <= 30 || norm(wide) != norm(whole) {
		t.Errorf("gpu-check --wide on 30 columns (status %d) differs from the whole table (%d columns):\n%s\nwhole:\n%s", status, widest(whole), wide, whole)
	}
}

// TestScreenWidthColumns: $COLUMNS, when set to a number, is the width
// tables fit, on a terminal or not.
func TestScreenWidthColumns(t *testing.T) {
	t.Setenv("COLUMNS", "77")
	if w := screenWidth(&bytes.Buffer{}); w != 77 {
		t.Errorf("COLUMNS=77: width %d", w)
	}
	t.Setenv("COLUMNS", "wide")
	if w := screenWidth(&bytes.Buffer{}); w != 0 {
		t.Errorf("COLUMNS=wide off a terminal: width %d, want 0 (the whole table)", w)
	}
}
