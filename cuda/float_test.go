package cuda_test

import (
	"fmt"
	"math"
	"math/rand"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/semantics"
)

// floatPrograms are IMP programs with floats (docs/imp.md, "Floats") and
// the inputs to run them on: IEEE arithmetic and comparisons (NaN, ±Inf,
// -0.0, rounding), conversions with int() stuck on NaN and outside int64
// on the host, in threads and in folds' parts, float blocks read and
// written on the host and in threads, float inputs and results, and float
// reduces and scans, parallel on the host and sequential in threads. The
// elementary functions other than sqrt appear only with arguments whose
// results are exact (exp(0.0), log(1.0), sin(0.0), cos(0.0)): the host
// build uses <cmath>, which may differ from Go's math package in the last
// bit elsewhere (docs/cuda.md, "Floats"); floatFunctions covers other
// arguments in gpu-sim.
var floatPrograms = []impProgram{
	{"arith", `input x : float;
input y : float;
input k : int;
var s : float; s <- x + y;
var d : float; d <- x - y;
var p : float; p <- x * y;
var q : float; q <- x / y;
var n : float; n <- -x;
var c : int; c <- (x < y) + 2 * (x <= y) + 4 * (x == y) + 8 * (x != y) + 16 * (x > y) + 32 * (x >= y);
var r : float; r <- sqrt(x * x + y * y);
var e : float; e <- exp(0.0) + log(1.0) + sin(0.0) * cos(0.0);
var f : float; f <- float(k) / 3.0;
var g : float; g <- 0.1 + 0.2 - 2.5e-3 * 1e3;
var t : int; t <- int(f * 2.0);
return s, d, p, q, n, c, r, e, f, g, t`, []map[string]string{
		{"x": "1.5", "y": "0.5", "k": "7"},
		{"x": "1e3", "y": "-0.0", "k": "-7"},
		{"x": "0.1", "y": "0.2", "k": "9007199254740993"},
		{"x": "-0.0", "y": "0.0", "k": "0"},
		{"x": "Inf", "y": "NaN", "k": "1"},
		{"x": "-Inf", "y": "+Inf", "k": "-1"},
		{"x": "1e300", "y": "1e-300", "k": "3"},
		{"x": "5e-324", "y": "1.7976931348623157e308", "k": "123456789"},
		{"x": "2", "y": "1.0", "k": "1"},     // an int for a float: bad input
		{"x": "1e400", "y": "1.0", "k": "1"}, // too large: bad input
		{"x": "1.0", "y": "1.0", "k": "1.0"}, // a float for an int: bad input
	}},
	{"convert", `input x : float;
var m : mem; m <- alloc 3;
kernel i <= 3 do
  var v : float; v <- x * float(i);
  var w : int; w <- int(v);
  m[i - 1] <- w
done;
var h : int; h <- int(x);
return m : [3], h`, []map[string]string{
		{"x": "2.75"}, {"x": "-2.75"}, {"x": "3e18"}, {"x": "4e18"}, {"x": "9.3e18"}, {"x": "-9.2e18"}, {"x": "NaN"}, {"x": "Inf"}, {"x": "-0.0"},
	}},
	{"arrays", `input n : int;
input xs : [n]float @ xs_mem;
var sum : float;
reduce sum <- 0.0 for i <= n do var v : float; v <- xs_mem[i - 1]; yield v
combine a, b do var c : float; c <- a + b; yield c done;
var mx : float;
reduce mx <- -1.0 / 0.0 for i <= n do var v : float; v <- xs_mem[i - 1]; yield v
combine a, b do var c : float; c <- a; var take : int; take <- (a == a) && ((b != b) || (b > a)); if take then c <- b else skip fi; yield c done;
var run : mem; run <- alloc n;
scan run[i - 1] <- 1.0 for i <= n do var v : float; v <- xs_mem[i - 1]; var w : float; w <- v * 0.5; yield w
combine a, b do var c : float; c <- a + b; yield c done;
var grid : mem; grid <- alloc 2 * n;
kernel i <= n do
  var v : float; v <- xs_mem[i - 1];
  grid[2 * i - 2] <- sqrt(v);
  var inner : float;
  reduce inner <- 0.0 for j <= i do var u : float; u <- xs_mem[j - 1]; yield u combine a, b do var c : float; c <- a + b; yield c done;
  grid[2 * i - 1] <- inner
done;
var first : float; first <- 0.0;
var some : int; some <- n > 0;
if some then first <- xs_mem[0]; xs_mem[0] <- first / 0.0 else skip fi;
var back : float; back <- 0.0;
if some then back <- xs_mem[0] else skip fi;
return sum, mx, run : [n]float, grid : [n][2]float, first, back, xs_mem : [n]float`, []map[string]string{
		{"xs": "[]"}, {"xs": "[1.5]"}, {"xs": "[NaN 1.0 -Inf 4.0]"}, {"xs": "[-0.0 0.0]"}, {"xs": "[-1.0 2.0]"}, {"xs": floats(300)},
	}},
	{"stuck", `input n : int;
input bad : float;
var s : int;
reduce s <- 0 for i <= n do var v : int; v <- int(bad * float(i - n)); yield v combine a, b do var c : int; c <- a + b; yield c done;
var t : float;
reduce t <- 0.0 for i <= n do var f : float; f <- float(i); yield f
combine fa, fb do var fc : float; fc <- fa + fb; var k : int; k <- int(fc * bad); yield fc done;
return s, t`, []map[string]string{
		{"n": "0", "bad": "NaN"}, {"n": "300", "bad": "0.5"}, {"n": "300", "bad": "1e300"}, {"n": "5", "bad": "NaN"}, {"n": "300", "bad": "-Inf"},
	}},
}

