package dynamic

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"unsafe"

	"github.com/arraysem/arraysem/internal/mutant"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// EvalOptions configures the big-step evaluator.
type EvalOptions struct {
	Counter semantics.Counter // counts the rules applied (nil: none)
	// Fuel bounds the applications (β and δ steps) the run makes: 0 for
	// semantics.DefaultBigFuel. `arraysem run --fuel N` sets it, as it
	// sets the small-step's. The rules as written (fig6.go) spend one
	// unit per β or δ, and so does the engine with its fast paths off;
	// the fast paths spend less, never more (a lifted δ-loop one unit for
	// all its cells, and so a level of the lifted tree reduce; a flat fold
	// or tree none), so that a run over 10^8 cells is bounded by the work
	// of its terms, not of its cells.
	Fuel int
	// MaxDepth bounds how deeply evaluations nest (a recursion nests one
	// level or more per call): 0 for DefaultMaxDepth.
	MaxDepth int
	// Engines switches the engine's fast paths off, one by one; the zero
	// value runs them all. Values, errors and rule counts do not depend
	// on it (only the fuel spent does): the property engine ≡ rules
	// (fig6_test.go) holds the engine to the rules as written with each
	// path on and off. EvalRules does not read it.
	Engines Engines
	// Derive asks EvalRules for the derivation; the engine builds none.
	Derive bool
}

// Engines are the big-step's fast paths beside the rules, each on unless
// switched off.
type Engines struct {
	NoScalarFolds bool // folds on a scalar operator without a term per step (fold.go)
	NoFlatTrees   bool // the tree reduce on flat buffers, not pair by pair (fold.go)
	NoScalarLoops bool // a scalar primitive mapped over a frame as one δ-loop on flat buffers, not cell by cell (apply)
	NoLiftedTrees bool // the tree reduce a level at a time, each level one lifted application, not pair by pair (liftedTreeReduce)
}

// DefaultMaxDepth is how deeply the big-step's evaluations may nest, and
// how many evaluation contexts the small-step's configuration may have,
// unless a run says otherwise. Recursion is the only way to nest deeper
// than the program text does, and since the dialect's if computes both
// branches, a recursion that gets this deep does not end: the bound stops
// it with one line, where the Go stack would overflow or the term fill
// memory.
const DefaultMaxDepth = 10000

// tooDeep is the error of a run that nests past its bound, at the term
// it was evaluating.
func tooDeep(pos semantics.Pos, max int) error {
	return semantics.Errorf(pos, semantics.FuelError, "depth", "evaluation nested more than %d deep here: a recursion that does not end (if computes both branches, so a recursive call is made at every level unless it is mapped over an empty frame)", max)
}

// Eval runs every expression of p by the big-step semantics (the fuel is
// the whole run's).
func Eval(p *Program, opts *EvalOptions) ([]*remora.Value, error) {
	ev := newEvaluator(opts)
	var out []*remora.Value
	for _, e := range p.Exprs {
		v, err := ev.eval(e, nil)
		if err != nil {
			return out, err
		}
		out = append(out, v)
	}
	return out, nil
}

// EvalExpr runs one closed expression by the big-step semantics.
func EvalExpr(e Expr, opts *EvalOptions) (*remora.Value, error) {
	return newEvaluator(opts).eval(e, nil)
}

func newEvaluator(opts *EvalOptions) *evaluator {
	ev := &evaluator{bounds: newBounds(opts)}
	if opts != nil {
		ev.engines = opts.Engines
	}
	return ev
}

// bounds is what a big-step run keeps besides values: the rules it
// applied, the fuel it spent and how deeply its evaluations nest. The
// engine and the rules as written (fig6.go) keep them alike, so that they
// count the same rules, and run out of fuel and nest too deeply with the
// same line.
type bounds struct {
	counter         semantics.Counter
	fuel, calls     int // the applications allowed, and made
	depth, maxDepth int // how deeply evaluations nest now, and may
}

func newBounds(opts *EvalOptions) bounds {
	b := bounds{maxDepth: DefaultMaxDepth}
	if opts != nil {
		b.counter, b.fuel = opts.Counter, opts.Fuel
		if opts.MaxDepth > 0 {
			b.maxDepth = opts.MaxDepth
		}
	}
	if b.fuel <= 0 { // every run is bounded
		b.fuel = semantics.DefaultBigFuel
	}
	return b
}

