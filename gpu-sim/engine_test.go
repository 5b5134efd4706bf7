package gpusim_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
)

// The compiled engine (compile.go, vm.go, shadow.go) against the tree
// walker it is checked with (Options.Engine "reference"): on every
// program, the same output, the same error (kind, position and message)
// and the same statistics (requests, sectors, cost counters).

// outcome is all a run tells: its output, its error and its statistics.
func outcome(prog *gpusim.Program, args []string, o gpusim.Options) string {
	o.Stats = true
	out, st, err := gpusim.Run(prog, args, o)
	var b strings.Builder
	b.WriteString(out)
	var se *gpusim.Error
	if errors.As(err, &se) {
		fmt.Fprintf(&b, "error (%s): %v\n", se.Kind, err)
	} else if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	if st != nil {
		st.Print(&b)
	}
	return b.String()
}

// engines compares the two engines on one run; engine is the compiled
// engine's setting ("compiled" where every kernel must compile, "" where
// it may leave one to the tree walker).
func engines(prog *gpusim.Program, args []string, o gpusim.Options, engine string) string {
	o.Engine = "reference"
	want := outcome(prog, args, o)
	o.Engine = engine
	got := outcome(prog, args, o)
	if got != want {
		return fmt.Sprintf("%s %v %+v: the compiled engine\n%s\nthe tree walker\n%s", prog.Name, args, o, got, want)
	}
	return ""
}

var engineOptions = []gpusim.Options{
	{},
	{Block: 32, Schedule: gpusim.Schedule{Kind: "reverse"}},
	{Block: 2, Schedule: gpusim.Schedule{Kind: "random", Seed: 7}},
	{Block: 4, Schedule: gpusim.Schedule{Kind: "random", Seed: 3}, Fuel: 300},
	{Block: 3, Fuel: 2000},
}

// TestEnginesExamples: every example that reaches IMP, on its inputs,
// under schedules, block sizes and fuel that runs out inside kernels;
// every kernel the emitter produced compiles.
func TestEnginesExamples(t *testing.T) {
	for _, p := range examples(t) {
		prog, err := gpusim.Parse(p.Name+".cu", p.CUDA)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		for _, args := range p.Cases {
			for _, o := range engineOptions {
				if d := engines(prog, argList(args), o, "compiled"); d != "" {
					t.Error(d)
				}
			}
		}
	}
}

