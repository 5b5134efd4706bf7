package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics/datafile"
)

// sumProgram sums an int array and takes the largest of a float one.
const sumProgram = `input (n : int) (xs : [n]) (fs : [n]float)
let (zero : int) = 0
let (s : int) = reduce (a : int) (b : int) = zero over xs do
  let (c : int) = a + b
  in (c)
let (low : float) = -1e300
let (m : float) = reduce (a : float) (b : float) = low over fs do
  let (ge : int) = a >= b
  let (c : float) = if ge then in (a) else in (b)
  in (c)
in (s, m)
`

// TestDataset: dataset writes the same file for the same seed, another
// for another, in text and in the binary format, and run reads both,
// through --data and --arg NAME=@FILE, to the same results as the values
// given as literals.
func TestDataset(t *testing.T) {
	dir := t.TempDir()
	prog := filepath.Join(dir, "sum.fun")
	if err := os.WriteFile(prog, []byte(sumProgram), 0o644); err != nil {
		t.Fatal(err)
	}
	gen := func(name string, args ...string) string {
		out, errs, status := run(t, append([]string{"dataset", "-s", "42", "-g", "[300]i64", "-g", "[300]f32", "--i64-bounds=-1000:1000", "--f32-bounds=-5:5"}, args...)...)
		if status != 0 || errs != "" {
			t.Fatalf("dataset %v: status %d %s", args, status, errs)
		}
		again, _, _ := run(t, append([]string{"dataset", "-s", "42", "-g", "[300]i64", "-g", "[300]f32", "--i64-bounds=-1000:1000", "--f32-bounds=-5:5"}, args...)...)
		other, _, _ := run(t, append([]string{"dataset", "--seed", "43", "-g", "[300]i64", "-g", "[300]f32", "--i64-bounds=-1000:1000", "--f32-bounds=-5:5"}, args...)...)
		if again != out || other == out {
			t.Fatalf("dataset %v: the same seed must write the same file, another seed another", args)
		}
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	text, bin := gen("d.txt"), gen("d.bin", "-b")
	if s, _ := os.Stat(bin); s.Size() != 2*(7+8)+300*8+300*4 {
		t.Errorf("the binary data set has %d bytes", s.Size())
	}
	if !strings.HasPrefix(readFile(t, text), "[") || !strings.Contains(readFile(t, text), "i64, ") || !strings.Contains(readFile(t, text), "f32") {
		t.Errorf("the text data set is not in Futhark's literals: %.80s", readFile(t, text))
	}
	vs, err := datafile.ReadFile(text)
	if err != nil || len(vs) != 2 {
		t.Fatalf("reading the text data set: %v", err)
	}
	want, errs, status := run(t, "run", prog, "--arg", "xs="+vs[0].String(), "--arg", "fs="+vs[1].String())
	if status != 0 || len(strings.Split(want, "\n")) != 3 {
		t.Fatalf("run on literals: status %d %s%s", status, want, errs)
	}
	xs, fs := filepath.Join(dir, "xs.in"), filepath.Join(dir, "fs.in")
	os.WriteFile(xs, []byte(vs[0].String()), 0o644)
	os.WriteFile(fs, []byte(vs[1].String()), 0o644)
	for _, args := range [][]string{
		{"run", prog, "--data", text},
		{"run", prog, "--data", bin},
		{"run", prog, "--data", bin, "--semantics", "small"},
		{"run", prog, "--arg", "xs=@" + xs, "--arg", "fs=@" + fs, "--arg", "n=300"},
	} {
		out, errs, status := run(t, args...)
		if status != 0 || out != want {
			t.Errorf("%v: status %d, %q %s; want %q", args, status, out, errs, want)
		}
	}
	if out, errs, status := run(t, "side-by-side", prog, "--data", bin); status != 0 || !strings.Contains(out, "verdict: agree") {
		t.Errorf("side-by-side --data: status %d\n%s%s", status, out, errs)
	}
}

func readFile(t *testing.T, f string) string {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestDataInputs: every command that takes inputs reads them from files,
// and a bad data file or flag is one line, exit 2.
func TestDataInputs(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	fig2 := file("fig2.in", "3 4 1")
	kernel := file("kernel.in", "-- n and m\n4i64 2i64\n")
	xs := file("xs.in", "[1 2 3]")
	bad := file("bad.in", "3 4\n [1 2")
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string // substring expected on stdout
		stderr string // the whole of stderr, or a substring of it when it starts with …
	}{
		{"run --data", []string{"run", "examples/fun/fig2.fun", "--data", fig2}, 0, "3\n[1 2 3]\n", ""},
		{"step --data", []string{"step", "examples/fun/fig2.fun", "--data", fig2}, 0, "E-IF-TRUE", ""},
		{"check --data", []string{"check", "examples/funmem/fig7.funmem", "--data", fig2}, 0, "valid (Def 3.1)", ""},
		{"run funmem --data", []string{"run", "examples/funmem/fig7.funmem", "--data", fig2, "--semantics", "value"}, 0, "3\n[1 2 3]\n", ""},
		{"run imp --data", []string{"run", "examples/imp/kernel.imp", "--data", kernel}, 0, "[1 4 9 16]", ""},
		{"gpu-sim --data", []string{"gpu-sim", "examples/cuda/kernel.cu", "--data", kernel}, 0, "[1 4 9 16]", ""},
		{"gpu-sim @FILE", []string{"gpu-sim", "examples/cuda/kernel.cu", "m=2", "--arg", "n=@" + file("n.in", "4")}, 0, "[1 4 9 16]", ""},
		{"compile --arg @FILE", []string{"compile", "examples/imp/kernel.imp", "--to", "cuda", "--arg", "n=@" + file("n.in", "4")}, 0, `arraysem_defaults[] = {"n=4", nullptr}`, ""},
		{"a missing data file", []string{"run", "examples/fun/fig2.fun", "--data", filepath.Join(dir, "none.in")}, 2, "", "arraysem: " + filepath.Join(dir, "none.in") + ": cannot read the data file: no such file or directory\n"},
		{"a bad data file", []string{"run", "examples/fun/fig2.fun", "--data", bad}, 2, "", bad + ":2:2: missing ']' for this '['\n"},
		{"a bad @FILE", []string{"run", "examples/fun/fig2.fun", "--arg", "xsize=@" + bad}, 2, "", bad + ":1:3: a second value, where the file is to hold one (--data FILE reads a value for each input)\n"},
		{"too many values", []string{"run", "examples/fun/fig2.fun", "--data", file("four.in", "1 2 3 4")}, 2, "", "…holds 4 values, but the program takes 3 inputs (xsize, ysize, zcond)"},
		{"given twice", []string{"run", "examples/fun/fig2.fun", "--data", fig2, "--arg", "zcond=0"}, 2, "", "…input zcond is given twice: by --arg and by --data"},
		{"--data twice", []string{"run", "examples/fun/fig2.fun", "--data", fig2, "--data", fig2}, 2, "", "…for flag -data: given twice"},
		{"--data empty", []string{"run", "examples/fun/fig2.fun", "--data", ""}, 2, "", "…for flag -data: want a FILE"},
		{"remora --data", []string{"run", "examples/remora/a2_implicit_map.remora", "--data", xs}, 2, "", "…Remora programs take no --data inputs"},
		{"dataset without -g", []string{"dataset"}, 2, "", "arraysem: dataset: say what to generate, -g TYPE (e.g. -g '[1000]i64' -g f64)\n"},
		{"dataset bad type", []string{"dataset", "-g", "[3]i128"}, 2, "", `…"i128" is not one of i8, i16`},
		{"dataset bad bounds", []string{"dataset", "-g", "i8", "--i8-bounds=0:300"}, 2, "", "…bounds for i8: want integers -128 ≤ LO ≤ HI ≤ 127"},
		{"dataset file", []string{"dataset", "-g", "i8", "out.in"}, 2, "", "…dataset wants no FILE"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, status := run(t, tc.args...)
			wantErr, sub := strings.CutPrefix(tc.stderr, "…")
			okErr := errs == tc.stderr
			if sub {
				okErr = strings.Contains(errs, wantErr) && strings.Count(errs, "\n") == 1
			}
			if status != tc.status || !strings.Contains(out, tc.stdout) || !okErr {
				t.Errorf("%v: status %d (want %d)\nstdout %q (want %q)\nstderr %q (want %q)", tc.args, status, tc.status, out, tc.stdout, errs, tc.stderr)
			}
		})
	}
}

// TestReplArgFile: the REPL's inputs may be in files too (--arg
// NAME=@FILE, :set arg NAME=@FILE).
func TestReplArgFile(t *testing.T) {
	dir := t.TempDir()
	xsize := filepath.Join(dir, "x.in")
	os.WriteFile(xsize, []byte("2"), 0o644)
	saved := stdin
	defer func() { stdin = saved }()
	stdin = strings.NewReader(":run\n:set arg xsize=@" + xsize + "\n:run\n:quit\n")
	out, errs, status := run(t, "repl", "examples/fun/fig2.fun", "--arg", "xsize=@"+filepath.Join(dir, "none.in"), "--arg", "ysize=4", "--arg", "zcond=1")
	if status != 1 || !strings.Contains(out, "none.in: cannot read the data file") || !strings.Contains(out, "2\n[1 2]\n") {
		t.Errorf("status %d\n%s%s", status, out, errs)
	}
}