func (b *bounds) hit(rule string) {
	if b.counter != nil {
		b.counter.Hit(rule)
	}
}

// add counts n more applications of rule (n may be negative: a fast
// path turning what it counted into what the rules count), leaving no
// rule counted 0 times.
func (b *bounds) add(rule string, n int) {
	if b.counter == nil || n == 0 {
		return
	}
	if b.counter[rule] += n; b.counter[rule] == 0 {
		delete(b.counter, rule)
	}
}

// enter goes one level deeper to evaluate e. The depth is checked at
// applications, where a recursion goes on, so that the error names the
// call: between two applications the program text nests no deeper than
// the parser allows. leave comes back.
func (b *bounds) enter(e Expr) error {
	if _, app := e.(*App); app && b.depth >= b.maxDepth {
		return tooDeep(e.At(), b.maxDepth)
	}
	b.depth++
	return nil
}

func (b *bounds) leave() { b.depth-- }

// burn counts one application, by rule (β or δ) at pos, against the
// run's fuel; running out names them.
func (b *bounds) burn(pos semantics.Pos, rule string) error {
	if b.calls++; b.calls > b.fuel {
		return semantics.Errorf(pos, semantics.FuelError, rule, "out of fuel after %s (raise it with --fuel N)", semantics.Plural(b.fuel, "application"))
	}
	return nil
}

// evaluator is a run of the engine.
type evaluator struct {
	bounds
	engines Engines
}

// eval evaluates e in env, one level deeper than its caller.
func (ev *evaluator) eval(e Expr, env *env) (*remora.Value, error) {
	if err := ev.enter(e); err != nil {
		return nil, err
	}
	v, err := ev.evalAt(e, env)
	ev.leave()
	return v, err
}

func (ev *evaluator) evalAt(e Expr, env *env) (*remora.Value, error) {
	switch e := e.(type) {
	case *Lit:
		return e.V, nil
	case *Var:
		if v, ok := env.lookup(e.Name); ok {
			return v, nil
		}
		return nil, semantics.Stuckf(e.Pos, remora.RuleBeta.Name, "free variable %s", e.Name)
	case *Prim:
		return funcValue(&Func{Prim: e.Def}), nil
	case *Lam:
		return funcValue(&Func{Lam: e, Env: env}), nil
	case *Frame:
		cells := make([]*remora.Value, len(e.Elems))
		for i, el := range e.Elems {
			v, err := ev.eval(el, env)
			if err != nil {
				return nil, err
			}
			cells[i] = v
		}
		ev.hit(remora.RuleCollapse.Name)
		return collapse(e.Pos, e.Dims, cells)
	case *App:
		var shape *remora.Value
		if e.Shape != nil {
			var err error
			if shape, err = ev.eval(e.Shape, env); err != nil {
				return nil, err
			}
		}
		fv, err := ev.eval(e.Fn, env)
		if err != nil {
			return nil, err
		}
		args := make([]*remora.Value, len(e.Args))
		for i, a := range e.Args {
			if args[i], err = ev.eval(a, env); err != nil {
				return nil, err
			}
		}
		if shape != nil {
			fr, err := appFrames(fv, args, e.Pos)
			if err != nil {
				return nil, err
			}
			if fr.empty() {
				ev.hit(remora.RuleMap.Name)
				return emptyApp(e.Pos, fr.frame, shape)
			}
		}
		return ev.apply(fv, args, e.Pos)
	case *Let:
		v, err := ev.eval(e.Val, env)
		if err != nil {
			return nil, err
		}
		ev.hit(remora.RuleBeta.Name)
		return ev.eval(e.Body, env.bind(e.X, v))
	case *Rec:
		// Each name is bound to its unrolling (rec.go), a closure over
		// the environment around the group, which the unrolled λ binds
		// again when it is applied.
		ev.hit(remora.RuleBeta.Name)
		inner := env
		for i, d := range e.Defs {
			inner = inner.bind(d.X, funcValue(&Func{Lam: e.unrolled[i].(*Lam), Env: env}))
		}
		return ev.eval(e.Body, inner)
	case *Unbox:
		bv, err := ev.eval(e.Box, env)
		if err != nil {
			return nil, err
		}
		if err := boxes(e.Pos, bv); err != nil {
			return nil, err
		}
		if len(bv.Shape) > 0 {
			ev.hit(remora.RuleMap.Name)
		}
		if bv.Len() == 0 {
			return emptyResult(bv.Shape), nil
		}
		cells := make([]*remora.Value, len(bv.A))
		for i, a := range bv.A {
			ev.hit(RuleUnbox.Name)
			if cells[i], err = ev.eval(e.Body, env.bind(e.X, a.(*remora.Box).Val)); err != nil {
				return nil, err
			}
		}
		if len(bv.Shape) > 0 {
			ev.hit(remora.RuleCollapse.Name)
		}
		return collapse(e.Pos, bv.Shape, cells)
	}
	return nil, semantics.Stuckf(e.At(), "", "no rule evaluates %T", e)
}