func argList(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// TestEnginesPlanted: the planted bugs, and the fold of TestFoldBarriers
// with each of its barriers cut, are found alike.
func TestEnginesPlanted(t *testing.T) {
	planted := plantedAll(t)
	for name, src := range planted {
		prog, err := gpusim.Parse(name+".cu", src)
		if err != nil {
			continue
		}
		for _, o := range engineOptions {
			if d := engines(prog, []string{"n=4", "m=2"}, o, "compiled"); d != "" {
				t.Error(d)
			}
		}
	}
	src := emitFold(t)
	lines := strings.SplitAfter(src, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "__syncthreads();" {
			continue
		}
		prog, err := gpusim.Parse("cut.cu", strings.Join(lines[:i], "")+strings.Join(lines[i+1:], ""))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range engineOptions {
			if d := engines(prog, []string{"n=30"}, o, "compiled"); d != "" {
				t.Error(d)
			}
		}
	}
}

// TestEnginesMutated: mutations of the planted programs (those of
// TestMutatedFiles), run under fuel, give the same outcome in both
// engines, the compiled one leaving to the walker what it cannot compile.
func TestEnginesMutated(t *testing.T) {
	planted := plantedAll(t)
	var names []string
	for n := range planted {
		names = append(names, n)
	}
	slices.Sort(names)
	r := rand.New(rand.NewSource(2))
	n := 300
	if testing.Short() {
		n = 60
	}
	for k := 0; k < n; k++ {
		src := []byte(planted[names[r.Intn(len(names))]])
		for m := 0; m < 1+r.Intn(3); m++ {
			i := len(src) - 1 - r.Intn(3000)
			switch r.Intn(3) {
			case 0:
				src = append(src[:i], src[i+1:]...)
			case 1:
				src[i] = "0123456789(){};=-+*&!<>abc \n"[r.Intn(28)]
			case 2:
				j := len(src) - 1 - r.Intn(3000)
				src[i] = src[j]
			}
		}
		prog, err := gpusim.Parse("fuzz.cu", string(src))
		if err != nil {
			continue
		}
		o := gpusim.Options{Block: 4, Fuel: 100000, MaxElems: 1 << 16}
		if d := engines(prog, []string{"n=3", "m=2"}, o, ""); d != "" {
			t.Errorf("mutant %d: %s", k, d)
		}
	}
}

// propEngines: a generated FUN program, compiled to CUDA in both layouts,
// runs alike in the two engines (blocks of 4 and 32, shuffled).
func propEngines(c *proofstests.Case) string {
	l, err := check.Load(check.NewRegistry(), "gen.fun", c.Source(), check.Options{})
	if err != nil {
		return fmt.Sprintf("the generated program does not load: %v", err)
	}
	var args []string
	for _, in := range c.Inputs {
		args = append(args, in.Name+"="+in.Value.String())
	}
	slices.Sort(args)
	for _, name := range []string{"gpu", "cpu"} {
		st, err := check.NewRegistry().Compile(l, "imp", lang.Options{}.With("expand").WithString("layout", name))
		if err != nil {
			return fmt.Sprintf("--layout %s: %v", name, err)
		}
		p := st[len(st)-1].Program.Syntax().(*imp.Program)
		f, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			return fmt.Sprintf("--layout %s: cuda.Emit: %v", name, err)
		}
		prog, err := gpusim.Parse("gen.cu", f.String())
		if err != nil {
			return fmt.Sprintf("--layout %s: %v", name, err)
		}
		for _, o := range []gpusim.Options{
			{Block: 4, Schedule: gpusim.Schedule{Kind: "random", Seed: c.Seed}},
			{Block: 32, Fuel: 1 + c.Seed%5000},
		} {
			if d := engines(prog, args, o, "compiled"); d != "" {
				return "--layout " + name + ": " + d
			}
		}
	}
	return ""
}

func TestEnginesRandomFunPrograms(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(*flagSeed)
	params.MinSuccessfulTests = *flagN
	if testing.Short() && !flagSet("n") {
		params.MinSuccessfulTests = *flagN / 4
	}
	params.MinSize, params.MaxSize = 0, proofstests.MaxGenSize
	props := gopter.NewProperties(params)
	props.Property("gpu-sim's compiled engine = its tree walker", prop.ForAll(propEngines, genCase))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Errorf("property failed (seed %d):\n%s", *flagSeed, out.String())
	}
}

// raceKernel is a random kernel of accesses to a global array a and a
// __shared__ array s of 8 words each, some under conditions, with
// barriers between them: the patterns of reads and writes by one thread,
// several, several blocks, in one phase or several, that the shadow
// memory must judge as the tree walker's cells do. With init false, a is
// left unwritten by the host.
func raceKernel(r *rand.Rand, init bool) string {
	idx := func() string {
		switch r.Intn(6) {
		case 0:
			return "i64_mod(g, 8)"
		case 1:
			return "i64_mod(t, 8)"
		case 2:
			return fmt.Sprint(r.Intn(8))
		case 3:
			return "i64_mod((int64_t)blockIdx.x, 8)"
		case 4:
			return fmt.Sprintf("i64_mod(i64_add(g, %d), 8)", r.Intn(8))
		}
		return fmt.Sprintf("i64_mod(i64_div(g, %d), 8)", 1+r.Intn(4))
	}
	cond := func() string {
		if r.Intn(2) == 0 {
			return fmt.Sprintf("i64_mod(g, %d) == %d", 2+r.Intn(5), r.Intn(2))
		}
		return fmt.Sprintf("t == %d", r.Intn(4))
	}
	var b strings.Builder
	b.WriteString("__global__ void k(arraysem_error *err, int64_t *a) {\n    __shared__ int64_t s[8];\n    int64_t t = (int64_t)threadIdx.x;\n")
	b.WriteString("    int64_t g = i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), t);\n    int64_t v = 0;\n")
	b.WriteString("    s[i64_mod(t, 8)] = t;\n    __syncthreads();\n")
	for k, n := 0, 2+r.Intn(8); k < n; k++ {
		arr := "a"
		if r.Intn(4) == 0 {
			arr = "s"
		}
		var stmt string
		switch r.Intn(12) {
		case 0, 1, 2, 3, 4:
			stmt = fmt.Sprintf("v = %s[%s];", arr, idx())
		case 5, 6, 7:
			stmt = fmt.Sprintf("%s[%s] = g;", arr, idx())
		case 8:
			stmt = "return;"
		default:
			stmt = "__syncthreads();"
		}
		if r.Intn(3) == 0 || stmt == "return;" || stmt == "__syncthreads();" && r.Intn(8) == 0 {
			stmt = fmt.Sprintf("if (%s) {\n        %s\n    }", cond(), stmt)
		}
		b.WriteString("    " + stmt + "\n")
	}
	b.WriteString("}\n")
	return kernelFile(b.String(), init, fmt.Sprintf("ARRAYSEM_LAUNCH_SYNC(k, %d, %d, err, a);\n    ARRAYSEM_LAUNCH_SYNC(k, %d, %d, err, a);", 1+r.Intn(3), 1+r.Intn(6), 1+r.Intn(2), 1+r.Intn(4)))
}

