package proofstests

import (
	"fmt"
	"github.com/arraysem/arraysem/fun/fuse"
	"github.com/arraysem/arraysem/fun/slice"
	"slices"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The optimising passes at level FUN (issue 17): fusion by T2 reduction
// ("A T2 Graph-Reduction Approach To Fusion", §3) and size slicing ("Size
// Slicing - A Hybrid Approach to Size Inference in Futhark", §3–4). Each
// keeps the program's meaning, and each carries its own evidence through
// the cost counters (semantics.Stats): the optimised program does no more
// work than the original. A pass that fused in one of Fig 9's forbidden
// cases would compute an array's elements twice, or once per iteration of
// a loop, and count more operations (the mutants fuse-case3, 4 and 5).

// counted is a big-step run of a FUN program with its cost counters.
type counted struct {
	outcome
	st *semantics.Stats
}

func bigCounted(p *fun.Program, env *fun.Env) counted {
	st := &semantics.Stats{Runs: map[semantics.Pos]int64{}}
	vs, _, err := fun.Eval(p, env, &fun.EvalOptions{Stats: st})
	return counted{outcome{vs, err}, st}
}

// sameOrBothStuck compares two runs: the same values, or both stuck (a
// pass may move a failing statement past another that fails, so the
// errors themselves may differ).
func sameOrBothStuck(nameA string, a outcome, nameB string, b outcome) string {
	if a.err != nil && b.err != nil {
		return ""
	}
	return sameOutcome(nameA, a, nameB, b)
}

// noMoreWork checks that the counters of after are at most those of
// before, with slack more operations allowed (size slicing's constant
// overhead, reported by the pass).
func noMoreWork(before, after *semantics.Stats, slack int64) string {
	type c struct {
		name string
		a, b int64
	}
	for _, x := range []c{
		{"operations", before.Ops + slack, after.Ops},
		{"words allocated", before.Words, after.Words},
		{"peak live words", before.PeakWords, after.PeakWords},
		{"kernel launches", before.Kernels, after.Kernels},
	} {
		if x.b > x.a {
			extra := ""
			if slack > 0 {
				extra = fmt.Sprintf(" (with the pass's overhead of %d operations allowed)", slack)
			}
			return fmt.Sprintf("the optimised program does more work: %d %s, the original %d%s", x.b, x.name, x.a, extra)
		}
	}
	return ""
}

// propFuse: Fuse's output is well typed, gives the original's values (or
// is stuck too) and counts no more operations, words, peak words or
// kernel launches.
func propFuse(c *Case) string {
	// The printed program, parsed: its statements have positions, which
	// the duplicated-work counter goes by.
	p, err := c.Parsed()
	if err != nil {
		return "the printed program does not parse: " + err.Error()
	}
	q, rep := fuse.Fuse(p, fuse.Options{})
	shown := "\nfused program:\n" + joinLines("| ", fun.Print(q)) + "\nfusion's notes:\n" + joinLines("| ", rep.String())
	if _, err := fun.Check(q, nil); err != nil {
		return "fun.Check rejects the fused program: " + err.Error() + shown
	}
	env := c.Env()
	a, b := bigCounted(p, env), bigCounted(q, env)
	if d := sameOrBothStuck("the original", a.outcome, "the fused program", b.outcome); d != "" {
		return d + shown
	}
	if a.err == nil {
		if d := noMoreWork(a.st, b.st, 0); d != "" {
			return d + shown
		}
		if d := noStatementMoreOften(a.st, b.st); d != "" {
			return d + shown
		}
	}
	return ""
}

// noStatementMoreOften is the duplicated-work counter's check: fusion
// moves a producer's statements into its consumers with their positions,
// so none may run more often in the fused program than in the original
// (a producer fused into two consumers on one path, or into a loop's
// body, runs its statements twice, or once per iteration).
func noStatementMoreOften(before, after *semantics.Stats) string {
	var worst semantics.Pos
	more := int64(0)
	for p, n := range after.Runs {
		if !p.IsValid() {
			continue // a statement the pass made (a derived form's read)
		}
		if d := n - before.Runs[p]; d > more {
			worst, more = p, d
		}
	}
	if more > 0 {
		return fmt.Sprintf("the statement at %s runs %d times in the fused program, %d in the original: fusion duplicated its work", worst, after.Runs[worst], before.Runs[worst])
	}
	return ""
}

// propSlice: SliceSizes's output is well typed, gives the original's
// values (or is stuck too), allocates no more words and runs at most the
// reported overhead more operations; and after TransformProgram and
// MemoryExpand, no allocation is left inside a kernel but those the pass
// reported it kept.
func propSlice(c *Case) string {
	// The printed program, parsed: the kept allocations are named by
	// their statements' positions.
	p, err := c.Parsed()
	if err != nil {
		return "the printed program does not parse: " + err.Error()
	}
	q, rep := slice.Sizes(p)
	shown := "\nsliced program:\n" + joinLines("| ", fun.Print(q)) + "\nslicing's notes:\n" + joinLines("| ", rep.String())
	if _, err := fun.Check(q, nil); err != nil {
		return "fun.Check rejects the sliced program: " + err.Error() + shown
	}
	env := c.Env()
	a, b := bigCounted(p, env), bigCounted(q, env)
	if d := sameOrBothStuck("the original", a.outcome, "the sliced program", b.outcome); d != "" {
		return d + shown
	}
	if a.err == nil {
		if d := noMoreWork(a.st, b.st, rep.Overhead); d != "" {
			return d + shown
		}
	}
	// The sliced program down the registered path to FUNMEM, expanded
	// (GPU layout), slicing and fusion not run again.
	sq, err := fun.Language.Adopt(q.File, q, lang.LoadOptions{})
	if err != nil {
		return "the sliced program does not check: " + err.Error() + shown
	}
	o := lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, "gpu").With("no-slice").With("no-fuse")
	st, err := arraycheck.NewRegistry().Compile(sq, funmem.Language.Name(), o)
	if err != nil {
		return "compiling the sliced program to FUNMEM: " + err.Error() + shown
	}
	m := st[len(st)-1].Program.Syntax().(*fun.Program)
	for _, at := range funmem.AllocsInKernels(m) {
		if !slices.Contains(rep.Kept, at) {
			return fmt.Sprintf("after slicing and MemoryExpand, an allocation at %s is still inside a kernel, and the pass did not report keeping it%s\nexpanded FUNMEM:\n%s", at, shown, joinLines("| ", fun.Print(m)))
		}
	}
	return ""
}