// boxes checks that unbox is given boxes.
func boxes(pos semantics.Pos, v *remora.Value) error {
	if v.Kind != remora.KBox && v.Len() > 0 {
		return semantics.Stuckf(pos, RuleUnbox.Name, "unbox wants boxes, got %s", describe(v))
	}
	return nil
}

// emptyResult is the result of mapping over an empty frame. Nothing tells
// the shape of the cells that were never computed (the "hole" §4 points
// out, which the typed core fills from the type), so they count as
// scalars: the result has the frame's shape (ERRATA R10).
func emptyResult(frame []int64) *remora.Value {
	return remora.NewValue(remora.KInt, append([]int64{}, frame...), 0)
}

// collapse assembles result cells into the array of frame shape frame:
// Fig 6's collapse, with the checks the types would have made. Cells of
// different shapes make no array; int and float cells join as floats.
func collapse(pos semantics.Pos, frame []int64, cells []*remora.Value) (*remora.Value, error) {
	if len(cells) == 0 {
		return emptyResult(frame), nil
	}
	kind := remora.Kind(255)
	mixed := false
	for i, c := range cells {
		if !semantics.SameShape(c.Shape, cells[0].Shape) {
			return nil, semantics.Stuckf(pos, remora.RuleCollapse.Name, "result cells have shapes %s and %s: the array would not be rectangular (box the cells to keep them)", shapeString(cells[0].Shape), shapeString(c.Shape))
		}
		if c.Len() == 0 {
			continue
		}
		switch {
		case kind == 255:
			kind = c.Kind
		case c.Kind == kind:
		case isNum(c.Kind) && isNum(kind):
			mixed = true
		default:
			return nil, semantics.Stuckf(pos, remora.RuleCollapse.Name, "cell %d holds %s atoms, cell 1 %s atoms", i+1, c.Kind, cells[0].Kind)
		}
	}
	if kind == 255 {
		kind = cells[0].Kind
	}
	if mixed {
		for _, c := range cells {
			if c.Len() > 0 {
				kind = joinKinds(kind, c.Kind)
			}
		}
		cells = append([]*remora.Value{}, cells...)
		for i, c := range cells {
			cells[i] = toKind(c, kind)
		}
	}
	for i, c := range cells {
		if c.Len() == 0 && c.Kind != kind {
			cells[i] = remora.NewValue(kind, c.Shape, 0)
		}
	}
	return remora.Stack(frame, cells[0].Shape, kind, cells), nil
}

// An application's frames (§2.1): each argument is split into a frame of
// cells of the rank its function expects (for a parameter of rank all, one
// whole cell; an argument of lower rank than its cell's is an error, R14);
// the function array's frame is
// its whole shape (function application expects a scalar cell in function
// position, Fig 2). Every frame must be a prefix of the largest, which is
// the application's frame.
type frames struct {
	f0    *Func     // the first function, whose ranks every other shares
	frame []int64   // the application's frame
	fs    [][]int64 // the function array's frame, then each argument's
	whole []bool    // argument i is one whole cell (its rank is all)
}

