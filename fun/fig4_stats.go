package fun

import "github.com/arraysem/arraysem/semantics"

// The cost counters (eval_stats.go gives their definitions) of a run of
// the rules as written (fig4.go). They are no part of any rule, so the
// rules do not count them: the judgement E ⊢ e ⇓ (v, …) for a statement
// calls before and after around its rule, and E ⊢ b ⇓ (v, …) enterBody
// and leaveBody around a body, and these count what the rule did, from
// the statement, its environment and its values.

// ruleCosts counts a run's costs into st (nil: nothing is counted).
type ruleCosts struct {
	st    *semantics.Stats
	depth int // the parallel forms whose bodies are running
}

// enterBody notes the live words when a body starts.
func (c *ruleCosts) enterBody() int64 {
	if c.st == nil {
		return 0
	}
	return c.st.Live()
}

// leaveBody ends a body: the arrays its statements made die.
func (c *ruleCosts) leaveBody(live int64) {
	if c.st != nil {
		c.st.SetLive(live)
	}
}

// ran counts statement s run (Stats.Runs).
func (c *ruleCosts) ran(s *Stm) {
	if c.st != nil && c.st.Runs != nil {
		c.st.Runs[s.Let]++
	}
}

// before counts, as a parallel form's rule starts, its launch and the
// array it makes then. A form whose start is stuck counts nothing (its
// rule is stuck at once, with the same start).
func (c *ruleCosts) before(env *Env, s *Stm) {
	if c.st == nil {
		return
	}
	switch e := s.Exp.(type) {
	case *KernelExp:
		m, cell, err := kernelStart(env, s, e)
		if err != nil {
			return
		}
		c.launch()
		c.st.Alloc(m * elems(cell))
	case *ReduceExp:
		if _, _, _, _, err := foldStart(env, EReduce.Name, e.Ne, e.Arr, true); err != nil {
			return
		}
		c.launch()
	case *ScanExp:
		xs, n, _, from, err := foldStart(env, EScan.Name, e.Ne, e.Arr, false)
		if err != nil {
			return
		}
		c.launch()
		c.st.Alloc((n - from + 1) * elems(xs.Shape[1:]))
	case *FilterExp:
		if _, err := filterStart(env, e); err != nil {
			return
		}
		c.launch()
	case *RedomapExp:
		m, z, err := redomapStart(env, e)
		if err != nil {
			return
		}
		c.launch()
		if e.Scan {
			c.st.Alloc(m * elems(z.Shape))
		}
	}
}

// launch counts a parallel form's start, and enters its bodies.
func (c *ruleCosts) launch() {
	launch(c.st, c.depth)
	c.depth++
}

// after counts what the rule of s did that gave vs: a form's element reads
// and writes, or a statement without a body's (atomicCosts).
func (c *ruleCosts) after(env *Env, s *Stm, vs []semantics.Array) {
	if c.st == nil {
		return
	}
	switch e := s.Exp.(type) {
	case *IfExp, *LoopExp:
		return
	case *KernelExp: // its items' elements written
		c.st.Ops += int64(len(vs[0].Data))
	case *ReduceExp: // the rows read
		xs, n, _, from, _ := foldStart(env, EReduce.Name, e.Ne, e.Arr, true)
		c.st.Ops += (n - from + 1) * elems(xs.Shape[1:])
	case *ScanExp: // the rows read, and written
		c.st.Ops += 2 * int64(len(vs[0].Data))
	case *FilterExp:
		xs, _ := filterStart(env, e)
		filterCosts(c.st, xs, vs[1])
	case *RedomapExp:
		if e.Scan { // its rows written
			c.st.Ops += int64(len(vs[0].Data))
		}
	default:
		atomicCosts(c.st, c.depth, s, vs)
		return
	}
	c.depth--
}
