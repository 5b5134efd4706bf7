package semantics

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refTracker is the tracker as it was first written, a map from each
// location to its record, against which the paged table is checked.
type refTracker struct {
	locs  map[Loc]*locInfo
	trace map[int64]*IterAccess
}

func (r *refTracker) access(it int64, loc Loc, write bool) string {
	a := r.trace[it]
	if a == nil {
		a = &IterAccess{}
		r.trace[it] = a
	}
	if write {
		a.Writes = append(a.Writes, loc)
	} else {
		a.Reads = append(a.Reads, loc)
	}
	info := r.locs[loc]
	if info == nil {
		info = &locInfo{acc1: it}
		r.locs[loc] = info
	} else if info.acc1 != it && info.acc2 == 0 {
		info.acc2 = it
	}
	if write && info.writer == 0 {
		info.writer = it
	}
	if info.writer != 0 && info.acc2 != 0 {
		other := info.acc1
		if other == info.writer {
			other = info.acc2
		}
		return ErrRace{I: info.writer, J: other, Loc: loc, Writer: info.writer}.Error()
	}
	return ""
}

// randomRun is a run of accesses by a few iterations (in any order, each
// starting again now and then, as a fold's element does after its
// combine) to many blocks, each from a few offsets to thousands (so that
// pages, the page cache's collisions and the table's growth all happen).
type randomAccess struct {
	it    int64
	loc   Loc
	write bool
}

func randomRun(rng *rand.Rand, blocks []int64) []randomAccess {
	n := 1 + rng.IntN(3000)
	iters := int64(1 + rng.IntN(50))
	writeP := rng.Float64() * 0.05
	// Offsets are random, or sweep the blocks up or down with a stride
	// (the windows' growth), now and then jumping (their freezing).
	mode, stride := rng.IntN(3), int64(1+rng.IntN(12))
	next := make([]int64, len(blocks))
	for b := range next {
		next[b] = rng.Int64N(blocks[b])
	}
	var out []randomAccess
	it := int64(1)
	for range n {
		if rng.IntN(4) == 0 {
			it = 1 + rng.Int64N(iters)
		}
		b := rng.IntN(len(blocks))
		off := rng.Int64N(blocks[b])
		if mode > 0 && rng.IntN(200) > 0 {
			off = next[b]
			if mode == 1 {
				next[b] = (next[b] + stride) % blocks[b]
			} else {
				next[b] = ((next[b]-stride)%blocks[b] + blocks[b]) % blocks[b]
			}
		}
		out = append(out, randomAccess{it, Loc{Label(b + 1), off}, rng.Float64() < writeP})
	}
	return out
}

// TestTrackerAgreesWithMap runs random accesses through the paged tracker,
// traced, and through the map it replaced: the same first race, and the
// same read and write sets per iteration, in order. A reused tracker
// (Reset) must do the same as a new one, and so must NewTracker's after
// a run gave its tracker back (RecycleTrackers: each run gives its first
// back, which the next run's NewTracker takes, reset).
func TestTrackerAgreesWithMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	reused := NewTracker(true)
	races := 0
	for run := range 1000 {
		h := &Heap{}
		var blocks []int64
		for range 1 + rng.IntN(9) {
			n := int64(1 + rng.IntN(5000))
			h.Alloc(n)
			blocks = append(blocks, n)
		}
		acc := randomRun(rng, blocks)
		first := NewTracker(true)
		for _, tr := range []*Tracker{first, reused} {
			if tr == reused {
				tr.Reset(true)
			}
			ref := &refTracker{locs: map[Loc]*locInfo{}, trace: map[int64]*IterAccess{}}
			h.Push(tr)
			var got, want string
			for _, a := range acc {
				if tr.Iter != a.it {
					tr.Start(a.it)
				}
				var err error
				if a.write {
					err = h.Write(a.loc, 1)
				} else {
					_, err = h.Read(a.loc)
				}
				want = ref.access(a.it, a.loc, a.write)
				if err != nil {
					got = err.Error()
				}
				if got != "" || want != "" {
					break
				}
			}
			h.Pop()
			if got != want {
				t.Fatalf("run %d: race %q, the map's %q", run, got, want)
			}
			if got != "" {
				races++
			}
			for i, a := range tr.Trace.Iters() {
				w := ref.trace[int64(i+1)]
				if w == nil {
					w = &IterAccess{}
				}
				if !slices.Equal(a.Reads, w.Reads) || !slices.Equal(a.Writes, w.Writes) {
					t.Fatalf("run %d: iteration %d traced %v %v, the map %v %v", run, i+1, a.Reads, a.Writes, w.Reads, w.Writes)
				}
			}
		}
		RecycleTrackers([]*Tracker{first})
	}
	if races < 200 || races > 1800 {
		t.Errorf("%d of 2000 runs raced: the runs should test both outcomes", races)
	}
	if testing.Verbose() {
		t.Logf("%d of 2000 runs raced", races)
	}
}

// TestTrackerAllocations: tracking, traced or not, allocates per page and
// per slab, not per access.
func TestTrackerAllocations(t *testing.T) {
	const n = 1 << 14
	for _, trace := range []bool{false, true} {
		h := &Heap{}
		l, _ := h.Alloc(n)
		tr := NewTracker(trace)
		allocs := testing.AllocsPerRun(5, func() {
			tr.Reset(trace)
			tr.Expect(n)
			h.Push(tr)
			for i := int64(1); i <= n; i++ {
				tr.Start(i)
				if _, err := h.Read(Loc{l, i - 1}); err != nil {
					t.Fatal(err)
				}
				if err := h.Write(Loc{l, i - 1}, i); err != nil {
					t.Fatal(err)
				}
			}
			h.Pop()
		})
		if limit := float64(n) / 32; allocs > limit {
			t.Errorf("trace %v: %.0f allocations for %d accesses, want at most %.0f", trace, allocs, 2*n, limit)
		}
	}
}
