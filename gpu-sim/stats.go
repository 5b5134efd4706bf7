package gpusim

import (
	"fmt"
	"io"
	"math/bits"
	"sort"
	"strings"

	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/semantics"
)

// KernelStats are one kernel's counters over all its launches.
//
// A request is one warp's execution of one global load or store
// instruction (its active lanes together); its sectors are the distinct
// 32-byte segments the lanes touch, and its ideal sectors the fewest its
// distinct words could take (⌈words / 4⌉: 8 for 32 lanes reading 32
// consecutive int64s, 1 for lanes that all read one word). Sectors per
// request over the ideal is the coalescing of "Remora Compiler — A
// Master's Project" §2: 1 when the lanes' words are packed, up to 8 when
// no two share a sector.
//
// Moved sectors are the distinct sectors each launch loads, and those it
// stores, summed over the launches: the traffic between the GPU and its
// memory when the caches hold what one launch touches (a request that
// touches a sector an earlier request of the launch touched hits in
// them). They are what the program's minimum is compared with.
type KernelStats struct {
	Name              string
	Launches, Threads int64
	// Idle are the threads that touched no global memory: launched for
	// no work.
	Idle int64
	// Allocs are the blocks the threads allocated from the device heap
	// (arraysem_device_alloc, arraysem_device_alloc_chain).
	Allocs                                  int64
	LoadRequests, LoadSectors, LoadIdeal    int64
	StoreRequests, StoreSectors, StoreIdeal int64
	LoadMoved, StoreMoved                   int64
}

// Stats are the counters of a run, per kernel, the program's minimum
// traffic, and the run's cost counters as the interpreters count them
// (semantics.Stats), where the simulator's figures match theirs:
//
//   - Kernels: launches (ARRAYSEM_LAUNCH, ARRAYSEM_LAUNCH_SYNC).
//   - Allocs, Words: device allocations, cudaMalloc's and the threads'
//     (arraysem_device_alloc), in int64 words; not host memory (inputs,
//     result buffers) nor __shared__ arrays. They include the emitted
//     program's error record and its copies of the inputs, so they exceed
//     IMP's, which has neither.
//   - PeakWords: the most device words allocated and not yet freed
//     (cudaFree, arraysem_device_free).
//   - Ops: the threads' element reads and writes (global and shared
//     memory). Scalar operators are not counted: the emitted code's
//     arithmetic mixes values with offsets and thread indices, which the
//     simulator cannot tell apart.
type Stats struct {
	Kernels map[string]*KernelStats
	// InputSectors and ResultSectors are the program's minimum traffic:
	// each input array read once (arraysem_input_data) and each result
	// written once (an array's sectors, or one for a scalar), whatever
	// the program computes in between.
	InputSectors, ResultSectors int64
	Costs                       semantics.Stats
}

func newStats() *Stats { return &Stats{Kernels: map[string]*KernelStats{}} }

func (s *Stats) add(l *launchState) {
	k := s.Kernels[l.kernel]
	if k == nil {
		k = &KernelStats{Name: l.kernel}
		s.Kernels[l.kernel] = k
	}
	k.Launches++
	threads := int64(l.grid) * int64(l.block)
	k.Threads += threads
	l.flush()
	k.LoadRequests += l.ldReqs
	k.LoadSectors += l.ldSects
	k.LoadIdeal += l.ldIdeal
	k.StoreRequests += l.stReqs
	k.StoreSectors += l.stSects
	k.StoreIdeal += l.stIdeal
	k.Allocs += l.allocs
	worked := int64(0)
	for _, w := range l.worked {
		worked += int64(bits.OnesCount64(w))
	}
	k.Idle += threads - worked
	for _, mb := range l.moved {
		for i := range mb.ld {
			k.LoadMoved += int64(bits.OnesCount64(mb.ld[i]))
			k.StoreMoved += int64(bits.OnesCount64(mb.st[i]))
		}
	}
}

// Total sums the kernels' counters.
func (s *Stats) Total() KernelStats {
	t := KernelStats{Name: "total"}
	for _, k := range s.Kernels {
		t.Launches += k.Launches
		t.Threads += k.Threads
		t.Idle += k.Idle
		t.Allocs += k.Allocs
		t.LoadRequests += k.LoadRequests
		t.LoadSectors += k.LoadSectors
		t.LoadIdeal += k.LoadIdeal
		t.StoreRequests += k.StoreRequests
		t.StoreSectors += k.StoreSectors
		t.StoreIdeal += k.StoreIdeal
		t.LoadMoved += k.LoadMoved
		t.StoreMoved += k.StoreMoved
	}
	return t
}

