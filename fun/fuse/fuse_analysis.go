package fuse

import (
	"fmt"
	"github.com/arraysem/arraysem/fun"
	"slices"
	"strings"
)

// The bottom-up analysis of "A T2 Graph-Reduction Approach To Fusion"
// (Fig 12's fusion1 and Fig 13's tryFuseSOAC), which fuses as it decides.

// fusion1 is Fig 12 over a body: its statements from last to first, each
// adding its contribution to the result of those after it, so that a
// producer is reached after all its consumers (the order of the
// dependency graph, without building it). where says whose body it is
// (for the notes about its results); wit are the sizes witnessed before
// it. It fuses in b (its own producers into its consumers, and inside
// the bodies nested in it) and returns its result restricted to the names
// free in it.
func (f *fuser) fusion1(b *fun.Body, where string, wit wset) *fusionRes {
	r := mkNullRes()
	for _, x := range b.Result {
		r.unfuse(x.Name, reason{5, x.NamePos, "returned by " + where})
	}
	wits := prefixWitness(b, wit)
	for k := len(b.Stms) - 1; k >= 0; k-- {
		r = f.fusion1Stm(r, b.Stms[k], wits[k])
	}
	b.Stms = slices.DeleteFunc(b.Stms, func(s *fun.Stm) bool { return f.gone[s] })
	bound := map[string]bool{}
	for _, s := range b.Stms {
		for _, p := range s.Pat {
			bound[p.Name.Name] = true
		}
	}
	return r.restrict(bound)
}

// fusion1Stm is fusion1 for one statement s, given the result r of the
// statements after it; wit are the sizes witnessed before s.
func (f *fuser) fusion1Stm(r *fusionRes, s *fun.Stm, wit wset) *fusionRes {
	place := formName(s.Exp) + " at " + at(s.Exp.Pos())
	switch e := s.Exp.(type) {
	case *fun.IfExp:
		// The branches are analysed from a null result: nothing of one
		// fuses with anything of the other or of what follows the if
		// (visibility); their consumers lie on disjoint paths (unionRes),
		// which share one with the rest (composeRes).
		where := "a branch of the " + place
		rt := f.fusion1(e.Then, where, wit)
		re := f.fusion1(e.Else, where, wit)
		return f.composeRes(r, f.unionRes(rt, re, e.If))
	case *fun.KernelExp, *fun.IotaExp, *fun.CopyExp, *fun.ReduceExp, *fun.ScanExp, *fun.RedomapExp, *fun.FilterExp:
		return f.tryFuseSOAC(r, s, f.lambda(s, wit), wit)
	case *fun.LoopExp:
		return f.composeRes(r, f.lambda(s, wit).res)
	case *fun.IndexExp:
		r.unfuse(e.Arr.Name, reason{5, e.Arr.NamePos, fmt.Sprintf("read as %s at %s, not at the index of a SOAC over it", fun.PrintExp(e), at(e.Pos()))})
	case *fun.SliceExp:
		r.unfuse(e.Arr.Name, reason{5, e.Arr.NamePos, "sliced at " + at(e.Pos())})
	case *fun.TransposeExp:
		r.unfuse(e.Arr.Name, reason{5, e.Arr.NamePos, "transposed at " + at(e.Pos()) + ", and the transpose is used as a whole"})
	}
	return r
}

// lamInfo is what a statement's bodies (the paper's lambdas) contribute:
// the arrays the statement takes as inputs, and the result of its other
// uses of arrays.
type lamInfo struct {
	inputs map[string]bool
	res    *fusionRes
}

