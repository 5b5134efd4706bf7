package funmem

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Support groups. The operands of a reduce, scan or filter and the
// pattern of an array-valued reduce bind arrays whose memory is known only
// at run time (the start value, row i of xs, the accumulator the previous
// step made). Such an array is bound together with its supporting
// information, as an if's pattern binds it (Support), in a group
//
//	(x_mem : mem) (x_off : int) (x_s1 : int) … (x : [d1]… @ x_mem -> x_off + {(d1 : x_s1) …})
//
// and the semantics binds x_mem, x_off and the strides from the array's
// value (its block and LMAD). An int operand is a group of one.

// Group is one operand among a form's parameters (or a pattern): its
// index, and for an array the names of its supporting parameters.
type Group struct {
	Operand int      // index of the operand among the parameters
	Block   string   // its block parameter ("" for an int operand)
	Off     string   // its offset parameter
	Strides []string // its stride parameters, one per dimension
}

// IsArray reports whether the operand is an array.
func (g Group) IsArray() bool { return g.Block != "" }

// Groups splits parameters into support groups: every array parameter
// whose LMAD is off + {(d : s) …}, with its block, offset and strides
// variables that name other parameters, is an operand with its support;
// every parameter no such LMAD names is an operand (an int, or an array
// that is not in support form, which the checker refuses).
func Groups(ps []*fun.Param) []Group {
	if !anySupportForm(ps) {
		// No array in support form (int operands, or arrays the checker
		// refuses): every parameter is an operand of its own, and the
		// maps below would stay empty.
		var out []Group
		if len(ps) > 0 {
			out = make([]Group, len(ps))
			for i := range ps {
				out[i] = Group{Operand: i}
			}
		}
		return out
	}
	// A form binds a handful of parameters: their names are looked up
	// by a scan (the last of a name, as a map filled in order gives it)
	// and each parameter's group and support flag kept at its index,
	// rather than in maps made per call.
	slots := make([]groupSlot, len(ps))
	for i, p := range ps {
		g, ok := supportForm(p, ps)
		if !ok {
			continue
		}
		slots[i].g, slots[i].form = g, true
		markSupport(ps, slots, g.Block)
		markSupport(ps, slots, g.Off)
		for _, s := range g.Strides {
			markSupport(ps, slots, s)
		}
	}
	out := make([]Group, 0, len(ps))
	for i := range ps {
		if slots[i].supp {
			continue
		}
		g := slots[i].g
		if !slots[i].form {
			g = Group{Operand: i}
		}
		out = append(out, g)
	}
	return out
}

// paramIndex is the index of the last parameter named x, as a map of
// the names filled in order would give it.
func paramIndex(ps []*fun.Param, x string) (int, bool) {
	for i := len(ps) - 1; i >= 0; i-- {
		if ps[i].Name.Name == x {
			return i, true
		}
	}
	return 0, false
}

// A groupSlot is what Groups learns of one parameter: its group when
// it is an array in support form, and whether it is another's support.
type groupSlot struct {
	g          Group
	form, supp bool
}

// markSupport flags every parameter named x as support (Groups).
func markSupport(ps []*fun.Param, slots []groupSlot, x string) {
	for i, p := range ps {
		if p.Name.Name == x {
			slots[i].supp = true
		}
	}
}

// supportForm reads p's type as an array in support form over the
// parameters ps.
func supportForm(p *fun.Param, ps []*fun.Param) (Group, bool) {
	a := ArrayOf(p.Type)
	if a == nil || a.Index.IsRowMajor() {
		return Group{}, false
	}
	name := func(e fun.SExp) (string, bool) {
		v, ok := e.(fun.Var)
		if !ok {
			return "", false
		}
		_, in := paramIndex(ps, v.Name)
		return v.Name, in && v.Name != p.Name.Name
	}
	op, _ := paramIndex(ps, p.Name.Name)
	g := Group{Operand: op, Block: a.Block.Name}
	if _, ok := paramIndex(ps, g.Block); !ok {
		return Group{}, false
	}
	var ok bool
	if g.Off, ok = name(a.Index.Offset); !ok {
		return Group{}, false
	}
	for _, d := range a.Index.Dims {
		s, ok := name(d.Stride)
		if !ok {
			return Group{}, false
		}
		g.Strides = append(g.Strides, s)
	}
	return g, true
}

// groupValues are the values of the parameters of group g when its
// operand is v: the operand v, its block, offset and strides.
func groupValues(g Group, v Value) map[string]Value {
	if !g.IsArray() {
		return nil
	}
	out := map[string]Value{}
	out[g.Block] = Value{Kind: BlockVal, Block: v.Block}
	out[g.Off] = Value{Kind: IntVal, K: v.L.Offset}
	for i, s := range g.Strides {
		if i < len(v.L.Dims) {
			out[s] = Value{Kind: IntVal, K: v.L.Dims[i].Stride}
		}
	}
	return out
}

// bindGroup binds the parameters of g (among ps) for the operand value v,
// through bind: its support, then the operand.
// A value that is not of the operand's kind is stuck in rule.
func bindGroup(bind func(name string, v Value), ps []*fun.Param, g Group, v Value, rule string) error {
	p := ps[g.Operand]
	if g.IsArray() != (v.Kind == ArrayVal) || (v.Kind == ArrayVal && v.L.Rank() != len(g.Strides)) {
		return semantics.Stuckf(p.Lparen, rule, "%s is bound to %v, which is not a value of type %s", p.Name.Name, v, p.Type)
	}
	for name, sv := range groupValues(g, v) {
		bind(name, sv)
	}
	bind(p.Name.Name, v)
	return nil
}

// patternValues are the values of a pattern of support groups (an
// array-valued reduce's) when its operands are vs, in the pattern's order.
func patternValues(pat []*fun.Param, vs []Value, rule string) ([]Value, error) {
	gs := Groups(pat)
	if len(gs) != len(vs) {
		return nil, semantics.Stuckf(patPos(pat), rule, "the pattern binds %d values, but the expression gives %d", len(gs), len(vs))
	}
	out := make([]Value, len(pat))
	for j, g := range gs {
		out[g.Operand] = vs[j]
		sv := groupValues(g, vs[j])
		for i, p := range pat {
			if v, ok := sv[p.Name.Name]; ok {
				out[i] = v
			}
		}
	}
	return out, nil
}

func patPos(pat []*fun.Param) fun.Pos {
	if len(pat) > 0 {
		return pat[0].Lparen
	}
	return fun.Pos{}
}

// supportNames is the set of the supporting parameters of groups.
func supportNames(gs []Group) map[string]bool {
	out := map[string]bool{}
	for _, g := range gs {
		if g.IsArray() {
			out[g.Block], out[g.Off] = true, true
			for _, s := range g.Strides {
				out[s] = true
			}
		}
	}
	return out
}
