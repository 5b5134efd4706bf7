package proofstests

import (
	"fmt"
	"slices"
	"sync"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora/dynamic"
	"github.com/arraysem/arraysem/semantics"
)

// The dialect-compiled property: a compiled level of a dialect program
// never prints a value the dialect's interpreter does not. The dialect's
// numbers are Racket's (exact integers of any size, exact zeros beside
// floats, no complex results); the levels below it have int64 and
// float64. So every run at every level the program compiles to either
// prints exactly the interpreter's lines, or stops with the 64-bit
// overflow error (semantics.OverflowError, a refusal), or, where the
// interpreter goes wrong, goes wrong too; or, where the level's program
// re-associates a float fold (arraycheck.Reassociates: a parallel float
// sum or product, which the CUDA level runs as a tree), prints floats
// within semantics.FloatReassociationBound of the interpreter's (the
// compiled program guards its parallel float folds so, remora/tofun's
// floatfold.go). A program the compile path declines is counted by its
// reason, not failed.

// CompiledStats counts what the dialect-compiled property saw.
type CompiledStats struct {
	sync.Mutex
	Programs int            // generated
	Compiled int            // that the compile path took (Elaborate did not decline)
	Refused  int            // runs that stopped on the 64-bit overflow
	Agreed   int            // runs that printed the interpreter's lines
	Close    int            // runs whose floats were within the re-association bound
	WrongToo int            // runs that went wrong where the interpreter does
	Declined map[string]int // programs declined, by reason
}

// NewCompiledStats is an empty CompiledStats.
func NewCompiledStats() *CompiledStats { return &CompiledStats{Declined: map[string]int{}} }

// propDialectCompiledAt is the property over the arraysem command's
// registry.
func propDialectCompiledAt(c *RemoraCase) string {
	return PropDialectCompiled(arraycheck.NewRegistry(), nil)(c)
}

// PropDialectCompiled is the dialect-compiled property over the registry
// reg, counting in stats (unless nil).
func PropDialectCompiled(reg *lang.Registry, stats *CompiledStats) func(c *RemoraCase) string {
	return func(c *RemoraCase) string {
		var p lang.Program
		if err := safely("loading the dialect program", func() (err error) {
			p, err = reg.Load("gen.remora", c.Src, dynamic.Language.Name(), "", lang.LoadOptions{})
			return err
		}); err != nil {
			return "GENERATOR BUG: the program does not load: " + err.Error()
		}
		want := levelRun{level: p.Language().Title(), sem: "big"}
		want.err = safely(want.name(), func() (err error) {
			want.r, err = p.Run(lang.RunOptions{Semantics: "big"})
			return err
		})
		if isPanic(want.err) {
			return want.err.Error()
		}
		var levels []lang.Level
		if err := safely("Registry.Levels", func() (err error) { levels, err = reg.Levels(p); return err }); err != nil {
			return "compiling the dialect program to every level: " + err.Error()
		}
		local := NewCompiledStats()
		local.Programs++
		for i, lv := range levels[1:] {
			if lv.Declined != nil {
				if i == 0 {
					local.Declined[position.ReplaceAllString(lv.Declined.Error(), "")]++
				}
				continue
			}
			if i == 0 {
				local.Compiled++
			}
			q := lv.Program()
			for _, sem := range q.Semantics() {
				got := levelRun{level: lv.Name, sem: sem}
				got.err = safely(got.name(), func() (err error) {
					got.r, err = q.Run(lang.RunOptions{Semantics: sem})
					return err
				})
				if msg := local.judge(want, got, q, arraycheck.Reassociates(lv.Stages)); msg != "" {
					return msg + showRemoraLevel(lv)
				}
			}
		}
		if stats != nil {
			stats.add(local)
		}
		return ""
	}
}

// judge compares one run with the interpreter's; reassoc says that the
// run's program re-associates a float fold.
func (s *CompiledStats) judge(want, got levelRun, q lang.Program, reassoc bool) string {
	if isPanic(got.err) {
		return got.err.Error()
	}
	se := semErr(got.err)
	switch {
	case se != nil && se.Kind == semantics.OverflowError:
		s.Refused++
		return ""
	case want.err != nil:
		if got.err != nil {
			s.WrongToo++
			return ""
		}
		if _, ok := q.(lang.Caveat); ok {
			return "" // IMP and CUDA check no bounds (ERRATA I2)
		}
		return fmt.Sprintf("%s goes wrong (%v), but %s gives %s", want.name(), want.err, got.name(), show(got))
	case got.err != nil:
		return fmt.Sprintf("%s gives %s, but %s goes wrong: %v", want.name(), show(want), got.name(), got.err)
	case !slices.Equal(want.r.Lines, got.r.Lines) && reassoc && semantics.CloseLines(want.r.Lines, got.r.Lines):
		s.Close++
		return ""
	case !slices.Equal(want.r.Lines, got.r.Lines):
		return fmt.Sprintf("%s gives %s, but %s gives %s", want.name(), show(want), got.name(), show(got))
	}
	s.Agreed++
	return ""
}

func (s *CompiledStats) add(o *CompiledStats) {
	s.Lock()
	defer s.Unlock()
	s.Programs += o.Programs
	s.Compiled += o.Compiled
	s.Refused += o.Refused
	s.Agreed += o.Agreed
	s.Close += o.Close
	s.WrongToo += o.WrongToo
	for k, n := range o.Declined {
		s.Declined[k] += n
	}
}
