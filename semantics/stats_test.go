package semantics

import (
	"strings"
	"testing"
)

// TestStatsPeak: the peak is the most live words; a scope's end gives
// back the words allocated in it; a fork's work joined counts as if it
// had run in sequence.
func TestStatsPeak(t *testing.T) {
	var s Stats
	s.Alloc(10)
	base := s.Live()
	s.Alloc(5) // a scope's array
	s.SetLive(base)
	s.Alloc(3)
	if s.PeakWords != 15 || s.Live() != 13 || s.Words != 18 || s.Allocs != 3 {
		t.Errorf("got %v, live %d", &s, s.Live())
	}
	s.Release(3)
	a, b := s.Fork(), s.Fork()
	a.Alloc(4)
	a.Ops += 2
	b.Alloc(7)
	b.Kernels++
	s.Join(a)
	s.Join(b)
	want := Stats{Ops: 2, Allocs: 5, Words: 29, PeakWords: 17, Kernels: 1}
	if s.String() != want.String() || s.Live() != 10 {
		t.Errorf("joined: got %v (live %d), want %v (live 10)", &s, s.Live(), &want)
	}
}

func TestStatsTable(t *testing.T) {
	s := &Stats{Ops: 1234, Allocs: 2, Words: 10, PeakWords: 7, Kernels: 1}
	got := s.Table()
	want := `ops         1234  operations: scalar operators, element reads and writes, assertion checks
allocs         2  arrays made or blocks allocated
words         10  words allocated, in total
peak words     7  most words live at once
kernels        1  kernel launches
`
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	var none *Stats
	if got := none.Table(); !strings.HasPrefix(got, "cost counters: none") {
		t.Errorf("nil: %q", got)
	}
	if got := s.String(); got != "ops 1234, allocs 2, words 10, peak words 7, kernels 1" {
		t.Errorf("String: %q", got)
	}
}