// lambda analyses (and fuses in) the bodies of a SOAC or loop statement s
// and classifies its uses of arrays of outside. An input of s (an array
// it folds, or reads only at its own index) is not unfusable. Any other
// use inside a body is, since a body runs once per iteration: fusing into
// a consumer there would compute the producer once per iteration (Fig 9,
// case 3), which is what the paper's composeRes r (composeRes r' r')
// expresses. A use by s itself, outside its bodies (a loop's initial
// values, a fold's start value, a filter's array), is case 5.
func (f *fuser) lambda(s *fun.Stm, wit wset) lamInfo {
	place := "the " + formName(s.Exp) + " at " + at(s.Exp.Pos())
	out := lamInfo{inputs: map[string]bool{}, res: mkNullRes()}
	type bodyRes struct {
		word string // "body", "operator", "map"
		res  *fusionRes
	}
	var inner []bodyRes
	analyse := func(b *fun.Body, word string, params []*fun.Param, idx *fun.Ident) {
		local := map[string]bool{}
		for _, p := range params {
			local[p.Name.Name] = true
		}
		if idx != nil {
			local[idx.Name] = true
		}
		r := f.fusion1(b, "the "+word+" of "+place, witness(wit, params))
		inner = append(inner, bodyRes{word, r.restrict(local)})
	}
	whole := func(x *fun.Ident, what string) {
		out.res.unfuse(x.Name, reason{5, x.NamePos, what + place})
	}
	// A fold's array is its input, unless its operator uses it too.
	fold := func(x *fun.Ident, op *fun.Body) {
		if !mentions(op, x.Name) {
			out.inputs[x.Name] = true
		}
	}
	switch e := s.Exp.(type) {
	case *fun.KernelExp:
		analyse(e.Body, "body", nil, e.Var)
		out.inputs = inputReads(e.Var.Name, []*fun.Body{e.Body})
	case *fun.CopyExp:
		out.inputs[e.Arr.Name] = true
	case *fun.ReduceExp:
		analyse(e.Body, "operator", e.Params, nil)
		whole(e.Ne, "the start value of ")
		fold(e.Arr, e.Body)
	case *fun.ScanExp:
		analyse(e.Body, "operator", e.Params, nil)
		whole(e.Ne, "the start value of ")
		fold(e.Arr, e.Body)
	case *fun.RedomapExp:
		analyse(e.Map, "map", nil, e.Var)
		analyse(e.Op, "operator", e.Params, nil)
		whole(e.Ne, "the start value of ")
		out.inputs = inputReads(e.Var.Name, []*fun.Body{e.Map}, e.Op)
	case *fun.FilterExp:
		analyse(e.Body, "body", e.Params, nil)
		whole(e.Arr, "filtered by ")
	case *fun.LoopExp:
		analyse(e.Body, "body", e.Params, e.Var)
		for _, x := range e.Init {
			whole(x, "passed to ")
		}
	}
	for _, b := range inner {
		for x := range out.inputs {
			delete(b.res.unfusable, x)
			delete(b.res.inpArr, x)
			delete(b.res.partial, x)
		}
		if f.unsafe(3) {
			// The mutant: the consumers inside the bodies are visible
			// to the producers outside, which fuse into them.
			for _, k := range b.res.kers {
				if k.inside == "" {
					k.inside = "the " + b.word + " of " + place
				}
			}
			out.res = merge(out.res, b.res)
			continue
		}
		for x, why := range b.res.unfusable {
			out.res.unfuse(x, reason{3, firstPos(why), "used in the " + b.word + " of " + place})
		}
		for x := range b.res.inpArr {
			if len(b.res.unfusable[x]) > 0 || len(b.res.inpArr[x]) == 0 {
				continue
			}
			k := b.res.consumers(x)[0]
			out.res.unfuse(x, reason{3, k.stm.Exp.Pos(), fmt.Sprintf("consumed by %s, in the %s of %s", k.name(), b.word, place)})
		}
	}
	return out
}

// before orders reasons by position, then case, then text.
func before(a, b reason) bool {
	if c := comparePos(a.pos, b.pos); c != 0 {
		return c < 0
	}
	if a.fig != b.fig {
		return a.fig < b.fig
	}
	return a.text < b.text
}

// mentions reports whether the name x occurs in b.
func mentions(b *fun.Body, x string) bool {
	found := false
	fun.Idents(b, func(y *fun.Ident) { found = found || y.Name == x })
	return found
}

// firstPos is the earliest position among reasons.
func firstPos(why []reason) fun.Pos {
	p := why[0].pos
	for _, w := range why[1:] {
		if comparePos(w.pos, p) < 0 {
			p = w.pos
		}
	}
	return p
}

// tryFuseSOAC is Fig 13: it processes the SOAC statement s, whose bodies
// contribute lam, given the result r of the statements after it. A map
// (kernel, iota, copy) whose array x the kernels of r take as inputs is
// fused into all of them when x is not unfusable, is not consumed on one
// branch of an if only, and is compatible with them; its inputs become
// theirs. Otherwise s starts a new kernel of the result, whose inputs are
// its own.
func (f *fuser) tryFuseSOAC(r *fusionRes, s *fun.Stm, lam lamInfo, wit wset) *fusionRes {
	r = f.composeRes(r, lam.res)
	x := s.Pat[len(s.Pat)-1]
	isMap := false
	switch s.Exp.(type) {
	case *fun.KernelExp, *fun.IotaExp, *fun.CopyExp:
		isMap = true
	}
	if isMap {
		to, keep, ok := f.fusable(r, s, x, wit)
		if ok {
			r = f.fuseInto(r, s, x.Name.Name, lam, to, keep)
			if !keep {
				return r
			}
			// Kept for its other uses (an unsafe case 5), s still
			// reads its inputs: it is a kernel too.
		}
	} else if x.Type.Rank() > 0 {
		if ks := r.consumers(x.Name.Name); len(ks) > 0 {
			f.note(s, false, 2, "kept %s (%s): %s reads it, but a %s is no map (Fig 9, case 2: only maps fuse into their consumers%s)",
				x.Name.Name, formName(s.Exp), ks[0].name(), formName(s.Exp), case2Why(s.Exp))
		}
	}
	// A new kernel: its inputs are used by it and by the kernels of r
	// that take them, on one control path (case 4).
	f.nker++
	k := &fusedKer{id: f.nker, stm: s, inp: map[string]bool{}}
	r.addKer(x.Name.Name, k)
	for _, y := range sortedKeys(lam.inputs) {
		if ks := r.consumers(y); len(ks) > 0 && !f.unsafe(4) {
			r.unfuse(y, reason{4, s.Exp.Pos(), fmt.Sprintf("used by both %s and %s on one control path", k.name(), ks[0].name())})
		}
		r.addInput(y, k)
	}
	return r
}

