package semantics

// A small-step semantics as a machine with an explicit evaluation
// context (a focus and a stack of frames, CEK-style). Finding the redex
// by descending the evaluation contexts from the root on every step
// costs, on a term of n nodes, a walk to the redex and a copy of every
// node on the way, so a run of n steps is quadratic. The machine keeps
// the path instead: a Context is the redex and the context around it,
// and after a rule fires, settle looks for the next redex from the
// contractum, going up only as far as the first frame with a child still
// to reduce. Each node is entered once and rebuilt once, when its last
// evaluated child becomes a value, so a step costs O(1) amortised beside
// what its rule does. The redexes, rules, contracta and stuck states are
// those of the descent; the whole term is rebuilt only when it is shown
// (Term).
//
// Both Remora dialects run on it (remora/machine.go, remora/dynamic/
// machine.go): a language gives its terms' evaluation order and its
// rules as Terms.

// Terms is what the context machine needs of a language's terms E: the
// order of its evaluation contexts, how a node is rebuilt, and its rules.
// The evaluated children of a node are numbered from 0 in the order they
// are reduced.
type Terms[E any] interface {
	// IsValue reports whether e is a value: nothing in it to reduce.
	IsValue(e E) bool
	// NextChild is the number of e's first evaluated child that is not a
	// value, or -1 when there is none (e is the redex, or a value).
	NextChild(e E) int
	// ChildCount is the number of e's evaluated children.
	ChildCount(e E) int
	// Pending is e's i-th evaluated child and whether it is to be
	// reduced: present (an optional child may be absent) and not a value.
	Pending(e E, i int) (E, bool)
	// Child is e's i-th evaluated child.
	Child(e E, i int) E
	// Plug is node rebuilt with its evaluated children as they are now,
	// which fill sets in a fresh slice of node's own children.
	Plug(node E, fill func(ch []E)) E
	// Contract applies the rule at the redex e: the contractum and the
	// rule's name, or the stuck error.
	Contract(e E) (E, string, error)
}

// Context is a configuration of the context machine: the redex, or the
// value when the run is over, and its evaluation context. Contexts are
// persistent: a step makes a new one and shares the context with the
// old, so a stepper can keep them all to step back.
type Context[E any] struct {
	focus E
	ctx   *hole[E]
	final bool // focus is a value and ctx is empty
	// note is what the step that made the context noted
	// (ContextMachine.Note), rendered on demand; nil for none.
	note func() string
}

// A hole is one frame of an evaluation context, innermost first: node
// with its i-th evaluated child replaced by what is inside. The children
// before i are values: node's own, or, for those a step changed, the
// values they became, kept along prev: the hole of node's previous child
// that was reduced, whose child became val. The children after i are
// node's.
type hole[E any] struct {
	node  E
	i     int
	val   E        // what child prev.i became, when prev is not nil
	prev  *hole[E] // the hole of the previous child that was reduced
	up    *hole[E]
	depth int // the holes from this one up, itself included
}

// Focus is the redex of c, or its value when the run is over.
func (c *Context[E]) Focus() E { return c.focus }

// Note is what the step that made c noted (ContextMachine.Note), or "".
func (c *Context[E]) Note() string {
	if c.note == nil {
		return ""
	}
	return c.note()
}

// Depth is the number of frames of c's evaluation context.
func (c *Context[E]) Depth() int {
	if c.ctx == nil {
		return 0
	}
	return c.ctx.depth
}

// ContextMachine is a small-step semantics on Contexts, a Machine.
type ContextMachine[E any] struct {
	Terms Terms[E]
	// MaxDepth bounds the frames of a configuration's evaluation context
	// (0: no bound); TooDeep is the error of a step past it, at the next
	// redex.
	MaxDepth int
	TooDeep  func(at E, max int) error
	// Note, when set, is what a step of rule at redex notes for the
	// configuration it makes (a stepper shows it), or nil.
	Note func(redex E, rule string) func() string
}

