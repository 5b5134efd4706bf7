package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
)

func run(t *testing.T, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	return runWith(t, check.NewRegistry(), args...)
}

// runWith runs the command line in the registry reg.
func runWith(t *testing.T, reg *lang.Registry, args ...string) (stdout, stderr string, status int) {
	t.Helper()
	var out, errb bytes.Buffer
	status = MainWith(reg, args, &out, &errb)
	return out.String(), errb.String(), status
}

func writeFile(t *testing.T, name, src string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestCommands(t *testing.T) {
	fig2 := "examples/fun/fig2.fun"
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string // substring expected on stdout
		stderr string // substring expected on stderr
	}{
		{"run", []string{"run", fig2, "--arg", "xsize=3", "--arg", "ysize=4", "--arg", "zcond=1"}, 0, "3\n[1 2 3]\n", ""},
		{"run flags first", []string{"run", "--semantics", "small", "--arg", "xsize=3", fig2, "--arg", "ysize=4", "--arg", "zcond=0"}, 0, "4\n[1 2 3 4]\n", ""},
		{"run derive", []string{"run", fig2, "--derive", "--arg", "xsize=1", "--arg", "ysize=4", "--arg", "zcond=1"}, 0, "[E-IF-TRUE]", ""},
		{"missing input", []string{"run", fig2, "--arg", "xsize=3"}, 2, "", "missing inputs ysize : int, zcond : int"},
		{"run rules derive", []string{"run", fig2, "--semantics", "rules", "--derive", "--arg", "xsize=1", "--arg", "ysize=4", "--arg", "zcond=1"}, 0, "  E ⊢ iota xsize ⇓ ([1])   [E-IOTA]", ""},
		{"run imp rules", []string{"run", "examples/imp/fig13.imp", "--semantics", "rules", "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=1"}, 0, "2\n[1 2]\n", ""},
		{"run imp rules derive", []string{"run", "examples/imp/fig13.imp", "--semantics", "rules", "--derive", "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=1"}, 0, "H; E ⊢ xmem[i - 1] <- i → H[ℓ1, 1] ↦ 2; E   [E-IMP-WRITE]", ""},
		{"run dynamic rules derive", []string{"run", "examples/remora-dynamic/rp_fig1_lifting.remora", "--semantics", "rules", "--derive"}, 0, "    (* [1 2 3] 10): frames [] [3] [] lift to [3]   [lift]\n    (* 1 10) ⇓ 10   [δ]\n", ""},
		{"run dynamic big derive", []string{"run", "examples/remora-dynamic/rp_fig1_lifting.remora", "--derive"}, 0, "[10 20 30]\n", "notice: run --derive: this semantics builds no evaluation derivation"},
		{"run dynamic rules out of fuel", []string{"run", "examples/remora-dynamic/rp2_fact.remora", "--semantics", "rules", "--fuel", "3"}, 1, "", "δ: out of fuel after 3 applications"},
		{"bad semantics", []string{"run", fig2, "--semantics", "heap", "--arg", "xsize=3", "--arg", "ysize=4", "--arg", "zcond=1"}, 2, "", `no "heap" semantics`},
		{"step", []string{"step", fig2, "--arg", "xsize=2", "--arg", "ysize=4", "--arg", "zcond=1"}, 0, "E-IF-TRUE", ""},
		{"step -n", []string{"step", "-n", "2", fig2, "--arg", "xsize=2", "--arg", "ysize=4", "--arg", "zcond=1"}, 0, "E-IOTA", ""},
		{"check", []string{"check", fig2}, 0, "(int, [zsize])\n", ""},
		{"check derive", []string{"check", "--derive", fig2}, 0, "[T-RESULT]", ""},
		{"check paper", []string{"check", "--paper", fig2}, 2, "", "T-PROG: input declarations are an extension"},
		{"cover", []string{"cover", "--n", "300"}, 0, "300 programs (seed 1); 0 rules never applied", ""},
		{"cover args", []string{"cover", "extra"}, 2, "", "cover wants no FILE"},
		{"demo", []string{"demo"}, 0, "verdict: agree: 14 runs give the same results; 6 levels the same program as an earlier level, not run again", ""},
		{"demo remora", []string{"demo"}, 0, "-- Explicitize (remora-ir):\n    (MAP [2 3]", ""},
		{"check funmem without inputs", []string{"check", "examples/funmem/fig7.funmem"}, 0, "are decided on inputs: give them with --arg or --data (xsize, ysize, zcond)", ""},
		{"check derive without derivation", []string{"check", "--derive", "examples/remora-dynamic/booleans.remora"}, 0, "untyped: 8 expressions", "notice: check --derive: remora/dynamic builds no typing derivation"},
		{"check infer derive", []string{"check", "--infer", "--derive", "examples/remora-dynamic/rp2_dot.remora"}, 0, "[int 2]   [T-APP]\n", ""},
		{"check derive imp", []string{"check", "--derive", "examples/imp/fig13.imp"}, 0, "    Γ ⊢ if zcond then … else … fi ⊣ Γ   [IMP-IF]\n      Γ ⊢ zcond : int   [IMP-SCOPE]\n", ""},
		{"check derive imp fails", []string{"check", "--derive", "examples/imp/err_type_int_as_block.imp"}, 2, "  Γ ⊢ n[0] <- 1   [IMP-WRITE]\n    Γ ⊢ n : mem   ✗ n is int, not mem   [IMP-TYPE]\n", "IMP-TYPE: n is int, not mem"},
		{"run derive small", []string{"run", "--semantics", "small", "--derive", fig2, "--arg", "xsize=3", "--arg", "ysize=4", "--arg", "zcond=1"}, 0, "3\n[1 2 3]\n", "notice: run --derive: this semantics builds no evaluation derivation"},
		{"layout without expand", []string{"compile", fig2, "--to", "imp", "--layout", "cpu"}, 0, "return", "notice: compile --layout"},
		{"trace before any kernel", []string{"run", "examples/imp/race.imp", "--arg", "n=2", "--trace"}, 1, "", "notice: run --trace: no kernel finished"},
		{"step imp ends with results", []string{"step", "examples/imp/fig13.imp", "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=1"}, 0, "⟨done⟩ (2, [1 2])\n", ""},
		{"check arg without input checks", []string{"check", fig2, "--arg", "xsize=3"}, 0, "(int, [zsize])", "notice: check --arg/--data: inputs are used by FUNMEM's validity"},
		{"check paper without paper mode", []string{"check", "--paper", "examples/remora/a1_basic_addition.remora"}, 0, "", "notice: check --paper: Remora's checker has no paper mode (FUN's refuses"},
		{"check paper refuses imp's extensions", []string{"check", "--paper", "examples/imp/for.imp"}, 2, "", "IMP-FOR: "},
		{"expand on a path without MemoryExpand", []string{"compile", fig2, "--to", "fun", "--expand"}, 0, "in (", "notice: compile --expand: no pass from fun to fun reads it (read by MemoryExpand)"},
		{"cuda expands by default", []string{"compile", "examples/fun/fizzbuzz.fun", "--to", "cuda", "--stats", "--arg", "n=3", "--arg", "m=2"}, 0, "// kernels whose threads allocate: none\n", ""},
		{"cuda without MemoryExpand", []string{"compile", "examples/fun/fizzbuzz.fun", "--to", "cuda", "--no-expand", "--stats", "--arg", "n=3", "--arg", "m=2"}, 0, "// kernels whose threads allocate: arraysem_kernel_2\n", ""},
		{"expand and no-expand", []string{"compile", fig2, "--to", "cuda", "--expand", "--no-expand"}, 2, "", "compile: --expand and --no-expand: give one"},
		{"no-expand off the way to cuda", []string{"compile", fig2, "--to", "imp", "--no-expand"}, 0, "return", "notice: compile --no-expand: only --to cuda runs MemoryExpand by default"},
		{"arg on a level that holds no defaults", []string{"compile", fig2, "--to", "funmem", "--arg", "xsize=3"}, 0, "alloc", "notice: compile --arg: no pass from fun to funmem reads it (read by EmitCUDA)"},
		{"raw on a path without a simplifier", []string{"compile", "examples/imp/fig13.imp", "--to", "cuda", "--raw"}, 0, "__global__", "notice: compile --raw: no pass from imp to cuda reads it (read by Simplify)"},
		{"fuel bounds a big-step run", []string{"run", "examples/fun/assert.fun", "--fuel", "1", "--arg", "xs=[1 2 3 4]"}, 1, "", "assert.fun:22:3: E-KERNEL: out of fuel: 2 more iterations would take the run past its fuel of 1 iteration"},
		{"side-by-side marks the rows past their fuel", []string{"side-by-side", "examples/fun/loop.fun", "--arg", "xs=[1 2 3 4]", "--arg", "t=5", "--fuel", "60"}, 0, "rows not run past their bounds (--fuel N, --max-memory)", ""},
		{"side-by-side chooses its rows", []string{"side-by-side", "examples/fun/loop.fun", "--arg", "xs=[1 2 3 4]", "--arg", "t=5", "--only", "fun,imp", "--semantics", "big"}, 0, "verdict: agree: 4 runs give the same results; 2 levels the same program as an earlier level", ""},
		{"side-by-side --only an unknown language", []string{"side-by-side", "examples/fun/loop.fun", "--only", "fnu"}, 2, "", `side-by-side --only: no language "fnu" (fun, funmem`},
		{"side-by-side with no row left", []string{"side-by-side", "examples/fun/loop.fun", "--arg", "xs=[1 2 3 4]", "--arg", "t=5", "--semantics", "smal"}, 2, "", "--only and --semantics leave no row to run"},
		{"fuel on a big-step that counts none", []string{"run", "examples/remora/a1_basic_addition.remora", "--fuel", "5"}, 0, "", "notice: run --fuel: Remora's big semantics counts no fuel (it always ends"},
		{"cover negative", []string{"cover", "--n", "-3"}, 2, "", "want a number of programs"},
		{"no command", nil, 2, "", "usage"},
		{"unknown command", []string{"frobnicate"}, 2, "", `unknown command "frobnicate"`},
		{"no file", []string{"run", "nope.fun"}, 2, "", "nope.fun"},
		{"unknown extension", []string{"run", "README.md"}, 2, "", "cannot tell the language"},
		{"two files", []string{"run", fig2, fig2}, 2, "", "run wants one FILE"},
		{"bad flag", []string{"run", "--nope", fig2}, 2, "", "run: unknown flag --nope"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, status := run(t, tc.args...)
			if status != tc.status || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) {
				t.Errorf("arraysem %v: status %d\nstdout:\n%s\nstderr:\n%s", tc.args, status, out, errs)
			}
		})
	}
}

