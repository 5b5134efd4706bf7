package semantics

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/internal/mutant"
)

// Tracker records the accesses of a kernel's iterations and decides
// racefree of eq (4): no location written by one iteration is read or
// written by another. It keeps, per location, the first writer and two
// distinct accessing iterations, so tracking costs time and memory
// proportional to the accesses, however many iterations there are.
type Tracker struct {
	Iter int64 // the iteration now running (from 1)
	locs map[Loc]*locInfo

	// Trace, when non-nil, receives the read and write sets of each
	// iteration (for --trace): Trace[i-1] is iteration i's.
	Trace []IterAccess

	journal *[]func() // its heap's undo journal, when on (journal.go)
}

// IterAccess is one iteration's read set and write set.
type IterAccess struct{ Reads, Writes []Loc }

type locInfo struct {
	writer     int64 // first iteration that wrote, 0 if none
	acc1, acc2 int64 // two distinct iterations that accessed, 0 if none
}

// NewTracker makes a tracker; with trace, it also keeps each iteration's
// read and write sets.
func NewTracker(trace bool) *Tracker {
	t := &Tracker{locs: map[Loc]*locInfo{}}
	if trace {
		t.Trace = []IterAccess{}
	}
	return t
}

// ErrRace is the violation of racefree: iterations I and J both touch Loc
// and at least one of them (Writer) writes it.
type ErrRace struct {
	I, J    int64
	Loc     Loc
	Writer  int64
	Tracker *Tracker // the kernel's tracker that saw it
}

func (e ErrRace) Error() string {
	other := e.I
	if other == e.Writer {
		other = e.J
	}
	return fmt.Sprintf("race: iteration %d writes %v, which iteration %d also uses (racefree, eq 4)", e.Writer, e.Loc, other)
}

// Start begins iteration i. Iterations may start in any order (a
// schedule of the small-step); Trace[i-1] is still iteration i's.
func (t *Tracker) Start(i int64) {
	if t.journal != nil {
		prev, n := t.Iter, len(t.Trace)
		*t.journal = append(*t.journal, func() {
			t.Iter = prev
			if t.Trace != nil {
				t.Trace = t.Trace[:n]
			}
		})
	}
	t.Iter = i
	if t.Trace != nil {
		for int64(len(t.Trace)) < i {
			t.Trace = append(t.Trace, IterAccess{})
		}
	}
}

func (t *Tracker) access(loc Loc, write bool) error {
	it := t.Iter
	if t.journal != nil {
		t.remember(loc, it)
	}
	if t.Trace != nil && it >= 1 && it <= int64(len(t.Trace)) {
		a := &t.Trace[it-1]
		if write {
			a.Writes = append(a.Writes, loc)
		} else {
			a.Reads = append(a.Reads, loc)
		}
	}
	info := t.locs[loc]
	if info == nil {
		info = &locInfo{acc1: it}
		t.locs[loc] = info
	} else if info.acc1 != it && info.acc2 == 0 {
		info.acc2 = it
	}
	if write && info.writer == 0 {
		info.writer = it
	}
	if info.writer != 0 && info.acc2 != 0 {
		if mutant.On("no-race-check") { // mutant: racefree (eq 4) always holds
			return nil
		}
		other := info.acc1
		if other == info.writer {
			other = info.acc2
		}
		return ErrRace{I: info.writer, J: other, Loc: loc, Writer: info.writer, Tracker: t}
	}
	return nil
}

// Sets renders an iteration's trace: R = {ℓ1[0], ℓ1[1]} W = {ℓ2[0]}, each
// set sorted and without repeats.
func (a IterAccess) Sets() string {
	return "R = " + locSet(a.Reads) + "  W = " + locSet(a.Writes)
}

func locSet(ls []Loc) string {
	seen := map[Loc]bool{}
	var u []Loc
	for _, l := range ls {
		if !seen[l] {
			seen[l] = true
			u = append(u, l)
		}
	}
	slices.SortFunc(u, func(a, b Loc) int { return cmp.Or(cmp.Compare(a.Block, b.Block), cmp.Compare(a.Offset, b.Offset)) })
	parts := make([]string, len(u))
	for i, l := range u {
		parts[i] = l.String()
	}
	return "{" + strings.Join(parts, ", ") + "}"
}
