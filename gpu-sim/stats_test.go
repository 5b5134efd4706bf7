package gpusim_test

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
	"github.com/mattn/go-runewidth"
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

// TestTraffic pins --stats' traffic counters on small IMP programs
// emitted as CUDA (blocks of 32 threads): sectors per request against
// the ideal (packed, strided and broadcast loads), the distinct sectors
// a launch moves, the program's minimum (inputs read once, results
// written once), idle threads and allocations in kernels.
func TestTraffic(t *testing.T) {
	for _, c := range []struct {
		name, src string
		args      []string
		want      gpusim.KernelStats // the total row
		min       int64
	}{{
		// 40 threads read and write consecutive words: 2 requests each
		// way (32 and 8 lanes: 8 and 2 sectors, the ideal); 24 of the
		// 64 threads launched have nothing to do.
		name: "packed",
		src: `input n : int; input xs : [n] @ xs_mem;
var ys : mem; ys <- alloc n;
kernel i <= n do var x : int; x <- xs_mem[i - 1]; ys[i - 1] <- x; done;
return ys : [n]`,
		args: []string{"xs=" + iotaList(40)},
		want: gpusim.KernelStats{Launches: 1, Threads: 64, Idle: 24, LoadRequests: 2, LoadSectors: 10, LoadIdeal: 10,
			StoreRequests: 2, StoreSectors: 10, StoreIdeal: 10, LoadMoved: 10, StoreMoved: 10},
		min: 20,
	}, {
		// Lanes 4 words apart: every lane its own sector, 4 times the
		// ideal; the launch still moves only the sectors it touches.
		name: "strided",
		src: `input n : int; input m : int; input xs : [m] @ xs_mem;
var ys : mem; ys <- alloc n;
kernel i <= n do var x : int; x <- xs_mem[4 * i - 4]; ys[i - 1] <- x; done;
return ys : [n]`,
		args: []string{"n=32", "xs=" + iotaList(128)},
		want: gpusim.KernelStats{Launches: 1, Threads: 32, LoadRequests: 1, LoadSectors: 32, LoadIdeal: 8,
			StoreRequests: 1, StoreSectors: 8, StoreIdeal: 8, LoadMoved: 32, StoreMoved: 8},
		min: 32 + 8,
	}, {
		// Every lane reads one word: one sector, the ideal; and each
		// thread allocates a block of its own in the kernel.
		name: "broadcast",
		src: `input n : int; input xs : [n] @ xs_mem;
var ys : mem; ys <- alloc n;
kernel i <= n do var b : mem; b <- alloc 1; var x : int; x <- xs_mem[0]; ys[i - 1] <- x; done;
return ys : [n]`,
		args: []string{"xs=" + iotaList(32)},
		want: gpusim.KernelStats{Launches: 1, Threads: 32, Allocs: 32, LoadRequests: 1, LoadSectors: 1, LoadIdeal: 1,
			StoreRequests: 1, StoreSectors: 8, StoreIdeal: 8, LoadMoved: 1, StoreMoved: 8},
		min: 8 + 8,
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
		for _, engine := range []string{"compiled", "reference"} {
			_, st, err := gpusim.Run(prog, c.args, gpusim.Options{Stats: true, Block: 32, Engine: engine})
			if err != nil {
				t.Fatal(err)
			}
			got := st.Total()
			c.want.Name = "total"
			if got != c.want || st.Minimum() != c.min {
				t.Errorf("%s (%s): total\n got %+v, minimum %d\nwant %+v, minimum %d", c.name, engine, got, st.Minimum(), c.want, c.min)
			}
		}
	}
}

func iotaList(n int) string {
	var b strings.Builder
	b.WriteString("[")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(" ")
		}
		fmt.Fprint(&b, i)
	}
	return b.String() + "]"
}

// TestStatsTableAligned: the kernels' table of --stats keeps its columns
// aligned, counted in display cells, whatever the kernels' names (a name
// longer than the header row, one in wide characters, one with ℓ) and
// their counters' widths: every row's cells end where the header's do,
// the names at the left.
func TestStatsTableAligned(t *testing.T) {
	st := &gpusim.Stats{Kernels: map[string]*gpusim.KernelStats{}}
	for i, name := range []string{"k", "arraysem_kernel_with_a_name_longer_than_the_header_row_itself", "核心_kernel", "ℓ_kernel"} {
		n := int64(1)
		for range i * 3 {
			n *= 10
		}
		st.Kernels[name] = &gpusim.KernelStats{Name: name, Launches: n, Threads: 256 * n, Idle: n / 2, LoadRequests: 3 * n, LoadSectors: 7 * n, LoadIdeal: 5,
			StoreRequests: 1, StoreSectors: 1, StoreIdeal: 1, LoadMoved: n, StoreMoved: 1}
	}
	text := st.Table("// ")
	lines := strings.Split(text, "\n")
	sep := regexp.MustCompile(` {2,}`)
	// ends is where each cell of a line ends, in display cells.
	ends := func(l string) []int {
		var out []int
		for _, m := range sep.FindAllStringIndex(l, -1) {
			out = append(out, runewidth.StringWidth(l[:m[0]]))
		}
		return append(out, runewidth.StringWidth(l))
	}
	header := ends(lines[0])
	if len(header) != 15 || !strings.HasPrefix(lines[0], "// kernel ") {
		t.Fatalf("header %q", lines[0])
	}
	for _, l := range lines[1:6] { // four kernels and the total
		got := ends(l)
		if len(got) != len(header) || !slices.Equal(got[1:], header[1:]) {
			t.Errorf("row not aligned with the header (cells end at %v, the header's at %v):\n%s", got, header, text)
		}
		if !strings.HasPrefix(l, "// ") || l[3] == ' ' {
			t.Errorf("row %q: the name is to start the row", l)
		}
	}
	if !strings.HasPrefix(lines[6], "// moved ") {
		t.Errorf("after the rows: %q", lines[6])
	}
}