// case2Why completes the explanation of case 2 for a producer form.
func case2Why(e fun.Exp) string {
	if _, ok := e.(*fun.FilterExp); ok {
		return "; a filter's size is known only at run time, and the consumer's index is no index of its input"
	}
	return "; each of its elements depends on the ones before"
}

// sortedKeys are the keys of a set, sorted.
func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// fusable decides whether the map statement s, which produces x, fuses
// into the kernels of r that take x as an input (the conditions of Fig
// 13), noting why not when it does not. keep is set when an unsafe case
// 5 fuses it although it has other uses: it is then kept for them.
func (f *fuser) fusable(r *fusionRes, s *fun.Stm, x *fun.Param, wit wset) (to []*fusedKer, keep, ok bool) {
	name := x.Name.Name
	ks := r.consumers(name)
	var blocking []reason
	for _, why := range r.unfusable[name] {
		if f.unsafe(why.fig) {
			keep = keep || why.fig == 5
			continue
		}
		blocking = append(blocking, why)
	}
	kept := func(fig int, format string, args ...any) ([]*fusedKer, bool, bool) {
		f.note(s, false, fig, "kept %s: %s", name, fmt.Sprintf(format, args...))
		return nil, false, false
	}
	earliest := func(fig int, among []reason) (reason, bool) {
		var best reason
		found := false
		for _, w := range among {
			if (fig == 0 || w.fig == fig) && (!found || before(w, best)) {
				best, found = w, true
			}
		}
		return best, found
	}
	// (2) some kernels take it as an input. With none, case 3 is the
	// reason when a consumer in a loop or another SOAC's body reads it;
	// else nothing fuses with it at all.
	if len(ks) == 0 {
		if why, ok := earliest(3, r.unfusable[name]); ok {
			return kept(3, "%s (Fig 9, case 3: %s)", why.text, caseWhy(3, name))
		}
		if why, ok := earliest(0, r.unfusable[name]); ok {
			return kept(0, "no SOAC consumes it (it is %s)", why.text)
		}
		return kept(0, "not used")
	}
	// (1) none of the outputs is unfusable.
	if why, ok := earliest(0, blocking); ok {
		return kept(why.fig, "%s (Fig 9, case %d: %s)", why.text, why.fig, caseWhy(why.fig, name))
	}
	if p, ok := r.partial[name]; ok {
		return kept(0, "consumed in only one branch of the if at %s (fused, it would not be computed, nor get stuck, on the other)", at(p))
	}
	// (3) all of them are compatible: a kernel or a redomap's map over
	// x's own size; reduce, scan and copy take x as it is.
	n := x.Type.Dims[0].Name
	for _, k := range ks {
		if b := consumerBound(k.stm.Exp); b != nil && b.Name != n {
			return kept(5, "%s reads it at its own index, but runs over %s, not over its size %s (Fig 9, case 5: %s)", k.name(), b.Name, n, caseWhy(5, name))
		}
	}
	// Fusing moves x's computation into the consumers: what its
	// iterations make besides their elements would live on beside the
	// consumers' own arrays (a higher peak of memory), and the sizes of
	// its rows, checked when x is made even with no rows, must be known
	// non-negative or checked by every consumer.
	if c, ok := s.Exp.(*fun.CopyExp); ok && x.Type.Rank() > 1 {
		return kept(0, "a copy of %s made row by row, as the kernel it derives, would make each row as an array of its own", c.Arr.Name)
	}
	if t := f.temporary(s); t != nil {
		return kept(0, "each of its iterations also makes %s (%s at %s), which fused would be live beside the consumer's arrays", t.Pat[len(t.Pat)-1].Name.Name, formName(t.Exp), at(t.Exp.Pos()))
	}
	for _, d := range x.Type.Dims[1:] {
		if wit[d.Name] {
			continue
		}
		for _, k := range ks {
			if !consumerChecks(k.stm, d.Name) {
				return kept(0, "the size %s of its rows may be negative, which gets it stuck even with no rows; %s does not check it", d.Name, k.name())
			}
		}
	}
	return ks, keep, true
}

