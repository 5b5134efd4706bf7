package bench

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"
)

// One Go benchmark per row of the issue "Performance", on the workloads
// that `arraysem bench` measures (the same Row.setup), at the first sizes
// of the row's ladder, one sub-benchmark per size, so that a growth
// exponent can be read off (benchstat, or log time against log n). Each
// reports the row's unit:
//
//	steps/s       Remora small-steps (the number of transitions per second)
//	ns/iteration  FUN kernel iterations, λ cells, reduced items
//	ratio         the run's time over its floor's (a Go loop, or the run it
//	              is compared with), both timed in the same iterations;
//	              for the jobs row (in the arraysem package, which has
//	              the command) the speed-up, --jobs 1 over --jobs 2; for
//	              the gpu- rows the sectors gpu-sim counted moving over
//	              the program's minimum
//	programs/s    a campaign's generated programs per second
//
// go test -run '^$' -bench . ./internal/bench/ runs them all (minutes:
// the scan rows are cubic today); -bench 'Row/SmallMap' one. They time
// wall-clock, as go test does; on a shared machine prefer the bench
// command's CPU time, or -count and benchstat.
//
// Related benchmarks that already existed: remora's BenchmarkLambdaLifted
// (the lambda-map row at 10^5, in elems/s), BenchmarkReduceIota
// (reduce-init of iota without the + 1), fun's BenchmarkKernelBig (a
// nested 300×300 kernel), semantics' BenchmarkRaceTracking (the tracker
// alone, accesses/s).

func BenchmarkRowSmallMap(b *testing.B)          { benchRow(b, "small-map") }
func BenchmarkRowSmallReduce(b *testing.B)       { benchRow(b, "small-reduce") }
func BenchmarkRowSmallScan(b *testing.B)         { benchRow(b, "small-scan") }
func BenchmarkRowSmallScan1e6(b *testing.B)      { benchRow(b, "small-scan-1e6") }
func BenchmarkRowFunmemHeapReduce(b *testing.B)  { benchRow(b, "funmem-heap-reduce") }
func BenchmarkRowFunmemHeapInputs(b *testing.B)  { benchRow(b, "funmem-heap-inputs") }
func BenchmarkRowImpInputs(b *testing.B)         { benchRow(b, "imp-inputs") }
func BenchmarkRowSmallScanDynamic(b *testing.B)  { benchRow(b, "small-scan-dynamic") }
func BenchmarkRowFunKernel(b *testing.B)         { benchRow(b, "fun-kernel") }
func BenchmarkRowFunmemHeapFlat(b *testing.B)    { benchRow(b, "funmem-heap-flat") }
func BenchmarkRowFunmemHeapNested(b *testing.B)  { benchRow(b, "funmem-heap-nested") }
func BenchmarkRowImpFlat(b *testing.B)           { benchRow(b, "imp-flat") }
func BenchmarkRowImpNested(b *testing.B)         { benchRow(b, "imp-nested") }
func BenchmarkRowTraceFunmem(b *testing.B)       { benchRow(b, "trace-funmem") }
func BenchmarkRowTraceImp(b *testing.B)          { benchRow(b, "trace-imp") }
func BenchmarkRowReduce1e8(b *testing.B)         { benchRow(b, "reduce-1e8") }
func BenchmarkRowDynamicReduce(b *testing.B)     { benchRow(b, "dynamic-reduce") }
func BenchmarkRowLambdaMap(b *testing.B)         { benchRow(b, "lambda-map") }
func BenchmarkRowJobs(b *testing.B)              { benchRow(b, "jobs") }
func BenchmarkRowJobsFunmem(b *testing.B)        { benchRow(b, "jobs-funmem") }
func BenchmarkRowJobsImp(b *testing.B)           { benchRow(b, "jobs-imp") }
func BenchmarkRowFusion(b *testing.B)            { benchRow(b, "fusion") }
func BenchmarkRowGpuSimScan(b *testing.B)        { benchRow(b, "gpu-sim-scan") }
func BenchmarkRowGpuSimReduce(b *testing.B)      { benchRow(b, "gpu-sim-reduce") }
func BenchmarkRowGpuSimReduce1e8(b *testing.B)   { benchRow(b, "gpu-sim-reduce-1e8") }
func BenchmarkRowSideBySideScan(b *testing.B)    { benchRow(b, "side-by-side-scan") }
func BenchmarkRowHostScan(b *testing.B)          { benchRow(b, "host-scan") }
func BenchmarkRowGpuMap(b *testing.B)            { benchRow(b, "gpu-map") }
func BenchmarkRowGpuMapMapReduce(b *testing.B)   { benchRow(b, "gpu-map-map-reduce") }
func BenchmarkRowGpuSumRows(b *testing.B)        { benchRow(b, "gpu-sum-rows") }
func BenchmarkRowGpuMatmul(b *testing.B)         { benchRow(b, "gpu-matmul") }
func BenchmarkRowGpuMatmulRemora(b *testing.B)   { benchRow(b, "gpu-matmul-remora") }
func BenchmarkRowGpuScanReduce(b *testing.B)     { benchRow(b, "gpu-scan-reduce") }
func BenchmarkRowGpuStencil(b *testing.B)        { benchRow(b, "gpu-stencil") }
func BenchmarkRowGpuTranspose(b *testing.B)      { benchRow(b, "gpu-transpose") }
func BenchmarkRowGpuNestedReduce(b *testing.B)   { benchRow(b, "gpu-nested-reduce") }
func BenchmarkRowProveFunFunmemImp(b *testing.B) { benchRow(b, "prove-fun-funmem-imp") }
func BenchmarkRowProvePassesValid(b *testing.B)  { benchRow(b, "prove-passes-valid") }
func BenchmarkRowDataRead(b *testing.B)          { benchRow(b, "data-read") }