// Final reports whether the run in c is over.
func (m ContextMachine[E]) Final(c *Context[E]) bool { return c.final }

// Step applies the rule at the redex and finds the next one.
func (m ContextMachine[E]) Step(c *Context[E]) (*Context[E], string, error) {
	e, r, err := m.Terms.Contract(c.focus)
	if err != nil {
		return nil, "", err
	}
	next := m.settle(e, c.ctx)
	if m.MaxDepth > 0 && next.Depth() > m.MaxDepth {
		return nil, "", m.TooDeep(next.focus, m.MaxDepth)
	}
	if m.Note != nil {
		next.note = m.Note(c.focus, r)
	}
	return next, r, nil
}

// Load is the machine's configuration for the closed term e: e's redex
// in its context.
func (m ContextMachine[E]) Load(e E) *Context[E] { return m.settle(e, nil) }

// Term is the configuration c stands for: its context with the focus
// plugged in, rebuilt as the descent would have rebuilt it.
func (m ContextMachine[E]) Term(c *Context[E]) E {
	e := c.focus
	for h := c.ctx; h != nil; h = h.up {
		e = m.plug(h, e)
	}
	return e
}

// plug is h.node with e in the hole and the other children as they are
// now.
func (m ContextMachine[E]) plug(h *hole[E], e E) E {
	return m.Terms.Plug(h.node, func(ch []E) {
		ch[h.i] = e
		for k := h; k.prev != nil; k = k.prev {
			ch[k.prev.i] = k.val
		}
	})
}

// settle finds the next redex from term e in context ctx: down into e's
// first evaluated child that is not a value, or, when e is a value, up
// into the enclosing frame's next child that is to be reduced. A node all
// of whose evaluated children are values is rebuilt with them and is the
// redex, unless it is a value itself.
func (m ContextMachine[E]) settle(e E, ctx *hole[E]) *Context[E] {
	t := m.Terms
	for {
		if !t.IsValue(e) {
			i := t.NextChild(e)
			if i < 0 {
				return &Context[E]{focus: e, ctx: ctx}
			}
			depth := 1
			if ctx != nil {
				depth = ctx.depth + 1
			}
			ctx = &hole[E]{node: e, i: i, up: ctx, depth: depth}
			e = t.Child(e, i)
			continue
		}
		if ctx == nil {
			return &Context[E]{focus: e, final: true}
		}
		h := ctx
		n := t.ChildCount(h.node)
		j := h.i + 1
		var c E
		for ; j < n; j++ {
			var pending bool
			if c, pending = t.Pending(h.node, j); pending {
				break
			}
		}
		if j < n {
			ctx = &hole[E]{node: h.node, i: j, val: e, prev: h, up: h.up, depth: h.depth}
			e = c
			continue
		}
		ctx = h.up
		e = m.plug(h, e)
	}
}

// Positioner is what a Terms may also do: say where a term is in the
// source (zero for a term a step built), so that the machine can say
// where its redex is (Redex).
type Positioner[E any] interface {
	Pos(e E) Pos
}

// Redex is where the next step from c reduces and by which rule
// (Locator): its redex's position in the source or, when a step built
// the redex, that of the innermost term around it that has one (zero
// when the Terms are not a Positioner or no term on the way has a
// position); and the rule Contract applies there (Contract makes a new
// term, so asking costs a step's work and changes nothing), or, when the
// step would be stuck, the rule it is stuck in.
func (m ContextMachine[E]) Redex(c *Context[E]) (Pos, string) {
	if c.final {
		return Pos{}, ""
	}
	_, rule, err := m.Terms.Contract(c.focus)
	if e, ok := err.(*Error); ok {
		rule = e.Rule
	}
	at, ok := m.Terms.(Positioner[E])
	if !ok {
		return Pos{}, rule
	}
	if p := at.Pos(c.focus); p.IsValid() {
		return p, rule
	}
	for h := c.ctx; h != nil; h = h.up {
		if p := at.Pos(h.node); p.IsValid() {
			return p, rule
		}
	}
	return Pos{}, rule
}