func appFrames(fv *remora.Value, args []*remora.Value, pos semantics.Pos) (*frames, error) {
	if fv.Kind != remora.KFunc && fv.Len() > 0 {
		return nil, semantics.Stuckf(pos, remora.RuleBeta.Name, "cannot apply %s: it is not a function", describe(fv))
	}
	out := &frames{fs: [][]int64{fv.Shape}}
	if fv.Len() == 0 {
		// An empty array of functions: no function tells the ranks, and
		// nothing is applied.
		out.frame = fv.Shape
		return out, nil
	}
	out.f0 = fv.A[0].(*Func)
	ranks := out.f0.RanksFor(len(args))
	for _, a := range fv.A[1:] {
		if rs := a.(*Func).RanksFor(len(args)); !slices.Equal(rs, ranks) {
			return nil, semantics.Stuckf(pos, remora.RuleLift.Name, "the functions in the array take cells of ranks %s and %s: they must agree exactly", ranksString(ranks), ranksString(rs))
		}
	}
	if len(args) != len(ranks) {
		rule := remora.RuleBeta.Name
		if out.f0.Prim != nil {
			rule = remora.RuleDelta.Name
		}
		return nil, semantics.Stuckf(pos, rule, "%s takes %s, got %d", short(out.f0), out.f0.arity(), len(args))
	}
	out.whole = make([]bool, len(args))
	for i, a := range args {
		if ranks[i] == All && mutant.On("dynamic-whole-cell") { // mutant: a rank-all argument is cut into scalar cells, its shape a frame
			out.fs = append(out.fs, a.Shape)
			continue
		}
		r := len(a.Shape) - ranks[i]
		switch {
		case ranks[i] == All:
			r = 0
			out.whole[i] = true
		case r < 0:
			// §2 splits an argument into a frame and cells of the
			// expected rank: a cell of rank 1 cannot be taken from a
			// scalar (ERRATA R14; the library stops too).
			return nil, semantics.Stuckf(pos, remora.RuleLift.Name, "%s has rank %d, below its cell rank %d: no cell of rank %d can be taken from it", frameOwner(i+1), len(a.Shape), ranks[i], ranks[i])
		}
		out.fs = append(out.fs, a.Shape[:r])
	}
	bi := 0
	for i, f := range out.fs {
		if len(f) > len(out.fs[bi]) {
			bi = i
		}
	}
	big := out.fs[bi]
	for i, f := range out.fs {
		if !semantics.SameShape(f, big[:len(f)]) {
			return nil, semantics.Stuckf(pos, remora.RuleLift.Name, "frames %s (%s) and %s (%s) do not agree: neither is a prefix of the other", shapeString(big), frameOwner(bi), shapeString(f), frameOwner(i))
		}
	}
	out.frame = big
	return out, nil
}

// empty reports whether the application maps over no cells: its frame
// has a 0, or its function array is empty.
func (fr *frames) empty() bool { return fr.f0 == nil || product(fr.frame) == 0 }

// emptyApp is the result of an application whose frame is empty: of the
// frame's shape (ERRATA R10), or of the shape apply/shape gives, which
// must itself have no atoms (it is a frame with a 0, then the cells').
func emptyApp(pos semantics.Pos, frame []int64, shape *remora.Value) (*remora.Value, error) {
	if shape == nil {
		return emptyResult(frame), nil
	}
	c := &remora.Call{Pos: pos}
	ds, err := dims(c, "apply/shape", shape)
	if err != nil {
		return nil, err
	}
	if product(ds) != 0 {
		return nil, semantics.Stuckf(pos, remora.RuleMap.Name, "apply/shape: the frame %s is empty, so the result's shape cannot be %s (it has atoms)", shapeString(frame), shapeString(ds))
	}
	return emptyResult(ds), nil
}

// frameOwner names the i-th frame of an application.
func frameOwner(i int) string {
	if i == 0 {
		return "the function array"
	}
	return fmt.Sprintf("argument %d", i)
}

// lifted reports whether some frame is smaller than the application's,
// so that lift replicates cells. An argument that is one whole cell is not
// replicated by lift, whose copies it would take for one bigger cell: map
// hands the whole argument to every cell of the frame.
func (fr *frames) lifted() bool {
	for i, f := range fr.fs {
		if len(f) < len(fr.frame) && (i == 0 || !fr.whole[i-1]) {
			return true
		}
	}
	return false
}

func rankString(r int) string {
	if r == All {
		return "all"
	}
	return fmt.Sprint(r)
}

func ranksString(rs []int) string {
	ss := make([]string, len(rs))
	for i, r := range rs {
		ss[i] = rankString(r)
	}
	return "(" + strings.Join(ss, " ") + ")"
}

// short names a function for a message.
func short(f *Func) string {
	if f.Prim != nil {
		return f.Prim.Name
	}
	s := ExprString(f.Lam)
	if len(s) > 40 {
		s = s[:37] + "..."
	}
	return s
}