// propRemoraOptimised: a generated Remora program compiled to FUN with
// slicing and fusion and without them gives the same values, and the
// optimised one counts no more words, peak words or kernel launches, and
// no more operations than the slicing overhead allows.
func propRemoraOptimised(c *RemoraCase) string {
	reg := arraycheck.NewRegistry()
	p, bug := loadGenerated(reg, c)
	if bug != "" {
		return bug
	}
	compile := func(o lang.Options) ([]lang.Stage, error) {
		var st []lang.Stage
		err := safely("compiling to FUN", func() (err error) { st, err = reg.Compile(p, fun.Language.Name(), o); return err })
		return st, err
	}
	plain, err := compile(lang.Options{}.With("no-fuse").With("no-slice"))
	if err != nil {
		if lang.Declines(err) {
			return "" // the path does not compile it: counted by remora-levels
		}
		return "compiling without the optimising passes: " + err.Error()
	}
	opt, err := compile(lang.Options{})
	if err != nil {
		return "compiling with slicing and fusion: " + err.Error()
	}
	src := opt[len(opt)-1].Program.Syntax().(*fun.Program)
	_, srep := slice.Sizes(plain[len(plain)-1].Program.Syntax().(*fun.Program))
	shown := "\noptimised FUN:\n" + joinLines("| ", fun.Print(src))
	run := func(st []lang.Stage) (*lang.Result, error) {
		var r *lang.Result
		err := safely("running FUN", func() (err error) {
			o := lang.RunOptions{}
			o.Stats = &semantics.Stats{}
			r, err = st[len(st)-1].Program.Run(o)
			return err
		})
		return r, err
	}
	a, aerr := run(plain)
	b, berr := run(opt)
	switch {
	case isPanic(aerr) || isPanic(berr):
		return fmt.Sprintf("%v %v", aerr, berr) + shown
	case aerr != nil || berr != nil:
		if (aerr == nil) != (berr == nil) {
			return fmt.Sprintf("unoptimised FUN: %v; optimised FUN: %v%s", aerr, berr, shown)
		}
		return ""
	}
	if d := sameOutcome("unoptimised FUN", outcome{vals: a.Values}, "optimised FUN", outcome{vals: b.Values}); d != "" {
		return d + shown
	}
	return noMoreWork(a.Stats, b.Stats, srep.Overhead)
}
