// Package bench is the measuring instrument of the issue "Performance":
// each workload the issue lists is a Row, measured at a ladder of sizes
// through the public APIs (the registry in check, proofs-tests' Prove),
// beside its floor (a plain Go loop over the same data, or the run it is
// compared with) and its target. `arraysem bench` prints the table;
// rows_bench_test.go has one Go benchmark per row, on the same workloads.
//
// Times are process CPU time by default (user and system, every thread:
// the collector's work counts; with the child processes a row waits
// for), the median of up to three runs: on a
// shared machine wall time also counts the wait for a core, which on the
// project's busy 2-core machine was ten times the work. --clock wall
// measures wall time instead; the --jobs row is always on the wall clock,
// since a speed-up from a second core shows only there.
package bench

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/semantics"
)

// Options configure a run of the table.
type Options struct {
	Rows  []string // the rows to run, by name; none for all
	Quick bool     // small sizes and budgets: the whole table in well under a minute
	Clock string   // "cpu" (default) or "wall"
	// Progress, when set, is told as each row starts (the i-th of n).
	Progress func(row string, i, n int)
}

// Result is one row's measurements and the table's cells for it.
type Result struct {
	Row      string   `json:"row"`
	Workload string   `json:"workload"`
	Target   string   `json:"target"`
	Unit     string   `json:"unit"`
	Samples  []sample `json:"samples"`
	Growth   *float64 `json:"growth,omitempty"` // the fitted exponent, over the sizes measured
	Figure   *float64 `json:"figure,omitempty"` // the row's figure in Unit (steps/s, ns/iteration, ratio, programs/s)
	// The cells as printed.
	Size, Measured, GrowthCell, Floor, Ratio, Met string
	Notes                                         []string `json:"notes,omitempty"`
}

// Report is what --json writes.
type Report struct {
	Date    string   `json:"date"`
	Machine Machine  `json:"machine"`
	Clock   string   `json:"clock"`
	Quick   bool     `json:"quick"`
	Rows    []Result `json:"rows"`
}

// Machine describes where the table was measured.
type Machine struct {
	GOOS, GOARCH string
	NumCPU       int
	GOMAXPROCS   int
	GoVersion    string
	LoadAverage  string `json:",omitempty"` // /proc/loadavg at the start, where there is one
}

// ThisMachine describes the machine the process runs on.
func ThisMachine() Machine {
	m := Machine{GOOS: runtime.GOOS, GOARCH: runtime.GOARCH, NumCPU: runtime.NumCPU(), GOMAXPROCS: runtime.GOMAXPROCS(0), GoVersion: runtime.Version()}
	if b, err := os.ReadFile("/proc/loadavg"); err == nil {
		if f := strings.Fields(string(b)); len(f) >= 3 {
			m.LoadAverage = strings.Join(f[:3], " ")
		}
	}
	return m
}

// Run measures the rows opts names (all by default) and returns their
// results, in the table's order.
func Run(opts Options) (*Report, error) {
	if opts.Clock == "" {
		opts.Clock = "cpu"
	}
	if opts.Clock != "cpu" && opts.Clock != "wall" {
		return nil, fmt.Errorf("--clock %q: want cpu or wall", opts.Clock)
	}
	if opts.Clock == "cpu" && !haveCPUClock {
		opts.Clock = "wall"
	}
	rows := Rows
	if len(opts.Rows) > 0 {
		rows = nil
		for _, name := range opts.Rows {
			r, ok := RowNamed(name)
			if !ok {
				return nil, fmt.Errorf("no row %q (one of %s)", name, strings.Join(RowNames(), ", "))
			}
			rows = append(rows, r)
		}
	}
	rep := &Report{Date: time.Now().UTC().Format(time.RFC3339), Machine: ThisMachine(), Clock: opts.Clock, Quick: opts.Quick}
	for i, r := range rows {
		if opts.Progress != nil {
			opts.Progress(r.Name, i+1, len(rows))
		}
		rep.Rows = append(rep.Rows, r.measure(&opts))
	}
	return rep, nil
}