// apply applies a function array to argument arrays: lift, map, β or δ
// and collapse, done at once on flat arrays, replicating by index
// arithmetic rather than copying.
func (ev *evaluator) apply(fv *remora.Value, args []*remora.Value, pos semantics.Pos) (*remora.Value, error) {
	fr, err := appFrames(fv, args, pos)
	if err != nil {
		return nil, err
	}
	if fr.f0 == nil {
		ev.hit(remora.RuleMap.Name)
		return emptyResult(fr.frame), nil
	}
	if len(fr.frame) == 0 {
		return ev.call(fr.f0, args, pos)
	}
	if fr.lifted() {
		ev.hit(remora.RuleLift.Name)
	}
	ev.hit(remora.RuleMap.Name)
	n := product(fr.frame)
	if n == 0 {
		return emptyResult(fr.frame), nil
	}
	if _, err := semantics.Count(fr.frame); err != nil {
		// One call per cell, each cell a value: a frame past the limit
		// (empty cells over [99999999999]) ran Go out of memory.
		return nil, semantics.Stuckf(pos, remora.RuleMap.Name, "a frame of cells: %v", err)
	}
	if v, ok, err := ev.scalarCells(fv, args, fr, pos); ok {
		return v, err
	}
	div := make([]int, len(fr.fs))
	for i, f := range fr.fs {
		div[i] = n / product(f)
	}
	cellArgs := make([][]*remora.Value, len(args))
	for i, a := range args {
		_, cellArgs[i] = a.Cells(len(fr.fs[i+1]))
	}
	results := make([]*remora.Value, n)
	cur := make([]*remora.Value, len(args))
	for p := 0; p < n; p++ {
		fa := fv.A[p/div[0]].(*Func)
		for i := range args {
			cur[i] = cellArgs[i][p/div[i+1]]
		}
		if results[p], err = ev.call(fa, cur, pos); err != nil {
			return nil, err
		}
	}
	ev.hit(remora.RuleCollapse.Name)
	return collapse(pos, fr.frame, results)
}

// scalarCells maps a scalar primitive over a frame of base atoms as one
// δ-loop on the flat buffers (scalarLoop), where the rules apply δ to
// each cell and collapse the results. It counts the rules as they do (δ
// for each cell, then collapse) but spends one application of fuel on
// the whole loop. Where the loop goes wrong, or it does not apply, it
// reports false (giving the fuel back), and the cells are applied one by
// one, whose error is the rules' (results of different atom kinds are
// collapse's error there, not δ's).
func (ev *evaluator) scalarCells(fv *remora.Value, args []*remora.Value, fr *frames, pos semantics.Pos) (*remora.Value, bool, error) {
	p := fr.f0.Prim
	if ev.engines.NoScalarLoops || p == nil || p.Op == nil || !allSame(fv) || !baseKinds(args) {
		return nil, false, nil
	}
	calls := ev.calls
	if err := ev.burn(pos, remora.RuleDelta.Name); err != nil {
		return nil, true, err // the first cell's δ would run out here too
	}
	v, err := scalarLoop(p, args, fr.frame, fr.fs[1:], pos)
	if err != nil {
		ev.calls = calls
		return nil, false, nil
	}
	ev.add(remora.RuleDelta.Name, product(fr.frame))
	ev.hit(remora.RuleCollapse.Name)
	return v, true, nil
}

// baseKinds reports whether every argument holds base atoms.
func baseKinds(args []*remora.Value) bool {
	for _, a := range args {
		if !isBase(a.Kind) && a.Len() > 0 {
			return false
		}
	}
	return true
}

// allSame reports whether every atom of a function array is the same
// primitive.
func allSame(fv *remora.Value) bool {
	f0 := fv.A[0].(*Func)
	for _, a := range fv.A[1:] {
		if a.(*Func).Prim != f0.Prim {
			return false
		}
	}
	return true
}

// call applies one function to arguments that are its cells: β for a λ,
// δ for a primitive.
func (ev *evaluator) call(f *Func, args []*remora.Value, pos semantics.Pos) (*remora.Value, error) {
	rule := remora.RuleDelta.Name
	if f.Lam != nil {
		rule = remora.RuleBeta.Name
	}
	if err := ev.burn(pos, rule); err != nil {
		return nil, err
	}
	if f.Lam != nil {
		ev.hit(remora.RuleBeta.Name)
		env := f.Env
		for i, p := range f.Lam.Params {
			env = env.bind(p.Name, args[i])
		}
		return ev.eval(f.Lam.Body, env)
	}
	ev.hit(remora.RuleDelta.Name)
	p := f.Prim
	if p.Fold != nil {
		return ev.fold(p, args, pos)
	}
	return delta(p, args, pos)
}

