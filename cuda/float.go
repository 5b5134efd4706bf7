package cuda

import (
	"fmt"
	"math"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/semantics"
)

// IMP's floats (an extension; docs/imp.md, "Floats") in C++: a float
// variable is a double; a heap word stays an int64_t, so a float goes to
// memory as its bits (arraysem_f64_bits, which makes every NaN the
// canonical one, as semantics.FloatBits does) and comes back by the same
// bits (arraysem_f64_from_bits), as a read takes the word as its target is
// declared. Arithmetic goes through the prelude's f64_ functions (the
// round-to-nearest intrinsics on the device, so no multiply-add is fused),
// comparisons are C++'s on doubles (IEEE: NaN is unordered), float(se) is
// a cast, and int(se) a cast after the interpreter's check (stuck on NaN
// and outside int64's range, with semantics.ErrIntConversion's message).

// stype is the type of a scalar expression in scope ty, Int or Float, as
// IMP's checker gives it: a variable's declared type, an operator's
// operands' (comparisons give ints), a function's result.
func stype(ty scope, se fun.SExp) imp.Type {
	switch se := se.(type) {
	case *fun.FloatConst:
		return imp.Float
	case fun.Var:
		if ty[se.Name] == imp.Float {
			return imp.Float
		}
		return imp.Int
	case *fun.UnOp:
		return stype(ty, se.X)
	case *fun.BinOp:
		switch se.Op {
		case semantics.Add, semantics.Sub, semantics.Mul, semantics.Div:
			return stype(ty, se.L)
		}
		return imp.Int
	case *fun.Call:
		return imp.TypeOf(se.Func.Result())
	}
	return imp.Int
}

// floatLit is a float constant: a literal when finite, its bits otherwise.
func floatLit(v float64) Expr {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return call("arraysem_f64_from_bits", num(semantics.FloatBits(v)))
	}
	return &Float{V: v}
}

// f64Ops are the prelude's functions of the float operators.
var f64Ops = map[semantics.Op]string{semantics.Add: "f64_add", semantics.Sub: "f64_sub", semantics.Mul: "f64_mul", semantics.Div: "f64_div"}

// f64Funcs are the prelude's functions of the elementary functions.
var f64Funcs = map[semantics.Func]string{semantics.Sqrt: "f64_sqrt", semantics.Exp: "f64_exp", semantics.Log: "f64_log", semantics.Sin: "f64_sin", semantics.Cos: "f64_cos"}

// callExpr is a built-in function applied (int's argument checked before).
func (e *emitter) callExpr(fr *frame, se *fun.Call) Expr {
	x := e.sexp(fr, se.Arg)
	switch se.Func {
	case semantics.ToFloat:
		return &Cast{Type: "double", X: x}
	case semantics.ToInt:
		return &Cast{Type: "int64_t", X: x}
	}
	return call(f64Funcs[se.Func], x)
}

// intChecks are int(se)'s checks: stuck, as fun.EvalNum is, with
// semantics.ErrIntConversion's message on NaN and outside int64's range.
func (e *emitter) intChecks(f *fn, fr *frame, se *fun.Call, rule string) []Stmt {
	x := e.sexp(fr, se.Arg)
	in := " in " + fun.PrintSExp(se)
	nan := e.site(se.NamePos, rule, pct(semantics.ErrIntConversion{Value: math.NaN()}.Error()+in))
	big := e.site(se.NamePos, rule, "integer overflow: int(%f64) does not fit in 64 bits"+pct(in))
	return []Stmt{&If{Cond: &Unary{Op: "!", X: call("arraysem_f64_int_ok", x)}, Then: []Stmt{
		&If{Cond: call("arraysem_f64_isnan", x), Then: f.fail(nan, nil, nil), Else: f.fail(big, call("arraysem_f64_bits", x), nil)},
	}}}
}

// word is the heap word of a value of type t: a float's bits.
func word(t imp.Type, x Expr) Expr {
	if t == imp.Float {
		return call("arraysem_f64_bits", x)
	}
	return x
}

// fromWord is the value of type t a heap word holds.
func fromWord(t imp.Type, w Expr) Expr {
	if t == imp.Float {
		return call("arraysem_f64_from_bits", w)
	}
	return w
}

// wordValue evaluates an expression into a fresh int64_t temporary
// holding its heap word, after its checks.
func (e *emitter) wordValue(f *fn, fr *frame, se fun.SExp, rule, base string) ([]Stmt, string) {
	out := e.checks(f, fr, se, rule)
	t := f.fresh(base)
	return append(out, &Decl{Type: "int64_t", Name: t, Init: word(stype(fr.ty, se), e.sexp(fr, se))}), t
}

// typeName is a type as messages name it.
func typeName(t imp.Type) string { return fmt.Sprint(t) }
