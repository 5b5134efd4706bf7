package gpusim

import (
	"fmt"
	"io"
	"sort"

	"github.com/arraysem/arraysem/semantics"
)

// KernelStats are one kernel's counters over all its launches. A request
// is one warp's execution of one global load or store instruction (its
// active lanes together); its sectors are the distinct 32-byte segments
// the lanes touch. Sectors per request is 1 for a warp of int64 accesses
// that fall in one sector and up to 32 for accesses that do not share
// any: the coalescing of "Remora Compiler — A Master's Project" §2.
type KernelStats struct {
	Name                        string
	Launches, Threads           int64
	LoadRequests, LoadSectors   int64
	StoreRequests, StoreSectors int64
}

// Stats are the counters of a run, per kernel, and the run's cost
// counters as the interpreters count them (semantics.Stats), where the
// simulator's figures match theirs:
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
	Costs   semantics.Stats
}

func newStats() *Stats { return &Stats{Kernels: map[string]*KernelStats{}} }

func (s *Stats) add(l *launchState) {
	k := s.Kernels[l.kernel]
	if k == nil {
		k = &KernelStats{Name: l.kernel}
		s.Kernels[l.kernel] = k
	}
	k.Launches++
	k.Threads += int64(l.grid) * int64(l.block)
	l.flush()
	k.LoadRequests += l.ldReqs
	k.LoadSectors += l.ldSects
	k.StoreRequests += l.stReqs
	k.StoreSectors += l.stSects
}

// Total sums the kernels' counters.
func (s *Stats) Total() KernelStats {
	t := KernelStats{Name: "total"}
	for _, k := range s.Kernels {
		t.Launches += k.Launches
		t.Threads += k.Threads
		t.LoadRequests += k.LoadRequests
		t.LoadSectors += k.LoadSectors
		t.StoreRequests += k.StoreRequests
		t.StoreSectors += k.StoreSectors
	}
	return t
}

func ratio(a, b int64) string {
	if b == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f", float64(a)/float64(b))
}

// CostTable renders the cost counters (semantics.Stats.Table).
func (s *Stats) CostTable() string { return s.Costs.Table() }

// Print writes the table: one row per kernel and a total; then the cost
// counters.
func (s *Stats) Print(w io.Writer) {
	names := make([]string, 0, len(s.Kernels))
	for n := range s.Kernels {
		names = append(names, n)
	}
	sort.Strings(names)
	fmt.Fprintf(w, "%-20s %8s %8s %9s %9s %8s %9s %9s %8s\n", "kernel", "launches", "threads", "ld reqs", "ld sect", "sect/req", "st reqs", "st sect", "sect/req")
	rows := []KernelStats{}
	for _, n := range names {
		rows = append(rows, *s.Kernels[n])
	}
	rows = append(rows, s.Total())
	for _, k := range rows {
		fmt.Fprintf(w, "%-20s %8d %8d %9d %9d %8s %9d %9d %8s\n", k.Name, k.Launches, k.Threads,
			k.LoadRequests, k.LoadSectors, ratio(k.LoadSectors, k.LoadRequests), k.StoreRequests, k.StoreSectors, ratio(k.StoreSectors, k.StoreRequests))
	}
	fmt.Fprintf(w, "\ncost counters:\n%s", s.CostTable())
}
