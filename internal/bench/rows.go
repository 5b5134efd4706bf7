package bench

import (
	"fmt"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/examples"
	"github.com/arraysem/arraysem/funmem"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/semantics"
	"github.com/arraysem/arraysem/semantics/datafile"
)

// Row is one workload of the issue "Performance": the program, the sizes
// it is measured at, its floor (a plain Go loop over the same data, or the
// run it is compared with), and its target.
type Row struct {
	Name     string // what --row takes
	Workload string // the table's description
	Target   string // the target as the table prints it
	// Unit is the unit of the row's figure, as its Go benchmark reports
	// it: "steps/s", "ns/iteration", "ratio", "programs/s".
	Unit string

	sizes, quick        []int // the ladder of sizes, smallest first
	budget, quickBudget time.Duration
	square              bool   // sizes are n×n (the work grows as n², which growth counts)
	floorName           string // what the floor is: "Go loop", "value", …
	growth              bool   // whether the growth exponent is shown and judged
	wall                bool   // measured on the wall clock whatever --clock says (parallel speed-ups)
	unitName            string // "steps", "iter", "programs": what the rate counts
	targetRate          float64
	targetTime          float64 // seconds at targetN
	targetN             int
	targetRatio         float64 // measured/floor at most this
	targetSpeedup       float64 // floor/measured at least this
	targetPeak          uint64  // bytes at targetN
	targetAlloc         float64 // bytes allocated per unit of work (unitName) at most this
	maxGrowth           float64
	gpu                 *gpuTarget // a traffic row: judged on gpu-sim's counts, not on time
	setup               func(o *Options, n int) (*work, error)
}

// work is a row at one size, ready to run: run is measured, floor (nil
// when the row has none) is what it is compared with.
type work struct {
	run   func() (int, error) // returns the steps or items done
	floor func() error
	note  func() string // what the runs found that the table should say ("" for nothing)
	done  func()        // when the size is measured: remove what setup made (nil for nothing)
	// traffic is what gpu-sim counted in the last run (a traffic row's;
	// nil for the others).
	traffic func() *Traffic
}

// Work makes the named row ready to run at size n, for a benchmark: run
// returns the steps or items one run did, floor (nil when the row has
// none) is what the row compares it with.
func Work(row string, o *Options, n int) (run func() (int, error), floor func() error, err error) {
	r, ok := RowNamed(row)
	if !ok {
		return nil, nil, fmt.Errorf("no row %q", row)
	}
	w, err := r.setup(o, n)
	if err != nil {
		return nil, nil, err
	}
	return w.run, w.floor, nil
}

// sink keeps the Go loops' results alive, so that the compiler cannot drop
// the loops.
var sink int64

// growthLimit is the exponent up to which a row counts as linear: the fit
// over a few sizes on a busy machine wobbles by a tenth or two.
const growthLimit = 1.2

