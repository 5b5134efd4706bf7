package proofstests

import (
	"errors"
	"fmt"
	"sync"

	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/semantics"
)

// impStats counts what the IMP property saw, for TestFunFunmemImpAgree's
// report: each test keeps its own, so that tests running in parallel do
// not count each other's cases.
type impStats struct {
	sync.Mutex
	programs, variants, ranOn, stuckToo int
	rules                               semantics.Counter
}

func impOutcome(q *imp.Program, args map[string]string, small bool, counter semantics.Counter) outcome {
	env, h, err := imp.BindInputs(q, args)
	if err != nil {
		return outcome{err: err}
	}
	opts := &imp.Options{Counter: counter}
	var vals []semantics.Array
	err = safely("IMP", func() error {
		var err error
		if small {
			vals, _, err = imp.RunSmall(q, env, h, &semantics.RunOptions{Counter: counter})
		} else {
			vals, err = imp.Eval(q, env, h, opts)
		}
		return err
	})
	return outcome{vals: vals, err: err}
}

// propImp is FUN ≡ FUNMEM ≡ IMP on every variant of a case.
func propImp(c *Case) string { return impProp(nil)(c) }

// impProp is propImp, counting what it sees in stats (unless nil).
func impProp(stats *impStats) func(c *Case) string {
	return func(c *Case) string { return propImpStats(c, stats) }
}

func propImpStats(c *Case, stats *impStats) string {
	m, msg := newMemCase(c, false, &bugLog{})
	if msg != "" {
		return msg
	}
	counter := semantics.Counter{}
	var ranOn, stuckToo int
	for _, v := range m.vs {
		q, err := imp.FromFunmem(v.Prog)
		show := showMem(v.Name, v.Prog, c)
		if err != nil {
			return fmt.Sprintf("FunMemToImp(%s): %v%s", v.Name, err, show)
		}
		text := imp.Print(q)
		show += "\nIMP program:\n" + joinLines("| ", text)
		if err := imp.Check(q, nil); err != nil {
			return fmt.Sprintf("IMP's checker rejects FunMemToImp(%s): %v%s", v.Name, err, show)
		}
		if r, err := imp.ParseFile("q.imp", text); err != nil || imp.Print(r) != text {
			return fmt.Sprintf("FunMemToImp(%s) does not print and parse back: %v%s", v.Name, err, show)
		}
		bigOut := impOutcome(q, m.args, false, counter)
		smallOut := impOutcome(q, m.args, true, nil)
		if d := sameOutcome("IMP big-step", bigOut, "IMP small-step", smallOut); d != "" {
			return fmt.Sprintf("%s (variant %s)%s", d, v.Name, show)
		}
		// A race where FUN runs to the end is a bad translation; where FUN
		// is stuck on a bound, IMP reads on unchecked and may well race.
		var race *semantics.Error
		if m.want.err == nil && errors.As(bigOut.err, &race) && race.Kind == semantics.RaceError {
			return fmt.Sprintf("the IMP translation of %s races: %v%s", v.Name, race, show)
		}
		switch {
		case m.want.err == nil && bigOut.err != nil:
			return fmt.Sprintf("FUN gives %v, IMP (%s) %v%s", m.want, v.Name, bigOut.err, show)
		case m.want.err == nil && bigOut.String() != m.want.String():
			return fmt.Sprintf("FUN gives %v, IMP (%s) %v%s", m.want, v.Name, bigOut, show)
		case m.want.err != nil && bigOut.err == nil:
			ranOn++
		case m.want.err != nil:
			stuckToo++
		}
	}
	if stats != nil {
		stats.Lock()
		defer stats.Unlock()
		stats.programs++
		stats.variants += len(m.vs)
		stats.ranOn += ranOn
		stats.stuckToo += stuckToo
		stats.rules.Add(counter)
	}
	return ""
}

// fig12Rules are the rules of Fig 12.
var fig12Rules = ruleNames(imp.EImpDecInt, imp.EImpDecMem, imp.EImpAssignInt, imp.EImpAssignMem, imp.EImpRead,
	imp.EImpWrite, imp.EImpAlloc, imp.EImpSeq, imp.EImpIfTrue, imp.EImpIfFalse, imp.EImpSkip, imp.EImpKernel)