// TestCudaExpandsByDefault: compile --to cuda is compile --to cuda
// --expand (the GPU layout), --no-expand leaves MemoryExpand out, and
// from IMP, whose walk has no MemoryExpand, the default says nothing.
func TestCudaExpandsByDefault(t *testing.T) {
	file := "examples/fun/fizzbuzz.fun"
	plain, _, _ := run(t, "compile", file, "--to", "cuda")
	expanded, _, _ := run(t, "compile", file, "--to", "cuda", "--expand", "--layout", "gpu")
	unexpanded, _, _ := run(t, "compile", file, "--to", "cuda", "--no-expand")
	if plain != expanded {
		t.Errorf("compile --to cuda differs from compile --to cuda --expand --layout gpu")
	}
	if plain == unexpanded || !strings.Contains(unexpanded, "= arraysem_device_alloc(") || strings.Contains(plain, "= arraysem_device_alloc(") {
		t.Errorf("--no-expand should leave the if's rows allocated in the kernel, and only it")
	}
	if out, errs, status := run(t, "compile", "examples/imp/fig13.imp", "--to", "cuda"); status != 0 || errs != "" || !strings.Contains(out, "__global__") {
		t.Errorf("compile of IMP to cuda: status %d, stderr %q", status, errs)
	}
}