// Rows are the workloads, in its order. Sizes are chosen so that
// the first size of every ladder takes well under a second with today's
// code, and a row stops climbing when the next size would overrun its
// budget (the scan rows are cubic today).
var Rows = []*Row{
	{Name: "small-map", Workload: "Remora small-step map (typed)", Unit: "steps/s", unitName: "steps",
		Target: "≥ 1 M steps/s, n^1", targetRate: 1e6, maxGrowth: growthLimit, growth: true,
		sizes: []int{1000, 2000, 4000, 10000, 20000, 50000, 100000}, quick: []int{250, 500, 1000},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: remoraSmall("(+ 1 iota{ | [%[1]d]})")},
	{Name: "small-reduce", Workload: "Remora small-step reduce (typed)", Unit: "steps/s", unitName: "steps",
		Target: "≥ 1 M steps/s, n^1", targetRate: 1e6, maxGrowth: growthLimit, growth: true,
		sizes: []int{1000, 2000, 4000, 10000, 20000, 50000, 100000}, quick: []int{250, 500, 1000},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: remoraSmall("(reduce{int | %[2]d [] []} + iota{ | [%[1]d]})")},
	{Name: "small-scan", Workload: "Remora small-step scan (typed)", Unit: "steps/s", unitName: "steps",
		Target: "10^4 in < 1 s, n^1", targetTime: 1, targetN: 10000, maxGrowth: growthLimit, growth: true,
		sizes: []int{60, 125, 250, 500, 1000, 2000, 5000, 10000}, quick: []int{30, 60, 125},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: remoraSmall("(iscan{int | %[2]d [] []} + iota{ | [%[1]d]})")},
	{Name: "small-scan-1e6", Workload: "Remora small-step scan (typed), memory", Unit: "steps/s", unitName: "steps",
		Target: "≤ 500 MB at 10^6", targetPeak: 500 << 20, targetN: 1_000_000, growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 30 * time.Second, quickBudget: time.Second,
		setup: remoraSmall("(iscan{int | %[2]d [] []} + iota{ | [%[1]d]})")},
	{Name: "small-scan-dynamic", Workload: "Remora small-step scan (rank-annotated)", Unit: "steps/s", unitName: "steps",
		Target: "10^4 in < 1 s, n^1", targetTime: 1, targetN: 10000, maxGrowth: growthLimit, growth: true,
		sizes: []int{60, 125, 250, 500, 1000, 2000, 5000, 10000}, quick: []int{30, 60, 125},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: remoraSmall("#lang remora/dynamic\n(iscan + (iota [%[1]d]))")},
	{Name: "fun-kernel", Workload: "FUN big-step flat kernel", Unit: "ns/iteration", unitName: "iter",
		Target: "≤ 0.2 s at 10^6", targetTime: 0.2, targetN: 1_000_000, growth: true, floorName: "Go loop",
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000, 100_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: funRun(flatFun, "fun", "big", false, flatLoop)},
	{Name: "funmem-heap-flat", Workload: "FUNMEM heap / value, flat kernel", Unit: "ratio",
		Target: "≤ 2×", targetRatio: 2, floorName: "value", growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: compare(flatFun, "funmem", "heap", "funmem", "value", false)},
	{Name: "funmem-heap-nested", Workload: "FUNMEM heap / value, nested n×n", Unit: "ratio",
		Target: "≤ 2×", targetRatio: 2, floorName: "value", growth: true, square: true,
		sizes: []int{30, 100, 300, 1000}, quick: []int{10, 30, 100},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: compare(nestedFun, "funmem", "heap", "funmem", "value", false)},
	{Name: "funmem-heap-reduce", Workload: "FUNMEM heap / FUN big, scalar redomap", Unit: "ratio",
		Target: "≤ 3×", targetRatio: 3, floorName: "FUN big", growth: true,
		sizes: []int{100_000, 1_000_000, 10_000_000}, quick: []int{1000, 10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: compare(redomapFun, "funmem", "heap", "fun", "big", false)},
	{Name: "funmem-heap-inputs", Workload: "FUNMEM heap / FUN big, folds and a scan over two n-element inputs from a data file", Unit: "ratio",
		Target: "≤ 3×, ≤ 400 MB at 10^7", targetRatio: 3, targetPeak: 400 << 20, targetN: 10_000_000, floorName: "FUN big", growth: true,
		sizes: []int{100_000, 1_000_000, 10_000_000}, quick: []int{1000, 10_000},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: compareData(dotFun, "funmem", "heap", "fun", "big")},
	{Name: "imp-inputs", Workload: "IMP big / FUN big, folds and a scan over two n-element inputs from a data file", Unit: "ratio",
		Target: "≤ 3×, ≤ 400 MB at 10^7", targetRatio: 3, targetPeak: 400 << 20, targetN: 10_000_000, floorName: "FUN big", growth: true,
		sizes: []int{100_000, 1_000_000, 10_000_000}, quick: []int{1000, 10_000},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: compareData(dotFun, "imp", "big", "fun", "big")},
	{Name: "imp-flat", Workload: "IMP big / FUN big, flat kernel", Unit: "ratio",
		Target: "≤ 2×", targetRatio: 2, floorName: "FUN big", growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: compare(flatFun, "imp", "big", "fun", "big", false)},
	{Name: "imp-nested", Workload: "IMP big / FUN big, nested n×n", Unit: "ratio",
		Target: "≤ 2×", targetRatio: 2, floorName: "FUN big", growth: true, square: true,
		sizes: []int{30, 100, 300, 1000}, quick: []int{10, 30, 100},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: compare(nestedFun, "imp", "big", "fun", "big", false)},
	{Name: "trace-funmem", Workload: "--trace overhead, FUNMEM heap", Unit: "ratio",
		Target: "≤ 2×", targetRatio: 2, floorName: "untraced", growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: compare(flatFun, "funmem", "heap", "funmem", "heap", true)},
	{Name: "trace-imp", Workload: "--trace overhead, IMP big-step", Unit: "ratio",
		Target: "≤ 2×", targetRatio: 2, floorName: "untraced", growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: compare(flatFun, "imp", "big", "imp", "big", true)},
	{Name: "reduce-1e8", Workload: "Remora reduce-init of (+ 1 iota) (typed)", Unit: "ratio",
		Target: "≤ 3× Go loop, ≤ 64 MB at 10^8", targetRatio: 3, targetPeak: 64 << 20, targetN: 100_000_000,
		floorName: "Go loop", growth: true,
		sizes: []int{1_000_000, 10_000_000, 100_000_000}, quick: []int{100_000, 1_000_000},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: remoraBig("(reduce-init{int | %[1]d [] []} + 0 (+ 1 iota{ | [%[1]d]}))", "", sumLoop)},
	{Name: "dynamic-reduce", Workload: "rank-annotated / typed reduce", Unit: "ratio",
		Target: "≤ 2× at 10^6", targetRatio: 2, floorName: "typed", growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		// The floor binds the array first: the typed big-step streams a
		// producer (iota) into a reduction, which the dialect does not, so
		// reducing iota directly would compare the dialect with a path it
		// lacks; a variable is not a producer, and both runs build the
		// array and reduce it, which is what the row compares.
		setup: remoraBig("#lang remora/dynamic\n(reduce + 0 (iota [%[1]d]))", "(define xs iota{ | [%[1]d]})\n(reduce-init{int | %[1]d [] []} + 0 xs)", nil)},
	{Name: "lambda-map", Workload: "Remora user λ over n cells (typed)", Unit: "ns/iteration", unitName: "cell",
		Target: "≤ 0.05 s at 10^5", targetTime: 0.05, targetN: 100_000, floorName: "Go loop", growth: true,
		sizes: []int{1000, 10_000, 100_000}, quick: []int{1000, 10_000},
		budget: 5 * time.Second, quickBudget: time.Second,
		setup: remoraBig("((fn ([x int]) (+ (* x x) 1)) iota{ | [%[1]d]})", "", squareLoop)},
	{Name: "jobs", Workload: "FUN kernel of rows, run --jobs 2 / 1", Unit: "ratio",
		Target: "≥ 1.6× speed-up", targetSpeedup: 1.6, floorName: "--jobs 1", wall: true,
		sizes: []int{100_000, 1_000_000}, quick: []int{10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: levelJobs(rowsFun, "fun", "big", func(n int) int { return max(n/rowLength, 1) })},
	{Name: "jobs-funmem", Workload: "FUNMEM heap kernel, --jobs 2 / 1", Unit: "ratio",
		Target: "≥ 1.6× speed-up", targetSpeedup: 1.6, floorName: "--jobs 1", wall: true,
		sizes: []int{100_000, 1_000_000}, quick: []int{10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: levelJobs(polyFun, "funmem", "heap", nil)},
	{Name: "jobs-imp", Workload: "IMP kernel, --jobs 2 / 1", Unit: "ratio",
		Target: "≥ 1.6× speed-up", targetSpeedup: 1.6, floorName: "--jobs 1", wall: true,
		sizes: []int{100_000, 1_000_000}, quick: []int{10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: levelJobs(polyFun, "imp", "big", nil)},
	{Name: "fusion", Workload: "FUN big, map–map–reduce of iota n: fused / unfused", Unit: "ratio",
		Target: "≥ 2× speed-up at 10^7, peak O(1)", targetSpeedup: 2, floorName: "unfused", growth: true,
		sizes: []int{100_000, 1_000_000, 10_000_000}, quick: []int{10_000, 100_000},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: fusionRun},
	{Name: "gpu-sim-scan", Workload: "gpu-sim, typed scan-init of (+ 1 iota) then reduce", Unit: "ns/iteration", unitName: "elem",
		Target: "≤ 2 s, ≤ 200 MB at 10^6", targetTime: 2, targetN: 1_000_000, targetPeak: 200 << 20, growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 12 * time.Second, quickBudget: time.Second,
		setup: simRun(scanRemora, false)},
	{Name: "gpu-sim-reduce", Workload: "gpu-sim, typed reduce-init of (+ 1 iota) / IMP big", Unit: "ns/iteration", unitName: "elem",
		Target: "≤ 0.5 s at 10^6", targetTime: 0.5, targetN: 1_000_000, floorName: "IMP big", growth: true,
		sizes: []int{10_000, 100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: simRun(reduceRemora, true)},
	{Name: "gpu-sim-reduce-1e8", Workload: "gpu-sim, typed reduce-init of (+ 1 iota), large", Unit: "ns/iteration", unitName: "elem",
		Target: "≤ 60 s at 10^8", targetTime: 60, targetN: 100_000_000, growth: true,
		sizes: []int{1_000_000, 10_000_000, 100_000_000}, quick: []int{100_000, 1_000_000},
		budget: 40 * time.Second, quickBudget: time.Second,
		setup: simRun(reduceRemora, false)},
	{Name: "side-by-side-scan", Workload: "side-by-side of the scan-init then reduce, every row", Unit: "ns/iteration", unitName: "elem",
		Target: "≤ 60 s, ≤ 2 GiB at 10^6", targetTime: 60, targetN: 1_000_000, targetPeak: 2 << 30, wall: true,
		// One size: below 10^6 the small-steps and the rules run to the
		// end (their bounds cut them at 10^6), so the time does not grow
		// with n and no smaller size predicts it.
		sizes: []int{1_000_000}, quick: []int{1000, 10_000},
		budget: 150 * time.Second, quickBudget: time.Second,
		setup: sideRun(scanRemora)},
	{Name: "host-scan", Workload: "sanitized host build of the scan-init then reduce, run", Unit: "ns/iteration", unitName: "elem",
		Target: "≤ 3 s at 10^6 (blocks of 256)", targetTime: 3, targetN: 1_000_000, growth: true,
		// Each size is built first (seconds with clang++ and the
		// sanitizers), which the budget counts.
		sizes: []int{100_000, 1_000_000}, quick: []int{1000, 10_000},
		budget: 25 * time.Second, quickBudget: 5 * time.Second,
		setup: hostRun(scanRemora)},
	gpuRow("gpu-map", "map.fun", "a map", 0, []int{1 << 20}, []int{1 << 12}, vector("xs")),
	gpuRow("gpu-map-map-reduce", "map_map_reduce.fun", "a map–map–reduce", 2, []int{1 << 20}, []int{1 << 12}, vector("xs")),
	gpuRow("gpu-sum-rows", "sum_rows.fun", "the sums of the rows of an n×1000 matrix", 0, []int{1000}, []int{16}, matrix("xss", 1000)),
	gpuRow("gpu-matmul", "matmul.fun", "the matrix product as Remora writes it, n×2000 by 2000×5", 0, []int{10}, []int{2}, matmulInputs),
	{Name: "gpu-matmul-remora", Workload: "gpu-sim traffic: the typed Remora matrix product of n×2000 by 2000×5 iotas", Unit: "ratio",
		Target: "≤ 2× min sectors, loads ≤ 1.25× ideal, no alloc in kernels", gpu: &gpuTarget{ratio: 2, coalescing: 1.25},
		sizes: []int{10}, quick: []int{2}, budget: 20 * time.Second, quickBudget: 5 * time.Second,
		setup: gpuRemora(matmulRemora)},
	gpuRow("gpu-scan-reduce", "scan_reduce.fun", "a scan, then a reduce of its result", 0, []int{1 << 20}, []int{1 << 12}, vector("xs")),
	gpuRow("gpu-stencil", "stencil.fun", "a three-point stencil", 0, []int{1 << 20}, []int{1 << 12}, vector("xs")),
	gpuRow("gpu-transpose", "transpose.fun", "the transpose of an n×1000 matrix", 0, []int{1000}, []int{16}, matrix("xss", 1000)),
	gpuRow("gpu-nested-reduce", "nested_reduce.fun", "the sum of the row sums of an n×1000 matrix", 0, []int{1000}, []int{16}, matrix("xss", 1000)),
	{Name: "prove-fun-funmem-imp", Workload: "campaign fun-funmem-imp", Unit: "programs/s", unitName: "programs",
		Target: "≥ 1000 programs/s per core", targetRate: 1000,
		sizes: []int{100, 200}, quick: []int{10},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: campaign("fun-funmem-imp")},
	{Name: "prove-passes-valid", Workload: "campaign passes-valid", Unit: "programs/s", unitName: "programs",
		Target: "≥ 1000 programs/s per core", targetRate: 1000,
		sizes: []int{100, 200}, quick: []int{10},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: campaign("passes-valid")},
	{Name: "data-read", Workload: "reading a binary data set of n i64 (run --data FILE)", Unit: "ns/iteration", unitName: "elem",
		Target: "≤ 0.3 s, ≤ 9 B allocated per element at 10^7", targetTime: 0.3, targetN: 10_000_000, targetAlloc: 9,
		floorName: "os.ReadFile", growth: true,
		sizes: []int{100_000, 1_000_000, 10_000_000}, quick: []int{10_000, 100_000},
		budget: 8 * time.Second, quickBudget: time.Second,
		setup: dataRead},
}

// RowNamed finds a row by its --row name.
func RowNamed(name string) (*Row, bool) {
	for _, r := range Rows {
		if r.Name == name {
			return r, true
		}
	}
	return nil, false
}

// RowNames lists the rows' names, in the table's order.
func RowNames() []string {
	var out []string
	for _, r := range Rows {
		out = append(out, r.Name)
	}
	return out
}

// flatFun is the flat kernel: n iterations, each reading one element,
// computing, and writing one.
const flatFun = `input (n : int)
let (xs : [n]) = iota n
let (ys : [n]) = kernel i <= n do
  let (x : int) = xs[i]
  let (y : int) = x * 2 + i
  in (y)
in (ys)
`

// redomapFun is the sum of 1 + i for i below n, one redomap of scalar
// bodies: the FUN program typed Remora's (reduce-init + 0 (+ 1 iota))
// lowers to.
const redomapFun = `input (n : int)
let (z : int) = 0
let (s : int) =
  redomap (a : int) (b : int) = z for i <= n do
    let (v : int) = i
    in (v)
  combine
    let (c : int) = a + b
    in (c)
in (s)
`

// nestedFun is the nested kernel: n×n iterations of the same body.
const nestedFun = `input (n : int)
let (xs : [n]) = iota n
let (b : [n][n]) = kernel i <= n do
  let (r : [n]) = kernel j <= n do
    let (x : int) = xs[j]
    let (y : int) = x * i + j
    in (y)
  in (r)
in (b)
`

// rowLength is the length of rowsFun's rows.
const rowLength = 100

// rowsFun is the jobs row's kernel: n iterations, each computing a row of
// rowLength elements by a nested kernel and summing it, so that its work
// (n × 100 elements) is large beside its output (n numbers to print).
// The flat kernel's 10^6 results take longer to print than to compute,
// which would hide the kernel's speed-up behind `arraysem run`'s printing.
const rowsFun = `input (n : int)
let (m : int) = 100
let (xs : [m]) = iota m
let (ys : [n]) = kernel i <= n do
  let (r : [m]) = kernel j <= m do
    let (x : int) = xs[j]
    let (y : int) = x * i + j
    in (y)
  let (z : int) = 0
  let (s : int) = reduce (a : int) (b : int) = z over r do
    let (c : int) = a + b
    in (c)
  in (s)
in (ys)
`

// flatLoop is flatFun as a plain Go loop: both arrays allocated, as the
// program allocates them.
func flatLoop(n int) {
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(i + 1)
	}
	ys := make([]int64, n)
	for i := range ys {
		ys[i] = xs[i]*2 + int64(i+1)
	}
	sink += ys[n-1]
}

// sumLoop is (reduce-init + 0 (+ 1 iota n)) as a Go loop: nothing
// materialised, which is the point of the row's memory target.
func sumLoop(n int) {
	var s int64
	for i := 0; i < n; i++ {
		s += 1 + int64(i)
	}
	sink += s
}

// squareLoop is the λ (+ (* x x) 1) mapped over iota n as a Go loop.
func squareLoop(n int) {
	ys := make([]int64, n)
	for i := range ys {
		x := int64(i)
		ys[i] = x*x + 1
	}
	sink += ys[n-1]
}

// load loads source text as a file of the given extension through the
// registry, as `arraysem run` does.
func load(ext, src string) (lang.Program, error) {
	return check.Load(check.NewRegistry(), "bench"+ext, src, check.Options{})
}

// at compiles p down to level through the registry, without slicing and
// fusion; the program itself when it is at that level.
func at(p lang.Program, level string) (lang.Program, error) {
	if p.Language().Name() == level {
		return p, nil
	}
	// Without the optimising passes: the rows measure the interpreters
	// on the program as written (the fusion row measures the passes).
	st, err := check.NewRegistry().Compile(p, level, lang.Options{}.With("no-fuse").With("no-slice"))
	if err != nil {
		return nil, err
	}
	return st[len(st)-1].Program, nil
}

func runner(p lang.Program, sem string, args map[string]string, trace bool) func() (int, error) {
	o := lang.RunOptions{Semantics: sem, Args: args}
	if trace {
		// A consumer that keeps nothing: the row measures what tracing
		// costs the interpreter, not what printing the sets costs.
		o.Trace = func(string, *semantics.KernelTrace) {}
	}
	return func() (int, error) {
		r, err := p.Run(o)
		if err != nil {
			return 0, err
		}
		return r.Steps, nil
	}
}

// remoraSmall is a Remora row under the small-step semantics; the format
// gets n and n-1.
func remoraSmall(format string) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		p, err := load(".remora", fmt.Sprintf(format, n, n-1))
		if err != nil {
			return nil, err
		}
		return &work{run: runner(p, "small", nil, false)}, nil
	}
}

// remoraBig is a Remora row under the big-step semantics, with a floor
// that is either a Go loop or another Remora program (floorFormat).
func remoraBig(format, floorFormat string, loop func(int)) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		p, err := load(".remora", fmt.Sprintf(format, n))
		if err != nil {
			return nil, err
		}
		run := runner(p, "big", nil, false)
		w := &work{run: func() (int, error) { _, err := run(); return n, err }}
		switch {
		case floorFormat != "":
			q, err := load(".remora", fmt.Sprintf(floorFormat, n))
			if err != nil {
				return nil, err
			}
			fr := runner(q, "big", nil, false)
			w.floor = func() error { _, err := fr(); return err }
		case loop != nil:
			w.floor = func() error { loop(n); return nil }
		}
		return w, nil
	}
}