// kernelFile is a file of the emitted subset around functions written
// by hand, the last a kernel k(err, a) that launch launches, on an array
// a of 8 words (set to 0 first when init) that the file prints.
func kernelFile(funcs string, init bool, launch string) string {
	var b strings.Builder
	b.WriteString(cuda.Prelude + "\nstatic const char *const arraysem_sites[] = {nullptr};\n" +
		"static const char *const arraysem_inputs[] = {nullptr};\nstatic const char *const arraysem_defaults[] = {nullptr};\n\n")
	b.WriteString(funcs)
	b.WriteString("\nint main(int argc, char **argv) {\n")
	b.WriteString("    arraysem_start(argc, argv, arraysem_inputs, arraysem_defaults, arraysem_sites);\n")
	b.WriteString("    arraysem_error *err = nullptr;\n    arraysem_cuda(cudaMalloc((void **)&err, sizeof(arraysem_error)), \"cudaMalloc\");\n")
	b.WriteString("    arraysem_cuda(cudaMemset(err, 0, sizeof(arraysem_error)), \"cudaMemset\");\n")
	b.WriteString("    int64_t *a = nullptr;\n    arraysem_cuda(cudaMalloc((void **)&a, 64), \"cudaMalloc\");\n")
	if init {
		b.WriteString("    arraysem_cuda(cudaMemset(a, 0, 64), \"cudaMemset\");\n")
	}
	b.WriteString("    " + launch + "\n")
	b.WriteString("    int64_t *result = arraysem_host_buffer(8);\n")
	b.WriteString("    arraysem_cuda(cudaMemcpy(result, a, 64, cudaMemcpyDeviceToHost), \"cudaMemcpy\");\n")
	b.WriteString("    arraysem_print_array(result, 1, 8);\n    arraysem_finish();\n    return 0;\n}\n")
	return b.String()
}

// TestEnginesRaceKernels: random kernels of accesses and barriers
// (raceKernel) are judged alike by the two engines, under several
// schedules: the same race between the same threads, the same
// divergence, the same values.
func TestEnginesRaceKernels(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	n := 1500
	if testing.Short() {
		n = 300
	}
	kinds := map[string]int{}
	for k := 0; k < n; k++ {
		src := raceKernel(r, r.Intn(5) > 0)
		prog, err := gpusim.Parse("race.cu", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src[len(cuda.Prelude):])
		}
		for _, s := range []gpusim.Schedule{{Kind: "in-order"}, {Kind: "reverse"}, {Kind: "random", Seed: int64(k)}} {
			o := gpusim.Options{Schedule: s}
			if d := engines(prog, nil, o, "compiled"); d != "" {
				t.Fatalf("%s\n%s", d, src[len(cuda.Prelude):])
			}
			_, _, err := gpusim.Run(prog, nil, o)
			var se *gpusim.Error
			if errors.As(err, &se) {
				kinds[se.Kind]++
			} else {
				kinds["ok"]++
			}
		}
	}
	// The kernels must exercise every verdict.
	for _, k := range []string{"ok", "race", "uninitialised", "divergence"} {
		if kinds[k] < n/20 {
			t.Errorf("%d runs end %s, of %d: %v", kinds[k], k, 3*n, kinds)
		}
	}
	t.Log(kinds)
}