// TestBadPrograms checks that parse, type and run-time errors are one
// file:line:col line on stderr with the right exit status.
func TestBadPrograms(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		cmd       []string
		status    int
		stderr    string
	}{
		{"parse", "let (x : int) = \nin (x)", []string{"run"}, 2, "prog.fun:2:1: expected a scalar expression, found \"in\"\n"},
		{"type", "input (n : int) (a : [n]) (o : int)\nlet (z : [q]) = a[o : q]\nin (z)", []string{"check"}, 2,
			"prog.fun:2:10: T-SLICE: size variable q is not in scope\n"},
		{"stuck", "input (n : int) (a : [n]) (i : int)\nlet (x : int) = a[i]\nin (x)", []string{"run", "--arg", "a=[1 2]", "--arg", "i=3"}, 1,
			"prog.fun:2:17: E-INDEX: index 3 out of bounds 1..2 in dimension 1 of a\n"},
		{"stuck small", "input (n : int)\nlet (x : int) = 1 / n\nin (x)", []string{"run", "--semantics", "small", "--arg", "n=0"}, 1,
			"prog.fun:2:19: E-SCALAR: division by zero (operator /) in 1 / n\n"},
		{"fuel", "input (n : int)\nlet (a : [n]) = kernel i <= n do in (i)\nin (a)", []string{"run", "--semantics", "small", "--fuel", "5", "--arg", "n=100"}, 1,
			"out of fuel after 5 steps"},
		{"huge kernel", "input (n : int)\nlet (a : [n]) = iota n\nin (a)", []string{"run", "--arg", "n=1000000000000"}, 1,
			"exceeds --max-memory"},
		{"huge nested kernel", "input (n : int)\nlet (a : [n][n]) = kernel i <= n do let (b : [n]) = iota n in (b)\nin (a)", []string{"run", "--arg", "n=100000000"}, 1,
			"exceeds --max-memory"},
		{"bad arg", "input (n : int)\nin (n)", []string{"run", "--arg", "n=[1"}, 2, "missing ']'"},
		{"binary junk", "\x00\x01\x02", []string{"run"}, 2, "prog.fun:1:1: unexpected character"},
		{"empty", "", []string{"check"}, 2, "prog.fun:1:1: expected 'let' or 'in', found end of file"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "prog.fun", tc.src)
			args := append([]string{tc.cmd[0], path}, tc.cmd[1:]...)
			_, errs, status := run(t, args...)
			errs = strings.ReplaceAll(errs, filepath.Dir(path)+string(filepath.Separator), "")
			if status != tc.status || !strings.Contains(errs, tc.stderr) || strings.Count(errs, "\n") != 1 {
				t.Errorf("status %d, stderr %q; want %d, %q on one line", status, errs, tc.status, tc.stderr)
			}
		})
	}
}

