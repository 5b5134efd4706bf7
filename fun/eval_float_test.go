package fun

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// The floats extension's evaluation, by the same table as evalCases:
// both semantics must give the result (or the stuck state), printed as
// values print (floats always as floats), and the rule must have fired.

const (
	floatScalar = `input (x : float) (y : float)
let (a : float) = x / y
in (a)`
	floatSum = `input (n : int) (xs : [n]float)
let (z : float) = 0.0
let (s : float) =
  reduce (a : float) (b : float) = z over xs do
    let (c : float) = a + b
    in (c)
in (s)`
	floatKernel = `input (n : int) (xs : [n]float)
let (ys : [n]float) =
  kernel i <= n do
    let (x : float) = xs[i]
    let (y : float) = x * float(i)
    in (y)
in (ys)`
	floatToInt = `input (x : float)
let (k : int) = int(x)
in (k)`
)

var evalFloatCases = []evalCase{
	{rule: "E-SCALAR", src: "let (a : float) = 1.5 + 1.5\nin (a)", want: "3.0"},
	{rule: "E-SCALAR", src: "let (a : float) = 1e20 * 10.0\nin (a)", want: "1e+21"},
	{rule: "E-SCALAR", src: "let (a : float) = 1.0 / 4.0\nin (a)", want: "0.25"},
	{rule: "E-SCALAR", src: "let (a : float) = -(0.0)\nin (a)", want: "-0.0"},
	{rule: "E-SCALAR", src: floatScalar, args: map[string]string{"x": "1.0", "y": "0.0"}, want: "+Inf"},
	{rule: "E-SCALAR", src: floatScalar, args: map[string]string{"x": "-1.0", "y": "0.0"}, want: "-Inf"},
	{rule: "E-SCALAR", src: floatScalar, args: map[string]string{"x": "0.0", "y": "0.0"}, want: "NaN"},
	{rule: "E-SCALAR", src: floatScalar, args: map[string]string{"x": "NaN", "y": "2.0"}, want: "NaN"},
	{rule: "E-SCALAR", src: "let (a : float) = 0.0 / 0.0\nlet (b : int) = a == a\nlet (c : int) = a != a\nin (b, c)", want: "0 | 1"},
	{rule: "E-SCALAR", src: "let (a : float) = sqrt(2.0) * sqrt(2.0)\nlet (b : float) = exp(0.0) + log(1.0) + sin(0.0) + cos(0.0)\nin (a, b)", want: "2.0000000000000004 | 2.0"},
	{rule: "E-SCALAR", src: "let (a : float) = sqrt(-1.0)\nin (a)", want: "NaN"},
	{rule: "E-SCALAR", src: "let (n : int) = 7\nlet (a : float) = float(n) / 2.0\nlet (b : int) = int(a)\nlet (c : int) = int(-a)\nin (a, b, c)", want: "3.5 | 3 | -3"},
	{rule: "E-SCALAR", src: floatToInt, args: map[string]string{"x": "1e18"}, want: "1000000000000000000"},
	{rule: "E-SCALAR", src: floatToInt, args: map[string]string{"x": "NaN"}, err: "t.fun:2:17: E-SCALAR: int(NaN): NaN has no int value in int(x)"},
	{rule: "E-SCALAR", src: floatToInt, args: map[string]string{"x": "1e19"}, err: "t.fun:2:17: E-SCALAR: integer overflow: int(1e+19) does not fit in 64 bits in int(x)"},
	{rule: "E-SCALAR", src: floatToInt, args: map[string]string{"x": "-Inf"}, err: "E-SCALAR: integer overflow: int(-Inf) does not fit in 64 bits"},
	{rule: "E-INDEX", src: "input (n : int) (xs : [n]float)\nlet (one : int) = 1\nlet (x : float) = xs[one]\nin (x)", args: map[string]string{"xs": "[2.0 3.5]"}, want: "2.0"},
	{rule: "E-KERNEL", src: floatKernel, args: map[string]string{"xs": "[1.5 2.5 0.5]"}, want: "[1.5 5.0 1.5]"},
	{rule: "E-KERNEL", src: floatKernel, args: map[string]string{"xs": "[]"}, want: "[]"},
	{rule: "E-COPY", src: "input (n : int) (xs : [n]float)\nlet (ys : [n]float) = copy xs\nin (ys)", args: map[string]string{"xs": "[1.0 2.0]"}, want: "[1.0 2.0]"},
	{rule: "E-TRANSPOSE", src: "input (n : int) (m : int) (xs : [n][m]float)\nlet (ys : [m][n]float) = transpose xs\nin (ys)", args: map[string]string{"xs": "[[1.0 2.0] [3.0 4.0]]"}, want: "[[1.0 3.0] [2.0 4.0]]"},
	{rule: "E-REDUCE", src: floatSum, args: map[string]string{"xs": "[0.5 1.5 1.0]"}, want: "3.0"},
	{rule: "E-REDUCE", src: floatSum, args: map[string]string{"xs": "[0.1 0.2 0.3]"}, want: "0.6000000000000001"},
	{rule: "E-REDUCE", src: floatSum, args: map[string]string{"xs": "[]"}, want: "0.0"},
	{rule: "E-SCAN", src: strings.Replace(strings.Replace(floatSum, "reduce", "scan", 1), "(s : float)", "(s : [n]float)", 1),
		args: map[string]string{"xs": "[0.5 1.5 1.0]"}, want: "[0.5 2.0 3.0]"},
	{rule: "E-FILTER", src: "input (n : int) (xs : [n]float)\nlet (k : int) (ys : [k]float) = filter (x : float) over xs do let (keep : int) = x > 1.0 in (keep)\nin (k, ys)",
		args: map[string]string{"xs": "[0.5 1.5 NaN 2.0]"}, want: "2 | [1.5 2.0]"},
	{rule: "E-LOOP", src: "input (t : int)\nlet (z : float) = 1.0\nlet (s : float) = loop (v : float) = (z) for i <= t do let (w : float) = v * 2.0 in (w)\nin (s)",
		args: map[string]string{"t": "70"}, want: "1.1805916207174113e+21"},
	{rule: "E-ASSERT", src: "input (x : float)\nlet (ok : int) = assert x > 0.0 \"positive\"\nin (ok)", args: map[string]string{"x": "-0.0"},
		err: "E-ASSERT: assertion x > 0.0 failed: positive"},
	{rule: "E-IF-TRUE", src: "input (x : float)\nlet (c : int) = x < 1.0\nlet (y : float) = if c then in (x) else let (h : float) = 1.0 in (h)\nin (y)", args: map[string]string{"x": "0.5"}, want: "0.5"},
}

