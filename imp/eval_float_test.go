package imp

import (
	"math"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// The floats extension: float variables, inputs and results, float words
// in blocks (their bits, read as the target is declared), the operators
// and functions of FUN, and float reduce and scan, under both semantics.
func TestEvalFloat(t *testing.T) {
	bits := func(f float64) string { return semantics.Scalar(semantics.FloatBits(f)).String() }
	runEvalCases(t, []evalCase{
		{name: "declaration", src: `var x : float; return x`,
			rules: []string{"E-IMP-DEC-FLOAT"}, want: "0.0", env: "x=0.0"},
		{name: "prints as a float", src: `var x : float; var y : float; x <- 1.5 + 1.5; y <- 1e20 * 10.0; return x, y`,
			rules: []string{"E-IMP-ASSIGN-INT"}, want: "3.0 1e+21"},
		{name: "IEEE division", src: `input a : float; input b : float; var x : float; var y : float; x <- a / b; y <- b / b; return x, y`,
			args: args("a=1.0", "b=0.0"), want: "+Inf NaN"},
		{name: "comparisons give ints", src: `input a : float; var n : float; n <- a / a; var c : int; var d : int; c <- n == n; d <- a >= 0.0; return c, d`,
			args: args("a=0.0"), want: "0 1"},
		{name: "functions and conversions", src: `input n : int; var x : float; var k : int; x <- sqrt(float(n)); k <- int(-x * 10.0); return x, k`,
			args: args("n=2"), want: "1.4142135623730951 -14"},
		{name: "int of NaN is stuck", src: `input a : float; var k : int; k <- int(a); return k`,
			args: args("a=NaN"), err: `^eval.imp:1:36: E-IMP-ASSIGN-INT: int\(NaN\): NaN has no int value in int\(a\)$`},
		{name: "int out of range overflows", src: `input a : float; var k : int; k <- int(a); return k`,
			kind: semantics.OverflowError, args: args("a=9.3e18"), err: `E-IMP-ASSIGN-INT: integer overflow: int\(9\.3e\+18\) does not fit in 64 bits`},
		{name: "a float written is its bits", src: `var m : mem; m <- alloc 2; m[0] <- 0.5; m[1] <- 2; return m : [1]float`,
			rules: []string{"E-IMP-WRITE"}, want: "[0.5]", heap: "ℓ1=[" + bits(0.5) + " 2]"},
		{name: "a read takes the target's type", src: `input n : int; input xs : [n]float @ xs_mem;
var x : float; var w : int; x <- xs_mem[1]; w <- xs_mem[1]; return x, w`,
			args: args("xs=[1.0 -2.0]"), rules: []string{"E-IMP-READ"}, want: "-2.0 " + bits(-2.0)},
		{name: "float kernel", src: `input n : int; input xs : [n]float @ xs_mem; var ys : mem; ys <- alloc n;
kernel i <= n do var v : float; v <- xs_mem[i - 1]; ys[i - 1] <- v * float(i) done;
return ys : [n]float`, args: args("xs=[1.5 2.5 0.5]"), want: "[1.5 5.0 1.5]"},
		{name: "empty float array", src: `input n : int; input xs : [n]float @ xs_mem; return xs_mem : [n]float`,
			args: args("xs=[]"), want: "[]"},
		{name: "float reduce", src: `input n : int; input xs : [n]float @ xs_mem; var s : float;
reduce s <- 0.0 for i <= n do var v : float; v <- xs_mem[i - 1]; yield v
combine a, b do var c : float; c <- a + b; yield c done; return s`,
			args: args("xs=[0.1 0.2 0.3]"), rules: []string{"I-REDUCE"}, want: "0.6000000000000001"},
		{name: "float reduce of nothing", src: `input n : int; input xs : [n]float @ xs_mem; var s : float;
reduce s <- -1.5 for i <= n do var v : float; v <- xs_mem[i - 1]; yield v
combine a, b do var c : float; c <- a + b; yield c done; return s`,
			args: args("xs=[]"), rules: []string{"I-REDUCE"}, want: "-1.5"},
		{name: "float scan", src: `input n : int; input xs : [n]float @ xs_mem; var ps : mem; ps <- alloc n;
scan ps[i - 1] <- 0.0 for i <= n do var v : float; v <- xs_mem[i - 1]; yield v
combine a, b do var c : float; c <- a + b; yield c done; return ps : [n]float`,
			args: args("xs=[0.5 1.5 1.0]"), rules: []string{"I-SCAN"}, want: "[0.5 2.0 3.0]"},
		{name: "float condition of an assert", src: `input x : float; assert x > 0.0 "positive"; return x`,
			args: args("x=-0.0"), err: `I-ASSERT: positive \(assertion x > 0\.0 is 0\)`},
		{name: "a float where an int is needed", noCheck: true, src: `var x : float; var m : mem; m <- alloc x; return m : [0]`,
			err: `E-IMP-ALLOC: x is the float 0\.0, not an integer`},
	})
}

// TestBindFloatInputs checks that float inputs take float literals only,
// and that a float array's block holds its elements' bits.
func TestBindFloatInputs(t *testing.T) {
	p := mustParse(t, "input n : int; input x : float; input xs : [n]float @ m; return x, m : [n]float", true)
	env, h, err := BindInputs(p, args("x=2.5", "xs=[1.0 -0.0]"))
	if err != nil {
		t.Fatal(err)
	}
	if got := env["x"].String(); got != "2.5" {
		t.Errorf("x = %s", got)
	}
	if got := h.Block(env["m"].L); got[0] != semantics.FloatBits(1) || got[1] != semantics.FloatBits(math.Copysign(0, -1)) {
		t.Errorf("block %v", got)
	}
	for _, bad := range []map[string]string{args("x=2", "xs=[1.0]"), args("x=2.0", "xs=[1 2]")} {
		if _, _, err := BindInputs(p, bad); err == nil {
			t.Errorf("BindInputs(%v) accepted an int for a float", bad)
		}
	}
}