// TestFunmemCommands covers compile, check (validity, races), run with
// each FUNMEM semantics, and --trace.
func TestFunmemCommands(t *testing.T) {
	racy := writeFile(t, "racy.funmem", `input (n : int)
let (m : mem) = alloc 1
let (xs : [n] @ m -> 0 + {(n : 0)}) = kernel i <= n do in (i)
let (r : mem) = alloc n
let (ys : [n] @ r -> R(n)) = copy xs
in (r, ys)
`)
	// ys is built in the block of xs, which is still used after: each
	// iteration reads and writes only its own cell, so there is no race,
	// but the value of xs changes.
	invalid := writeFile(t, "invalid.funmem", `input (n : int)
let (m : mem) = alloc n
let (xs : [n] @ m -> R(n)) = iota n
let (ys : [n] @ m -> R(n)) = kernel i <= n do
  let (v : int) = xs[i]
  let (w : int) = v * 10
  in (w)
let (r : mem) = alloc n
let (zs : [n] @ r -> R(n)) = copy xs
in (r, zs)
`)
	compiled := filepath.Join(t.TempDir(), "fig2.funmem")
	out, errs, status := run(t, "compile", "examples/fun/fig2.fun", "--to", "funmem")
	if status != 0 || !strings.Contains(out, "(zarr : [zsize] @ zarr_mem -> R(zsize))") {
		t.Fatalf("compile: %d %s %s", status, out, errs)
	}
	if err := os.WriteFile(compiled, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	fig2 := []string{"--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=0"}
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{"compile stages", []string{"compile", "examples/fun/kernel.fun", "--to", "funmem", "--expand", "--stages"}, 0, "-- stage 6: MemoryExpand (funmem)", ""},
		{"compile raw", []string{"compile", "examples/fun/fig2.fun", "--to", "funmem", "--raw"}, 0, "zarr_stride1", ""},
		{"compile cpu", []string{"compile", "examples/fun/kernel.fun", "--to", "funmem", "--expand", "--layout", "cpu"}, 0, "(i * m - m) + {(m : 1)}", ""},
		{"compile bad layout", []string{"compile", "examples/fun/kernel.fun", "--to", "funmem", "--layout", "tpu"}, 2, "", "--layout tpu: want gpu or cpu"},
		{"compile no target", []string{"compile", "examples/fun/kernel.fun"}, 2, "", "--to"},
		{"run heap", append([]string{"run", compiled}, fig2...), 0, "3\n[1 2 3]\n", ""},
		{"run small", append([]string{"run", compiled, "--semantics", "small"}, fig2...), 0, "3\n[1 2 3]\n", ""},
		{"run value", append([]string{"run", compiled, "--semantics", "value"}, fig2...), 0, "3\n[1 2 3]\n", ""},
		{"trace", append([]string{"run", compiled, "--trace"}, fig2...), 0, "iteration 3: R = {}  W = {ℓ1[2]}", ""},
		{"check", append([]string{"check", compiled}, fig2...), 0, "valid (Def 3.1)", ""},
		{"race", []string{"run", racy, "--arg", "n=3"}, 1, "", "E-MEM-KERNEL: race: iteration 1 writes ℓ1[0], which iteration 2 also uses"},
		{"race small", []string{"run", racy, "--semantics", "small", "--arg", "n=3"}, 1, "", "E-MEM-KERNEL: race: iteration 1 writes ℓ1[0], which iteration 2 also uses"},
		{"race value", []string{"run", racy, "--semantics", "value", "--arg", "n=3"}, 0, "[1 2 3]", ""},
		{"race check", []string{"check", racy, "--arg", "n=3"}, 1, "", "race"},
		{"invalid heap", []string{"run", invalid, "--arg", "n=3"}, 0, "[10 20 30]", ""},
		{"invalid value", []string{"run", invalid, "--semantics", "value", "--arg", "n=3"}, 0, "[1 2 3]", ""},
		{"invalid check", []string{"check", invalid, "--arg", "n=3"}, 1, "", "Def 3.1: invalid: result zs: element [1]: value-based 1, heap-based 10"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, status := run(t, tc.args...)
			if status != tc.status || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) {
				t.Errorf("arraysem %v: status %d\nstdout:\n%s\nstderr:\n%s", tc.args, status, out, errs)
			}
		})
	}
}

// TestImpAndSideBySide covers compile --to imp, running IMP, and the
// side-by-side table and its verdicts.
func TestImpAndSideBySide(t *testing.T) {
	out, _, status := run(t, "compile", "examples/fun/fig2.fun", "--to", "imp")
	if status != 0 || !strings.Contains(out, "zarr_mem <- x_mem;") || !strings.Contains(out, "return zsize, zarr_res_mem : [zsize]") {
		t.Fatalf("compile --to imp: %d\n%s", status, out)
	}
	prog := filepath.Join(t.TempDir(), "fig2.imp")
	if err := os.WriteFile(prog, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	slice := []string{"--arg", "xss=[[1 2 3 4] [5 6 7 8] [9 10 11 12]]", "--arg", "o1=5", "--arg", "s1=0", "--arg", "o2=1", "--arg", "s2=1"}
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{"run imp", []string{"run", prog, "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=1"}, 0, "2\n[1 2]\n", ""},
		{"run imp small", []string{"run", prog, "--semantics", "small", "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=0"}, 0, "3\n[1 2 3]\n", ""},
		{"step imp", []string{"step", prog, "--arg", "xsize=1", "--arg", "ysize=3", "--arg", "zcond=1"}, 0, "E-IMP-ASSIGN-MEM", ""},
		{"check imp", []string{"check", prog}, 0, "(int, [zsize])", ""},
		{"compile imp expanded", []string{"compile", "examples/fun/kernel.fun", "--to", "imp", "--expand", "--stages"}, 0, "-- stage 8: FunMemToImp (imp)", ""},
		{"side-by-side", []string{"side-by-side", "examples/fun/transpose.fun", "--arg", "xss=[[1 2 3] [4 5 6]]"}, 0, "verdict: agree: 11 runs give the same results; 6 levels the same program", ""},
		{"side-by-side imp", []string{"side-by-side", prog, "--arg", "xsize=1", "--arg", "ysize=3", "--arg", "zcond=1"}, 0, "verdict: agree: 4 runs", ""},
		{"side-by-side stuck", []string{"side-by-side", "examples/fun/index.fun", "--arg", "xss=[[1 2] [3 4]]", "--arg", "i=3", "--arg", "j=1"}, 0, "every level and semantics goes wrong", ""},
		{"side-by-side disagree", append([]string{"side-by-side", "examples/fun/slice.fun"}, slice...), 1, "verdict: DISAGREE", "IMP checks no bounds"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, status := run(t, tc.args...)
			if status != tc.status || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) {
				t.Errorf("arraysem %v: status %d\nstdout:\n%s\nstderr:\n%s", tc.args, status, out, errs)
			}
		})
	}
}

