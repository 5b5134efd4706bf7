package funmem

import (
	"math"
	"math/rand"
	"reflect"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// TestBinopAsCanon: binop's shortcuts (a variable and a constant, products
// of variables) give exactly Canon(a op b), down to which occurrence of a
// variable (its position) stands for it, on random operands.
func TestBinopAsCanon(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	names := []string{"x", "y", "n1", "n10", "a_b", "z"}
	consts := []int64{0, 1, -1, 2, -2, 7, math.MinInt64, math.MaxInt64}
	pos := 0
	var gen func(depth int) fun.SExp
	gen = func(depth int) fun.SExp {
		k := r.Intn(10)
		switch {
		case depth == 0 || k < 4:
			pos++
			return fun.Var{Ident: &fun.Ident{NamePos: fun.Pos{Line: pos}, Name: names[r.Intn(len(names))]}}
		case k < 6:
			return &fun.Const{Value: consts[r.Intn(len(consts))]}
		case k < 9:
			return &fun.BinOp{Op: semantics.Mul, L: gen(depth - 1), R: gen(depth - 1)}
		default:
			op := []semantics.Op{semantics.Add, semantics.Sub, semantics.Div}[r.Intn(3)]
			return &fun.BinOp{Op: op, L: gen(depth - 1), R: gen(depth - 1)}
		}
	}
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

// TestIndexOffsetAsAddMul checks IndexOffset against adding the terms one
// at a time with Add, Mul and Sub (each partial sum in normal form, as
// FunMemToImp's apply did), on random offsets, indices and strides: the
// same tree, positions included (which variable stands for a name).
func TestIndexOffsetAsAddMul(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	names := []string{"x", "y", "n1", "n10", "a_b", "z"}
	consts := []int64{0, 1, -1, 2, -2, 7, math.MinInt64, math.MaxInt64}
	pos := 0
	var gen func(depth int) fun.SExp
	gen = func(depth int) fun.SExp {
		k := r.Intn(10)
		switch {
		case depth == 0 || k < 4:
			pos++
			return fun.Var{Ident: &fun.Ident{NamePos: fun.Pos{Line: pos}, Name: names[r.Intn(len(names))]}}
		case k < 6:
			return &fun.Const{Value: consts[r.Intn(len(consts))]}
		case k < 8:
			return &fun.BinOp{Op: semantics.Mul, L: gen(depth - 1), R: gen(depth - 1)}
		default:
			op := []semantics.Op{semantics.Add, semantics.Sub, semantics.Div}[r.Intn(3)]
			return &fun.BinOp{Op: op, L: gen(depth - 1), R: gen(depth - 1)}
		}
	}
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
