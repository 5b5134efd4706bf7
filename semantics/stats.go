package semantics

import (
	"fmt"
	"strings"

	"github.com/arraysem/arraysem/internal/table"
)

// Stats are a run's cost counters, which every interpreter that counts
// fills the same way as far as its level allows (docs/performance.md,
// "Cost counters", gives the definitions per level):
//
//   - Ops: operations executed: scalar operator applications (+ - * / %,
//     comparisons, && ||, unary -, the built-in functions; ints and
//     floats), element reads and writes, assertion checks. A bare copy
//     (let (t : int) = v, t <- v) is none, and so is the size and offset
//     arithmetic a semantics does for itself (LMADs, IMP's offsets).
//   - Allocs, Words: the arrays made (FUN) or blocks allocated (FUNMEM,
//     IMP, CUDA), and their words in total. Inputs are not counted.
//   - PeakWords: the most words at once whose binding is still in scope.
//     Nothing is freed before its scope ends, and nothing after it lives
//     on: a kernel body's arrays die with its iteration.
//   - Kernels: launches: evaluations of the parallel forms (kernel,
//     reduce, scan, redomap, scanomap, filter, and iota and copy, which
//     derive kernels) not inside another one's body.
//
// A nil *Stats counts nothing: the interpreters test for nil where they
// count, so that a run that does not ask costs what it did before. The
// counts of a run that goes wrong are those up to where it went wrong
// (a parallel kernel's may then depend on --jobs); those of a run that
// succeeds never do.
type Stats struct {
	Ops       int64 // operations executed
	Allocs    int64 // arrays made, blocks allocated
	Words     int64 // words allocated, in total
	PeakWords int64 // peak live words
	Kernels   int64 // kernel launches (top-level parallel forms)

	// Runs, when not nil, counts the statements run, by position: the
	// duplicated-work counter. An optimising pass that moves statements
	// keeps their positions, so a statement that runs more often after it
	// than before is work the pass duplicated (FUN's big-step fills it).
	Runs map[Pos]int64

	live int64 // words whose binding is in scope now
}

// Alloc counts an allocation of w words, live from now until Release or
// SetLive takes them back.
func (s *Stats) Alloc(w int64) {
	s.Allocs++
	s.Words += w
	s.live += w
	if s.live > s.PeakWords {
		s.PeakWords = s.live
	}
}

// Live is the number of words whose binding is in scope now: a scope
// notes it when it starts and gives it back to SetLive when it ends.
func (s *Stats) Live() int64 { return s.live }

// SetLive ends a scope: the words allocated since Live was w die.
func (s *Stats) SetLive(w int64) { s.live = w }

// Release ends the lives of w words (a scope that is not the innermost
// one ending: an IMP for's own declarations).
func (s *Stats) Release(w int64) { s.live -= w }

// Fork is a counter for work done alongside s, from the same point: a
// goroutine of a parallel kernel. Its counts start at zero, its live
// words where s's are, so that its peak is the peak s would reach.
func (s *Stats) Fork() *Stats {
	f := &Stats{live: s.live, PeakWords: s.live}
	if s.Runs != nil {
		f.Runs = map[Pos]int64{}
	}
	return f
}

// Join adds the counts of a Fork of s, whose work has ended and whose
// scopes have all ended: the sums, and the higher peak. The result is
// that of doing the forked work in sequence, whatever the order.
func (s *Stats) Join(f *Stats) {
	s.Ops += f.Ops
	s.Allocs += f.Allocs
	s.Words += f.Words
	s.Kernels += f.Kernels
	s.PeakWords = max(s.PeakWords, f.PeakWords)
	for p, n := range f.Runs {
		s.Runs[p] += n
	}
}

// Reset zeroes every counter (a REPL's new run).
func (s *Stats) Reset() { *s = Stats{} }

// Rows are the counters as a table's rows: name, value, what it counts.
func (s *Stats) Rows() [][]string {
	return [][]string{
		{"ops", fmt.Sprint(s.Ops), "operations: scalar operators, element reads and writes, assertion checks"},
		{"allocs", fmt.Sprint(s.Allocs), "arrays made or blocks allocated"},
		{"words", fmt.Sprint(s.Words), "words allocated, in total"},
		{"peak words", fmt.Sprint(s.PeakWords), "most words live at once"},
		{"kernels", fmt.Sprint(s.Kernels), "kernel launches"},
	}
}

// Table renders the counters one per line, aligned: name, value, and
// what it counts. A nil Stats is a run whose semantics counts nothing,
// and says so rather than showing zeros.
func (s *Stats) Table() string {
	if s == nil {
		return NoStats + "\n"
	}
	var b strings.Builder
	rows := s.Rows()
	for _, r := range rows { // right-align the values
		r[1] = strings.Repeat(" ", max(0, width(rows)-len(r[1]))) + r[1]
	}
	table.Print(&b, rows)
	return b.String()
}

// NoStats is what Table says for a run that counted nothing.
const NoStats = "cost counters: none (this semantics does not count costs)"

// width is the widest value of the rows.
func width(rows [][]string) int {
	w := 0
	for _, r := range rows {
		w = max(w, len(r[1]))
	}
	return w
}

// String is the counters on one line.
func (s *Stats) String() string {
	if s == nil {
		return NoStats
	}
	return fmt.Sprintf("ops %d, allocs %d, words %d, peak words %d, kernels %d", s.Ops, s.Allocs, s.Words, s.PeakWords, s.Kernels)
}