// delta is the δ-rule of a primitive other than the fold family, on its
// cells.
func delta(p *PrimDef, args []*remora.Value, pos semantics.Pos) (*remora.Value, error) {
	c := &remora.Call{Pos: pos}
	switch {
	case p.Op != nil:
		if !baseKinds(args) {
			return nil, stuck(c, p.Name, "takes numbers or booleans, got %s", kindsString(args))
		}
		return scalarLoop(p, args, nil, make([][]int64, len(args)), pos)
	case p.Name == "if":
		if args[0].Kind != remora.KBool {
			return nil, stuck(c, "if", "the condition is a bool, got %s", describe(args[0]))
		}
		if args[0].I[0] != 0 {
			return args[1], nil
		}
		return args[2], nil
	}
	v, err := p.Cells(c, args)
	return v, remora.AtPos(err, pos)
}

// foldArgs splits a fold's arguments into operator, initial accumulator
// (nil when the plan takes none) and items, checking the array has a
// major axis.
func foldArgs(p *PrimDef, args []*remora.Value, pos semantics.Pos) (op, init *remora.Value, items []*remora.Value, err error) {
	arr := args[len(args)-1]
	if err := major(&remora.Call{Pos: pos}, p.Name, arr); err != nil {
		return nil, nil, nil, err
	}
	// A fold the run cannot afford to cut into items (a Value each, and
	// the small-step's term for it: 10^8 items are 10 GiB) is stuck past
	// --max-memory before they are made, rather than the run stopped.
	if err := remora.AffordItems(arr.Shape[0], foldItemWords, pos); err != nil {
		return nil, nil, nil, err
	}
	_, items = arr.Cells(1)
	if p.Fold.TakesInit() {
		init = args[1]
		if p.Fold.ReplicatesInit() {
			var err error
			if init, err = padInit(init, arr.Shape[1:]); err != nil {
				return nil, nil, nil, semantics.Stuckf(pos, remora.RuleDelta.Name, "%s: its initial value replicated: %v", p.Name, err)
			}
		}
	}
	return args[0], init, items, nil
}

// foldItemWords is the words an item of a fold takes when cut out: its
// Value, a pointer to it, and the small-step's literal term for it.
const foldItemWords = int64((unsafe.Sizeof(remora.Value{})+unsafe.Sizeof(Lit{}))/8 + 2)

// padInit replicates the reduce family's initial accumulator over the
// leading axes its items have beyond it (the typed basis's @pad): (scan +
// 0 m) starts from a row of zeros. An initial value that is no suffix of
// the items' shape is left as it is.
func padInit(init *remora.Value, item []int64) (*remora.Value, error) {
	pad := len(item) - len(init.Shape)
	if pad <= 0 || !semantics.SameShape(item[pad:], init.Shape) {
		return init, nil
	}
	if err := remora.ReplicateSize(init, nil, item[:pad]); err != nil {
		return nil, err // an empty array of huge items: (reduce + 0 (array [0 99999999999]))
	}
	return remora.ReplicateTo(init, nil, item[:pad]), nil
}

// liftedTreeReduce computes treeReduce's tree over the items of arr a
// level at a time: the items at even and at odd positions are two arrays,
// and one application of op, lifted over their frame, combines every pair
// of the level, so a reduction of n scalars is log n vectorised δ-loops
// over flat buffers, in memory proportional to the array, rather than n
// applications on n item values. Lifting over the frame of pairs is
// pairwise application exactly when op is one function whose cells are no
// larger than an item: the level's cells are the pairs' cells, in the
// same order. The rules counted are the pairs' (levelCounts); the fuel
// spent is the level's. Otherwise, or when the lifted application goes
// wrong, it reports false, with the rules counted and the fuel spent as
// they were, and the per-pair tree starts again, reporting the error
// where it meets it.
func (ev *evaluator) liftedTreeReduce(op, arr *remora.Value, pos semantics.Pos) (*remora.Value, bool) {
	if ev.engines.NoLiftedTrees || len(op.Shape) != 0 || op.Kind != remora.KFunc || len(arr.Shape) == 0 || arr.Shape[0] < 2 {
		return nil, false
	}
	f, ok := op.A[0].(*Func)
	if !ok {
		return nil, false
	}
	ranks := f.RanksFor(2)
	if len(ranks) != 2 {
		return nil, false
	}
	for _, k := range ranks {
		if k == All || k > len(arr.Shape)-1 {
			return nil, false
		}
	}
	// A pair's frame: the items' shape less the smaller cell rank.
	pair := arr.Shape[1 : len(arr.Shape)-min(ranks[0], ranks[1])]
	saved, calls := maps.Clone(ev.counter), ev.calls
	undo := func() (*remora.Value, bool) {
		if ev.counter != nil {
			clear(ev.counter)
			maps.Copy(ev.counter, saved)
		}
		ev.calls = calls
		return nil, false
	}
	cur := arr
	for cur.Shape[0] > 1 {
		n := int(cur.Shape[0])
		m := n / 2
		res, err := ev.apply(op, []*remora.Value{cur.Strided(0, 2, m), cur.Strided(1, 2, m)}, pos)
		if err != nil || len(res.Shape) == 0 || res.Shape[0] != int64(m) {
			return undo()
		}
		if n%2 == 1 {
			if res, err = appendItem(pos, res, cur.Item(n-1)); err != nil {
				return undo()
			}
		}
		ev.levelCounts(m, pair)
		cur = res
	}
	return cur.Item(0), true
}