// funRun is a FUN program at one level and semantics with a Go loop as
// its floor.
func funRun(src, level, sem string, trace bool, loop func(int)) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		p, err := load(".fun", src)
		if err != nil {
			return nil, err
		}
		if p, err = at(p, level); err != nil {
			return nil, err
		}
		run := runner(p, sem, map[string]string{"n": strconv.Itoa(n)}, trace)
		return &work{
			run:   func() (int, error) { _, err := run(); return n, err },
			floor: func() error { loop(n); return nil },
		}, nil
	}
}

// compare is a FUN program run at one level and semantics (traced, or
// not), against the same program at another (never traced) as the floor.
func compare(src, level, sem, floorLevel, floorSem string, trace bool) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		a, b, err := atTwo(src, level, floorLevel)
		if err != nil {
			return nil, err
		}
		args := map[string]string{"n": strconv.Itoa(n)}
		run, fr := runner(a, sem, args, trace), runner(b, floorSem, args, false)
		return &work{
			run:   func() (int, error) { _, err := run(); return n, err },
			floor: func() error { _, err := fr(); return err },
		}, nil
	}
}

// dotFun is the dot product and the maximum of two inputs, folds that
// read the inputs and write nothing, and the sum of the prefix sums of
// one, a scan that writes its own array, for the rows whose inputs come
// from a data file (funmem-heap-inputs, imp-inputs).
const dotFun = `input (n : int) (xs : [n]) (ys : [n])
let (zero : int) = 0
let (lowest : int) = -9223372036854775808
let (prods : [n]) = kernel i <= n do
  let (x : int) = xs[i]
  let (y : int) = ys[i]
  let (p : int) = x * y
  in (p)
let (dot : int) =
  reduce (a : int) (b : int) = zero over prods do
    let (c : int) = a + b
    in (c)
let (max : int) =
  reduce (a : int) (b : int) = lowest over xs do
    let (ge : int) = a >= b
    let (c : int) =
      if ge
      then in (a)
      else in (b)
    in (c)
let (sums : [n]) =
  scan (a : int) (b : int) = zero over ys do
    let (c : int) = a + b
    in (c)
let (total : int) =
  reduce (a : int) (b : int) = zero over sums do
    let (c : int) = a + b
    in (c)
in (dot, max, total)
`

