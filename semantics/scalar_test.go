package semantics

import (
	"math"
	"testing"
)

func TestBinary(t *testing.T) {
	for _, tc := range []struct {
		op   Op
		a, b int64
		want int64
		err  bool
	}{
		{Add, 2, 3, 5, false},
		{Add, math.MaxInt64, 1, math.MinInt64, false}, // wraps
		{Sub, math.MinInt64, 1, math.MaxInt64, false},
		{Mul, math.MaxInt64, 2, -2, false},
		{Div, 7, 2, 3, false},
		{Div, -7, 2, -3, false}, // truncates towards zero
		{Mod, -7, 2, -1, false},
		{Div, math.MinInt64, -1, math.MinInt64, false}, // no trap
		{Mod, math.MinInt64, -1, 0, false},
		{Div, 1, 0, 0, true},
		{Mod, 1, 0, 0, true},
		{Eq, 3, 3, 1, false},
		{Ne, 3, 3, 0, false},
		{Lt, 2, 3, 1, false},
		{Le, 3, 3, 1, false},
		{Gt, 2, 3, 0, false},
		{Ge, 2, 3, 0, false},
		{And, 2, 3, 1, false},
		{And, 2, 0, 0, false},
		{Or, 0, -5, 1, false},
		{Or, 0, 0, 0, false},
	} {
		got, err := Binary(tc.op, tc.a, tc.b)
		if (err != nil) != tc.err || (!tc.err && got != tc.want) {
			t.Errorf("%d %v %d = %d, %v; want %d (error %v)", tc.a, tc.op, tc.b, got, err, tc.want, tc.err)
		}
		if tc.err && err.Error() != "division by zero (operator "+tc.op.String()+")" {
			t.Errorf("error %q does not name the operator", err)
		}
	}
	if Unary(Neg, math.MinInt64) != math.MinInt64 {
		t.Error("negating MinInt64 does not wrap")
	}
}
