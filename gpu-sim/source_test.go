package gpusim_test

import (
	"errors"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/semantics"
)

// TestSourcePositions: on an emitted file, gpu-sim's errors name the
// source program's file:line:col (from the file's sites table), as the
// interpreter and the built program do: a stuck state is the
// interpreter's line exactly; what gpu-sim catches itself names the IMP
// statement of the access, with the check (gpu-sim race); bad input names
// the file only. Never a line of the .cu file under another name, never
// "-" for a missing position or rule. A hand-written file with no sites
// keeps its own positions; a file run under the source's name (as
// side-by-side runs the CUDA level) with no site to go by names the file
// and says the line of the emitted CUDA.
func TestSourcePositions(t *testing.T) {
	reg := check.NewRegistry()
	emitted := func(file string) string {
		ps, err := harness.Programs(reg, []string{file})
		if err != nil || len(ps) == 0 {
			t.Fatalf("%s: %d programs, %v", file, len(ps), err)
		}
		return ps[0].CUDA
	}
	planted := plantedAll(t)
	for _, c := range []struct {
		what   string
		name   string // the name gpu-sim reads the file under
		src    string
		args   []string
		kind   string
		want   string // a regular expression for the whole message
		interp string // the source file, when the message is at the IMP interpreter's position and rule
	}{
		{"a race", "race.cu", emitted("../examples/imp/race.imp"), []string{"n=4"}, "race",
			`^\.\./examples/imp/race\.imp:24:18: gpu-sim race: data race in arraysem_kernel_1: thread 1 \(block 0, thread 1\) writes address 0x[0-9a-f]+, which thread 0 \(block 0, thread 0\) wrote$`, ""},
		{"a race (planted)", "race.cu", planted["race"], []string{"n=4", "m=2"}, "race",
			`^examples/imp/kernel\.imp:35:3: gpu-sim race: data race in arraysem_kernel_1: thread 2 \(block 0, thread 2\) writes address 0x[0-9a-f]+, which thread 1 \(block 0, thread 1\) wrote$`, ""},
		{"an out-of-bounds write the program checks", "write.cu", emitted("../examples/imp/stuck_write.imp"), []string{"m=2", "n=3"}, "stuck",
			`^\.\./examples/imp/stuck_write\.imp:\d+:\d+: E-IMP-WRITE: `, "../examples/imp/stuck_write.imp"},
		{"an out-of-bounds write gpu-sim catches (planted)", "oob.cu", planted["oob"], []string{"n=4", "m=2"}, "out-of-bounds",
			`^examples/imp/kernel\.imp:35:3: gpu-sim out-of-bounds: out-of-bounds access: thread 3 \(block 0, thread 3\) writes address 0x[0-9a-f]+, element 4 of allocation #\d+ \(cudaMalloc at examples/imp/kernel\.imp:31:1, 32 bytes at 0x[0-9a-f]+\), which has 4 elements$`, ""},
		{"a stuck allocation", "fig7.cu", emitted("../examples/funmem/fig7.funmem"), []string{"xsize=2", "ysize=-1", "zcond=0"}, "stuck",
			`^\.\./examples/funmem/fig7\.funmem:43:8: E-IMP-ALLOC: allocation of negative size -1$`, "../examples/funmem/fig7.funmem"},
		{"a thread stuck on a negative kernel bound", "stuck_bound.cu", emitted("../examples/fun/stuck_bound.fun"), []string{"k=2", "n=4"}, "stuck",
			`^\.\./examples/fun/stuck_bound\.fun:18:7: E-IMP-KERNEL: kernel bound len = -1 is negative$`, "../examples/fun/stuck_bound.fun"},
		{"missing inputs", "matmul.cu", emitted("../examples/fun/matmul.fun"), nil, "input",
			`^matmul\.cu: missing inputs a : \[n\]\[p\], b : \[p\]\[m\] \(give them with --arg a=VALUE --arg b=VALUE\)$`, ""},
		{"a hand-written file, no sites", "k.cu", kernelFile("__global__ void k(arraysem_error *err, int64_t *a) {\n    a[0] = 1;\n}\n", true, "ARRAYSEM_LAUNCH(k, 1, 2, err, a);"), nil, "race",
			`^k\.cu:\d+:\d+: gpu-sim race: data race in k: `, ""},
		{"no site before the barrier, under the source's name", "kernel.imp", planted["divergent"], []string{"n=4", "m=2"}, "divergence",
			`^kernel\.imp: gpu-sim divergence: barrier divergence in arraysem_kernel_1, .* \(at line \d+ of the emitted CUDA\)$`, ""},
	} {
		prog, err := gpusim.Parse(c.name, c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.what, err)
		}
		_, _, err = gpusim.Run(prog, c.args, gpusim.Options{})
		var se *gpusim.Error
		if !errors.As(err, &se) || se.Kind != c.kind || !regexp.MustCompile(c.want).MatchString(err.Error()) {
			t.Errorf("%s: got %v; want a %s error matching %s", c.what, err, c.kind, c.want)
			continue
		}
		msg := err.Error()
		if c.name != "k.cu" && regexp.MustCompile(`\.cu:\d|(^|\s)-: |at line \d+,`).MatchString(msg) {
			t.Errorf("%s: %q names a line of the .cu file or a missing position", c.what, msg)
		}
		// The driver's error (side-by-side's rows) prints the same line.
		var sem *semantics.Error
		if sim, rerr := gpusim.Simulator.Read(c.name, c.src); rerr != nil {
			t.Errorf("%s: %v", c.what, rerr)
		} else if _, rerr := sim.Run(c.args, nil, 0); !errors.As(rerr, &sem) || sem.Error() != msg {
			t.Errorf("%s: the CUDA level says %v, gpu-sim %q", c.what, rerr, msg)
		}
		if c.interp != "" {
			ps, _ := harness.Programs(reg, []string{c.interp})
			args := map[string]string{}
			for _, a := range c.args {
				k, v, _ := strings.Cut(a, "=")
				args[k] = v
			}
			// The same position and rule (the heap's blocks are named
			// ℓ1… by the interpreter only).
			want := harness.Interpret(ps[0].Imp, args)
			if i := strings.Index(want.Err, ": E-"); i < 0 || !strings.HasPrefix(msg, want.Err[:i+2]+se.Rule+": ") {
				t.Errorf("%s: gpu-sim says %q, the interpreter %q", c.what, msg, want.Err)
			}
		}
	}
	// A file the driver cannot read back, under the source's name.
	_, err := gpusim.Simulator.Read("kernel.imp", planted["unsupported"])
	if err == nil || !regexp.MustCompile(`^kernel\.imp: unsupported construct "while" \(at line \d+ of the emitted CUDA\)$`).MatchString(err.Error()) {
		t.Errorf("an unsupported construct under the source's name: %v", err)
	}
}