// atTwo is the FUN program src at level and at floorLevel (at).
func atTwo(src, level, floorLevel string) (a, b lang.Program, err error) {
	p, err := load(".fun", src)
	if err != nil {
		return nil, nil, err
	}
	if a, err = at(p, level); err != nil {
		return nil, nil, err
	}
	if b, err = at(p, floorLevel); err != nil {
		return nil, nil, err
	}
	return a, b, nil
}

// compareData is compare with the inputs read from a binary data file
// of two n-element int arrays (made by the seeded generator of arraysem
// dataset, in the temporary directory, removed when the size is
// measured): the program src at level under sem against it at
// floorLevel under floorSem, each reading the file.
func compareData(src, level, sem, floorLevel, floorSem string) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		a, b, err := atTwo(src, level, floorLevel)
		if err != nil {
			return nil, err
		}
		f, err := os.CreateTemp("", "arraysem-bench-inputs-*.in")
		if err != nil {
			return nil, err
		}
		file := f.Name()
		t := datafile.Type{Shape: []int64{int64(n)}, Prim: datafile.DefaultPrim(semantics.IntElem)}
		err = datafile.Generate(f, []datafile.Type{t, t}, 1, nil, true)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(file)
			return nil, err
		}
		args := map[string]string{datafile.DataArg: file}
		run, fr := runner(a, sem, args, false), runner(b, floorSem, args, false)
		return &work{
			run:   func() (int, error) { _, err := run(); return n, err },
			floor: func() error { _, err := fr(); return err },
			done:  func() { os.Remove(file) },
		}, nil
	}
}