// TestDeepNesting checks that deeply nested input is refused with an error,
// not a stack overflow, and that nesting within the limit runs.
func TestDeepNesting(t *testing.T) {
	deepParens := "let (x : int) = " + strings.Repeat("(", 100000) + "1" + strings.Repeat(")", 100000) + "\nin (x)"
	// a_d : [n]…[n] (depth-d times) = kernel i_d <= n do … in (a_{d+1})
	// (typed=false keeps the file linear in depth: the parser refuses it first.)
	deepKernels := func(depth int, typed bool) string {
		var b strings.Builder
		b.WriteString("input (n : int)\n")
		for d := 0; d < depth; d++ {
			ty := "[n]"
			if typed {
				ty = strings.Repeat("[n]", depth-d)
			}
			fmt.Fprintf(&b, "let (a%d : %s) = kernel i%d <= n do\n", d, ty, d)
		}
		b.WriteString("in (n)")
		for d := depth - 1; d >= 0; d-- {
			fmt.Fprintf(&b, " in (a%d)", d)
		}
		return b.String()
	}
	for _, tc := range []struct {
		name, src string
		status    int
		want      string
	}{
		{"parens", deepParens, 2, "nesting deeper than"},
		{"kernels", deepKernels(5000, false), 2, "nesting deeper than"},
		{"kernels within the limit", deepKernels(300, true), 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := writeFile(t, "deep.fun", tc.src)
			out, errs, status := run(t, "run", path, "--arg", "n=1")
			if status != tc.status || !strings.Contains(errs, tc.want) {
				t.Errorf("status %d, stdout %.100q, stderr %.200q", status, out, errs)
			}
		})
	}
}

// TestExamples runs the golden tests of examples/, as `arraysem test
// examples/` does.
func TestExamples(t *testing.T) {
	out, errs, status := run(t, "test", "examples")
	if status != 0 {
		t.Errorf("arraysem test examples: status %d\n%s%s", status, out, errs)
	}
}

