package proofstests

import (
	"fmt"
	"math/rand"
	"slices"
	"strconv"
	"strings"
)

// The Remora generator writes random well-typed programs of the explicitly
// typed dialect (docs/remora.md, remora/parse.go) as source text, so that the
// properties also exercise the reader and the parser. It is type-directed
// and top-down: gen(scope, τ, depth) writes an expression of type τ, and
// every production first computes the types of its parts from τ by the
// typing rules the checker implements (T-APP's frames, T-TAPP and T-IAPP on
// the basis types of remora/basis.go, T-PACK and T-UNPACK), so every part
// is again a gen call at a known type. Types are tracked symbolically: a
// shape item is a constant, a Nat variable plus a constant ((+ n 1)) or a
// Shape variable (@s), so the bodies of i-fn functions and of unbox (whose
// hidden index is a variable) are generated like any other expression.
//
// What it writes: scalar primitives on int, float, bool lifted over frames
// that are prefixes of one another (and frames of primitives or of λs in
// function position); if; literals (nested brackets, (array …), strings,
// characters, empty (frame [0 …] τ)); reranked λs applied to larger
// frames; let (annotated, several bindings, rebinding a name); user
// functions by define or let, with index parameters (Nat and Shape) and a
// type parameter, called as f{τ | ι …} with the instantiation unified
// against the target; the reduce, scan and fold families at instantiations
// with @pad, @c, @item and @acc, lifted over frames; append, reverse,
// rotate, head, tail, replicate, length, iota, reshape, reify, and the
// partial index, subvector and scatter (δ may get stuck, as on / and %);
// box, boxes, filter and lift opened by unbox, lifted over frames of boxes,
// with bodies that fold over the contents so that the hidden index does not
// leak; arrays of functions (closures included) and of boxes as data.
//
// A type whose atoms are a type variable (inside a t-fn function) can only
// be built from a variable in scope: such a type is "generatable" when some
// variable of that atom type has a shape that is a suffix of it (the leaf is
// then a replicate of the variable), and productions only ask for
// generatable types.
//
// Names are a letter and a global counter (x variables, f functions, b
// boxes, n and @s index parameters, d hidden indices, t type variables).
// Binders sometimes reuse a name in scope on purpose, to exercise
// shadowing and capture in the substitutions: a let rebinds a term
// variable; an i-fn, a t-fn, an unbox or a lift rebinds an index or type
// variable (what mentions the outer one is then out of reach, rScope.hide).

// avoidBugScalarIota: BUG (remora, fixed in 69e7a34, so false): iota at
// the empty shape, iota{ | []}
// (also iota{ | [@s]} with @s instantiated to []), has type int but
// evaluates to the primitive itself, not to 0: instantiate's unscalar makes
// the scalar array type [int] the atom type int, so the big-step's
// instantiated and the small-step's instantiateStep do not see an array
// type and keep a function; using it, as in (- iota{ | []} 8), panics in
// both evaluators (index out of range in scalarLoop / stepCall). With it
// set the generator writes iota only at shapes with a dimension.
const avoidBugScalarIota = false

// avoidBugIfOnAtoms: BUG (remora, fixed in 69e7a34, so false): if was a
// scalar primitive (its δ-rule
// works on int/float slots), but its type (Forall (t) (-> (bool t t) t))
// lets t be a function or a box type; ((if{(-> (int) int) | } #t f g) 5)
// type-checks and then panics in both evaluators (index out of range in
// scalarLoop / stepCall, reading the int slot of a function atom). With it
// set the generator writes if only on base types and type variables that
// it instantiates with base types.
const avoidBugIfOnAtoms = false

// iotaOK reports whether iota{ | s} may be written (see avoidBugScalarIota).
func iotaOK(s rShape) bool {
	if !avoidBugScalarIota {
		return true
	}
	for _, it := range s {
		if !it.SV {
			return true
		}
	}
	return false
}

// RemoraGenConfig bounds the generated programs.
type RemoraGenConfig struct {
	MaxDepth int   // nesting of productions in the main expression at the largest size
	MaxDim   int64 // largest constant dimension
	MaxRank  int   // largest rank of a randomly chosen type
	MaxElems int64 // largest number of atoms of any generated type (a variable dimension counts as MaxDim)
	MaxDefs  int   // most top-level definitions
	Empty    bool  // dimensions may be 0 (empty frames, empty filters, empty boxes)
	// EmptyAtomArrays: the reduce and fold families may run over arrays of
	// functions or boxes (or of a type variable's atoms) whose items are
	// empty, and reshape may reshape an empty array of them; see
	// avoidBugEmptyAtomArrays in remora_test.go
	EmptyAtomArrays bool
	Div             float64 // probability of choosing / or % (δ may get stuck dividing by zero)
}

// DefaultRemoraGenConfig is what the properties use.
var DefaultRemoraGenConfig = RemoraGenConfig{
	MaxDepth:        4,
	MaxDim:          4,
	MaxRank:         3,
	MaxElems:        24,
	MaxDefs:         2,
	Empty:           true,
	EmptyAtomArrays: true,
	Div:             0.06,
}

// RemoraCase is one generated program.
type RemoraCase struct {
	Seed int64
	Size int
	Src  string
}

func (c *RemoraCase) String() string {
	return fmt.Sprintf("\n%s\n-- remora seed %d, size %d", c.Src, c.Seed, c.Size)
}

// GenerateRemora writes a program: up to cfg.MaxDefs top-level function
// definitions and one expression of a random type. size (0..MaxGenSize)
// scales the nesting depth.
func GenerateRemora(r *rand.Rand, size int, cfg RemoraGenConfig) string {
	g := &remoraGen{r: r, cfg: cfg}
	depth := 2 + min(size, MaxGenSize)*(cfg.MaxDepth-2)/MaxGenSize
	sc := &rScope{}
	var b strings.Builder
	for i := g.intn(cfg.MaxDefs + 1); i > 0; i-- {
		f, src := g.funDef(sc, max(1, depth-1), true)
		b.WriteString(src)
		b.WriteByte('\n')
		sc = sc.withFun(f)
	}
	if len(sc.funs) > 0 && g.chance(0.7) {
		// call a definition: the target is its result type at some
		// instantiation, in a frame
		for try := 0; try < 5; try++ {
			t := g.callTarget(sc.funs[g.intn(len(sc.funs))])
			if _, ok := fnOf(t.Elem); ok || !g.generatable(sc, t) {
				continue
			}
			if s, ok := g.pCall(sc, t, depth); ok {
				b.WriteString(s)
				b.WriteByte('\n')
				return b.String()
			}
		}
	}
	t := g.randType(sc, cfg.MaxRank)
	if _, ok := fnOf(t.Elem); ok || isTVar(t.Elem) {
		t.Elem = g.baseElem() // functions print as terms, closures differently in the two semantics
	}
	b.WriteString(g.gen(sc, t, depth))
	b.WriteByte('\n')
	return b.String()
}

// ---------------------------------------------------------------- types

// rItem is one item of a shape: the constant C, the Nat V + C, or (SV) the
// Shape variable V.
type rItem struct {
	C  int64
	V  string
	SV bool
}

func natC(c int64) rItem { return rItem{C: c} }

func (it rItem) String() string {
	switch {
	case it.SV:
		return it.V
	case it.V == "":
		return strconv.FormatInt(it.C, 10)
	case it.C == 0:
		return it.V
	}
	return fmt.Sprintf("(+ %s %d)", it.V, it.C)
}

func (it rItem) isConst() bool { return !it.SV && it.V == "" }

// plus is the Nat it + k.
func (it rItem) plus(k int64) rItem { return rItem{C: it.C + k, V: it.V} }

// pred is the Nat it - 1 when it can be written (its constant part is at
// least 1).
func (it rItem) pred() (rItem, bool) {
	if it.SV || it.C < 1 {
		return rItem{}, false
	}
	return rItem{C: it.C - 1, V: it.V}, true
}

type rShape []rItem

func (s rShape) items() string {
	ss := make([]string, len(s))
	for i, it := range s {
		ss[i] = it.String()
	}
	return strings.Join(ss, " ")
}

// index prints s as a Shape index: [2 n @s].
func (s rShape) index() string { return "[" + s.items() + "]" }