// polyFun is a kernel whose body is a chain of scalar statements, for the
// lower levels' parallel kernels (jobs-funmem, jobs-imp): its work (16
// statements an iteration) is large beside its n results.
const polyFun = `input (n : int)
let (ys : [n]) = kernel i <= n do
  let (a : int) = i * 3 + 1
  let (b : int) = a * a - i
  let (c : int) = b % 1000 + a
  let (d : int) = c * c - b
  let (e : int) = d % 997 + c * 2
  let (f : int) = e * a - d
  let (g : int) = f % 991 + e
  let (h : int) = g * g - f
  let (j : int) = h % 983 + g * 3
  let (k : int) = j * b - h
  let (l : int) = k % 977 + j
  let (m : int) = l * l - k
  let (o : int) = m % 971 + l * 5
  let (p : int) = o * c - m
  let (q : int) = p % 967 + o
  let (r : int) = q * q % 1009
  in (r)
in (ys)
`

// levelJobs is the FUN program src compiled to level, run under sem with
// --jobs 2, against --jobs 1 (in process, through lang.RunOptions.Jobs,
// as run --jobs does); its input n is size(n), or n when size is nil.
func levelJobs(src, level, sem string, size func(int) int) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		p, err := load(".fun", src)
		if err != nil {
			return nil, err
		}
		a, err := at(p, level)
		if err != nil {
			return nil, err
		}
		k := n
		if size != nil {
			k = size(n)
		}
		args := map[string]string{"n": strconv.Itoa(k)}
		run := func(jobs int) error {
			o := lang.RunOptions{Semantics: sem, Args: args}
			o.Jobs = jobs
			_, err := a.Run(o)
			return err
		}
		return &work{
			run:   func() (int, error) { return n, run(2) },
			floor: func() error { return run(1) },
			note: func() string {
				return fmt.Sprintf("a plain Go loop gains %.2f× from the second core now (the machine's ceiling for this row)", secondCore())
			},
		}, nil
	}
}