// TestRemoraCommands runs the commands of the Remora issue on the typed
// dialect: run under both semantics, step naming Fig 6's rules, check
// printing the type or the failing rule, and the derivation tree.
func TestRemoraCommands(t *testing.T) {
	add := writeFile(t, "add.remora", "; A.2 of the compiler paper\n(+ [1 2] [[3 4 5] [6 7 8]])\n")
	bad := writeFile(t, "bad.remora", "(+ [1 2]\n   [1 2 3])\n")
	div := writeFile(t, "div.remora", "(/ [1 2] [1 0])\n")
	words := writeFile(t, "words.remora", `(define words (boxes (len) [char len] [2] ((3) "hey") ((2) "hi")))
(unbox words (word len) (= 3 (length{char | len []} word)))
`)
	dyn := writeFile(t, "dyn.remora", "#lang remora/dynamic\n(define (dot (x 1) (y 1)) (reduce + 0 (* x y)))\n(dot [1 2] [[3 4] [5 6]])\n")
	dynBad := writeFile(t, "dynbad.remora", "#lang remora/dynamic\n(+ [1 2] [1 2 3])\n")
	other := writeFile(t, "other.remora", "#lang remora/other\n(+ 1 2)\n")
	for _, tc := range []struct {
		name   string
		args   []string
		status int
		stdout string
		stderr string
	}{
		{"run", []string{"run", add}, 0, "[[4 5 6] [8 9 10]]\n", ""},
		{"run small", []string{"run", add, "--semantics", "small"}, 0, "[[4 5 6] [8 9 10]]\n", ""},
		{"run rules", []string{"run", add, "--semantics", "rules"}, 0, "[[4 5 6] [8 9 10]]\n", ""},
		{"run rules derive", []string{"run", add, "--semantics", "rules", "--derive"}, 0, `(+ [1 2] [[3 4 5] [6 7 8]]) ⇓ [[4 5 6] [8 9 10]]   [lift]
  ([[+ + +] [+ + +]] [[1 1 1] [2 2 2]] [[3 4 5] [6 7 8]]) ⇓ [[4 5 6] [8 9 10]]   [map]
    (+ 1 3) ⇓ 4   [δ]
    (+ 1 4) ⇓ 5   [δ]
    (+ 1 5) ⇓ 6   [δ]
    (+ 2 6) ⇓ 8   [δ]
    (+ 2 7) ⇓ 9   [δ]
    (+ 2 8) ⇓ 10   [δ]
[[4 5 6] [8 9 10]]
`, ""},
		{"run rules derive collapse", []string{"run", "examples/remora/rp_fig4_outer_product.remora", "--semantics", "rules", "--derive"}, 0, `
    [((fn ([n int] [m [int 4]]) (* n m)) 1 [1 2 3 4]) ((fn ([n int] [m ... ⇓ [[1 2 3 4] [10 20 30 40] [100 200 300 400]]   [collapse]
      ((fn ([n int] [m [int 4]]) (* n m)) 1 [1 2 3 4]) ⇓ [1 2 3 4]   [β]
        (* 1 [1 2 3 4]) ⇓ [1 2 3 4]   [lift]
`, ""},
		{"run rules derive proj", []string{"run", words, "--semantics", "rules", "--derive"}, 0, `
        (unbox (box (3) (Sigma (len) [char len]) "hey") (word len) (= 3 (le... ⇓ #t   [proj]
          (= 3 (length{char | 3 []} "hey")) ⇓ #t   [δ]
            (length{char | 3 []} "hey") ⇓ 3   [δ]
              length{char | 3 []} ⇓ length{char | 3 []}   [Tβ]
                length{ | 3 []} ⇓ length{ | 3 []}   [Iβ]
`, ""},
		{"run derive engine", []string{"run", add, "--derive"}, 0, "[[4 5 6] [8 9 10]]\n", "notice: run --derive: this semantics builds no evaluation derivation (FUN's big-steps, big and rules, the rules of IMP, FUNMEM and both Remora dialects"},
		{"rules fuel", []string{"run", add, "--semantics", "rules", "--fuel", "5"}, 1, "", "add.remora:2:1: map: out of fuel: 6 more iterations would take the run past its fuel of 5 iterations"},
		{"division by zero rules", []string{"run", div, "--semantics", "rules"}, 1, "", "div.remora:1:1: δ: division by zero"},
		{"step", []string{"step", add}, 0, "lift         ([[+ + +] [+ + +]] [[1 1 1] [2 2 2]] [[3 4 5] [6 7 8]])\nmap          [[(+ 1 3) (+ 1 4) (+ 1 5)] [(+ 2 6) (+ 2 7) (+ 2 8)]]\nδ", ""},
		{"check", []string{"check", add}, 0, "[int 2 3]\n", ""},
		{"check derive", []string{"check", "--derive", add}, 0, "(+ [1 2] [[3 4 5] [6 7 8]]) : [int 2 3]   [T-APP]\n  + : (-> (int int) int)   [T-PRIM]", ""},
		{"frames disagree", []string{"check", bad}, 2, "", "bad.remora:1:1: T-APP: frames [2] and [3] do not agree"},
		{"division by zero", []string{"run", div}, 1, "", "div.remora:1:1: δ: division by zero"},
		{"division by zero small", []string{"run", div, "--semantics", "small"}, 1, "", "div.remora:1:1: δ: division by zero"},
		{"boxes", []string{"run", words}, 0, "[#t #f]\n", ""},
		{"boxes type", []string{"check", words}, 0, "[bool 2]\n", ""},
		{"side-by-side", []string{"side-by-side", words}, 0, "Remora IR after Inline", ""},
		{"side-by-side verdict", []string{"side-by-side", words}, 0, "verdict: agree: ", ""},
		{"no args", []string{"run", add, "--arg", "n=1"}, 2, "", "take no --arg"},
		{"dynamic dialect", []string{"run", dyn}, 0, "[11 17]\n", ""},
		{"dynamic small-step", []string{"run", "--semantics", "small", dyn}, 0, "[11 17]\n", ""},
		{"dynamic step", []string{"step", dyn}, 0, "lift ", ""},
		{"dynamic frames", []string{"run", dynBad}, 1, "", "lift: frames [2] (argument 1) and [3] (argument 2) do not agree"},
		{"dynamic check", []string{"check", dyn}, 0, "untyped", ""},
		{"dynamic infer", []string{"check", "--infer", dyn}, 0, "[int 2]\n    elaborates to ((fn ([x [int 2]] [y [int 2]])", ""},
		{"dialect flag", []string{"run", "--dialect", "dynamic", add}, 0, "[[4 5 6] [8 9 10]]\n", ""},
		{"typed dialect flag", []string{"check", "--dialect", "typed", dyn}, 2, "", "1"},
		{"infer typed", []string{"check", "--infer", add}, 2, "", "--infer elaborates"},
		{"other dialect", []string{"run", other}, 2, "", "#lang remora/dynamic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, errs, status := run(t, tc.args...)
			if status != tc.status || !strings.Contains(out, tc.stdout) || !strings.Contains(errs, tc.stderr) {
				t.Errorf("arraysem %v: status %d\nstdout:\n%s\nstderr:\n%s", tc.args, status, out, errs)
			}
		})
	}
}

// TestReplPiped runs a scripted repl session on piped input (stdin not a
// terminal): no prompts, no banner, no escape codes, and nothing after
// :quit is run.
func TestReplPiped(t *testing.T) {
	saved := stdin
	defer func() { stdin = saved }()
	stdin = strings.NewReader(":load examples/remora/rp_fig4_outer_product.remora\n:step 2\n:run\n:quit\n:help\n")
	var out, errOut bytes.Buffer
	if status := Main([]string{"repl"}, &out, &errOut); status != 0 || errOut.Len() > 0 {
		t.Fatalf("arraysem repl: status %d\nstdout:\n%s\nstderr:\n%s", status, out.String(), errOut.String())
	}
	got := out.String()
	for _, want := range []string{
		"loaded rp_fig4_outer_product.remora (remora): [int 3 4]\n",
		"\nlift         ([(fn ([n int] [m [int 4]]) (* n m)) ",
		"\nmap          [((fn ([n int] [m [int 4]]) (* n m)) 1 [1 2 3 4]) ",
		"\n⟨done⟩ after 24 steps\n[[1 2 3 4] [10 20 30 40] [100 200 300 400]]\n",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q:\n%s", want, got)
		}
	}
	for _, bad := range []string{"\x1b", "fun> ", "remora> ", "… ", "arraysem repl:", ":help lists", "command   arguments"} {
		if strings.Contains(got, bad) {
			t.Errorf("output has %q (a prompt, banner, escape code, or a command after :quit):\n%s", bad, got)
		}
	}
	if n := strings.Count(got, "\n"); n != 6 {
		t.Errorf("%d lines of output, want 6:\n%s", n, got)
	}
}