// measure climbs the row's ladder of sizes until it ends or the next size
// would overrun the row's budget (predicted from the last size and the
// growth so far), and fills in the table's cells.
func (r *Row) measure(o *Options) Result {
	res := Result{Row: r.Name, Workload: r.Workload, Target: r.Target, Unit: r.Unit}
	sizes, budget := r.sizes, r.budget
	if o.Quick {
		sizes, budget = r.quick, r.quickBudget
	}
	start := time.Now()
	var errNote string
	for i, n := range sizes {
		if i > 0 {
			last := res.Samples[len(res.Samples)-1]
			// The growth so far, on CPU time: wall time on a loaded
			// machine jumps with the load, and one jump would stop a row
			// for nothing. Clamped to [1, 4], the range of today's rows.
			g := 1.0
			if len(res.Samples) >= 2 {
				if f := Growth(r.work(res.Samples), cpuTimes(res.Samples)); f > g {
					g = min(f, 4)
				}
			}
			predicted := (last.Wall + last.FloorWall) * math.Pow(r.workOf(n)/r.workOf(last.N), g)
			if left := budget - time.Since(start); time.Duration(predicted*float64(time.Second)) > left {
				res.Notes = append(res.Notes, fmt.Sprintf("stopped before n=%s: one run would take about %s, %s of the row's %s budget left",
					r.sizeCell(n), secs(predicted), secs(max(0, left.Seconds())), secs(budget.Seconds())))
				break
			}
		}
		s, err := r.sample(o, n, start, budget)
		if err != nil {
			errNote = fmt.Sprintf("n=%s: %v", r.sizeCell(n), err)
			break
		}
		res.Samples = append(res.Samples, s)
		if s.Note != "" {
			res.Notes = append(res.Notes, fmt.Sprintf("n=%s: %s", r.sizeCell(n), s.Note))
		}
	}
	if errNote != "" {
		res.Notes = append(res.Notes, errNote)
	}
	if len(res.Samples) == 0 {
		res.Size, res.Measured, res.GrowthCell, res.Floor, res.Ratio, res.Met = "-", "error", "-", "-", "-", "-"
		return res
	}
	r.judge(o, &res)
	return res
}

// sample measures the row at size n: up to three runs, each followed by
// its floor (interleaved, so that a change in the machine's load falls on
// both), fewer when the runs are long.
func (r *Row) sample(o *Options, n int, rowStart time.Time, budget time.Duration) (sample, error) {
	w, err := r.setup(o, n)
	if err != nil {
		return sample{}, err
	}
	if w.done != nil {
		defer w.done()
	}
	var walls, cpus, fwalls, fcpus []float64
	s := sample{N: n}
	sizeStart := time.Now()
	for k := 0; k < 3; k++ {
		m, err := measureOnce(w.run, r.samplesPeak())
		if err != nil {
			return sample{}, err
		}
		walls, cpus = append(walls, m.wall), append(cpus, m.cpu)
		s.Steps, s.Alloc, s.Peak = m.steps, max(s.Alloc, m.alloc), max(s.Peak, m.peak)
		if w.floor != nil {
			f, err := measureOnce(func() (int, error) { return 0, w.floor() }, r.samplesPeak())
			if err != nil {
				return sample{}, fmt.Errorf("floor: %w", err)
			}
			fwalls, fcpus = append(fwalls, f.wall), append(fcpus, f.cpu)
		}
		// A fourth of the budget for one size's repetitions; the first
		// run always counts.
		if spent := time.Since(sizeStart); spent > budget/4 || time.Since(rowStart) > budget {
			break
		}
	}
	if w.traffic != nil {
		s.Traffic = w.traffic()
	}
	if w.note != nil {
		if note := w.note(); note != "" {
			s.Note = note
		}
	}
	s.Runs = len(walls)
	s.Wall, s.CPU = median(walls), median(cpus)
	if w.floor != nil {
		s.FloorWall, s.FloorCPU = median(fwalls), median(fcpus)
	}
	return s, nil
}

// samplesPeak says whether the row's runs are watched for their peak
// heap: all but the parallel speed-ups (measureOnce), which show none.
func (r *Row) samplesPeak() bool { return r.targetSpeedup == 0 || !r.wall || r.targetPeak > 0 }

// t is a sample's time on the row's clock.
func (r *Row) t(o *Options, s sample) float64 {
	if r.wall || o.Clock == "wall" {
		return s.Wall
	}
	return s.CPU
}

// ft is a sample's floor time on the row's clock.
func (r *Row) ft(o *Options, s sample) float64 {
	if r.wall || o.Clock == "wall" {
		return s.FloorWall
	}
	return s.FloorCPU
}

// workOf is the work at size n: n, or n² for the nested rows.
func (r *Row) workOf(n int) float64 {
	if r.square {
		return float64(n) * float64(n)
	}
	return float64(n)
}