// secondCore is what a second core gives a plain Go loop at this moment:
// the time of one goroutine over a fixed amount of independent integer
// additions (on data in the first-level cache) against two goroutines
// over half each, each the fastest of three runs. A machine whose two cores share one
// physical core, or another machine's load, gives less than 2×; the jobs
// rows cannot gain more than this.
func secondCore() float64 {
	const passes = 1 << 18
	runtime.GC() // no collection of the rows' garbage while it measures
	sum := func(buf []int64, passes int) int64 {
		var a, b, c, d int64
		for range passes {
			for j := 0; j+3 < len(buf); j += 4 {
				a, b, c, d = a+buf[j], b+buf[j+1], c+buf[j+2], d+buf[j+3]
			}
		}
		return a + b + c + d
	}
	timed := func(w int) time.Duration {
		sums := make([]int64, w*semantics.CacheLine) // each goroutine's own line
		t0 := time.Now()
		var wg sync.WaitGroup
		for k := range w {
			wg.Go(func() { sums[k*semantics.CacheLine] = sum(semantics.Apart(make([]int64, 1024)), passes/w) })
		}
		wg.Wait()
		d := time.Since(t0)
		for _, x := range sums {
			sink += x
		}
		return d
	}
	one, two := time.Duration(math.MaxInt64), time.Duration(math.MaxInt64)
	for range 3 {
		one, two = min(one, timed(1)), min(two, timed(2))
	}
	return float64(one) / float64(two)
}

// sumSquaresFun is the map–map–reduce pipeline: the sum of the
// squares of the even numbers of iota n. Unfused it makes three arrays of
// n words; fused it is one redomap over i <= n and makes none.
const sumSquaresFun = `input (n : int)
let (xs : [n]) = iota n
let (evens : [n]) = kernel i <= n do
  let (x : int) = xs[i]
  let (even : int) = x % 2 == 0
  let (y : int) = x * even
  in (y)
let (squares : [n]) = kernel i <= n do
  let (y : int) = evens[i]
  let (s : int) = y * y
  in (s)
let (zero : int) = 0
let (total : int) =
  reduce (a : int) (b : int) = zero over squares do
    let (c : int) = a + b
    in (c)
in (total)
`

// fusionRun is sumSquaresFun under FUN's big-step, fused (the program
// compiled to FUN by the registry: slicing and fusion) against unfused
// (the source) as the floor. Its note gives both runs' peak live words.
func fusionRun(_ *Options, n int) (*work, error) {
	p, err := load(".fun", sumSquaresFun)
	if err != nil {
		return nil, err
	}
	st, err := check.NewRegistry().Compile(p, p.Language().Name(), lang.Options{})
	if err != nil {
		return nil, err
	}
	fused := st[len(st)-1].Program
	args := map[string]string{"n": strconv.Itoa(n)}
	run, fr := runner(fused, "big", args, false), runner(p, "big", args, false)
	return &work{
		run:   func() (int, error) { _, err := run(); return n, err },
		floor: func() error { _, err := fr(); return err },
		note: func() string {
			peak := func(q lang.Program) string {
				o := lang.RunOptions{Semantics: "big", Args: args}
				o.Stats = &semantics.Stats{}
				r, err := q.Run(o)
				if err != nil || r.Stats == nil {
					return "?"
				}
				return strconv.FormatInt(r.Stats.PeakWords, 10)
			}
			return fmt.Sprintf("peak live words %s fused, %s unfused", peak(fused), peak(p))
		},
	}, nil
}

// The CUDA rows' programs, the integration programs: a scan of n
// elements whose n+1 results a reduce sums, and a reduce of n elements.
// The formats get n and n+1.
const (
	scanRemora   = "(define xs (scan-init{int | %[1]d [] []} + 0 (+ 1 iota{ | [%[1]d]})))\n(reduce-init{int | %[2]d [] []} + 0 xs)"
	reduceRemora = "(reduce-init{int | %[1]d [] []} + 0 (+ 1 iota{ | [%[1]d]}))"
)

// toCUDA compiles a Remora row's program to CUDA as compile --to cuda
// does (the optimising passes on), returning the stages.
func toCUDA(format string, n int) ([]lang.Stage, error) {
	p, err := load(".remora", fmt.Sprintf(format, n, n+1))
	if err != nil {
		return nil, err
	}
	return check.NewRegistry().Compile(p, cuda.LanguageName, lang.Options{})
}