// TestEveryRowHasABenchmark keeps the list above in step with Rows: each
// row's name is benchRow'd in this file.
func TestEveryRowHasABenchmark(t *testing.T) {
	src, err := os.ReadFile("rows_bench_test.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rows {
		if !strings.Contains(string(src), fmt.Sprintf("{ benchRow(b, %q) }", r.Name)) {
			t.Errorf("row %s has no Go benchmark", r.Name)
		}
	}
}

func benchRow(b *testing.B, name string) {
	r, ok := RowNamed(name)
	if !ok {
		b.Fatalf("no row %s", name)
	}
	benchSizes(b, r, &Options{})
}

// benchSizes runs a row's benchmark: a sub-benchmark per size, the first
// three of its ladder.
func benchSizes(b *testing.B, r *Row, o *Options) {
	sizes := r.sizes[:min(3, len(r.sizes))]
	for _, n := range sizes {
		b.Run(fmt.Sprintf("n=%s", r.sizeCell(n)), func(b *testing.B) {
			w, err := r.setup(o, n)
			if err != nil {
				b.Skip(err)
			}
			run, floor := w.run, w.floor
			b.ReportAllocs()
			var ran, floored time.Duration
			steps := 0
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				t0 := time.Now()
				k, err := run()
				ran += time.Since(t0)
				if err != nil {
					b.Fatal(err)
				}
				steps += k
				if floor != nil {
					b.StopTimer()
					t1 := time.Now()
					if err := floor(); err != nil {
						b.Fatal(err)
					}
					floored += time.Since(t1)
					b.StartTimer()
				}
			}
			switch r.Unit {
			case "steps/s", "programs/s":
				b.ReportMetric(float64(steps)/ran.Seconds(), r.Unit)
			case "ns/iteration":
				b.ReportMetric(float64(ran.Nanoseconds())/float64(b.N)/r.workOf(n), r.Unit)
			case "ratio":
				if w.traffic != nil {
					// A traffic row's figure is gpu-sim's count.
					b.ReportMetric(w.traffic().Ratio(), r.Unit)
					break
				}
				ratio := ran.Seconds() / floored.Seconds()
				if r.targetSpeedup > 0 {
					ratio = 1 / ratio
				}
				b.ReportMetric(ratio, r.Unit)
			}
		})
	}
}

// TestPeakExtrapolation: a peak that did not grow between the sizes
// measured is not scaled up to the target's size; one that grew linearly
// is, and fails a target it would pass unscaled.
func TestPeakExtrapolation(t *testing.T) {
	r := &Row{Name: "r", Unit: "ratio", targetPeak: 64 << 20, targetN: 100_000_000, floorName: "Go loop"}
	for _, c := range []struct {
		peaks []uint64
		met   string
	}{
		{[]uint64{1 << 20, 1 << 20}, "yes (est.)"},
		{[]uint64{1 << 20, 10 << 20}, "no (est.)"},
	} {
		res := Result{Samples: []sample{
			{N: 100_000, CPU: 1, FloorCPU: 1, Peak: c.peaks[0]},
			{N: 1_000_000, CPU: 1, FloorCPU: 1, Peak: c.peaks[1]},
		}}
		r.judge(&Options{Clock: "cpu"}, &res)
		if res.Met != c.met {
			t.Errorf("peaks %v: met %q, want %q (notes %s)", c.peaks, res.Met, c.met, strings.Join(res.Notes, "; "))
		}
	}
}
