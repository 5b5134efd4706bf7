package gpusim_test

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// TestCosts pins the simulator's cost counters (Stats.Costs) on small IMP
// programs emitted as CUDA, beside IMP's own: the same launches where
// every kernel runs (the emitted code launches none of zero threads);
// device words that add the error record (3 words) and the inputs'
// device copies to IMP's blocks; the threads' element reads and writes
// for ops, which leave out the scalar operators IMP counts.
func TestCosts(t *testing.T) {
	for _, c := range []struct {
		name      string
		src       string
		args      map[string]string
		want, imp semantics.Stats
	}{{
		// n = 5 iterations of a read, a multiply and a write.
		name: "kernel",
		src: `input n : int; input xs : [n] @ xs_mem;
var ys : mem; ys <- alloc n;
kernel i <= n do var x : int; x <- xs_mem[i - 1]; var y : int; y <- x * 3; ys[i - 1] <- y; done;
return ys : [n]`,
		args: map[string]string{"xs": "[1 2 3 4 5]"},
		want: semantics.Stats{Ops: 10, Allocs: 3, Words: 3 + 5 + 5, PeakWords: 3 + 5 + 5, Kernels: 1},
		imp:  semantics.Stats{Ops: 15, Allocs: 1, Words: 5, PeakWords: 5, Kernels: 1},
	}} {
		p, err := imp.ParseFile(c.name+".imp", c.src)
		if err != nil {
			t.Fatal(err)
		}
		f, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			t.Fatal(err)
		}
		prog, err := gpusim.Parse(c.name+".cu", f.String())
		if err != nil {
			t.Fatal(err)
		}
		var args []string
		for k, v := range c.args {
			args = append(args, k+"="+v)
		}
		_, st, err := gpusim.Run(prog, args, gpusim.Options{Stats: true})
		if err != nil {
			t.Fatal(err)
		}
		got := st.Costs
		got.SetLive(0)
		if got.String() != c.want.String() {
			t.Errorf("%s: gpu-sim\n got %v\nwant %v", c.name, &got, &c.want)
		}
		l, err := imp.Language.Adopt(p.File, p, lang.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		var is semantics.Stats
		o := lang.RunOptions{Args: c.args}
		o.Stats = &is
		if _, err := l.Run(o); err != nil {
			t.Fatal(err)
		}
		is.SetLive(0)
		if is.String() != c.imp.String() {
			t.Errorf("%s: IMP\n got %v\nwant %v", c.name, &is, &c.imp)
		}
		var b strings.Builder
		st.Print(&b)
		if !strings.Contains(b.String(), "cost counters:\nops ") {
			t.Errorf("%s: --stats does not print the cost counters:\n%s", c.name, b.String())
		}
	}
}