// simRun is a Remora program compiled to CUDA and run in gpu-sim; with
// impFloor, the floor is its IMP stage under IMP's big-step.
// sideRun is side-by-side of a Remora row's program at size n, as the
// command runs it (its default fuel and --max-memory): every row filled,
// or marked not run with its bound; a disagreement or a failed table is
// the run's error.
func sideRun(format string) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		p, err := load(".remora", fmt.Sprintf(format, n, n+1))
		if err != nil {
			return nil, err
		}
		reg := check.NewRegistry()
		return &work{run: func() (int, error) {
			_, verdict := check.SideBySideWith(reg, p, nil, check.SideOptions{})
			return n, verdict
		}}, nil
	}
}

func simRun(format string, impFloor bool) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		st, err := toCUDA(format, n)
		if err != nil {
			return nil, err
		}
		run := runner(st[len(st)-1].Program, "sim", nil, false)
		w := &work{run: func() (int, error) { _, err := run(); return n, err }}
		if impFloor {
			// The IMP stage is EmitCUDA's input.
			imp := st[len(st)-2].Program
			fr := runner(imp, "big", nil, false)
			w.floor = func() error { _, err := fr(); return err }
		}
		return w, nil
	}
}

// hostRun is a Remora program compiled to CUDA, built for the host with
// the sanitizers (cuda.HostCommand, not timed) and run at the default
// block size, its output checked against the Remora big-step's.
func hostRun(format string) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		st, err := toCUDA(format, n)
		if err != nil {
			return nil, err
		}
		want, err := st[0].Program.Run(lang.RunOptions{Semantics: "big"})
		if err != nil {
			return nil, err
		}
		cu := st[len(st)-1].Program
		dir, err := os.MkdirTemp("", "arraysem-bench")
		if err != nil {
			return nil, err
		}
		bin, err := cuda.Build(cuda.HostCommand, cu.Language().Print(cu.Syntax()), dir, "host", "")
		if err != nil {
			os.RemoveAll(dir)
			return nil, err
		}
		lines := strings.Join(want.Lines, "\n") + "\n"
		return &work{
			run: func() (int, error) {
				got := cuda.Exec(bin, nil, 10*time.Minute)
				if got.Status != 0 || got.Stdout != lines {
					return 0, fmt.Errorf("the host build: exit %d, %q, %s (want %q)", got.Status, got.Stdout, strings.TrimSpace(got.Stderr), lines)
				}
				return n, nil
			},
			done: func() { os.RemoveAll(dir) },
		}, nil
	}
}

// dataRead reads a data file of one [n]i64 array in Futhark's binary
// format, made by datafile.Generate as arraysem dataset makes it, as
// --data reads it (datafile.ReadFile); the floor reads the file's bytes
// alone. The file, made once per size in the temporary directory, is
// removed when the size is measured.
func dataRead(_ *Options, n int) (*work, error) {
	file := filepath.Join(os.TempDir(), fmt.Sprintf("arraysem-bench-data-%d.in", n))
	want := int64(7 + 8 + 8*n)
	if st, err := os.Stat(file); err != nil || st.Size() != want {
		f, err := os.Create(file)
		if err != nil {
			return nil, err
		}
		err = datafile.Generate(f, []datafile.Type{{Shape: []int64{int64(n)}, Prim: datafile.DefaultPrim(semantics.IntElem)}}, 1, nil, true)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(file)
			return nil, err
		}
	}
	return &work{
		run: func() (int, error) {
			vs, err := datafile.ReadFile(file)
			if err != nil {
				return 0, err
			}
			if len(vs) != 1 || len(vs[0].Data) != n {
				return 0, fmt.Errorf("%s: read %d values, want one of %d elements", file, len(vs), n)
			}
			sink += vs[0].Data[n-1]
			return n, nil
		},
		floor: func() error {
			b, err := os.ReadFile(file)
			sink += int64(len(b))
			return err
		},
		done: func() { os.Remove(file) },
	}, nil
}

// campaign is a property of arraysem prove over n generated programs.
func campaign(property string) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		var failed string
		return &work{run: func() (int, error) {
			rs, err := proofstests.Prove(proofstests.ProveOptions{Property: property, N: n, Seed: 1, Shard: 1, Shards: 1})
			if err != nil {
				return 0, err
			}
			for _, r := range rs {
				if len(r.Failures) > 0 {
					// A counterexample is the campaign's business, not
					// the table's: the n programs still ran, and the
					// table notes it.
					failed = fmt.Sprintf("%d of %d cases failed (arraysem prove --property %s --n %d): %s", len(r.Failures), r.Cases, property, n, strings.SplitN(r.Failures[0].Message, "\n", 2)[0])
				}
			}
			return n, nil
		}, note: func() string { return failed }}, nil
	}
}

// gpuRow is a traffic row: a benchmark program of examples/cuda/bench
// compiled to CUDA as gpu-check compiles it (--expand, the GPU layout)
// and run in gpu-sim with its statistics, on seeded inputs made by args at
// size n. Its figure is the sectors moved over the program's minimum
// (gpu-sim counts, the same on any machine); the row meets its target
// when that is at most 2, the loads' sectors per request are at most
// 1.25 times the ideal, no kernel allocates, and, when launches is not
// 0, the run launches at most that many kernels.
func gpuRow(name, file, what string, launches int64, sizes, quick []int, args func(n int) map[string]string) *Row {
	target := "≤ 2× min sectors, loads ≤ 1.25× ideal, no alloc in kernels"
	if launches > 0 {
		target += fmt.Sprintf(", ≤ %d launches", launches)
	}
	return &Row{Name: name, Workload: "gpu-sim traffic: " + what + " (" + file + ")", Unit: "ratio",
		Target: target, gpu: &gpuTarget{ratio: 2, coalescing: 1.25, launches: launches},
		sizes: sizes, quick: quick, budget: 20 * time.Second, quickBudget: 5 * time.Second,
		setup: gpuTraffic(file, args)}
}

