package funmem

import (
	"math"
	"math/rand"
	"reflect"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// sexpGen makes random scalar expressions over names and consts, each
// occurrence of a name at a position of its own (so that a test can tell
// which occurrence a normal form keeps): of k drawn in 0 … 9, below 4 a
// variable, below 6 a constant, below mulBelow a product, else a sum,
// difference or quotient.
type sexpGen struct {
	r        *rand.Rand
	names    []string
	consts   []int64
	mulBelow int
	pos      int
}

// ident is a name at a new position.
func (g *sexpGen) ident() *fun.Ident {
	g.pos++
	return &fun.Ident{NamePos: fun.Pos{Line: g.pos}, Name: g.names[g.r.Intn(len(g.names))]}
}

// gen is an expression of depth at most depth.
func (g *sexpGen) gen(depth int) fun.SExp {
	k := g.r.Intn(10)
	switch {
	case depth == 0 || k < 4:
		return fun.Var{Ident: g.ident()}
	case k < 6:
		return &fun.Const{Value: g.consts[g.r.Intn(len(g.consts))]}
	case k < g.mulBelow:
		return &fun.BinOp{Op: semantics.Mul, L: g.gen(depth - 1), R: g.gen(depth - 1)}
	default:
		op := []semantics.Op{semantics.Add, semantics.Sub, semantics.Div}[g.r.Intn(3)]
		return &fun.BinOp{Op: op, L: g.gen(depth - 1), R: g.gen(depth - 1)}
	}
}

// TestBinopAsCanon: binop's shortcuts (a variable and a constant, products
// of variables) give exactly Canon(a op b), down to which occurrence of a
// variable (its position) stands for it, on random operands.
func TestBinopAsCanon(t *testing.T) {
	g := &sexpGen{r: rand.New(rand.NewSource(1)), names: []string{"x", "y", "n1", "n10", "a_b", "z"},
		consts: []int64{0, 1, -1, 2, -2, 7, math.MinInt64, math.MaxInt64}, mulBelow: 9}
	r, gen := g.r, g.gen
	n := 200000
	if testing.Short() {
		n /= 10
	}
	for i := 0; i < n; i++ {
		a, b := gen(r.Intn(4)), gen(r.Intn(4))
		for _, op := range []byte{'+', '-', '*'} {
			o := map[byte]semantics.Op{'+': semantics.Add, '-': semantics.Sub, '*': semantics.Mul}[op]
			want := Canon(&fun.BinOp{Op: o, L: a, R: b})
			if got := binop(a, b, op); !reflect.DeepEqual(got, want) {
				t.Fatalf("binop(%s %c %s) = %s %#v, Canon gives %s %#v", fun.PrintSExp(a), op, fun.PrintSExp(b), fun.PrintSExp(got), got, fun.PrintSExp(want), want)
			}
		}
	}
}

// sliceFSteps is SliceF as eq (2) reads, one step per dimension: the
// offset normalised again after each.
func sliceFSteps(l *IndexFn, slices []fun.Slice) *IndexFn {
	off, dims := l.LMAD()
	out := &IndexFn{Pos: l.Pos}
	for i, sl := range slices {
		off = Add(off, Mul(Sub(fun.Var{Ident: sl.Off}, fun.Int(1)), dims[i].Stride))
		out.Dims = append(out.Dims, LDim{Elems: fun.Var{Ident: sl.Size}, Stride: dims[i].Stride})
	}
	out.Offset = off
	return out
}

// TestSliceFAsSteps: SliceF's one sum of normal forms gives exactly the
// tree of normalising step by step (sliceFSteps), down to which
// occurrence of a variable stands for it, on random LMADs and slices
// whose offsets share names with them.
func TestSliceFAsSteps(t *testing.T) {
	g := &sexpGen{r: rand.New(rand.NewSource(2)), names: []string{"x", "y", "n1", "o", "z"},
		consts: []int64{0, 1, -1, 2, 7, math.MaxInt64}, mulBelow: 8}
	r, gen, ident := g.r, g.gen, g.ident
	n := 50000
	if testing.Short() {
		n /= 10
	}
	for i := 0; i < n; i++ {
		rank := r.Intn(4)
		l := &IndexFn{Pos: fun.Pos{Line: i}}
		if r.Intn(2) == 0 {
			l.RowMajor = []fun.SExp{}
			for range rank {
				l.RowMajor = append(l.RowMajor, fun.Var{Ident: ident()})
			}
		} else {
			l.Offset = gen(r.Intn(3))
			for range rank {
				l.Dims = append(l.Dims, LDim{Elems: fun.Var{Ident: ident()}, Stride: gen(r.Intn(3))})
			}
		}
		var sl []fun.Slice
		for range rank {
			sl = append(sl, fun.Slice{Off: ident(), Size: ident()})
		}
		if got, want := SliceF(l, sl), sliceFSteps(l, sl); !reflect.DeepEqual(got, want) {
			t.Fatalf("SliceF(%s) = %s %#v, step by step %s %#v", l, got, got, want, want)
		}
	}
}

// TestIndexOffsetAsAddMul checks IndexOffset against adding the terms one
// at a time with Add, Mul and Sub (each partial sum in normal form, as
// FunMemToImp's apply did), on random offsets, indices and strides: the
// same tree, positions included (which variable stands for a name).
func TestIndexOffsetAsAddMul(t *testing.T) {
	g := &sexpGen{r: rand.New(rand.NewSource(2)), names: []string{"x", "y", "n1", "n10", "a_b", "z"},
		consts: []int64{0, 1, -1, 2, -2, 7, math.MinInt64, math.MaxInt64}, mulBelow: 8}
	r, gen := g.r, g.gen
	n := 50000
	if testing.Short() {
		n /= 10
	}
	for i := 0; i < n; i++ {
		off := gen(r.Intn(3))
		k := r.Intn(4)
		idx, dims := make([]fun.SExp, k), make([]LDim, k)
		for j := range idx {
			idx[j], dims[j] = gen(r.Intn(3)), LDim{Stride: gen(r.Intn(3))}
		}
		want := off
		for j, y := range idx {
			want = Add(want, Mul(Sub(y, fun.Int(1)), dims[j].Stride))
		}
		if got := IndexOffset(off, idx, dims); !reflect.DeepEqual(got, want) {
			t.Fatalf("IndexOffset(%s, %v) = %s %#v, Add and Mul give %s %#v", fun.PrintSExp(off), idx, fun.PrintSExp(got), got, fun.PrintSExp(want), want)
		}
	}
}

// TestSameTextRenamed: comparing a with b's variables renamed, as
// sameType compares a result's LMAD with its binding's, is comparing a
// with the renamed tree (fun.RenameSExp), on random pairs, also pairs
// that differ only by the renaming, unary minus and calls included.
func TestSameTextRenamed(t *testing.T) {
	g := &sexpGen{r: rand.New(rand.NewSource(3)), names: []string{"x", "y", "z"}, consts: []int64{0, 1, 2}, mulBelow: 8}
	subst := map[string]string{"x": "y", "z": "x"}
	wrap := func(e fun.SExp) fun.SExp {
		switch g.r.Intn(6) {
		case 0:
			return &fun.UnOp{Op: semantics.Neg, X: e}
		case 1:
			return &fun.Call{Func: semantics.Sqrt, Arg: e}
		}
		return e
	}
	same := 0
	for i := 0; i < 20000; i++ {
		b := wrap(g.gen(g.r.Intn(3)))
		a := fun.RenameSExp(b, subst) // alike once renamed
		if g.r.Intn(2) == 0 {
			a = wrap(g.gen(g.r.Intn(3)))
		}
		want := sameText(a, fun.RenameSExp(b, subst))
		if got := sameTextRenamed(a, b, subst); got != want {
			t.Fatalf("sameTextRenamed(%s, %s): %v, want %v", fun.PrintSExp(a), fun.PrintSExp(b), got, want)
		}
		if want {
			same++
		}
	}
	if same < 5000 {
		t.Fatalf("only %d pairs alike: the test compares little", same)
	}
}

// TestSameValueShortcut: SameValue, which answers expressions written
// alike (sameText) without normalising them, is equality of the normal
// forms, on random pairs, half of them written alike (each occurrence of
// a name at a position of its own).
func TestSameValueShortcut(t *testing.T) {
	g := &sexpGen{r: rand.New(rand.NewSource(4)), names: []string{"x", "y", "z"}, consts: []int64{0, 1, 2, -1}, mulBelow: 8}
	alike := 0
	for i := 0; i < 20000; i++ {
		a := g.gen(g.r.Intn(4))
		b := g.gen(g.r.Intn(4))
		if g.r.Intn(2) == 0 { // a copy of a, its variables at positions of their own
			b = fun.Substitute(a, func(x *fun.Ident) fun.SExp {
				g.pos++
				return fun.Var{Ident: &fun.Ident{NamePos: fun.Pos{Line: g.pos}, Name: x.Name}}
			})
		}
		if sameText(a, b) {
			alike++
		}
		if got, want := SameValue(a, b), Normalize(a).Equal(Normalize(b)); got != want {
			t.Fatalf("SameValue(%s, %s) = %v, want %v", fun.PrintSExp(a), fun.PrintSExp(b), got, want)
		}
	}
	if alike < 5000 {
		t.Fatalf("only %d pairs written alike", alike)
	}
}
