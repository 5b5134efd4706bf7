package imp

import "github.com/arraysem/arraysem/semantics"

// The cost counters (stats.go gives their definitions) of a run of the
// rules as written (fig12.go), counted as the small-step counts them. They
// are no part of any rule: the rules call these around the statements
// they run, and where a kernel or fold starts.

// ruleCosts counts a run's costs into st (nil: nothing is counted).
type ruleCosts struct {
	st *semantics.Stats
	// frames are the statement lists running, innermost last: a kernel's
	// iteration or a fold's part (part: all its blocks die with it), or
	// an if's branch or a for's iteration (the blocks allocated to the
	// variables it declares die with it).
	frames []*costFrame
}

type costFrame struct {
	part  bool
	decls map[string]bool
	died  int64
}

// depth is the number of kernels and folds whose bodies are running.
func (c *ruleCosts) depth() int {
	d := 0
	for _, f := range c.frames {
		if f.part {
			d++
		}
	}
	return d
}

// launch counts a kernel or fold starting, and ops operations of its
// start; it gives the live words then, which each iteration or part
// ends at.
func (c *ruleCosts) launch(ops int64) int64 {
	if c.st == nil {
		return 0
	}
	countKernel(c.st, c.depth())
	c.st.Ops += ops
	return c.st.Live()
}

// enter starts running a statement list: a part (of a kernel or fold),
// or the scope of a branch or for iteration running body.
func (c *ruleCosts) enter(part bool, body []Stmt) {
	if c.st == nil {
		return
	}
	f := &costFrame{part: part}
	if !part {
		f.decls = declares(body)
	}
	c.frames = append(c.frames, f)
}

// leave ends the innermost statement list: a part's blocks die (the live
// words go back to base), a scope's declarations' blocks die.
func (c *ruleCosts) leave(base int64) {
	if c.st == nil {
		return
	}
	f := c.frames[len(c.frames)-1]
	c.frames = c.frames[:len(c.frames)-1]
	if f.part {
		c.st.SetLive(base)
	} else {
		c.st.Release(f.died)
	}
}

// ran counts s, a statement without a body that ran in env on h.
func (c *ruleCosts) ran(env Env, h *semantics.Heap, s Stmt) {
	if c.st == nil {
		return
	}
	c.st.Ops += stmtOps(s)
	a, ok := s.(*Alloc)
	if !ok {
		return
	}
	n := int64(len(h.Block(env[a.X.Name].L)))
	c.st.Alloc(n)
	// The block dies with the innermost branch or for iteration that
	// declares its variable, unless a part (which drops all its blocks)
	// comes first.
	for i := len(c.frames) - 1; i >= 0; i-- {
		f := c.frames[i]
		if f.part {
			return
		}
		if f.decls[a.X.Name] {
			f.died += n
			return
		}
	}
}

// scanWrite counts a scan's write of element i's accumulator.
func (c *ruleCosts) scanWrite(s Stmt) {
	if _, ok := s.(*Scan); ok && c.st != nil {
		c.st.Ops++
	}
}