// gpuTarget is a traffic row's target.
type gpuTarget struct {
	ratio, coalescing float64 // moved / minimum, and load sectors / ideal, at most
	launches          int64   // at most this many launches (0: any)
}

// Traffic is what gpu-sim counted in one run of a traffic row.
type Traffic struct {
	Moved          int64   `json:"moved_sectors"`   // distinct sectors each launch loaded and stored, summed
	Minimum        int64   `json:"minimum_sectors"` // inputs read once, results written once
	RequestSectors int64   `json:"request_sectors"` // the requests' sectors, summed (loads and stores)
	Coalescing     float64 `json:"load_coalescing"` // load sectors over their ideal
	Launches       int64   `json:"launches"`
	Allocs         int64   `json:"allocs_in_kernels"`
	Threads        int64   `json:"threads"`
	Idle           int64   `json:"idle_threads"`
}

// Ratio is Moved over Minimum.
func (t *Traffic) Ratio() float64 {
	if t.Minimum == 0 {
		return math.Inf(1)
	}
	return float64(t.Moved) / float64(t.Minimum)
}

// gpuTraffic compiles examples/cuda/bench/FILE to CUDA and runs it in
// gpu-sim with its statistics.
func gpuTraffic(file string, args func(n int) map[string]string) func(*Options, int) (*work, error) {
	return func(_ *Options, n int) (*work, error) {
		src, err := examples.Bench.ReadFile("cuda/bench/" + file)
		if err != nil {
			return nil, err
		}
		return trafficOf(file, string(src), args(n))
	}
}

// trafficOf is the work of a traffic row: the program (file names its
// language) compiled to CUDA with MemoryExpand in the GPU layout, run in
// gpu-sim on the inputs with its statistics.
func trafficOf(file, src string, args map[string]string) (*work, error) {
	reg := check.NewRegistry()
	p, err := check.Load(reg, "examples/cuda/bench/"+file, src, check.Options{})
	if err != nil {
		return nil, err
	}
	st, err := reg.Compile(p, cuda.LanguageName, lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, "gpu"))
	if err != nil {
		return nil, err
	}
	prog, err := gpusim.Parse(file+".cu", st[len(st)-1].Text())
	if err != nil {
		return nil, err
	}
	var in []string
	for k, v := range args {
		in = append(in, k+"="+v)
	}
	sort.Strings(in)
	var last *gpusim.Stats
	return &work{
		run: func() (int, error) {
			_, stats, err := gpusim.Run(prog, in, gpusim.Options{Stats: true})
			last = stats
			return 1, err
		},
		traffic: func() *Traffic {
			if last == nil {
				return nil
			}
			t := last.Total()
			return &Traffic{Moved: last.Moved(), Minimum: last.Minimum(), RequestSectors: t.LoadSectors + t.StoreSectors,
				Coalescing: last.Coalescing(false), Launches: t.Launches, Allocs: t.Allocs, Threads: t.Threads, Idle: t.Idle}
		},
	}, nil
}

// literal prints n seeded small ints (-9 … 9) as a vector literal.
func literal(r *rand.Rand, n int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(r.Intn(19) - 9))
	}
	return b.String() + "]"
}

// matLiteral prints a seeded rows×cols matrix literal.
func matLiteral(r *rand.Rand, rows, cols int) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := 0; i < rows; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(literal(r, cols))
	}
	return b.String() + "]"
}

// vector is the input name, a vector of n elements.
func vector(name string) func(int) map[string]string {
	return func(n int) map[string]string {
		return map[string]string{name: literal(rand.New(rand.NewSource(1)), n)}
	}
}

// matrix is the input name, an n×cols matrix.
func matrix(name string, cols int) func(int) map[string]string {
	return func(n int) map[string]string {
		return map[string]string{name: matLiteral(rand.New(rand.NewSource(1)), n, cols)}
	}
}

// matmulInputs are the matrix product at n rows: a is n×2000, b
// 2000×5.
func matmulInputs(n int) map[string]string {
	r := rand.New(rand.NewSource(1))
	return map[string]string{"a": matLiteral(r, n, 2000), "b": matLiteral(r, 2000, 5)}
}

// matmulRemora is the matrix product in typed Remora (the shape
// of examples/cuda/bench/matmul.remora), of an n×2000 and a 2000×5
// matrix of iotas; the format gets n and 2000 n.
const matmulRemora = `(define (dot{ | n @m} [xs [int n]] [ys [int n @m]])
  (reduce-init{int | n @m []} + 0 (* xs ys)))
(define (m*{ | n m} [x [int n]] [y [int n m]]) (dot{ | n [m]} x y))
(m*{ | 2000 5} (reshape [%[1]d 2000] iota{ | [%[2]d]}) (reshape [2000 5] iota{ | [10000]}))`

// gpuRemora is a traffic row of a typed Remora program at size n (the
// format gets n and 2000 n), compiled to CUDA as gpu-check compiles it.
func gpuRemora(format string) func(*Options, int) (*work, error) {
	return func(o *Options, n int) (*work, error) {
		return trafficOf("matmul.remora", fmt.Sprintf(format, n, 2000*n), nil)
	}
}