// TestReplStatus: a piped session that reported errors ends with status
// 1; a file that does not exist is bad input (2), as for run; flags may
// follow the file.
func TestReplStatus(t *testing.T) {
	saved := stdin
	defer func() { stdin = saved }()
	for _, tc := range []struct {
		args   []string
		input  string
		status int
		stderr string
	}{
		{[]string{"repl"}, "let (x : int) = 2 in (x)\n", 0, ""},
		{[]string{"repl"}, ":lang remora\n(+ 1 #t)\n(+ 1 2)\n", 1, "the session reported 1 error"},
		{[]string{"repl"}, ":bogus\n", 1, "reported 1 error"},
		{[]string{"repl", "nosuch.fun"}, "", 2, "nosuch.fun"},
		{[]string{"repl", "examples/fun/fig2.fun", "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=1", "--fuel", "10"}, ":run\n", 0, ""},
		{[]string{"repl", "examples/fun/fig2.fun", "--arg", "xsize=2", "--arg", "ysize=3", "--arg", "zcond=1", "--fuel", "2"}, ":run\n", 1, "reported 1 error"},
	} {
		stdin = strings.NewReader(tc.input)
		var out, errOut bytes.Buffer
		status := Main(tc.args, &out, &errOut)
		if status != tc.status || !strings.Contains(errOut.String(), tc.stderr) {
			t.Errorf("arraysem %v <<< %q: status %d\nstdout:\n%s\nstderr:\n%s", tc.args, tc.input, status, out.String(), errOut.String())
		}
	}
}

// TestReadOptionsNoNotice: an option some pass on the walk reads draws no
// notice (the converse of the notices TestCommands checks).
func TestReadOptionsNoNotice(t *testing.T) {
	for _, args := range [][]string{
		{"compile", "examples/fun/fig2.fun", "--to", "imp", "--expand", "--layout", "cpu", "--raw"},
		{"compile", "examples/fun/fig2.fun", "--to", "cuda", "--arg", "xsize=3"},
		{"compile", "examples/fun/fig2.fun", "--to", "funmem", "--raw"},
		{"check", "examples/funmem/fig7.funmem", "--paper", "--arg", "xsize=3", "--arg", "ysize=4", "--arg", "zcond=1"},
	} {
		_, errs, _ := run(t, args...)
		if strings.Contains(errs, "notice") {
			t.Errorf("%v: %s", args, errs)
		}
	}
}

// TestNoNilInOutput: check --derive on every example, in every language
// and dialect, never prints Go's "<nil>" (IMP's and the dynamic dialect's
// missing derivations did).
func TestNoNilInOutput(t *testing.T) {
	files, err := filepath.Glob("examples/*/*")
	if err != nil {
		t.Fatal(err)
	}
	more, err := filepath.Glob("examples/*/*/*")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, more...)
	n := 0
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && fi.IsDir() {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := check.NewRegistry().Pick(f, string(src), "", ""); err != nil {
			continue
		}
		n++
		out, errs, _ := run(t, "check", "--derive", f)
		if strings.Contains(out+errs, "<nil>") {
			t.Errorf("check --derive %s prints <nil>:\n%s%s", f, out, errs)
		}
	}
	if n < 100 {
		t.Errorf("checked %d examples; the glob or the registry is wrong", n)
	}
	t.Logf("%d examples checked", n)
}

// TestTestWithoutBlocks: test on a program without a test block says so
// and succeeds (there is nothing to fail); on a directory with no program
// at all it is a usage error.
func TestTestWithoutBlocks(t *testing.T) {
	file := writeFile(t, "plain.fun", "let (x : int) = 1\nin (x)\n")
	out, errs, status := run(t, "test", file)
	if status != 0 || !strings.Contains(out, "no test block") || !strings.Contains(out, "1 file without a test block") || errs != "" {
		t.Errorf("test on a file without a block: status %d\n%s%s", status, out, errs)
	}
	_, errs, status = run(t, "test", t.TempDir())
	if status != 2 || !strings.Contains(errs, "no programs under") {
		t.Errorf("test on an empty directory: status %d, %s", status, errs)
	}
}