func TestEvalFloatRules(t *testing.T) { runEvalCases(t, evalFloatCases) }

// TestEmptyFloatKernel checks that a float kernel of no iterations is a
// float array (StackOf), under both semantics, not an int one.
func TestEmptyFloatKernel(t *testing.T) {
	p, err := ParseFile("t.fun", floatKernel)
	if err != nil {
		t.Fatal(err)
	}
	env, err := BindInputs(p, map[string]string{"xs": "[]"})
	if err != nil {
		t.Fatal(err)
	}
	big, _, err := Eval(p, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	small, _, err := RunSmall(p, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range [][]semantics.Array{big, small} {
		if v[0].Elem != semantics.FloatElem || v[0].String() != "[]" {
			t.Errorf("got %s of %s elements, want [] of floats", v[0], v[0].Elem)
		}
	}
}

// TestBindFloatInputs checks --arg for float inputs: floats bind to float
// inputs only, ints to int inputs only, and an empty literal takes the
// declared element type.
func TestBindFloatInputs(t *testing.T) {
	p, err := ParseFile("t.fun", "input (n : int) (x : float) (xs : [n]float)\nin (n, x, xs)")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args map[string]string
		want string
	}{
		{map[string]string{"x": "1.5", "xs": "[1.5 2.0]"}, "xs=[1.5 2.0] x=1.5 n=2"},
		{map[string]string{"x": "1e3", "xs": "[]"}, "xs=[] x=1000.0 n=0"},
		{map[string]string{"x": "1", "xs": "[1.5]"}, "input x has type float, but --arg gives an int 1"},
		{map[string]string{"x": "1.0", "xs": "[1 2]"}, "input xs has type [n]float, but --arg gives an array of shape [2]"},
		{map[string]string{"x": "1.0", "xs": "[1.0]", "n": "1.0"}, "input n has type int, but --arg gives a float 1.0"},
		{map[string]string{"x": "[1.0]", "xs": "[1.0]"}, "input x is a float, but --arg gives an array of shape [1]"},
		{map[string]string{"x": "1.0", "xs": "[1.0 2]"}, "mixes int and float"},
	} {
		got, env := boundInputs(p, tc.args)
		if env != nil {
			if xs, _ := env.Lookup("xs"); xs.Elem != semantics.FloatElem {
				t.Errorf("BindInputs(%v): xs has %s elements", tc.args, xs.Elem)
			}
		}
		if !strings.Contains(got, tc.want) {
			t.Errorf("BindInputs(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
}