// Minimum is the least traffic the program's results need: its inputs
// read once, its results written once, in sectors.
func (s *Stats) Minimum() int64 { return s.InputSectors + s.ResultSectors }

// Moved is the run's traffic in sectors (loads and stores).
func (s *Stats) Moved() int64 {
	t := s.Total()
	return t.LoadMoved + t.StoreMoved
}

// Ratio is Moved over Minimum (0 when the minimum is 0).
func (s *Stats) Ratio() float64 {
	if s.Minimum() == 0 {
		return 0
	}
	return float64(s.Moved()) / float64(s.Minimum())
}

// Coalescing is the loads' (store: the stores') sectors over their ideal
// sectors: 1 when every request's words are packed (0 without requests).
func (s *Stats) Coalescing(store bool) float64 {
	t := s.Total()
	a, b := t.LoadSectors, t.LoadIdeal
	if store {
		a, b = t.StoreSectors, t.StoreIdeal
	}
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

func ratio(a, b int64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// CostTable renders the cost counters (semantics.Stats.Table).
func (s *Stats) CostTable() string { return s.Costs.Table() }

// Print writes the table, one row per kernel and a total, the traffic
// against the program's minimum, then the cost counters.
func (s *Stats) Print(w io.Writer) {
	fmt.Fprint(w, s.Table(""))
	fmt.Fprintf(w, "\ncost counters:\n%s", s.CostTable())
}

// Table is the kernels' table and the traffic summary, each line after
// prefix (a comment's start, when they follow a program).
func (s *Stats) Table(prefix string) string {
	names := make([]string, 0, len(s.Kernels))
	for n := range s.Kernels {
		names = append(names, n)
	}
	sort.Strings(names)
	// Names at the left, numbers at the right of their columns, widths
	// in display cells (table.Print), however long a kernel's name.
	cells := [][]string{{"kernel", "launches", "threads", "idle", "allocs", "ld reqs", "ld sect", "sect/req", "/ideal", "st reqs", "st sect", "sect/req", "/ideal", "ld moved", "st moved"}}
	rows := []KernelStats{}
	for _, n := range names {
		rows = append(rows, *s.Kernels[n])
	}
	rows = append(rows, s.Total())
	for _, k := range rows {
		cells = append(cells, []string{k.Name, fmt.Sprint(k.Launches), fmt.Sprint(k.Threads), fmt.Sprint(k.Idle), fmt.Sprint(k.Allocs),
			fmt.Sprint(k.LoadRequests), fmt.Sprint(k.LoadSectors), ratio(k.LoadSectors, k.LoadRequests), ratio(k.LoadSectors, k.LoadIdeal),
			fmt.Sprint(k.StoreRequests), fmt.Sprint(k.StoreSectors), ratio(k.StoreSectors, k.StoreRequests), ratio(k.StoreSectors, k.StoreIdeal),
			fmt.Sprint(k.LoadMoved), fmt.Sprint(k.StoreMoved)})
	}
	table.RightAlign(cells, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14)
	var b strings.Builder
	table.Print(&b, cells)
	t := s.Total()
	var out strings.Builder
	for _, l := range strings.SplitAfter(b.String(), "\n") {
		if l != "" {
			out.WriteString(prefix + l)
		}
	}
	fmt.Fprintf(&out, "%smoved %d sectors (loads %d, stores %d); minimum %d (inputs read once %d, results written once %d); ratio %s\n",
		prefix, s.Moved(), t.LoadMoved, t.StoreMoved, s.Minimum(), s.InputSectors, s.ResultSectors, ratio(s.Moved(), s.Minimum()))
	fmt.Fprintf(&out, "%ssectors per request over the ideal: loads %s, stores %s; launches %d; threads %d, idle %d; allocations in kernels %d\n",
		prefix, ratio(t.LoadSectors, t.LoadIdeal), ratio(t.StoreSectors, t.StoreIdeal), t.Launches, t.Threads, t.Idle, t.Allocs)
	return out.String()
}