// caseWhy is why case fig of Fig 9 forbids fusing x.
func caseWhy(fig int, x string) string {
	switch fig {
	case 3:
		return "fusing would compute " + x + " once per iteration"
	case 4:
		return "fusing would compute " + x + " twice"
	case 5:
		return "only a SOAC's input fuses; this use needs the array"
	}
	return ""
}

// consumerBound is the bound of the index at which a kernel or a redomap
// reads its inputs; nil for the forms that take their input whole.
func consumerBound(e fun.Exp) *fun.Ident {
	switch e := e.(type) {
	case *fun.KernelExp:
		return e.Bound
	case *fun.RedomapExp:
		return e.Bound
	}
	return nil
}

// consumerChecks reports whether the consumer statement s checks that
// the size d is not negative when it starts (a kernel checks the sizes of
// its rows, as its binding's type gives them).
func consumerChecks(s *fun.Stm, d string) bool {
	if _, ok := s.Exp.(*fun.KernelExp); !ok || len(s.Pat) != 1 {
		return false
	}
	return slices.ContainsFunc(s.Pat[0].Type.Dims[1:], func(x *fun.Ident) bool { return x.Name == d })
}

// temporary is a statement of the body of the map statement s that makes
// an array other than its element, at any depth; nil if there is none.
func (f *fuser) temporary(s *fun.Stm) *fun.Stm {
	e, ok := s.Exp.(*fun.KernelExp)
	if !ok {
		return nil // iota and copy make their elements only
	}
	var elem *fun.Stm
	if len(e.Body.Result) == 1 {
		for _, t := range e.Body.Stms {
			if len(t.Pat) == 1 && t.Pat[0].Name.Name == e.Body.Result[0].Name {
				elem = t
			}
		}
	}
	// Every statement at any depth, the element's own inside included,
	// but the element's.
	var found *fun.Stm
	fun.Stms(e.Body, func(t *fun.Stm) {
		if found == nil && t != elem && makesArray(t) {
			found = t
		}
	})
	return found
}

// makesArray reports whether a statement allocates an array (the forms
// FUN's cost counters count: a kernel, iota, copy, scan, scanomap or
// filter).
func makesArray(s *fun.Stm) bool {
	switch e := s.Exp.(type) {
	case *fun.KernelExp, *fun.IotaExp, *fun.CopyExp, *fun.ScanExp, *fun.FilterExp:
		return true
	case *fun.RedomapExp:
		return e.Scan
	}
	return false
}

// fuseInto fuses the map statement s, which produces x and has inputs
// lam.inputs, into the kernels to (after fusable said it may): each gets
// its own copy of s's body, and takes s's inputs as its own. An input of
// s that a kernel of r outside to also takes is then used by two kernels
// on one path (Fig 13's in2_kers). Unless keep, s is dropped.
func (f *fuser) fuseInto(r *fusionRes, s *fun.Stm, x string, lam lamInfo, to []*fusedKer, keep bool) *fusionRes {
	mod := map[int]bool{}
	for _, k := range to {
		mod[k.id] = true
	}
	for _, y := range sortedKeys(lam.inputs) {
		if !f.unsafe(4) {
			for _, k := range r.consumers(y) {
				if !mod[k.id] {
					r.unfuse(y, reason{4, s.Exp.Pos(), fmt.Sprintf("used by both %s and %s on one control path", k.name(), to[0].name())})
					break
				}
			}
		}
	}
	var names []string
	made := ""
	for _, k := range to {
		names = append(names, k.name())
		before := formName(k.stm.Exp)
		f.inline(s, x, k)
		if after := formName(k.stm.Exp); after != before {
			made = ", making a " + after
			if len(to) > 1 {
				made += " of " + k.stm.Pat[len(k.stm.Pat)-1].Name.Name
			}
		}
		k.fusedVars = append(k.fusedVars, x)
		delete(k.inp, x)
		for y := range lam.inputs {
			r.addInput(y, k)
		}
	}
	delete(r.inpArr, x)
	f.changed = true
	into := names[0]
	if len(names) > 1 {
		into = strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
		if f.unsafe(4) {
			into += ", computing it in each (unsafe: Fig 9, case 4)"
		} else {
			into += ", which lie on disjoint control paths"
		}
	}
	for _, k := range to {
		if k.inside != "" {
			made += fmt.Sprintf(", computing it once per iteration of %s (unsafe: Fig 9, case 3)", k.inside)
			break
		}
	}
	if keep {
		f.note(s, true, 5, "fused %s (%s) into %s%s, and kept it for its other uses (unsafe: Fig 9, case 5)", x, formName(s.Exp), into, made)
		return r
	}
	f.note(s, true, 0, "fused %s (%s) into %s%s", x, formName(s.Exp), into, made)
	f.gone[s] = true
	return r
}