func (s rShape) equal(t rShape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

func (s rShape) hasSuffix(t rShape) bool {
	return len(t) <= len(s) && s[len(s)-len(t):].equal(t)
}

func (s rShape) isConst() bool {
	for _, it := range s {
		if !it.isConst() {
			return false
		}
	}
	return true
}

func (s rShape) dims() []int64 {
	ds := make([]int64, len(s))
	for i, it := range s {
		ds[i] = it.C
	}
	return ds
}

func cat(parts ...rShape) rShape {
	var out rShape
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// rType is an array type [Elem Sh…]; Elem is int, float, bool or a type
// variable.
type rType struct {
	Elem string
	Sh   rShape
}

func (t rType) String() string {
	if len(t.Sh) == 0 {
		return t.Elem
	}
	return "[" + t.Elem + " " + t.Sh.items() + "]"
}

func isBase(elem string) bool {
	return elem == "int" || elem == "float" || elem == "bool" || elem == "char"
}

// Besides the base types, arrays may hold functions and boxes: atom types
// from two small tables, so that functions and boxes are data too (frames
// of λs, closures returned by λs, higher-order parameters, arrays of
// boxes reversed, appended, reduced and unboxed).

// fnElem is a function atom type.
type fnElem struct {
	str    string
	params []rType
	ret    rType
}

var remoraFnElems = []fnElem{
	{"(-> (int) int)", []rType{{Elem: "int"}}, rType{Elem: "int"}},
	{"(-> ([int 2]) float)", []rType{{"int", rShape{natC(2)}}}, rType{Elem: "float"}},
	{"(-> (bool int) [int 2])", []rType{{Elem: "bool"}, {Elem: "int"}}, rType{"int", rShape{natC(2)}}},
}

// sigElem is the box type (Sigma (d) [T d C…]).
type sigElem struct {
	str string
	T   string
	C   rShape
}

var remoraSigElems = []sigElem{
	{"(Sigma (d) [int d])", "int", nil},
	{"(Sigma (d) [float d 2])", "float", rShape{natC(2)}},
}

func fnOf(elem string) (fnElem, bool) {
	for _, f := range remoraFnElems {
		if f.str == elem {
			return f, true
		}
	}
	return fnElem{}, false
}

func sigOf(elem string) (sigElem, bool) {
	for _, s := range remoraSigElems {
		if s.str == elem {
			return s, true
		}
	}
	return sigElem{}, false
}

// isTVar reports whether elem is a type variable (not a closed atom type).
func isTVar(elem string) bool {
	_, f := fnOf(elem)
	_, b := sigOf(elem)
	return !isBase(elem) && !f && !b
}

// ---------------------------------------------------------------- scopes

type rVar struct {
	Name string
	T    rType
}

// rFun is a function in scope: a define or a let-bound (i-fn (…) (t-fn (…)
// (fn …))), with its type over its own index and type variables.
type rFun struct {
	Name   string
	TVars  []string
	IVars  []string
	Params []rType
	Ret    rType
}

type rScope struct {
	vars  []rVar
	funs  []rFun
	ivars []string
	tvars []string
}

func (s *rScope) clone() *rScope {
	return &rScope{
		vars:  append([]rVar{}, s.vars...),
		funs:  append([]rFun{}, s.funs...),
		ivars: append([]string{}, s.ivars...),
		tvars: append([]string{}, s.tvars...),
	}
}

func (s *rScope) withVar(name string, t rType) *rScope {
	n := s.clone()
	n.vars = n.vars[:0]
	for _, v := range s.vars {
		if v.Name != name {
			n.vars = append(n.vars, v)
		}
	}
	n.vars = append(n.vars, rVar{name, t})
	return n
}

func (s *rScope) withFun(f rFun) *rScope {
	n := s.clone()
	n.funs = n.funs[:0]
	for _, g := range s.funs {
		if g.Name != f.Name {
			n.funs = append(n.funs, g)
		}
	}
	n.funs = append(n.funs, f)
	return n
}

// hide removes from the scope what mentions the type or index variables
// names (which a binder is about to shadow): variables whose types, and
// functions whose signatures, mention them, and the names themselves.
func (s *rScope) hide(names ...string) *rScope {
	if len(names) == 0 {
		return s
	}
	mentions := func(t rType, own []string) bool {
		for _, x := range names {
			if slices.Contains(own, x) {
				continue
			}
			if t.Elem == x {
				return true
			}
			for _, it := range t.Sh {
				if it.V == x {
					return true
				}
			}
		}
		return false
	}
	n := &rScope{}
	for _, v := range s.vars {
		if !mentions(v.T, nil) {
			n.vars = append(n.vars, v)
		}
	}
	for _, f := range s.funs {
		own := append(append([]string{}, f.TVars...), f.IVars...)
		keep := !mentions(f.Ret, own)
		for _, p := range f.Params {
			keep = keep && !mentions(p, own)
		}
		if keep {
			n.funs = append(n.funs, f)
		}
	}
	for _, v := range s.ivars {
		if !slices.Contains(names, v) {
			n.ivars = append(n.ivars, v)
		}
	}
	for _, v := range s.tvars {
		if !slices.Contains(names, v) {
			n.tvars = append(n.tvars, v)
		}
	}
	return n
}

// binderName names a type or index binder (prefix t, n, d or @s): usually
// a fresh name, sometimes (shadowing) one already bound in the scope, but
// never one of avoid or taken.
func (g *remoraGen) binderName(sc *rScope, prefix string, avoid rShape, taken []string) string {
	if g.chance(0.4) {
		var pool []string
		switch prefix {
		case "t":
			pool = sc.tvars
		case "@s":
			pool = g.shapeVars(sc)
		default:
			for _, v := range sc.ivars {
				if !strings.HasPrefix(v, "@") {
					pool = append(pool, v)
				}
			}
		}
		var cands []string
		for _, v := range pool {
			used := slices.Contains(taken, v)
			for _, it := range avoid {
				used = used || it.V == v
			}
			if !used {
				cands = append(cands, v)
			}
		}
		if len(cands) > 0 {
			return cands[g.intn(len(cands))]
		}
	}
	return g.name(prefix)
}

func (s *rScope) withIVars(vs ...string) *rScope {
	n := s.clone()
	n.ivars = append(n.ivars, vs...)
	return n
}

func (s *rScope) withTVars(vs ...string) *rScope {
	n := s.clone()
	n.tvars = append(n.tvars, vs...)
	return n
}

// ---------------------------------------------------------------- generator

type remoraGen struct {
	r     *rand.Rand
	cfg   RemoraGenConfig
	fresh int
	atoms int // λ atoms being written inside one another (atomOf)
}

func (g *remoraGen) name(prefix string) string {
	g.fresh++
	return fmt.Sprintf("%s%d", prefix, g.fresh)
}

func (g *remoraGen) chance(p float64) bool { return g.r.Float64() < p }
func (g *remoraGen) intn(n int) int        { return g.r.Intn(n) }

// est is an upper estimate of the number of atoms of shape s.
func (g *remoraGen) est(s rShape) int64 {
	n := int64(1)
	for _, it := range s {
		switch {
		case it.isConst():
			n *= it.C
		case it.SV:
			n *= g.cfg.MaxDim
		default:
			n *= g.cfg.MaxDim + it.C
		}
		if n == 0 {
			n = 1 // an empty axis still costs a term
		}
	}
	return n
}

func (g *remoraGen) fits(t rType) bool {
	return g.est(t.Sh) <= g.cfg.MaxElems && len(t.Sh) <= 5
}

// foldItemsOK reports whether a reduce or fold may run over an array of
// elem atoms whose items have shape item (see cfg.EmptyAtomArrays).
func (g *remoraGen) foldItemsOK(elem string, item rShape) bool {
	return g.cfg.EmptyAtomArrays || isBase(elem) || !g.maybeEmpty(item)
}

// maybeEmpty reports whether an array of shape s may have no atoms: a
// dimension is 0, or (with cfg.Empty) a variable that may be 0.
func (g *remoraGen) maybeEmpty(s rShape) bool {
	for _, it := range s {
		switch {
		case it.isConst() && it.C == 0:
			return true
		case g.cfg.Empty && (it.SV || it.V != "" && it.C == 0):
			return true
		}
	}
	return false
}

// generatable reports whether gen can build an expression of type t: any
// base type, or a type-variable type with a variable whose shape is a
// suffix of t's.
func (g *remoraGen) generatable(sc *rScope, t rType) bool {
	if !g.fits(t) {
		return false
	}
	if !isTVar(t.Elem) {
		return true
	}
	for _, v := range sc.vars {
		if v.T.Elem == t.Elem && t.Sh.hasSuffix(v.T.Sh) {
			return true
		}
	}
	return false
}

// natPool are the variable Nat items in scope: index parameters, hidden
// indices, and the variable dimensions of the variables' types.
func (g *remoraGen) natPool(sc *rScope) []rItem {
	var out []rItem
	seen := map[rItem]bool{}
	add := func(it rItem) {
		if !it.SV && it.V != "" && !seen[it] {
			seen[it] = true
			out = append(out, it)
		}
	}
	for _, v := range sc.ivars {
		if !strings.HasPrefix(v, "@") {
			add(rItem{V: v})
		}
	}
	for _, v := range sc.vars {
		for _, it := range v.T.Sh {
			add(it)
		}
	}
	return out
}

func (g *remoraGen) shapeVars(sc *rScope) []string {
	var out []string
	for _, v := range sc.ivars {
		if strings.HasPrefix(v, "@") {
			out = append(out, v)
		}
	}
	return out
}

// constDim is a constant dimension, at least lo (0 only when cfg.Empty).
func (g *remoraGen) constDim(lo int64) int64 {
	if !g.cfg.Empty && lo < 1 {
		lo = 1
	}
	if lo == 0 && g.chance(0.06) {
		return 0
	}
	lo = max(lo, 1)
	if lo > g.cfg.MaxDim {
		return lo
	}
	// small dimensions are likelier: 1..3 most of the time
	hi := g.cfg.MaxDim
	if g.chance(0.7) {
		hi = min(hi, 3)
	}
	if hi < lo {
		hi = lo
	}
	return lo + int64(g.intn(int(hi-lo+1)))
}

// pickDim is a dimension: often a variable of the scope, else a constant.
// pos asks for an item whose predecessor can be written (a reduce's d-1).
func (g *remoraGen) pickDim(sc *rScope, pos bool) rItem {
	var cands []rItem
	for _, it := range g.natPool(sc) {
		if !pos || it.C >= 1 {
			cands = append(cands, it)
		}
	}
	if pos && g.chance(0.3) {
		// (+ n 1) from a variable n
		for _, it := range g.natPool(sc) {
			if it.C == 0 {
				cands = append(cands, it.plus(1))
			}
		}
	}
	if len(cands) > 0 && g.chance(0.35) {
		return cands[g.intn(len(cands))]
	}
	if pos {
		return natC(g.constDim(1))
	}
	return natC(g.constDim(0))
}

// randShape is a shape of the given rank over the scope's dimensions.
func (g *remoraGen) randShape(sc *rScope, rank int) rShape {
	for try := 0; ; try++ {
		sh := make(rShape, rank)
		for i := range sh {
			sh[i] = g.pickDim(sc, false)
		}
		if svs := g.shapeVars(sc); len(svs) > 0 && g.chance(0.25) {
			i := g.intn(rank + 1)
			sv := rItem{V: svs[g.intn(len(svs))], SV: true}
			sh = append(sh[:i], append(rShape{sv}, sh[i:]...)...)
		}
		if g.est(sh) <= g.cfg.MaxElems || try > 20 {
			if g.est(sh) > g.cfg.MaxElems {
				sh = sh[:0]
			}
			return sh
		}
	}
}

func (g *remoraGen) randRank(maxRank int) int {
	w := []int{30, 35, 25, 10}
	total := 0
	for i := 0; i <= maxRank && i < len(w); i++ {
		total += w[i]
	}
	x := g.intn(total)
	for i := 0; i <= maxRank && i < len(w); i++ {
		if x < w[i] {
			return i
		}
		x -= w[i]
	}
	return 0
}

func (g *remoraGen) baseElem() string {
	x := g.intn(100)
	switch {
	case x < 52:
		return "int"
	case x < 72:
		return "float"
	case x < 92:
		return "bool"
	}
	return "char"
}

// randType is a random generatable type: a base type with a random shape,
// or (sometimes, inside a t-fn) a type-variable type built on a variable.
func (g *remoraGen) randType(sc *rScope, maxRank int) rType {
	if len(sc.tvars) > 0 && g.chance(0.3) {
		var cands []rVar
		for _, v := range sc.vars {
			if isTVar(v.T.Elem) {
				cands = append(cands, v)
			}
		}
		if len(cands) > 0 {
			v := cands[g.intn(len(cands))]
			t := rType{v.T.Elem, cat(g.randShape(sc, g.intn(2)), v.T.Sh)}
			if g.fits(t) {
				return t
			}
			return v.T
		}
	}
	for {
		t := rType{g.anyElem(), g.randShape(sc, g.randRank(maxRank))}
		if g.fits(t) {
			return t
		}
	}
}

// anyElem is a base type, sometimes a function or a box type.
func (g *remoraGen) anyElem() string {
	switch x := g.intn(100); {
	case x < 8:
		return remoraFnElems[g.intn(len(remoraFnElems))].str
	case x < 13:
		return remoraSigElems[g.intn(len(remoraSigElems))].str
	}
	return g.baseElem()
}

// ---------------------------------------------------------------- literals

func (g *remoraGen) atom(elem string) string {
	switch elem {
	case "float":
		fr := []string{"", "5", "25", "75"}[g.intn(4)]
		return fmt.Sprintf("%d.%s", g.intn(9)-3, fr)
	case "bool":
		if g.chance(0.5) {
			return "#t"
		}
		return "#f"
	case "char":
		return remoraChars[g.intn(len(remoraChars))]
	}
	return strconv.Itoa(g.intn(13) - 3)
}

// remoraChars are character literals, some named or escaped; a vector of
// characters prints as a string, with escapes.
var remoraChars = []string{`#\a`, `#\b`, `#\z`, `#\space`, `#\newline`, `#\tab`, `#\λ`, `#\u0001`, `#\"`, `#\\`, `#\(`, `#\;`}

// stringLit writes a string literal of n characters.
func (g *remoraGen) stringLit(n int64) string {
	parts := []string{"a", "b", " ", `\"`, `\\`, `\n`, "λ", `\t`, "(", ";"}
	var b strings.Builder
	b.WriteByte('"')
	for i := int64(0); i < n; i++ {
		b.WriteString(parts[g.intn(len(parts))])
	}
	b.WriteByte('"')
	return b.String()
}

func product(ds []int64) int64 {
	n := int64(1)
	for _, d := range ds {
		n *= d
	}
	return n
}

func dimsIndex(ds []int64) string {
	ss := make([]string, len(ds))
	for i, d := range ds {
		ss[i] = strconv.FormatInt(d, 10)
	}
	return "[" + strings.Join(ss, " ") + "]"
}

func constType(elem string, ds []int64) rType {
	sh := make(rShape, len(ds))
	for i, d := range ds {
		sh[i] = natC(d)
	}
	return rType{elem, sh}
}

// literal writes an array literal of constant shape ds: nested brackets,
// (array [ds] atom …), or, when it is empty, (array [ds] τ), (frame [d…] τ)
// or brackets around empty literals.
func (g *remoraGen) literal(elem string, ds []int64) string {
	if len(ds) == 0 {
		return g.atom(elem)
	}
	n := product(ds)
	if n == 0 {
		switch {
		case ds[0] > 0 && g.chance(0.4):
			parts := make([]string, ds[0])
			for i := range parts {
				parts[i] = g.literal(elem, ds[1:])
			}
			return "[" + strings.Join(parts, " ") + "]"
		case g.chance(0.5):
			return "(array " + dimsIndex(ds) + " " + elem + ")"
		}
		k := 1
		for product(ds[:k]) != 0 {
			k++
		}
		k += g.intn(len(ds) - k + 1)
		return "(frame " + dimsIndex(ds[:k]) + " " + constType(elem, ds[k:]).String() + ")"
	}
	if elem == "char" && len(ds) == 1 && g.chance(0.6) {
		return g.stringLit(ds[0])
	}
	if len(ds) > 1 && g.chance(0.15) {
		parts := make([]string, n)
		for i := range parts {
			parts[i] = g.atom(elem)
		}
		return "(array " + dimsIndex(ds) + " " + strings.Join(parts, " ") + ")"
	}
	parts := make([]string, ds[0])
	for i := range parts {
		parts[i] = g.literal(elem, ds[1:])
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// mask writes a literal bool array of shape ds; with nonEmpty every row
// keeps at least one item (the filter it feeds is not empty).
func (g *remoraGen) mask(ds []int64, nonEmpty bool) string {
	if product(ds) == 0 {
		return "(array " + dimsIndex(ds) + " bool)"
	}
	if len(ds) == 1 {
		bs := make([]string, ds[0])
		any := false
		for i := range bs {
			bs[i] = "#f"
			if g.chance(0.6) {
				bs[i], any = "#t", true
			}
		}
		if nonEmpty && !any && len(bs) > 0 {
			bs[g.intn(len(bs))] = "#t"
		}
		return "[" + strings.Join(bs, " ") + "]"
	}
	parts := make([]string, ds[0])
	for i := range parts {
		parts[i] = g.mask(ds[1:], nonEmpty)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// ---------------------------------------------------------------- expressions

// gen writes an expression of type t; t must be generatable in sc.
func (g *remoraGen) gen(sc *rScope, t rType, depth int) string {
	if !g.generatable(sc, t) {
		panic(fmt.Sprintf("remora generator: asked for %s, which it cannot build in this scope", t))
	}
	if depth <= 0 || g.chance(0.08) {
		return g.leaf(sc, t)
	}
	type prod struct {
		w int
		f func(*rScope, rType, int) (string, bool)
	}
	wvar := 1
	for _, v := range sc.vars {
		if v.T.Elem == t.Elem && t.Sh.hasSuffix(v.T.Sh) {
			wvar = 6
			break
		}
	}
	prods := []prod{
		{wvar, g.pVar},
		{5, g.pScalar},
		{1, g.pIf},
		{1, g.pFrame},
		{3, g.pLamApp},
		{2, g.pLet},
		{2, g.pLetFun},
		{5, g.pFold},
		{5, g.pArrayOp},
		{3, g.pUnbox},
		{1, g.pLeaf},
		{3, g.pApply},
	}
	if len(sc.funs) > 0 {
		prods = append(prods, prod{8, g.pCall})
	}
	total := 0
	for _, p := range prods {
		total += p.w
	}
	for try := 0; try < 12; try++ {
		x := g.intn(total)
		for _, p := range prods {
			if x < p.w {
				if s, ok := p.f(sc, t, depth); ok {
					return s
				}
				break
			}
			x -= p.w
		}
	}
	return g.leaf(sc, t)
}

func (g *remoraGen) pLeaf(sc *rScope, t rType, depth int) (string, bool) { return g.leaf(sc, t), true }

// leaf writes an expression of type t without nesting: a variable (or a
// replicate of one), a literal, an iota or a replicated atom.
func (g *remoraGen) leaf(sc *rScope, t rType) string {
	var exact, suffix []rVar
	for _, v := range sc.vars {
		if v.T.Elem != t.Elem || !t.Sh.hasSuffix(v.T.Sh) {
			continue
		}
		if v.T.Sh.equal(t.Sh) {
			exact = append(exact, v)
		} else {
			suffix = append(suffix, v)
		}
	}
	if isTVar(t.Elem) || g.chance(0.4) {
		if len(exact) > 0 && (len(suffix) == 0 || g.chance(0.7)) {
			return exact[g.intn(len(exact))].Name
		}
		if len(suffix) > 0 {
			v := suffix[g.intn(len(suffix))]
			pre := t.Sh[:len(t.Sh)-len(v.T.Sh)]
			return fmt.Sprintf("(replicate{%s | %s %s} %s)", t.Elem, pre.index(), v.T.Sh.index(), v.Name)
		}
		if isTVar(t.Elem) {
			panic(fmt.Sprintf("remora generator: no variable to build %s from", t))
		}
	}
	if !isBase(t.Elem) {
		return g.atomsLeaf(sc, t)
	}
	if len(t.Sh) == 0 {
		return g.atom(t.Elem)
	}
	if t.Sh.isConst() && g.chance(0.8) {
		return g.literal(t.Elem, t.Sh.dims())
	}
	if t.Elem == "int" && iotaOK(t.Sh) && g.chance(0.4) {
		return "iota{ | " + t.Sh.index() + "}"
	}
	return fmt.Sprintf("(replicate{%s | %s []} %s)", t.Elem, t.Sh.index(), g.atom(t.Elem))
}

// atom writes one atom of a function or box type: a λ whose body is a
// small expression (it may use the variables of the scope: a closure), or
// a box of a literal.
func (g *remoraGen) atomOf(sc *rScope, elem string) string {
	if f, ok := fnOf(elem); ok {
		// A λ atom's body may need another λ atom (a leaf of a function
		// type), whose body may need another: past the first, bodies are
		// leaves, so the nesting ends with the types' nesting.
		g.atoms++
		defer func() { g.atoms-- }()
		depth := 1
		if g.atoms > 1 {
			depth = 0
		}
		l, ok := g.lambda(sc, f.params, f.ret, depth)
		if !ok {
			panic("remora generator: a λ of base types is always generatable")
		}
		return l
	}
	s, _ := sigOf(elem)
	k := g.constDim(0)
	return fmt.Sprintf("(box (%d) %s %s)", k, s.str, g.literal(s.T, append([]int64{k}, s.C.dims()...)))
}

// atomsLeaf writes an array of functions or boxes: nested frames of atoms,
// an empty frame, boxes, or a replicated atom.
func (g *remoraGen) atomsLeaf(sc *rScope, t rType) string {
	if len(t.Sh) == 0 {
		return g.atomOf(sc, t.Elem)
	}
	if !t.Sh.isConst() || g.est(t.Sh) > 6 || g.chance(0.2) {
		return fmt.Sprintf("(replicate{%s | %s []} %s)", t.Elem, t.Sh.index(), g.atomOf(sc, t.Elem))
	}
	ds := t.Sh.dims()
	if product(ds) == 0 {
		k := 1
		for product(ds[:k]) != 0 {
			k++
		}
		return "(frame " + dimsIndex(ds[:k]) + " " + rType{t.Elem, t.Sh[k:]}.String() + ")"
	}
	if s, ok := sigOf(t.Elem); ok && g.chance(0.4) {
		bs := make([]string, product(ds))
		for i := range bs {
			k := g.constDim(0)
			bs[i] = fmt.Sprintf(" ((%d) %s)", k, g.literal(s.T, append([]int64{k}, s.C.dims()...)))
		}
		return "(boxes (d) " + s.str[len("(Sigma (d) "):len(s.str)-1] + " " + dimsIndex(ds) + strings.Join(bs, "") + ")"
	}
	var nest func(ds []int64) string
	nest = func(ds []int64) string {
		if len(ds) == 0 {
			return g.atomOf(sc, t.Elem)
		}
		parts := make([]string, ds[0])
		for i := range parts {
			parts[i] = nest(ds[1:])
		}
		return "[" + strings.Join(parts, " ") + "]"
	}
	return nest(ds)
}

// pApply applies an array of functions (any expression of a function
// type) to arguments, all lifted over frames that are prefixes of one
// another.
func (g *remoraGen) pApply(sc *rScope, t rType, depth int) (string, bool) {
	var cands []fnElem
	for _, f := range remoraFnElems {
		if f.ret.Elem == t.Elem && t.Sh.hasSuffix(f.ret.Sh) {
			cands = append(cands, f)
		}
	}
	if len(cands) == 0 {
		return "", false
	}
	f := cands[g.intn(len(cands))]
	F := t.Sh[:len(t.Sh)-len(f.ret.Sh)]
	as, ok := g.args(sc, F, append([]rType{{Elem: f.str}}, f.params...), false, depth-1)
	if !ok {
		return "", false
	}
	return "(" + strings.Join(as, " ") + ")", true
}

// pVar uses a variable of the scope: as it is, replicated, or through a
// reranked λ applied to it.
func (g *remoraGen) pVar(sc *rScope, t rType, depth int) (string, bool) {
	for _, v := range sc.vars {
		if v.T.Elem == t.Elem && t.Sh.hasSuffix(v.T.Sh) {
			return g.leafVar(sc, t), true
		}
	}
	return "", false
}

func (g *remoraGen) leafVar(sc *rScope, t rType) string {
	var cands []rVar
	for _, v := range sc.vars {
		if v.T.Elem == t.Elem && t.Sh.hasSuffix(v.T.Sh) {
			cands = append(cands, v)
		}
	}
	v := cands[g.intn(len(cands))]
	if v.T.Sh.equal(t.Sh) {
		return v.Name
	}
	pre := t.Sh[:len(t.Sh)-len(v.T.Sh)]
	return fmt.Sprintf("(replicate{%s | %s %s} %s)", t.Elem, pre.index(), v.T.Sh.index(), v.Name)
}

// prefixLens chooses, for n arguments, how much of the frame F each one
// has: a prefix of it (T-APP), at least one the whole of it unless the
// frame is already covered (full).
func (g *remoraGen) prefixLens(n int, F rShape, full bool) []int {
	ls := make([]int, n)
	any := full
	for i := range ls {
		if g.chance(0.55) {
			ls[i] = len(F)
		} else {
			ls[i] = g.intn(len(F) + 1)
		}
		any = any || ls[i] == len(F)
	}
	if !any && n > 0 {
		ls[g.intn(n)] = len(F)
	}
	return ls
}

// args writes arguments whose cells have types cells over the frame F
// (each with a prefix of F, one of them all of it unless full), trying a
// few choices of prefixes until every argument type is generatable.
func (g *remoraGen) args(sc *rScope, F rShape, cells []rType, full bool, depth int) ([]string, bool) {
	for try := 0; try < 6; try++ {
		ls := g.prefixLens(len(cells), F, full)
		if try == 5 {
			for i := range ls {
				ls[i] = len(F)
			}
		}
		ts := make([]rType, len(cells))
		ok := true
		for i, c := range cells {
			ts[i] = rType{c.Elem, cat(F[:ls[i]], c.Sh)}
			ok = ok && g.generatable(sc, ts[i])
		}
		if !ok {
			continue
		}
		out := make([]string, len(cells))
		for i, at := range ts {
			out[i] = g.gen(sc, at, depth)
		}
		return out, true
	}
	return nil, false
}

type remoraOp struct {
	name string
	args []string
	ret  string
	div  bool // partial: / and % get stuck (δ) on a zero divisor
}

var remoraOps = []remoraOp{
	{"+", []string{"int", "int"}, "int", false},
	{"-", []string{"int", "int"}, "int", false},
	{"*", []string{"int", "int"}, "int", false},
	{"max", []string{"int", "int"}, "int", false},
	{"min", []string{"int", "int"}, "int", false},
	{"/", []string{"int", "int"}, "int", true},
	{"%", []string{"int", "int"}, "int", true},
	{"abs", []string{"int"}, "int", false},
	{"bool->int", []string{"bool"}, "int", false},
	{"float->int", []string{"float"}, "int", false},
	{"+.", []string{"float", "float"}, "float", false},
	{"-.", []string{"float", "float"}, "float", false},
	{"*.", []string{"float", "float"}, "float", false},
	{"max.", []string{"float", "float"}, "float", false},
	{"min.", []string{"float", "float"}, "float", false},
	{"/.", []string{"float", "float"}, "float", true},
	{"abs.", []string{"float"}, "float", false},
	{"int->float", []string{"int"}, "float", false},
	{"=", []string{"int", "int"}, "bool", false},
	{"!=", []string{"int", "int"}, "bool", false},
	{"<", []string{"int", "int"}, "bool", false},
	{"<=", []string{"int", "int"}, "bool", false},
	{">", []string{"int", "int"}, "bool", false},
	{">=", []string{"int", "int"}, "bool", false},
	{"<.", []string{"float", "float"}, "bool", false},
	{"<=.", []string{"float", "float"}, "bool", false},
	{">.", []string{"float", "float"}, "bool", false},
	{">=.", []string{"float", "float"}, "bool", false},
	{"and", []string{"bool", "bool"}, "bool", false},
	{"or", []string{"bool", "bool"}, "bool", false},
	{"not", []string{"bool"}, "bool", false},
	{"int->bool", []string{"int"}, "bool", false},
}

func sameSig(a, b remoraOp) bool {
	return a.ret == b.ret && strings.Join(a.args, " ") == strings.Join(b.args, " ")
}

// pickOp is a scalar operator with the given result (and, when args is
// not nil, argument) atom types; / and % only with probability cfg.Div.
func (g *remoraGen) pickOp(ret string, args []string) (remoraOp, bool) {
	var cands []remoraOp
	for _, op := range remoraOps {
		if op.ret != ret || (args != nil && strings.Join(op.args, " ") != strings.Join(args, " ")) {
			continue
		}
		if op.div && !g.chance(g.cfg.Div*4) {
			continue
		}
		cands = append(cands, op)
	}
	if len(cands) == 0 {
		return remoraOp{}, false
	}
	return cands[g.intn(len(cands))], true
}

func opFnType(op remoraOp) string {
	return "(-> (" + strings.Join(op.args, " ") + ") " + op.ret + ")"
}

// pScalar is a scalar primitive lifted over the frame t.Sh (Fig 6's lift
// and map): arguments of frames that are prefixes of it, sometimes a
// frame of primitives in function position.
func (g *remoraGen) pScalar(sc *rScope, t rType, depth int) (string, bool) {
	if !isBase(t.Elem) {
		return "", false
	}
	op, ok := g.pickOp(t.Elem, nil)
	if !ok {
		return "", false
	}
	F := t.Sh
	fn := op.name
	full := false
	if len(F) > 0 && F[0].isConst() && F[0].C <= 4 && g.chance(0.12) {
		// a frame of operators of one type: ([+ - *] a b)
		k := F[0].C
		if k == 0 {
			fn = "(frame [0] " + opFnType(op) + ")"
		} else {
			var sames []remoraOp
			for _, o := range remoraOps {
				if sameSig(o, op) && (!o.div || g.chance(g.cfg.Div*4)) {
					sames = append(sames, o)
				}
			}
			names := make([]string, k)
			for i := range names {
				names[i] = sames[g.intn(len(sames))].name
			}
			fn = "[" + strings.Join(names, " ") + "]"
		}
		full = len(F) == 1
	}
	cells := make([]rType, len(op.args))
	for i, a := range op.args {
		cells[i] = rType{Elem: a}
	}
	as, ok := g.args(sc, F, cells, full, depth-1)
	if !ok {
		return "", false
	}
	return "(" + fn + " " + strings.Join(as, " ") + ")", true
}

// pIf is (if{τ | } c a b), lifted like any scalar primitive.
func (g *remoraGen) pIf(sc *rScope, t rType, depth int) (string, bool) {
	if avoidBugIfOnAtoms && !isBase(t.Elem) && !isTVar(t.Elem) {
		return "", false
	}
	F := t.Sh
	for try := 0; try < 4; try++ {
		ls := g.prefixLens(3, F, false)
		if isTVar(t.Elem) {
			ls[1], ls[2] = len(F), len(F)
		}
		at := rType{t.Elem, F[:ls[1]]}
		bt := rType{t.Elem, F[:ls[2]]}
		ct := rType{"bool", F[:ls[0]]}
		if !g.generatable(sc, at) || !g.generatable(sc, bt) || !g.generatable(sc, ct) {
			continue
		}
		c := g.gen(sc, ct, depth-1)
		return fmt.Sprintf("(if{%s | } %s %s %s)", t.Elem, c, g.gen(sc, at, depth-1), g.gen(sc, bt, depth-1)), true
	}
	return "", false
}

// pFrame is a frame of expressions: [e …], (frame [d …] e …) or an empty
// (frame [0] τ).
func (g *remoraGen) pFrame(sc *rScope, t rType, depth int) (string, bool) {
	m := 0
	for m < len(t.Sh) && t.Sh[m].isConst() {
		m++
	}
	if m == 0 {
		return "", false
	}
	m = 1 + g.intn(m)
	if m > 1 && !g.chance(0.3) {
		m = 1
	}
	ds := t.Sh[:m].dims()
	cell := rType{t.Elem, t.Sh[m:]}
	if !g.generatable(sc, cell) {
		return "", false
	}
	n := product(ds)
	if n == 0 {
		return "(frame " + dimsIndex(ds) + " " + cell.String() + ")", true
	}
	if n > 8 {
		return "", false
	}
	es := make([]string, n)
	for i := range es {
		es[i] = g.gen(sc, cell, depth-1)
	}
	if m == 1 && g.chance(0.7) {
		return "[" + strings.Join(es, " ") + "]", true
	}
	return "(frame " + dimsIndex(ds) + " " + strings.Join(es, " ") + ")", true
}

// randCell is a random parameter cell type: a base type (or a type
// variable in scope with a variable to build it from) of rank 0..maxRank.
func (g *remoraGen) randCell(sc *rScope, maxRank int) rType {
	return g.randType(sc, maxRank)
}

// lambda writes (fn ([x τ] …) body) for parameters of the given cell types
// and a body of type ret; it fails when ret is not generatable inside.
func (g *remoraGen) lambda(sc *rScope, params []rType, ret rType, depth int) (string, bool) {
	inner := sc
	ps := make([]string, len(params))
	names := make([]string, len(params))
	for i, p := range params {
		names[i] = g.name("x")
		inner = inner.withVar(names[i], p)
		ps[i] = "[" + names[i] + " " + p.String() + "]"
	}
	if !g.generatable(inner, ret) {
		return "", false
	}
	var body string
	if len(params) == 2 && params[0].Elem == params[1].Elem && params[0].Sh.equal(params[1].Sh) && params[0].Elem == ret.Elem && params[0].Sh.equal(ret.Sh) && isBase(ret.Elem) && g.chance(0.4) {
		// (fn ([a τ] [b τ]) (op a b)): a lifted operator on the cells
		if op, ok := g.pickOp(ret.Elem, []string{ret.Elem, ret.Elem}); ok {
			body = "(" + op.name + " " + names[0] + " " + names[1] + ")"
		}
	}
	if body == "" {
		body = g.gen(inner, ret, depth)
	}
	return "(fn (" + strings.Join(ps, " ") + ") " + body + ")", true
}

// pLamApp applies a reranked λ: the target's shape is a frame F followed
// by the λ's result cell type, and the arguments are frames (prefixes of
// F) of the λ's parameter cells; sometimes the function position is a
// frame of λs.
func (g *remoraGen) pLamApp(sc *rScope, t rType, depth int) (string, bool) {
	k := g.intn(len(t.Sh) + 1)
	F, R := t.Sh[:k], t.Sh[k:]
	ret := rType{t.Elem, R}
	np := 1 + g.intn(2)
	params := make([]rType, np)
	for i := range params {
		params[i] = g.randCell(sc, 2)
	}
	if isBase(ret.Elem) && g.chance(0.4) {
		// a parameter of the result's type, which the body is likely to use
		params[g.intn(np)] = ret
	}
	fn := ""
	full := false
	if len(F) > 0 && F[0].isConst() && F[0].C <= 3 && g.chance(0.15) {
		n := F[0].C
		if n == 0 {
			pts := make([]string, np)
			for i, p := range params {
				pts[i] = p.String()
			}
			fn = "(frame [0] (-> (" + strings.Join(pts, " ") + ") " + ret.String() + "))"
		} else {
			ls := make([]string, n)
			for i := range ls {
				l, ok := g.lambda(sc, params, ret, depth-2)
				if !ok {
					return "", false
				}
				ls[i] = l
			}
			fn = "[" + strings.Join(ls, " ") + "]"
		}
		full = len(F) == 1
	} else {
		l, ok := g.lambda(sc, params, ret, depth-1)
		if !ok {
			return "", false
		}
		fn = l
	}
	as, ok := g.args(sc, F, params, full, depth-1)
	if !ok {
		return "", false
	}
	return "(" + fn + " " + strings.Join(as, " ") + ")", true
}

// pLet binds a value of a random type (sometimes annotated, sometimes
// rebinding a name in scope, sometimes two bindings at once).
func (g *remoraGen) pLet(sc *rScope, t rType, depth int) (string, bool) {
	nb := 1
	if g.chance(0.2) {
		nb = 2
	}
	inner := sc
	var binds []string
	for i := 0; i < nb; i++ {
		vt := g.randType(inner, 2)
		x := g.name("x")
		if len(inner.vars) > 0 && g.chance(0.12) {
			x = inner.vars[g.intn(len(inner.vars))].Name // shadowing
		}
		val := g.gen(inner, vt, depth-1)
		if g.chance(0.2) {
			binds = append(binds, "["+x+" "+vt.String()+" "+val+"]")
		} else {
			binds = append(binds, "["+x+" "+val+"]")
		}
		inner = inner.withVar(x, vt)
	}
	if !g.generatable(inner, t) {
		return "", false
	}
	body := g.gen(inner, t, depth-1)
	if nb == 1 {
		return "(let " + binds[0] + " " + body + ")", true
	}
	return "(let (" + strings.Join(binds, " ") + ") " + body + ")", true
}

// funDef writes a user function: index parameters (Nat and Shape), maybe
// a type parameter, one or two parameters whose cell types use them, and a
// body. As a define (define (f{t | n @s} [x τ] …) body), or as the
// expression (i-fn (n @s) (t-fn (t) (fn ([x τ] …) body))).
func (g *remoraGen) funDef(sc *rScope, depth int, define bool) (rFun, string) {
	for {
		f, src, ok := g.tryFunDef(sc, depth, define)
		if ok {
			return f, src
		}
	}
}

func (g *remoraGen) tryFunDef(sc *rScope, depth int, define bool) (rFun, string, bool) {
	f := rFun{Name: g.name("f")}
	if g.chance(0.3) {
		f.TVars = []string{g.binderName(sc, "t", nil, nil)}
	}
	for i := g.intn(3); i > 0; i-- {
		f.IVars = append(f.IVars, g.binderName(sc, "n", nil, f.IVars))
	}
	if g.chance(0.25) {
		f.IVars = append(f.IVars, g.binderName(sc, "@s", nil, f.IVars))
	}
	// the scope of the signature and the body: what mentions a shadowed
	// name is out of reach
	sc = sc.hide(append(append([]string{}, f.TVars...), f.IVars...)...)
	inner := sc.withTVars(f.TVars...).withIVars(f.IVars...)
	// items a signature is built from: its index parameters, constants,
	// and the dimensions of the scope
	item := func() rItem {
		var nats []string
		for _, v := range f.IVars {
			if !strings.HasPrefix(v, "@") {
				nats = append(nats, v)
			}
		}
		if len(nats) > 0 && g.chance(0.6) {
			it := rItem{V: nats[g.intn(len(nats))]}
			if g.chance(0.15) {
				it.C = 1
			}
			return it
		}
		return g.pickDim(sc, false)
	}
	shape := func(rank int) rShape {
		sh := make(rShape, rank)
		for i := range sh {
			sh[i] = item()
		}
		for _, v := range f.IVars {
			if strings.HasPrefix(v, "@") && g.chance(0.5) {
				i := g.intn(rank + 1)
				sh = append(sh[:i], append(rShape{{V: v, SV: true}}, sh[i:]...)...)
			}
		}
		return sh
	}
	np := 1 + g.intn(2)
	var tparam *rType
	for i := 0; i < np; i++ {
		p := rType{g.anyElem(), shape(g.randRank(2))}
		if len(f.TVars) > 0 && (i == 0 || g.chance(0.4)) {
			p.Elem = f.TVars[0]
		}
		if !g.fits(p) {
			return f, "", false
		}
		f.Params = append(f.Params, p)
		if isTVar(p.Elem) && tparam == nil {
			tparam = &f.Params[len(f.Params)-1]
		}
	}
	if tparam != nil && g.chance(0.6) {
		f.Ret = rType{tparam.Elem, cat(shape(g.intn(2)), tparam.Sh)}
	} else {
		f.Ret = rType{g.anyElem(), shape(g.randRank(2))}
	}
	if !g.fits(f.Ret) {
		return f, "", false
	}
	// the result's Shape variable, if any, at most once (pCall unifies it
	// with a segment of the target's shape)
	svs := 0
	for _, it := range f.Ret.Sh {
		if it.SV {
			svs++
		}
	}
	if svs > 1 {
		return f, "", false
	}
	ps := make([]string, len(f.Params))
	body := inner
	for i, p := range f.Params {
		x := g.name("x")
		body = body.withVar(x, p)
		ps[i] = "[" + x + " " + p.String() + "]"
	}
	if !g.generatable(body, f.Ret) {
		return f, "", false
	}
	b := g.gen(body, f.Ret, depth)
	if define {
		head := f.Name
		if len(f.TVars) > 0 || len(f.IVars) > 0 {
			head += "{" + strings.Join(f.TVars, " ") + " | " + strings.Join(f.IVars, " ") + "}"
		}
		return f, "(define (" + head + " " + strings.Join(ps, " ") + ") " + b + ")", true
	}
	e := "(fn (" + strings.Join(ps, " ") + ") " + b + ")"
	if len(f.TVars) > 0 {
		e = "(t-fn (" + strings.Join(f.TVars, " ") + ") " + e + ")"
	}
	if len(f.IVars) > 0 {
		e = "(i-fn (" + strings.Join(f.IVars, " ") + ") " + e + ")"
	}
	return f, e, true
}

// pLetFun binds a user function locally, by let or by a define at the
// start of a let's body, and goes on with it in scope.
func (g *remoraGen) pLetFun(sc *rScope, t rType, depth int) (string, bool) {
	if depth < 2 {
		return "", false
	}
	if g.chance(0.5) {
		f, e := g.funDef(sc, depth-1, false)
		inner := sc.withFun(f)
		return "(let [" + f.Name + " " + e + "] " + g.gen(inner, t, depth-1) + ")", true
	}
	vt := g.randType(sc, 1)
	x := g.name("x")
	val := g.gen(sc, vt, depth-2)
	inner := sc.withVar(x, vt)
	f, d := g.funDef(inner, depth-1, true)
	inner = inner.withFun(f)
	if !g.generatable(inner, t) {
		return "", false
	}
	return "(let [" + x + " " + val + "] " + d + " " + g.gen(inner, t, depth-1) + ")", true
}

// callTarget is a type a call of f can have: its result at random
// constant instantiations, in a random frame.
func (g *remoraGen) callTarget(f rFun) rType {
	nats := map[string]rItem{}
	shapes := map[string]rShape{}
	for _, v := range f.IVars {
		if strings.HasPrefix(v, "@") {
			sh := make(rShape, g.intn(2))
			for i := range sh {
				sh[i] = natC(g.constDim(0))
			}
			shapes[v] = sh
		} else {
			nats[v] = natC(g.constDim(0))
		}
	}
	e := f.Ret.Elem
	if isTVar(e) {
		e = g.baseElem()
	}
	return rType{e, cat(g.randShape(&rScope{}, g.intn(2)), substShape(f.Ret.Sh, nats, shapes))}
}

// unifyItem matches a signature item p (over the function's variables)
// with a concrete item q, extending sub.
func unifyItem(p, q rItem, own []string, sub map[string]rItem) bool {
	switch {
	case p.SV:
		return false
	case p.V == "" || !slices.Contains(own, p.V):
		return p == q // a constant, or an index variable of the scope
	}
	if q.SV || q.C < p.C {
		return false
	}
	val := rItem{V: q.V, C: q.C - p.C}
	if old, ok := sub[p.V]; ok {
		return old == val
	}
	sub[p.V] = val
	return true
}

// substShape instantiates a signature shape.
func substShape(s rShape, nats map[string]rItem, shapes map[string]rShape) rShape {
	var out rShape
	for _, it := range s {
		switch {
		case it.SV:
			if sh, ok := shapes[it.V]; ok {
				out = append(out, sh...)
			} else {
				out = append(out, it)
			}
		case it.V != "":
			if v, ok := nats[it.V]; ok {
				out = append(out, v.plus(it.C))
			} else {
				out = append(out, it)
			}
		default:
			out = append(out, it)
		}
	}
	return out
}

// pCall applies a user function in scope: its result type is unified with
// a suffix of the target (which fixes index and type arguments), the rest
// of the target is the frame, and the arguments are frames of its
// parameter cells: (f{τ … | ι …} a …).
func (g *remoraGen) pCall(sc *rScope, t rType, depth int) (string, bool) {
	f := sc.funs[g.intn(len(sc.funs))]
	isT := func(x string) bool {
		for _, v := range f.TVars {
			if v == x {
				return true
			}
		}
		return false
	}
	tsub := map[string]string{}
	if isT(f.Ret.Elem) {
		if avoidBugIfOnAtoms && !isBase(t.Elem) {
			return "", false // type arguments are base types (see avoidBugIfOnAtoms)
		}
		tsub[f.Ret.Elem] = t.Elem
	} else if f.Ret.Elem != t.Elem {
		return "", false
	}
	nats := map[string]rItem{}
	shapes := map[string]rShape{}
	ret := f.Ret.Sh
	sv := -1
	for i, it := range ret {
		if it.SV {
			sv = i
		}
	}
	n := len(ret)
	j := 0
	if sv >= 0 {
		n--
		if len(t.Sh) < n {
			return "", false
		}
		j = g.intn(len(t.Sh) - n + 1)
		n += j
	}
	if n > len(t.Sh) {
		return "", false
	}
	F, R := t.Sh[:len(t.Sh)-n], t.Sh[len(t.Sh)-n:]
	for i, it := range ret {
		var q rItem
		switch {
		case sv < 0 || i < sv:
			q = R[i]
		case i == sv:
			seg := append(rShape{}, R[i:i+j]...)
			for _, s := range seg {
				if s.SV {
					return "", false // a Shape variable of the scope stays whole
				}
			}
			shapes[it.V] = seg
			continue
		default:
			q = R[i-1+j]
		}
		if !unifyItem(it, q, f.IVars, nats) {
			return "", false
		}
		if v, ok := nats[it.V]; ok && !g.cfg.Empty && v == natC(0) {
			return "", false
		}
	}
	var is []string
	for _, v := range f.IVars {
		if strings.HasPrefix(v, "@") {
			if _, ok := shapes[v]; !ok {
				sh := make(rShape, g.intn(2))
				for i := range sh {
					sh[i] = g.pickDim(sc, false)
				}
				shapes[v] = sh
			}
			is = append(is, shapes[v].index())
		} else {
			if _, ok := nats[v]; !ok {
				nats[v] = g.pickDim(sc, false)
			}
			is = append(is, nats[v].String())
		}
	}
	var ts []string
	for _, v := range f.TVars {
		if _, ok := tsub[v]; !ok {
			tsub[v] = g.baseElem()
			if !avoidBugIfOnAtoms {
				tsub[v] = g.anyElem()
			}
		}
		ts = append(ts, tsub[v])
	}
	cells := make([]rType, len(f.Params))
	for i, p := range f.Params {
		e := p.Elem
		if x, ok := tsub[e]; ok {
			e = x
		}
		cells[i] = rType{e, substShape(p.Sh, nats, shapes)}
	}
	as, ok := g.args(sc, F, cells, false, depth-1)
	if !ok {
		return "", false
	}
	head := f.Name
	if len(ts) > 0 || len(is) > 0 {
		head += "{" + strings.Join(ts, " ") + " | " + strings.Join(is, " ") + "}"
	}
	return "(" + head + " " + strings.Join(as, " ") + ")", true
}

// binop writes an operator on two cells of type c: a primitive when the
// cells are scalars of a base type (sometimes), else a λ.
func (g *remoraGen) binop(sc *rScope, c rType, depth int) (string, bool) {
	if len(c.Sh) == 0 && isBase(c.Elem) && g.chance(0.6) {
		if op, ok := g.pickOp(c.Elem, []string{c.Elem, c.Elem}); ok {
			return op.name, true
		}
	}
	return g.lambda(sc, []rType{c, c}, c, depth)
}

// foldOp is the operator of a reduction or scan lifted over the frame F,
// on cells c: one binop, or sometimes a frame of them over F's first
// axis (MIMD when they differ: Inline defunctionalises it), which covers
// the frame when it is all of it (full, for args).
func (g *remoraGen) foldOp(sc *rScope, F rShape, c rType, depth int) (op string, full, ok bool) {
	if len(F) == 0 || !F[0].isConst() || F[0].C < 1 || F[0].C > 3 || !g.chance(0.15) {
		op, ok = g.binop(sc, c, depth)
		return op, false, ok
	}
	ops := make([]string, F[0].C)
	for i := range ops {
		if ops[i], ok = g.binop(sc, c, depth); !ok {
			return "", false, false
		}
	}
	return "[" + strings.Join(ops, " ") + "]", len(F) == 1, true
}

// axes lists the positions of t's shape that are Nat items whose value is
// at least 1 and whose predecessor can be written (when pos), or any Nat
// items.
func axes(s rShape, pos bool) []int {
	var out []int
	for i, it := range s {
		if it.SV {
			continue
		}
		if _, ok := it.pred(); pos && !ok {
			continue
		}
		out = append(out, i)
	}
	return out
}

// split3 cuts s into three parts at random.
func (g *remoraGen) split3(s rShape) (rShape, rShape, rShape) {
	i := g.intn(len(s) + 1)
	j := i + g.intn(len(s)-i+1)
	return s[:i], s[i:j], s[j:]
}

// pFold is the reduce and scan family and the folds, at instantiations
// read off the target: reduce{t | d-1 @pad @c}, reduce-init, iscan,
// scan-init, iscan-init, fold{t u | d @item @acc}, fold-right, trace,
// trace-right, each possibly lifted over a frame.
func (g *remoraGen) pFold(sc *rScope, t rType, depth int) (string, bool) {
	E := t.Elem
	kinds := []string{"reduce", "reduce-init", "iscan", "scan-init", "iscan-init", "fold", "fold-right", "trace", "trace-right"}
	kind := kinds[g.intn(len(kinds))]
	switch kind {
	case "reduce", "reduce-init":
		F, P, C := g.split3(t.Sh)
		var k, d rItem
		if kind == "reduce" {
			k = g.pickDim(sc, true)
			d, _ = k.pred()
		} else {
			k = g.pickDim(sc, false)
			d = k
		}
		if !g.foldItemsOK(E, cat(P, C)) {
			return "", false
		}
		op, full, ok := g.foldOp(sc, F, rType{E, C}, depth-1)
		if !ok {
			return "", false
		}
		arr := rType{E, cat(rShape{k}, P, C)}
		head := fmt.Sprintf("%s{%s | %s %s %s}", kind, E, d, P.index(), C.index())
		if kind == "reduce" {
			as, ok := g.args(sc, F, []rType{arr}, full, depth-1)
			if !ok {
				return "", false
			}
			return "(" + head + " " + op + " " + as[0] + ")", true
		}
		as, ok := g.args(sc, F, []rType{{E, C}, arr}, full, depth-1)
		if !ok {
			return "", false
		}
		return "(" + head + " " + op + " " + strings.Join(as, " ") + ")", true
	case "iscan", "scan-init", "iscan-init":
		ax := axes(t.Sh, kind != "iscan-init")
		if len(ax) == 0 {
			return "", false
		}
		i := ax[g.intn(len(ax))]
		F, k := t.Sh[:i], t.Sh[i]
		P, _, _ := g.split3(t.Sh[i+1:])
		C := t.Sh[i+1+len(P):]
		if !g.foldItemsOK(E, cat(P, C)) {
			return "", false
		}
		op, full, ok := g.foldOp(sc, F, rType{E, C}, depth-1)
		if !ok {
			return "", false
		}
		switch kind {
		case "iscan":
			d, _ := k.pred()
			head := fmt.Sprintf("iscan{%s | %s %s %s}", E, d, P.index(), C.index())
			as, ok := g.args(sc, F, []rType{{E, cat(rShape{k}, P, C)}}, full, depth-1)
			if !ok {
				return "", false
			}
			return "(" + head + " " + op + " " + as[0] + ")", true
		case "scan-init":
			d, _ := k.pred()
			if !g.cfg.Empty && d == natC(0) {
				return "", false
			}
			head := fmt.Sprintf("scan-init{%s | %s %s %s}", E, d, P.index(), C.index())
			as, ok := g.args(sc, F, []rType{{E, C}, {E, cat(rShape{d}, P, C)}}, full, depth-1)
			if !ok {
				return "", false
			}
			return "(" + head + " " + op + " " + strings.Join(as, " ") + ")", true
		default:
			head := fmt.Sprintf("iscan-init{%s | %s %s %s}", E, k, P.index(), C.index())
			as, ok := g.args(sc, F, []rType{{E, C}, {E, cat(rShape{k}, P, C)}}, full, depth-1)
			if !ok {
				return "", false
			}
			return "(" + head + " " + op + " " + strings.Join(as, " ") + ")", true
		}
	}
	// fold, fold-right, trace, trace-right: [u @acc] from [t d @item]
	var F, A rShape
	var d rItem
	if kind == "fold" || kind == "fold-right" {
		i := g.intn(len(t.Sh) + 1)
		F, A = t.Sh[:i], t.Sh[i:]
		d = g.pickDim(sc, false)
	} else {
		ax := axes(t.Sh, true)
		if len(ax) == 0 {
			return "", false
		}
		i := ax[g.intn(len(ax))]
		F, A = t.Sh[:i], t.Sh[i+1:]
		d, _ = t.Sh[i].pred()
		if !g.cfg.Empty && d == natC(0) {
			return "", false
		}
	}
	T := rType{g.anyElem(), g.randShape(sc, g.intn(2))}
	if g.chance(0.3) {
		T = rType{E, A}
	}
	if !g.generatable(sc, T) || !g.foldItemsOK(T.Elem, T.Sh) {
		return "", false
	}
	acc := rType{E, A}
	var op string
	if len(A) == 0 && len(T.Sh) == 0 && T.Elem == E && isBase(E) && g.chance(0.4) {
		o, ok := g.pickOp(E, []string{E, E})
		if !ok {
			return "", false
		}
		op = o.name
	} else {
		params := []rType{acc, T}
		if strings.HasSuffix(kind, "-right") {
			params = []rType{T, acc}
		}
		l, ok := g.lambda(sc, params, acc, depth-1)
		if !ok {
			return "", false
		}
		op = l
	}
	head := fmt.Sprintf("%s{%s %s | %s %s %s}", kind, T.Elem, E, d, T.Sh.index(), A.index())
	as, ok := g.args(sc, F, []rType{acc, {T.Elem, cat(rShape{d}, T.Sh)}}, false, depth-1)
	if !ok {
		return "", false
	}
	return "(" + head + " " + op + " " + strings.Join(as, " ") + ")", true
}

// splitNat writes the Nat k as d1 + d2.
func (g *remoraGen) splitNat(k rItem) (rItem, rItem) {
	lo := int64(0)
	if !g.cfg.Empty {
		lo = 1
	}
	if k.V == "" {
		if k.C < 2*lo {
			return k, natC(0) // cannot split without an empty part
		}
		a := lo + int64(g.intn(int(k.C-2*lo+1)))
		return natC(a), natC(k.C - a)
	}
	// n + c: (n + a) + (c - a), in either order
	hi := k.C - lo
	if hi < 0 {
		return k, natC(0)
	}
	a := int64(g.intn(int(hi + 1)))
	x, y := rItem{V: k.V, C: a}, natC(k.C-a)
	if g.chance(0.5) {
		return y, x
	}
	return x, y
}

// pArrayOp is one of the basis's array functions at an instantiation read
// off the target: append, reverse, rotate, head, tail, replicate, length,
// iota, reshape and (partial: δ gets stuck out of bounds) index.
func (g *remoraGen) pArrayOp(sc *rScope, t rType, depth int) (string, bool) {
	E := t.Elem
	ops := []string{"append", "reverse", "rotate", "head", "tail", "replicate", "length", "iota", "reshape", "index", "reify", "subvector", "scatter"}
	op := ops[g.intn(len(ops))]
	switch op {
	case "append", "reverse", "rotate", "tail":
		ax := axes(t.Sh, false)
		if len(ax) == 0 {
			return "", false
		}
		i := ax[g.intn(len(ax))]
		F, k, C := t.Sh[:i], t.Sh[i], t.Sh[i+1:]
		switch op {
		case "append":
			d1, d2 := g.splitNat(k)
			if !g.cfg.Empty && (d1 == natC(0) || d2 == natC(0)) {
				return "", false
			}
			as, ok := g.args(sc, F, []rType{{E, cat(rShape{d1}, C)}, {E, cat(rShape{d2}, C)}}, false, depth-1)
			if !ok {
				return "", false
			}
			return fmt.Sprintf("(append{%s | %s %s %s} %s)", E, d1, d2, C.index(), strings.Join(as, " ")), true
		case "reverse":
			as, ok := g.args(sc, F, []rType{{E, cat(rShape{k}, C)}}, false, depth-1)
			if !ok {
				return "", false
			}
			return fmt.Sprintf("(reverse{%s | %s %s} %s)", E, k, C.index(), as[0]), true
		case "rotate":
			as, ok := g.args(sc, F, []rType{{E, cat(rShape{k}, C)}, {Elem: "int"}}, false, depth-1)
			if !ok {
				return "", false
			}
			return fmt.Sprintf("(rotate{%s | %s %s} %s)", E, k, C.index(), strings.Join(as, " ")), true
		default:
			as, ok := g.args(sc, F, []rType{{E, cat(rShape{k.plus(1)}, C)}}, false, depth-1)
			if !ok {
				return "", false
			}
			return fmt.Sprintf("(tail{%s | %s %s} %s)", E, k, C.index(), as[0]), true
		}
	case "head":
		i := g.intn(len(t.Sh) + 1)
		F, C := t.Sh[:i], t.Sh[i:]
		k := g.pickDim(sc, true)
		d, _ := k.pred()
		as, ok := g.args(sc, F, []rType{{E, cat(rShape{k}, C)}}, false, depth-1)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("(head{%s | %s %s} %s)", E, d, C.index(), as[0]), true
	case "replicate":
		F, X, C := g.split3(t.Sh)
		as, ok := g.args(sc, F, []rType{{E, C}}, false, depth-1)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("(replicate{%s | %s %s} %s)", E, X.index(), C.index(), as[0]), true
	case "length":
		if E != "int" {
			return "", false
		}
		T := g.anyElem()
		d := g.pickDim(sc, false)
		C := g.randShape(sc, g.intn(2))
		as, ok := g.args(sc, t.Sh, []rType{{T, cat(rShape{d}, C)}}, false, depth-1)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("(length{%s | %s %s} %s)", T, d, C.index(), as[0]), true
	case "iota":
		if E != "int" || len(t.Sh) == 0 || !iotaOK(t.Sh) {
			return "", false
		}
		return "iota{ | " + t.Sh.index() + "}", true
	case "reshape":
		if !t.Sh.isConst() || len(t.Sh) == 0 {
			return "", false
		}
		ds := t.Sh.dims()
		if !g.cfg.EmptyAtomArrays && !isBase(E) && product(ds) == 0 {
			return "", false
		}
		var from []int64
		switch g.intn(3) {
		case 0:
			from = []int64{product(ds)}
		case 1:
			for i := len(ds) - 1; i >= 0; i-- {
				from = append(from, ds[i])
			}
		default:
			from = append([]int64{1}, ds...)
		}
		if !g.generatable(sc, constType(E, from)) {
			return "", false
		}
		return fmt.Sprintf("(reshape %s %s)", dimsIndex(ds), g.gen(sc, constType(E, from), depth-1)), true
	case "reify":
		// (reify-dimension ι) : int, (reify-shape [ι …]) : [int k]
		if E != "int" || len(t.Sh) > 1 {
			return "", false
		}
		if len(t.Sh) == 0 {
			return "(reify-dimension " + g.pickDim(sc, false).String() + ")", true
		}
		if !t.Sh[0].isConst() || t.Sh[0].C > 4 {
			return "", false
		}
		sh := make(rShape, t.Sh[0].C)
		for i := range sh {
			sh[i] = g.pickDim(sc, false)
		}
		return "(reify-shape " + sh.index() + ")", true
	case "subvector":
		// (subvector{t | d-in d-out @c} arr offset): items [offset,
		// offset+d-out) of arr; δ gets stuck out of bounds
		ax := axes(t.Sh, false)
		if len(ax) == 0 {
			return "", false
		}
		i := ax[g.intn(len(ax))]
		F, dout, C := t.Sh[:i], t.Sh[i], t.Sh[i+1:]
		extra := int64(g.intn(3))
		din := dout.plus(extra)
		off := int64(0)
		if dout.isConst() || extra > 0 {
			off = int64(g.intn(int(extra) + 1))
		}
		if g.chance(0.08) {
			off = extra + 1 // out of bounds
		}
		as, ok := g.args(sc, F, []rType{{E, cat(rShape{din}, C)}}, false, depth-1)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("(subvector{%s | %s %s %s} %s %d)", E, din, dout, C.index(), as[0], off), true
	case "scatter":
		// (scatter{t | d-in d-out @c} arr pos): item j of arr to position
		// pos[j] of the result; δ gets stuck on a position out of bounds
		// (and on functions or boxes, whose holes have no value)
		if len(t.Sh) == 0 || !t.Sh[0].isConst() || !isBase(E) {
			return "", false
		}
		dout := t.Sh[0].C
		din := int64(g.intn(int(dout) + 1))
		if !g.cfg.Empty && din == 0 {
			din = min(1, dout)
		}
		perm := g.r.Perm(int(dout))
		pos := make([]string, din)
		for j := range pos {
			p := int64(perm[j])
			if g.chance(0.05) {
				p = dout // out of bounds
			}
			pos[j] = strconv.FormatInt(p, 10)
		}
		posLit := "[" + strings.Join(pos, " ") + "]"
		if din == 0 {
			posLit = "(frame [0] int)"
		}
		C := t.Sh[1:]
		a := rType{E, cat(rShape{natC(din)}, C)}
		if !g.generatable(sc, a) {
			return "", false
		}
		return fmt.Sprintf("(scatter{%s | %d %d %s} %s %s)", E, din, dout, C.index(), g.gen(sc, a, depth-1), posLit), true
	case "index":
		// (index{t | @s @c l} arr pos): arr [t @s @c], pos [int l]
		i := g.intn(len(t.Sh) + 1)
		F, C := t.Sh[:i], t.Sh[i:]
		S := make([]int64, 1+g.intn(2))
		for j := range S {
			S[j] = g.constDim(1)
		}
		arr := rType{E, cat(constType(E, S).Sh, C)}
		pos := make([]string, len(S))
		for j, d := range S {
			p := int64(g.intn(int(d)))
			if g.chance(0.08) {
				p = d // out of bounds: δ gets stuck
			}
			pos[j] = strconv.FormatInt(p, 10)
		}
		as, ok := g.args(sc, F, []rType{arr}, false, depth-1)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("(index{%s | %s %s %d} %s [%s])", E, dimsIndex(S), C.index(), len(S), as[0], strings.Join(pos, " ")), true
	}
	return "", false
}

// pUnbox opens boxes: a filter's result (a box hiding the number of items
// kept), a box or a frame of boxes written with box and boxes, or a lift of
// an int to a dimension. The target is a frame F (of boxes, over which the
// unbox is lifted) followed by the body's type, which does not mention
// the hidden index; the body usually consumes the contents by a fold.
func (g *remoraGen) pUnbox(sc *rScope, t rType, depth int) (string, bool) {
	i := g.intn(len(t.Sh) + 1)
	F, B := t.Sh[:i], t.Sh[i:]
	body := rType{t.Elem, B}
	T := g.baseElem()
	C := g.randShape(sc, g.intn(2))
	d := g.binderName(sc, "d", cat(C, F), nil)
	contents := rType{T, cat(rShape{{V: d}}, C)}
	if !g.fits(rType{T, cat(F, rShape{natC(g.cfg.MaxDim)}, C)}) || !g.fits(rType{remoraSigElems[0].str, F}) {
		return "", false
	}
	var box string
	hidden := 1
	switch x := g.intn(13); {
	case x >= 10: // any expression of a box type
		sg := remoraSigElems[g.intn(len(remoraSigElems))]
		T, C = sg.T, sg.C
		bt := rType{sg.str, F}
		if !g.generatable(sc, bt) {
			return "", false
		}
		box = g.gen(sc, bt, depth-1)
	case x < 5: // filter
		k := g.pickDim(sc, false)
		arr := rType{T, cat(rShape{k}, C)}
		var as []string
		if !g.cfg.Empty || g.chance(0.5) {
			// a literal mask of frame [] (so the array has all of F);
			// with !Empty, one that keeps an item
			if !k.isConst() {
				k = natC(g.constDim(1))
				arr = rType{T, cat(rShape{k}, C)}
			}
			a := g.gen(sc, rType{T, cat(F, arr.Sh)}, depth-1)
			as = []string{a, g.mask([]int64{k.C}, !g.cfg.Empty)}
		} else {
			var ok bool
			as, ok = g.args(sc, F, []rType{arr, {"bool", rShape{k}}}, false, depth-1)
			if !ok {
				return "", false
			}
		}
		box = fmt.Sprintf("(filter{%s | %s %s} %s)", T, k, C.index(), strings.Join(as, " "))
	case x < 8: // box, boxes
		if !F.isConst() {
			return "", false
		}
		binders := d
		if g.chance(0.3) {
			// two hidden dimensions: (Sigma (d e) [T d e C…])
			e := g.binderName(sc, "d", cat(C, F), []string{d})
			hidden = 2
			binders += " " + e
			contents.Sh = cat(rShape{{V: d}, {V: e}}, C)
			if !g.fits(rType{T, cat(F, rShape{natC(g.cfg.MaxDim), natC(g.cfg.MaxDim)}, C)}) {
				return "", false
			}
		}
		sig := "[" + T + " " + contents.Sh.items() + "]"
		n := product(F.dims())
		if n > 6 {
			return "", false
		}
		one := func() (string, string) {
			ws := make(rShape, hidden)
			for i := range ws {
				ws[i] = natC(g.constDim(0))
			}
			return "(" + ws.items() + ")", g.gen(sc, rType{T, cat(ws, C)}, depth-2)
		}
		if len(F) == 0 {
			w, e := one()
			box = "(box " + w + " (Sigma (" + binders + ") " + sig + ") " + e + ")"
			break
		}
		bs := make([]string, n)
		for j := range bs {
			w, e := one()
			bs[j] = " (" + w + " " + e + ")"
		}
		box = "(boxes (" + binders + ") " + sig + " " + dimsIndex(F.dims()) + strings.Join(bs, "") + ")"
	default: // lift
		var n string
		if F.isConst() {
			ds := F.dims()
			if len(ds) == 0 {
				n = strconv.FormatInt(g.constDim(0), 10)
			} else {
				vals := make([]string, product(ds))
				for j := range vals {
					vals[j] = strconv.FormatInt(g.constDim(0), 10)
				}
				if len(vals) == 0 {
					n = "(array " + dimsIndex(ds) + " int)"
				} else {
					n = "(array " + dimsIndex(ds) + " " + strings.Join(vals, " ") + ")"
				}
			}
		} else {
			n = fmt.Sprintf("(replicate{int | %s []} %d)", F.index(), g.constDim(0))
		}
		lb := g.gen(sc.hide(d).withIVars(d), contents, depth-2)
		box = "(lift [" + d + " " + n + "] " + lb + ")"
	}
	var hs []string
	var hsh rShape
	for i := 0; i < hidden; i++ {
		h := g.binderName(sc, "d", cat(C, B), hs)
		hs = append(hs, h)
		hsh = append(hsh, rItem{V: h})
	}
	x := g.name("x")
	xt := rType{T, cat(hsh, C)}
	inner := sc.hide(hs...).withIVars(hs...).withVar(x, xt)
	if !g.generatable(inner, body) {
		return "", false
	}
	b := g.consume(inner, x, xt, body, depth-1)
	binds := "(" + x + " " + strings.Join(hs, " ") + ")"
	if g.chance(0.2) {
		bn := g.name("b")
		return "(let [" + bn + " " + box + "] (unbox " + bn + " " + binds + " " + b + "))", true
	}
	return "(unbox " + box + " " + binds + " " + b + ")", true
}

// consume writes an expression of type body that usually uses x, whose
// type xt = [T d C…] has the hidden index d: a reduce-init or a fold over
// x, or its length.
func (g *remoraGen) consume(sc *rScope, x string, xt rType, body rType, depth int) string {
	if g.chance(0.3) || depth < 1 {
		return g.gen(sc, body, depth)
	}
	d, C, T := xt.Sh[0], xt.Sh[1:], xt.Elem
	switch {
	case T == body.Elem && C.equal(body.Sh) && g.chance(0.5):
		if op, ok := g.binop(sc, body, depth-1); ok {
			return fmt.Sprintf("(reduce-init{%s | %s [] %s} %s %s %s)", T, d, C.index(), op, g.gen(sc, body, depth-1), x)
		}
	case body.Elem == "int" && len(body.Sh) == 0 && g.chance(0.3):
		return fmt.Sprintf("(length{%s | %s %s} %s)", T, d, C.index(), x)
	}
	kind := "fold"
	params := []rType{body, {T, C}}
	if g.chance(0.4) {
		kind = "fold-right"
		params = []rType{{T, C}, body}
	}
	l, ok := g.lambda(sc, params, body, depth-1)
	if !ok {
		return g.gen(sc, body, depth)
	}
	return fmt.Sprintf("(%s{%s %s | %s %s %s} %s %s %s)", kind, T, body.Elem, d, C.index(), body.Sh.index(), l, g.gen(sc, body, depth-1), x)
}