// work is the samples' sizes as amounts of work, for the growth fit.
func (r *Row) work(ss []sample) []int {
	out := make([]int, len(ss))
	for i, s := range ss {
		out[i] = int(r.workOf(s.N))
	}
	return out
}

func cpuTimes(ss []sample) []float64 {
	out := make([]float64, len(ss))
	for i, s := range ss {
		out[i] = s.CPU
	}
	return out
}

// judge computes the row's figure, growth and verdict from its samples,
// at the largest size measured, and writes the cells. A target stated at
// a size the row did not reach is judged on an estimate, extrapolated
// with the fitted growth, and says so.
func (r *Row) judge(o *Options, res *Result) {
	last := res.Samples[len(res.Samples)-1]
	t, ft := r.t(o, last), r.ft(o, last)
	res.Size = r.sizeCell(last.N)
	g := math.NaN()
	if r.growth && len(res.Samples) >= 2 {
		ts := make([]float64, len(res.Samples))
		for i, s := range res.Samples {
			ts[i] = r.t(o, s)
		}
		g = Growth(r.work(res.Samples), ts)
	}
	res.GrowthCell = "-"
	if !math.IsNaN(g) {
		res.Growth = &g
		res.GrowthCell = fmt.Sprintf("n^%.2f", g)
	}
	res.Floor, res.Ratio = "-", "-"
	met, est := true, false
	var figure float64
	switch {
	case r.targetRate > 0 || r.unitName == "steps":
		figure = float64(last.Steps) / t
		res.Measured = fmt.Sprintf("%s %s/s (%s)", si(figure), r.unitName, secs(t))
		if r.targetRate > 0 {
			met = met && figure >= r.targetRate
		}
	case r.unitName != "":
		figure = t / r.workOf(last.N) * 1e9
		res.Measured = fmt.Sprintf("%s (%s/%s)", secs(t), nanos(figure), r.unitName)
	default:
		res.Measured = secs(t)
	}
	if r.targetPeak > 0 || last.Peak > 64<<20 {
		res.Measured += ", peak " + semantics.Bytes(int64(last.Peak))
	}
	if r.targetAlloc > 0 {
		per := float64(last.Alloc) / r.workOf(last.N)
		res.Measured += fmt.Sprintf(", %.1f B/%s allocated", per, r.unitName)
		met = met && per <= r.targetAlloc
	}
	if last.FloorWall > 0 || last.FloorCPU > 0 {
		res.Floor = r.floorName + " " + secs(ft)
		ratio := t / ft
		if r.targetSpeedup > 0 {
			ratio = ft / t
		}
		res.Ratio = fmt.Sprintf("%.1f×", ratio)
		if r.Unit == "ratio" {
			figure = ratio
		}
		switch {
		case r.targetRatio > 0:
			met = met && ratio <= r.targetRatio
		case r.targetSpeedup > 0:
			met = met && ratio >= r.targetSpeedup
		}
	}
	if r.gpu != nil {
		met = r.judgeTraffic(last.Traffic, res, &figure)
	}
	res.Figure = &figure
	if r.targetTime > 0 {
		at := t
		if last.N != r.targetN {
			at, est = extrapolate(t, r.workOf(last.N), r.workOf(r.targetN), g), true
			res.Notes = append(res.Notes, fmt.Sprintf("at n=%s: about %s (extrapolated with n^%.2f)", r.sizeCell(r.targetN), secs(at), growthOr1(g)))
		}
		met = met && at <= r.targetTime
	}
	if r.targetPeak > 0 {
		peak := float64(last.Peak)
		if last.N != r.targetN {
			// Memory is extrapolated with its own growth over the sizes
			// measured, clamped to [0, 1]: memory that grows with n (what
			// the row's target forbids) linearly, memory that did not (a
			// streamed reduction's buffers) as it is. One size: linearly.
			peaks := make([]float64, len(res.Samples))
			for i, s := range res.Samples {
				peaks[i] = float64(s.Peak)
			}
			gm := min(max(growthOr1(Growth(r.work(res.Samples), peaks)), 0), 1)
			peak, est = peak*math.Pow(r.workOf(r.targetN)/r.workOf(last.N), gm), true
			res.Notes = append(res.Notes, fmt.Sprintf("peak at n=%s: about %s (extrapolated with n^%.2f, the peak's growth)", r.sizeCell(r.targetN), semantics.Bytes(int64(peak)), gm))
		}
		met = met && peak <= float64(r.targetPeak)
	}
	if r.maxGrowth > 0 && !math.IsNaN(g) {
		met = met && g <= r.maxGrowth
	}
	res.Met = map[bool]string{true: "yes", false: "no"}[met]
	if est {
		res.Met += " (est.)"
	}
}