// TestEnginesSpilledReads: words read by more than one thread keep
// their reads in the launch's spill table (shadow.go), each word its own
// summary, reused once a write frees it. Each kernel (one block of two
// threads, in order) reads several words from both threads, so that a
// summary looked up at the wrong index, or handed to two words, changes
// the verdict: a race the tree walker finds, or one it does not.
func TestEnginesSpilledReads(t *testing.T) {
	head := "__global__ void k(arraysem_error *err, int64_t *a) {\n    int64_t t = (int64_t)threadIdx.x;\n    int64_t g = t;\n    int64_t v = 0;\n"
	for _, c := range []struct {
		name, body string
		race       bool
	}{
		// Thread 0's read of a[1] in the second phase is the latest of
		// a[1]'s summary, not of a[0]'s: thread 1's write races with it.
		{"latest reader", "v = a[0];\n v = a[1];\n __syncthreads();\n if (t == 0) { v = a[1]; }\n if (t == 1) { a[1] = g; }", true},
		{"latest reader of the first word", "v = a[0];\n v = a[1];\n __syncthreads();\n if (t == 0) { v = a[0]; }\n if (t == 1) { a[1] = g; }", false},
		// The write frees a[0]'s summary; a[2] and a[3] take a summary
		// each: thread 0's read of a[2] is not one of a[3].
		{"freed summary", "v = a[0];\n __syncthreads();\n if (t == 0) { a[0] = g; }\n __syncthreads();\n v = a[2];\n v = a[3];\n __syncthreads();\n if (t == 0) { v = a[2]; }\n if (t == 1) { a[3] = g; }", false},
		{"freed summary, race", "v = a[0];\n __syncthreads();\n if (t == 0) { a[0] = g; }\n __syncthreads();\n v = a[2];\n v = a[3];\n __syncthreads();\n if (t == 0) { v = a[3]; }\n if (t == 1) { a[3] = g; }", true},
	} {
		src := kernelFile(head+"    "+c.body+"\n}\n", true, "ARRAYSEM_LAUNCH_SYNC(k, 1, 2, err, a);")
		prog, err := gpusim.Parse(c.name+".cu", src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		o := gpusim.Options{}
		if d := engines(prog, nil, o, "compiled"); d != "" {
			t.Errorf("%s: %s", c.name, d)
		}
		_, _, err = gpusim.Run(prog, nil, o)
		var se *gpusim.Error
		if raced := errors.As(err, &se) && se.Kind == "race"; raced != c.race {
			t.Errorf("%s: race %v, want %v (%v)", c.name, raced, c.race, err)
		}
	}
}

// TestEnginesRefused: kernels of constructs the emitter does not produce,
// which the compiled engine does not compile (Engine "compiled" says so),
// run in the tree walker (Engine ""): the same outcome as the reference,
// in blocks of 4 threads and 1.
func TestEnginesRefused(t *testing.T) {
	for _, c := range []struct{ name, funcs string }{
		{"two types", `__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    int64_t v = 1;
    if (t == 1) {
        double v = 2.5;
    }
    a[t] = v;
}
`},
		{"use before declaration", `__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    if (t == 0) {
        int64_t w = 7;
    }
    a[t] = w;
}
`},
		{"recursion", `__device__ static int64_t f(int64_t n) {
    if (n == 0) {
        return 0;
    }
    return i64_add(n, f(i64_sub(n, 1)));
}

__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    a[t] = f(t);
}
`},
		{"address of a variable", `__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    int64_t *p = &t;
    a[t] = p[0];
}
`},
		{"a function gpu-sim does not know", `__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    a[t] = i64_pow(t, 2);
}
`},
		{"a parameter twice", `__device__ static int64_t f(int64_t n, int64_t n) {
    return n;
}

__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    a[t] = f(t, 3);
    a[i64_add(t, 4)] = t;
}
`},
		{"a loop's variable declared again", `__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    for (int64_t i = 1; i <= 3; i++) {
        int64_t i = 5;
        a[t] = i;
    }
}
`},
	} {
		for _, launch := range []string{"ARRAYSEM_LAUNCH(k, 2, 4, err, a);", "ARRAYSEM_LAUNCH(k, 1, 1, err, a);"} {
			prog, err := gpusim.Parse("refused.cu", kernelFile(c.funcs, true, launch))
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			_, _, err = gpusim.Run(prog, nil, gpusim.Options{Engine: "compiled"})
			if err == nil || !strings.Contains(err.Error(), "the compiled engine cannot run k") {
				t.Errorf("%s: the compiled engine: %v, want a refusal", c.name, err)
			}
			if d := engines(prog, nil, gpusim.Options{}, ""); d != "" {
				t.Errorf("%s: %s", c.name, d)
			}
		}
	}
}

// TestEnginesInlined: a __device__ function that reads memory, called
// from two places of a kernel (the compiled engine inlines it at each):
// its accesses are one instruction to the statistics, as in the tree
// walker, whose requests count a warp's executions of each.
func TestEnginesInlined(t *testing.T) {
	src := kernelFile(`__device__ static int64_t get(int64_t *a, int64_t i) {
    return a[i64_mod(i, 8)];
}

__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    int64_t g = i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), t);
    int64_t v = get(a, g);
    if (i64_mod(g, 3) == 0) {
        v = i64_add(v, get(a, i64_mul(g, 5)));
    }
}
`, true, "ARRAYSEM_LAUNCH(k, 2, 40, err, a);")
	prog, err := gpusim.Parse("inlined.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range engineOptions {
		if d := engines(prog, nil, o, "compiled"); d != "" {
			t.Error(d)
		}
	}
}

// TestEnginesPhases: the compiled engine's barrier phases, started near
// where they are renumbered (2^31, at a launch's start, every shadow
// cleared), find what the tree walker finds: on the random kernels of
// TestEnginesRaceKernels (two launches each) and the fold with each
// barrier cut.
func TestEnginesPhases(t *testing.T) {
	var progs []*gpusim.Program
	r := rand.New(rand.NewSource(9))
	for k := 0; k < 300; k++ {
		prog, err := gpusim.Parse("race.cu", raceKernel(r, true))
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog)
	}
	src := emitFold(t)
	lines := strings.SplitAfter(src, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) == "__syncthreads();" {
			prog, err := gpusim.Parse("cut.cu", strings.Join(lines[:i], "")+strings.Join(lines[i+1:], ""))
			if err != nil {
				t.Fatal(err)
			}
			progs = append(progs, prog)
		}
	}
	// Threads of a block read a word in both launches; in the second a
	// thread of another block writes it: a race only there, after the
	// phases are renumbered.
	prog, err := gpusim.Parse("phases.cu", kernelFile(`__global__ void k(arraysem_error *err, int64_t *a) {
    int64_t t = (int64_t)threadIdx.x;
    int64_t g = i64_add(i64_mul((int64_t)blockIdx.x, (int64_t)blockDim.x), t);
    int64_t v = a[0];
    if ((int64_t)gridDim.x == 2) {
        if (g == 4) {
            a[0] = 1;
        }
    }
}
`, true, "ARRAYSEM_LAUNCH(k, 1, 4, err, a);\n    ARRAYSEM_LAUNCH(k, 2, 4, err, a);"))
	if err != nil {
		t.Fatal(err)
	}
	progs = append(progs, prog)
	for _, prog := range progs {
		var args []string
		if prog.Name == "cut.cu" {
			args = []string{"n=30"}
		}
		for _, o := range []gpusim.Options{{Block: 4, Stats: true}, {Block: 2, Stats: true, Schedule: gpusim.Schedule{Kind: "reverse"}}} {
			o.Engine = "reference"
			want := outcomeOf(gpusim.Run(prog, args, o))
			if strings.Contains(want, "missing input") {
				t.Fatalf("%s: %s", prog.Name, want)
			}
			o.Engine = "compiled"
			for _, from := range []uint32{gpusim.MaxPhase - 3, gpusim.MaxPhase - 1} {
				if got := outcomeOf(gpusim.RunFromPhase(prog, args, o, from)); got != want {
					t.Fatalf("%s %+v, phases from %d: %s\nthe tree walker: %s\n%s", prog.Name, o, from, got, want, prog.Text()[len(cuda.Prelude):])
				}
			}
		}
	}
}

func outcomeOf(out string, st *gpusim.Stats, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%v\n", out, err)
	if st != nil {
		st.Print(&b)
	}
	return b.String()
}