// TestLoopBounds runs programs that would run for ever, or for years,
// under every semantics of FUN, FUNMEM and IMP and the dialect's
// big-step: a loop over 10^18 iterations and a dialect recursion whose
// depth is bounded but whose calls double at each level. Each stops at
// its fuel with one positioned line on stderr naming the rule, and exit
// status 1; a small-step names the redex it stopped at, its place in the
// source and the rule its next step would apply, not the program's 1:1.
func TestLoopBounds(t *testing.T) {
	const fun = "input (n : int)\nlet (z : int) = 0\nlet (s : int) = loop (x : int) = (z) for i <= n do\n    let (y : int) = x + i\n    in (y)\nin (s)\n"
	const imp = "input n : int;\nvar x : int;\nx <- 0;\nfor i <= n do\n  var y : int;\n  y <- x + i;\n  x <- y;\ndone;\nreturn x\n"
	const fork = "#lang remora/dynamic\n(define (f (n 0))\n  (+ (f (- n 1)) (f (- n 1))))\n(f 3)\n"
	// typed Remora has no recursion: a run of one step stops at the
	// second (* 3 4), a redex with a place in the source.
	const typed = ";; two sums\n(+ (+ 1 2)\n   (* 3 4))\n"
	files := map[string]string{"loop.fun": fun, "loop.funmem": fun, "loop.imp": imp, "fork.remora": fork, "typed.remora": typed}
	forever := []string{"--arg", "n=1000000000000000000", "--fuel", "1000"}
	for _, tc := range []struct {
		file, sem string
		want      string // the line stderr must start with, after the file's directory
	}{
		{"loop.fun", "big", "loop.fun:3:17: E-LOOP: out of fuel after 1000 iterations"},
		{"loop.fun", "rules", "loop.fun:3:17: E-LOOP: out of fuel after 1000 iterations"},
		{"loop.fun", "small", "loop.fun:4:5: E-SCALAR: out of fuel after 1000 steps"},
		{"loop.funmem", "heap", "loop.funmem:3:17: E-MEM-LOOP: out of fuel after 1000 iterations"},
		{"loop.funmem", "value", "loop.funmem:3:17: E-LOOP: out of fuel after 1000 iterations"},
		{"loop.funmem", "small", "loop.funmem:4:5: E-MEM-SCALAR: out of fuel after 1000 steps"},
		{"loop.imp", "big", "loop.imp:4:1: I-FOR: out of fuel after 1000 iterations"},
		{"loop.imp", "rules", "loop.imp:4:1: I-FOR: out of fuel after 1000 iterations"},
		{"loop.imp", "small", "loop.imp:6:3: E-IMP-ASSIGN-INT: out of fuel after 1000 steps"},
		{"fork.remora", "big", "fork.remora:3:"},
		{"fork.remora", "small", "fork.remora:3:6: β: out of fuel after 1000 steps"},
		{"typed.remora", "small", "typed.remora:3:4: δ: out of fuel after 1 steps"},
	} {
		t.Run(tc.file+"/"+tc.sem, func(t *testing.T) {
			path := writeFile(t, tc.file, files[tc.file])
			args := append([]string{"run", path, "--semantics", tc.sem}, forever...)
			if strings.HasSuffix(tc.file, ".remora") {
				args = []string{"run", path, "--semantics", tc.sem, "--fuel", "1000"}
			}
			if tc.file == "typed.remora" {
				args[len(args)-1] = "1"
			}
			out, errs, status := run(t, args...)
			errs = strings.ReplaceAll(errs, filepath.Dir(path)+string(filepath.Separator), "")
			if status != 1 || out != "" || !strings.HasPrefix(errs, tc.want) || !strings.Contains(errs, "out of fuel") || strings.Count(errs, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want 1 and the one line %q…", status, out, errs, tc.want)
			}
		})
	}
}

// TestRecursionBounds runs recursions of #lang remora/dynamic that do not
// end (the dialect's if computes both branches) through the command: each
// semantics stops with one positioned line on stderr and exit status 1,
// the big-step at its depth bound or its fuel, the small-step at its fuel
// or, when the term grows, its depth bound; and the process goes on (a Go
// stack overflow would kill this test).
func TestRecursionBounds(t *testing.T) {
	progs := map[string]string{
		"omega":  "((λ ((x all)) (x x))\n (λ ((x all)) (x x)))",
		"y":      "((λ ((f all)) ((λ ((x all)) (f (x x))) (λ ((x all)) (f (x x)))))\n (λ ((g all)) g))",
		"self":   "(define (g (n 0))\n  (g n))\n(g 1)",
		"mutual": "(define (even (n 0)) (odd n))\n(define (odd (n 0))\n  (even n))\n(even 1)",
		"grow":   "(define (f (n 0))\n  (+ 1 (f n)))\n(f 1)",
	}
	for _, tc := range []struct {
		prog  string
		flags []string
		want  string // the line stderr must be, after the file's directory
	}{
		{"omega", nil, "omega.remora:3:15: depth: evaluation nested more than 10000 deep here"},
		{"omega", []string{"--semantics", "small", "--fuel", "2000"}, "omega.remora:3:15: β: out of fuel after 2000 steps"},
		{"omega", []string{"--fuel", "300"}, "omega.remora:3:15: β: out of fuel after 300 applications"},
		{"y", nil, "y.remora:2:53: depth: evaluation nested more than 10000 deep here"},
		{"y", []string{"--semantics", "small"}, "y.remora:2:56: depth: evaluation nested more than 10000 deep here"},
		{"self", nil, "self.remora:3:3: depth: evaluation nested more than 10000 deep here"},
		{"self", []string{"--semantics", "small", "--fuel", "2000"}, "self.remora:2:1: β: out of fuel after 2000 steps"},
		{"mutual", nil, "mutual.remora:4:3: depth: evaluation nested more than 10000 deep here"},
		{"mutual", []string{"--semantics", "small", "--fuel", "2000"}, "mutual.remora:3:1: β: out of fuel after 2000 steps"},
		{"grow", nil, "grow.remora:3:8: depth: evaluation nested more than 10000 deep here"},
		{"grow", []string{"--semantics", "small"}, "grow.remora:3:8: depth: evaluation nested more than 10000 deep here"},
	} {
		t.Run(tc.prog+strings.Join(tc.flags, ""), func(t *testing.T) {
			path := writeFile(t, tc.prog+".remora", "#lang remora/dynamic\n"+progs[tc.prog]+"\n")
			out, errs, status := run(t, append([]string{"run", path}, tc.flags...)...)
			errs = strings.ReplaceAll(errs, filepath.Dir(path)+string(filepath.Separator), "")
			if status != 1 || out != "" || !strings.HasPrefix(errs, tc.want) || strings.Count(errs, "\n") != 1 {
				t.Errorf("status %d, stdout %q, stderr %q; want 1 and the one line %q…", status, out, errs, tc.want)
			}
		})
	}
}