// judgeTraffic is a traffic row's figure (sectors moved over the minimum),
// cells and verdict, from what gpu-sim counted.
func (r *Row) judgeTraffic(t *Traffic, res *Result, figure *float64) bool {
	if t == nil {
		res.Measured = "no counts"
		return false
	}
	*figure = t.Ratio()
	res.Measured = fmt.Sprintf("%d sectors moved (%d in requests), loads %.2f× ideal, %d launches, %d allocs in kernels, %d of %d threads idle",
		t.Moved, t.RequestSectors, t.Coalescing, t.Launches, t.Allocs, t.Idle, t.Threads)
	res.Floor = fmt.Sprintf("minimum %d sectors", t.Minimum)
	res.Ratio = fmt.Sprintf("%.2f×", *figure)
	met := *figure <= r.gpu.ratio && t.Coalescing <= r.gpu.coalescing && t.Allocs == 0
	if r.gpu.launches > 0 {
		met = met && t.Launches <= r.gpu.launches
	}
	return met
}

// extrapolate scales a time t at work w to work w2 with exponent g (1 when
// there is no fit).
func extrapolate(t, w, w2, g float64) float64 {
	return t * math.Pow(w2/w, growthOr1(g))
}

func growthOr1(g float64) float64 {
	if math.IsNaN(g) {
		return 1
	}
	return g
}

// sizeCell prints a size: 10^k for powers of ten from 10^4, n×n for the
// nested rows.
func (r *Row) sizeCell(n int) string {
	s := strconv.Itoa(n)
	if n >= 10000 && strings.Trim(s[1:], "0") == "" && s[0] == '1' {
		s = fmt.Sprintf("10^%d", len(s)-1)
	}
	if r.square {
		return s + "×" + s
	}
	return s
}

// secs prints seconds with three significant digits and a unit.
func secs(s float64) string {
	switch {
	case s >= 3600:
		return fmt.Sprintf("%.1f h", s/3600)
	case s >= 60:
		return fmt.Sprintf("%.1f min", s/60)
	case s >= 1:
		return fmt.Sprintf("%.2f s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	default:
		return fmt.Sprintf("%.3g µs", s*1e6)
	}
}

// nanos prints nanoseconds.
func nanos(ns float64) string {
	if ns >= 1e3 {
		return fmt.Sprintf("%.3g µs", ns/1e3)
	}
	return fmt.Sprintf("%.3g ns", ns)
}

// si prints a rate with k or M.
func si(x float64) string {
	switch {
	case x >= 1e6:
		return fmt.Sprintf("%.3g M", x/1e6)
	case x >= 1e3:
		return fmt.Sprintf("%.3g k", x/1e3)
	default:
		return fmt.Sprintf("%.3g", x)
	}
}

// Header is the table's first row.
var Header = []string{"row", "workload", "n", "measured", "growth", "floor", "ratio", "target", "met"}

// Print prints the report: a line on how it was measured, the table, and
// the rows' notes.
func Print(w io.Writer, rep *Report) {
	m := rep.Machine
	clock := "process CPU time (--clock wall for wall time)"
	if rep.Clock == "wall" {
		clock = "wall time"
	}
	fmt.Fprintf(w, "%s; %d cores (GOMAXPROCS %d), %s/%s, %s", rep.Date, m.NumCPU, m.GOMAXPROCS, m.GOOS, m.GOARCH, m.GoVersion)
	if m.LoadAverage != "" {
		fmt.Fprintf(w, ", load average %s", m.LoadAverage)
	}
	fmt.Fprintf(w, "\ntimes: %s, median of up to 3 runs at the largest n measured", clock)
	if rep.Quick {
		fmt.Fprint(w, "; --quick: small sizes, not the targets' sizes")
	}
	fmt.Fprint(w, "\n\n")
	rows := [][]string{Header}
	for _, r := range rep.Rows {
		rows = append(rows, []string{r.Row, r.Workload, r.Size, r.Measured, r.GrowthCell, r.Floor, r.Ratio, r.Target, r.Met})
	}
	table.Print(w, rows)
	first := true
	for _, r := range rep.Rows {
		for _, n := range r.Notes {
			if first {
				fmt.Fprintln(w)
				first = false
			}
			fmt.Fprintf(w, "%s: %s\n", r.Row, n)
		}
	}
}

// WriteJSON writes the report as indented JSON.
func WriteJSON(w io.Writer, rep *Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