// floats is an array literal of k floats, multiples of 1/8 below 2^17,
// so that every sum of them is exact: float addition is not associative,
// and the parallel reduce re-associates (docs/cuda.md, "Floats").
func floats(k int) string {
	r := rand.New(rand.NewSource(int64(k)))
	parts := make([]string, k)
	for i := range parts {
		parts[i] = semantics.FormatFloat(float64(r.Intn(1<<21)-1<<20) / 8)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// floatFunctions is the elementary functions on arguments where C
// libraries and Go's math package may differ in the last bit: gpu-sim
// computes them with Go's math package, as the interpreter does, so it
// agrees bit for bit.
const floatFunctions = `input x : float;
var a : float; a <- exp(x);
var b : float; b <- log(x);
var c : float; c <- sin(x);
var d : float; d <- cos(x);
var e : float; e <- sqrt(x);
return a, b, c, d, e`

// TestFloatsInSim: the float programs in gpu-sim, with blocks of 1, 2, 3,
// 32 and 256 threads and three schedules, print what the interpreter
// prints (floats in Go's shortest form) or fail as it does; the functions
// agree on arbitrary arguments.
func TestFloatsInSim(t *testing.T) {
	t.Parallel()
	progs := append([]impProgram{}, floatPrograms...)
	functions := impProgram{name: "functions", src: floatFunctions}
	for _, x := range []string{"0.5", "1.5", "2.0", "3.0", "100.0", "-0.5", "1e-3", "1e10", "-Inf", "NaN", "0.0"} {
		functions.cases = append(functions.cases, map[string]string{"x": x})
	}
	progs = append(progs, functions)
	agreeInSim(t, impPrograms(t, progs), simRuns{blocks: []int{1, 2, 3, 32, 256}, seed: 3})
}

// TestFloatsStuckMessage: int() of a NaN or of a float outside int64 is
// stuck with the interpreter's message (semantics.ErrIntConversion, the
// float printed as values print), in gpu-sim; TestFloatsOnClang checks
// the host build's.
func TestFloatsStuckMessage(t *testing.T) {
	p := foldProgram(t, "convert", floatPrograms[1].src)
	prog, err := gpusim.Parse("convert.cu", p.CUDA)
	if err != nil {
		t.Fatal(err)
	}
	for _, x := range []string{"NaN", "Inf", "4e18", "-1e19"} {
		args := map[string]string{"x": x}
		want := harness.Interpret(p.Imp, args)
		msg := stuckMessage(want.Err)
		if msg == "" {
			t.Fatalf("x=%s: the interpreter says %q", x, want.Err)
		}
		_, _, err := gpusim.Run(prog, harness.Args(args), gpusim.Options{})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("x=%s: gpu-sim says %v, want %q", x, err, msg)
		}
	}
}

// stuckMessage is an int() conversion's message in an interpreter's error,
// from its rule on ("" when there is none).
func stuckMessage(err string) string {
	i := strings.Index(err, "int(")
	j := strings.LastIndex(err[:max(i, 0)], ": E-")
	if i < 0 || j < 0 {
		return ""
	}
	return err[j+2:]
}

// anyValue is the value in an int() conversion's message.
var anyValue = regexp.MustCompile(`int\([^()]*\)`)

// TestFloatsOnClang: the float programs compile to PTX and, under the
// sanitizers, on the host print what the interpreter prints, or fail with
// its status (int()'s stuck states with its message), with blocks of 2, 3
// and 256 threads.
func TestFloatsOnClang(t *testing.T) {
	t.Parallel()
	clangBuilds(t)
	agreeOnClang(t, "floats", impPrograms(t, floatPrograms), clangRuns{blocks: []string{"2", "3", "256"},
		also: func(t *testing.T, p *harness.Program, args map[string]string, want harness.Expect, got cuda.Outcome) {
			// Several elements may get stuck, and the first to record
			// its state wins (docs/cuda.md): the values may differ.
			if msg := stuckMessage(want.Err); msg != "" && !strings.Contains(anyValue.ReplaceAllString(got.Stderr, "int(V)"), anyValue.ReplaceAllString(msg, "int(V)")) {
				t.Errorf("%s %v: the interpreter says %s; the program %q", p.Name, harness.Args(args), want.Err, got.Stderr)
			}
		}})
}

// TestFloatInputsOnClang: the built program reads float inputs as
// `arraysem run --arg` does (1.5, 1e3, -0.0, Inf, +Inf, -Inf, NaN, +2.0,
// subnormals, the largest double, literals strtod must round) and refuses
// what it refuses with status 2 (an int for a float, 1e400, -NaN, 1.,
// .5, mixed arrays); gpu-sim, which binds inputs with the interpreter's
// code, agrees.
func TestFloatInputsOnClang(t *testing.T) {
	t.Parallel()
	p := foldProgram(t, "inputs", `input x : float;
input n : int;
input xs : [n]float @ m;
return x, m : [n]float`)
	var cases []map[string]string
	for _, x := range []string{"1.5", "1e3", "1E3", "-0.0", "Inf", "+Inf", "-Inf", "NaN", "+2.0", "2.5e-3", "5e-324", "2e-324", "1.7976931348623157e308",
		"0.1", "123456789012345678901234567890.5", "9007199254740993.0", "2", "1e400", "-NaN", "+NaN", "1.", ".5", "1e", "0x1p3", "[1.0]"} {
		cases = append(cases, map[string]string{"x": x, "xs": "[]", "n": "0"})
	}
	for _, xs := range []string{"[1.0 2]", "[1 2]", "[1.0, -Inf, NaN]", "[[1.0]]", "[1e-7 1e21 100.0 123456789.0]"} {
		cases = append(cases, map[string]string{"x": "0.0", "xs": xs})
	}
	inputsAgree(t, p, "inputs", cases)
}

// TestFormatFloatOnClang: the prelude's float formatter prints what
// semantics.FormatFloat prints, on a table (3.0, 0.5, 100.0, 1e+21,
// 1e-07, 1.23456789e+08, -0.0, ±Inf, NaN, …), on every power of two and
// its neighbours (where the gap below a double is half the gap above, so
// the shortest digits need not be the correctly rounded ones), and on
// random doubles, bit patterns and decimals.
func TestFormatFloatOnClang(t *testing.T) {
	t.Parallel()
	clangBuilds(t)
	vals := []float64{3, 0.5, 100, 1e21, 1e-7, 123456789, 123456, 1e6, 1e20, 0.0001, 0.00001, 0.1 + 0.2, 1.0 / 3, 2.5e-3,
		0, math.Copysign(0, -1), math.Inf(1), math.Inf(-1), math.NaN(), 5e-324, math.MaxFloat64, -1.5, 1 << 53, 1<<53 + 2, 9.5e-5}
	for e := -1074; e <= 1023; e++ {
		x := math.Ldexp(1, e)
		vals = append(vals, x, -x, math.Nextafter(x, 0), math.Nextafter(x, math.Inf(1)))
	}
	r := rand.New(rand.NewSource(1))
	for i := 0; i < 20000; i++ {
		vals = append(vals, math.Float64frombits(r.Uint64()), float64(r.Intn(2000000))/float64(1+r.Intn(1000)), r.NormFloat64()*math.Pow(10, float64(r.Intn(40)-20)))
	}
	var in, want strings.Builder
	for _, v := range vals {
		fmt.Fprintln(&in, int64(math.Float64bits(v)))
		fmt.Fprintln(&want, semantics.FormatFloat(v))
	}
	src := cuda.Prelude + `
int main() {
  long long k;
  char buf[64];
  while (scanf("%lld", &k) == 1) {
    arraysem_format_float(buf, arraysem_f64_from_bits(k));
    puts(buf);
  }
  return 0;
}
`
	dir := t.TempDir()
	bin, err := cuda.Build(cuda.HostCommand, src, dir, "format", "")
	if err != nil {
		t.Fatal(err)
	}
	c := exec.Command(bin)
	c.Stdin = strings.NewReader(in.String())
	out, err := c.Output()
	if err != nil {
		t.Fatal(err)
	}
	g, w := strings.Split(string(out), "\n"), strings.Split(want.String(), "\n")
	if len(g) != len(w) {
		t.Fatalf("%d lines, want %d", len(g), len(w))
	}
	bad := 0
	for i := range w {
		if g[i] != w[i] {
			if bad++; bad <= 10 {
				t.Errorf("%v (bits %#x): the prelude prints %s, FormatFloat %s", vals[i], math.Float64bits(vals[i]), g[i], w[i])
			}
		}
	}
}

// inputsAgree runs p on each case's inputs in gpu-sim and, where clang is
// at hand, in the sanitized host build: both print and exit as the IMP
// interpreter does.
func inputsAgree(t *testing.T, p *harness.Program, name string, cases []map[string]string) {
	t.Helper()
	prog, err := gpusim.Parse(name+".cu", p.CUDA)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range cases {
		if err := simAgrees(prog, harness.Interpret(p.Imp, args), args, gpusim.Options{}); err != nil {
			t.Errorf("gpu-sim %v: %v", harness.Args(args), err)
		}
	}
	clangBuilds(t)
	bin, err := cuda.Build(cuda.HostCommand, p.CUDA, t.TempDir(), name, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range cases {
		want := harness.Interpret(p.Imp, args)
		got := cuda.Exec(bin, harness.Args(args), time.Minute)
		if v, d := harness.Compare(want, got); v != "ok" {
			t.Errorf("%v: %s", harness.Args(args), d)
		}
	}
}