// levelCounts turns the rules counted for one level of liftedTreeReduce,
// an application over the frame [m] ++ pair, into those of its m pairs,
// applications over the frame pair: the level lifted the operator, mapped
// it and collapsed its cells once; each pair does so itself when its
// frame is not scalar, and otherwise calls the operator (β or δ) with no
// lift, map or collapse. The cells' own rules are the same.
func (ev *evaluator) levelCounts(m int, pair []int64) {
	pairs := 0 // the lifts, maps and collapses of the pairs
	if len(pair) > 0 {
		pairs = m
	}
	ev.add(remora.RuleLift.Name, pairs-1)
	ev.add(remora.RuleMap.Name, pairs-1)
	if product(pair) > 0 { // an empty frame collapses nothing
		ev.add(remora.RuleCollapse.Name, pairs-1)
	}
}

// appendItem is the array of arr's items, then item: the collapse of
// them, but copied as two flat buffers when item is of arr's cell shape
// and kind (the collapse then only copies), rather than cut into one
// Value per item first, which at an odd level of 10^6 items would cost
// more than the reduction.
func appendItem(pos semantics.Pos, arr, item *remora.Value) (*remora.Value, error) {
	if item.Kind != arr.Kind || !semantics.SameShape(arr.Shape[1:], item.Shape) {
		_, cells := arr.Cells(1)
		return collapse(pos, []int64{arr.Shape[0] + 1}, append(cells, item))
	}
	shape := append([]int64{arr.Shape[0] + 1}, item.Shape...)
	out := remora.NewValue(arr.Kind, shape, arr.Len()+item.Len())
	remora.CopyAtoms(out, 0, arr, 0, arr.Len())
	remora.CopyAtoms(out, arr.Len(), item, 0, item.Len())
	return out, nil
}

// fold is δ for the reduce and scan family: the operator applied, with
// lifting, in index order.
func (ev *evaluator) fold(p *PrimDef, args []*remora.Value, pos semantics.Pos) (*remora.Value, error) {
	if p.Tree {
		if v, ok := ev.flatTreeReduce(args[0], args[len(args)-1], pos); ok {
			return v, nil
		}
		if v, ok := ev.liftedTreeReduce(args[0], args[len(args)-1], pos); ok {
			return v, nil
		}
	}
	if v, ok, err := ev.scalarFold(p, args, pos); ok {
		return v, err
	}
	op, init, items, err := foldArgs(p, args, pos)
	if err != nil {
		return nil, err
	}
	var stackErr error
	apply := func(f, a, b *remora.Value) (*remora.Value, error) {
		return ev.apply(f, []*remora.Value{a, b}, pos)
	}
	stack := func(xs []*remora.Value) *remora.Value {
		v, err := collapse(pos, []int64{int64(len(xs))}, xs)
		if err != nil {
			stackErr = err
		}
		return v
	}
	if p.Tree {
		if len(items) == 0 {
			return init, nil
		}
		return treeReduce(op, items, apply)
	}
	same := func(x *remora.Value) *remora.Value { return x }
	v, err := remora.RunFold(p.Fold, p.Name, op, init, items, apply, same, stack, &remora.Call{Pos: pos})
	if err == nil {
		err = stackErr
	}
	return v, err
}
