package fun

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// evalCase is one unit test of an evaluation rule: the program, its
// inputs, and either its results or the stuck state it must reach. Both
// semantics must agree, and the rule must have fired.
type evalCase struct {
	rule string
	src  string
	args map[string]string
	want string // results joined by " | "
	err  string // the whole error line
}

var evalCases = []evalCase{
	{rule: "E-SCALAR", src: "let (x : int) = 2 + 3 * 4 - -1\nin (x)", want: "15"},
	{rule: "E-SCALAR", src: "input (n : int)\nlet (x : int) = n / 2 + n % 2 + (n < 3) + (n == 5 && 1 || 0)\nin (x)", args: map[string]string{"n": "5"}, want: "4"},
	{rule: "E-SCALAR", src: "input (n : int)\nlet (x : int) = 7 / n\nin (x)", args: map[string]string{"n": "0"},
		err: "t.fun:2:19: E-SCALAR: division by zero (operator /) in 7 / n"},
	{rule: "E-SCALAR", src: "input (n : int)\nlet (x : int) = 7 % n\nin (x)", args: map[string]string{"n": "0"},
		err: "t.fun:2:19: E-SCALAR: division by zero (operator %) in 7 % n"},
	{rule: "E-INDEX", src: "input (n : int) (m : int) (a : [n][m]) (i : int) (j : int)\nlet (x : int) = a[i, j]\nin (x)",
		args: map[string]string{"a": "[[1 2 3] [4 5 6]]", "i": "2", "j": "1"}, want: "4"},
	{rule: "E-INDEX", src: "input (n : int) (a : [n]) (i : int)\nlet (x : int) = a[i]\nin (x)",
		args: map[string]string{"a": "[1 2 3 4 5]", "i": "7"}, err: "t.fun:2:17: E-INDEX: index 7 out of bounds 1..5 in dimension 1 of a"},
	{rule: "E-INDEX", src: "input (n : int) (a : [n]) (i : int)\nlet (x : int) = a[i]\nin (x)",
		args: map[string]string{"a": "[1 2 3]", "i": "0"}, err: "E-INDEX: index 0 out of bounds 1..3"},
	{rule: "E-SLICE", src: "input (n : int) (a : [n]) (o : int) (s : int)\nlet (b : [s]) = a[o : s]\nin (b)",
		args: map[string]string{"a": "[10 20 30 40 50]", "o": "2", "s": "3"}, want: "[20 30 40]"},
	{rule: "E-SLICE", src: "input (n : int) (a : [n]) (o : int) (s : int)\nlet (b : [s]) = a[o : s]\nin (b)",
		args: map[string]string{"a": "[10 20 30 40 50]", "o": "4", "s": "3"},
		err:  "t.fun:2:17: E-SLICE: slice 4:3 (elements 4..6) out of bounds 1..5 in dimension 1 of a"},
	{rule: "E-SLICE", src: "input (n : int) (m : int) (a : [n][m]) (o : int) (s : int) (p : int) (q : int)\nlet (b : [s][q]) = a[o : s, p : q]\nin (b)",
		args: map[string]string{"a": "[[1 2 3] [4 5 6] [7 8 9]]", "o": "2", "s": "2", "p": "3", "q": "1"}, want: "[[6] [9]]"},
	{rule: "E-TRANSPOSE", src: "input (n : int) (m : int) (a : [n][m])\nlet (b : [m][n]) = transpose a\nin (b)",
		args: map[string]string{"a": "[[1 2 3] [4 5 6]]"}, want: "[[1 4] [2 5] [3 6]]"},
	{rule: "E-IF-TRUE", src: "input (c : int)\nlet (x : int) = if c then let (y : int) = 1 in (y) else let (z : int) = 2 in (z)\nin (x)",
		args: map[string]string{"c": "-4"}, want: "1"},
	{rule: "E-IF-FALSE", src: "input (c : int)\nlet (x : int) = if c then let (y : int) = 1 in (y) else let (z : int) = 2 in (z)\nin (x)",
		args: map[string]string{"c": "0"}, want: "2"},
	{rule: "E-KERNEL", src: "input (n : int) (a : [n])\nlet (b : [n]) = kernel i <= n do let (v : int) = a[i] let (w : int) = v * i in (w)\nin (b)",
		args: map[string]string{"a": "[5 6 7]"}, want: "[5 12 21]"},
	{rule: "E-KERNEL", src: "input (n : int) (m : int)\nlet (b : [n][m]) = kernel i <= n do let (r : [m]) = kernel j <= m do let (v : int) = 10 * i + j in (v) in (r)\nin (b)",
		args: map[string]string{"n": "2", "m": "3"}, want: "[[11 12 13] [21 22 23]]"},
	{rule: "E-KERNEL", src: "input (n : int) (m : int)\nlet (b : [n][m]) = kernel i <= n do let (r : [m]) = iota m in (r)\nin (b)",
		args: map[string]string{"n": "0", "m": "3"}, want: "[]"},
	{rule: "E-KERNEL", src: "input (n : int)\nlet (b : [n]) = kernel i <= n do in (i)\nin (b)",
		args: map[string]string{"n": "-2"}, err: "t.fun:2:29: E-KERNEL: kernel bound n = -2 is negative"},
	{rule: "E-KERNEL", src: "input (n : int) (a : [n])\nlet (b : [n]) = kernel i <= n do let (j : int) = i + 1 let (v : int) = a[j] in (v)\nin (b)",
		args: map[string]string{"a": "[1 2 3]"}, err: "E-INDEX: index 4 out of bounds 1..3 in dimension 1 of a"},
	{rule: "E-LET", src: "let (x : int) = 1\nlet (y : int) = x + 1\nin (y, x)", want: "2 | 1"},
	{rule: "E-IN", src: "input (n : int) (a : [n])\nin (a, n, a)", args: map[string]string{"a": "[3 1]"}, want: "[3 1] | 2 | [3 1]"},
	{rule: "E-IOTA", src: "input (n : int)\nlet (a : [n]) = iota n\nin (a)", args: map[string]string{"n": "4"}, want: "[1 2 3 4]"},
	{rule: "E-IOTA", src: "input (n : int)\nlet (a : [n]) = iota n\nin (a)", args: map[string]string{"n": "-1"},
		err: "t.fun:2:22: E-IOTA: iota of n = -1: a kernel bound is negative"},
	{rule: "E-COPY", src: "input (n : int) (m : int) (a : [n][m])\nlet (b : [n][m]) = copy a\nin (b)",
		args: map[string]string{"a": "[[1 2] [3 4]]"}, want: "[[1 2] [3 4]]"},
}

func runBoth(t *testing.T, src string, args map[string]string, counter semantics.Counter) (big, small string) {
	t.Helper()
	p, err := ParseFile("t.fun", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	if _, err := Check(p, nil); err != nil {
		t.Fatalf("check: %v", err)
	}
	env, err := BindInputs(p, args)
	if err != nil {
		t.Fatalf("inputs: %v", err)
	}
	show := func(vs []semantics.Array, err error) string {
		if err != nil {
			return "error: " + err.Error()
		}
		parts := make([]string, len(vs))
		for i, v := range vs {
			parts[i] = v.String()
		}
		return strings.Join(parts, " | ")
	}
	vs, _, err := Eval(p, env, &EvalOptions{Counter: counter})
	big = show(vs, err)
	vs, _, err = RunSmall(p, env, &semantics.RunOptions{Counter: counter})
	small = show(vs, err)
	return big, small
}

func TestEvalRules(t *testing.T) { runEvalCases(t, evalCases) }

// runEvalCases runs each case under both semantics, which must agree and
// give its values or its error; a case that ends must have applied its
// rule and have a derivation. A case whose err is "inputs" is one whose
// inputs BindInputs must refuse.
func runEvalCases(t *testing.T, cases []evalCase) {
	for _, tc := range cases {
		t.Run(tc.rule, func(t *testing.T) {
			if tc.err == "inputs" {
				p, _ := ParseFile("t.fun", tc.src)
				if _, err := BindInputs(p, tc.args); err == nil {
					t.Errorf("inputs %v accepted", tc.args)
				}
				return
			}
			c := semantics.Counter{}
			big, small := runBoth(t, tc.src, tc.args, c)
			if big != small {
				t.Errorf("big-step and small-step disagree:\n big: %s\nsmall: %s", big, small)
			}
			if tc.err != "" {
				if !strings.HasPrefix(big, "error: ") || !strings.Contains(big, tc.err) {
					t.Errorf("got %s, want error %q", big, tc.err)
				}
			} else if big != tc.want {
				t.Errorf("got %s, want %s", big, tc.want)
			}
			if c[tc.rule] == 0 && tc.err == "" {
				t.Errorf("rule %s did not fire (fired: %v)", tc.rule, c)
			}
			// The derivation of a run that ends is built without trouble.
			p, _ := ParseFile("t.fun", tc.src)
			env, _ := BindInputs(p, tc.args)
			if _, d, err := Eval(p, env, &EvalOptions{Derive: true}); err == nil && d == nil {
				t.Error("no derivation")
			}
		})
	}
}

// TestDerivedFormsExpand checks that evaluating iota and copy directly
// gives what their expansions of §2 give.
func TestDerivedFormsExpand(t *testing.T) {
	src := `input (n : int) (m : int) (a : [n][m])
let (b : [n][m]) = copy a
let (c : [m]) = iota m
let (d : [m][n]) = transpose b
let (e : [m][n]) = copy d
in (b, c, e)`
	p, err := ParseFile("t.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	q := ExpandDerived(p)
	printed := Print(q)
	if strings.Contains(printed, "iota") || strings.Contains(printed, "copy") {
		t.Fatalf("derived forms left in:\n%s", printed)
	}
	if _, err := Check(q, nil); err != nil {
		t.Fatalf("expansion does not type check: %v\n%s", err, printed)
	}
	args := map[string]string{"a": "[[1 2 3] [4 5 6]]"}
	b1, s1 := runBoth(t, src, args, nil)
	b2, s2 := runBoth(t, printed, args, nil)
	if b1 != b2 || s1 != s2 || b1 != s1 {
		t.Errorf("direct %s / %s, expanded %s / %s", b1, s1, b2, s2)
	}
}

func TestBindInputs(t *testing.T) {
	p, err := ParseFile("t.fun", "input (n : int) (m : int) (a : [n][m]) (k : int)\nin (n, m, a, k)")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args map[string]string
		want string // bindings or an error substring
	}{
		{map[string]string{"a": "[[1 2 3] [4 5 6]]", "k": "7"}, "k=7 a=[[1 2 3] [4 5 6]] m=3 n=2"},
		{map[string]string{"a": "[[1 2 3] [4 5 6]]", "k": "7", "n": "2"}, "k=7 a=[[1 2 3] [4 5 6]] m=3 n=2"},
		{map[string]string{"a": "[[1 2 3] [4 5 6]]", "k": "7", "n": "3"}, "its size n is 3"},
		{map[string]string{"a": "[1 2 3]", "k": "7"}, "has type [n][m], but --arg gives an array of shape [3]"},
		{map[string]string{"a": "[[1]]"}, "missing input k : int"},
		{map[string]string{"n": "1"}, "t.fun:1:27: missing inputs a : [n][m], k : int (give them with --arg a=VALUE --arg k=VALUE)"},
		{map[string]string{"a": "[[1]]", "k": "[1]"}, "input k is an int"},
		{map[string]string{"a": "[[1]]", "k": "1", "zz": "1"}, "--arg zz: the program declares no input of that name"},
		{map[string]string{"a": "[[1] [2 3]]", "k": "1"}, "irregular"},
		{map[string]string{"a": "[]", "m": "3", "k": "1"}, "k=1 a=[] m=3 n=0"},
		{map[string]string{"a": "[[] []]", "k": "1"}, "k=1 a=[[] []] m=0 n=2"},
		{map[string]string{"a": "[]", "k": "1"}, "its size m in dimension 2 must be given"},
		{map[string]string{"a": "[]", "n": "2", "m": "3", "k": "1"}, "input a has 0 elements in dimension 1, but its size n is 2"},
	} {
		got, _ := boundInputs(p, tc.args)
		if !strings.Contains(got, tc.want) {
			t.Errorf("BindInputs(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
}

// TestSmallStepTrace pins the shape of a step trace: which rules fire, in
// what order, for a kernel inside an if.
func TestSmallStepTrace(t *testing.T) {
	src := "input (n : int) (c : int)\nlet (a : [n]) = if c then let (b : [n]) = kernel i <= n do let (v : int) = i * i in (v) in (b) else let (d : [n]) = iota n in (d)\nin (a)"
	p, _ := ParseFile("t.fun", src)
	env, err := BindInputs(p, map[string]string{"n": "2", "c": "1"})
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	var last string
	vs, steps, err := RunSmall(p, env, &semantics.RunOptions{OnStep: func(rule string, state any) {
		c := state.(Config)
		rules = append(rules, rule)
		last = c.String()
	}})
	if err != nil || vs[0].String() != "[1 4]" {
		t.Fatalf("results %v, %v", vs, err)
	}
	want := "E-IF-TRUE E-KERNEL E-SCALAR E-IN E-SCALAR E-IN E-IN E-IN"
	if strings.Join(rules, " ") != want || steps != 8 {
		t.Errorf("rules %v (%d steps), want %s", rules, steps, want)
	}
	if last != "⟨done⟩ ([1 4])" {
		t.Errorf("final configuration %q", last)
	}
	// Fuel: running out is an error, not a hang.
	_, n, err := RunSmall(p, env, &semantics.RunOptions{Fuel: 3})
	if e, ok := err.(*semantics.Error); !ok || e.Kind != semantics.FuelError || n != 3 {
		t.Errorf("fuel 3: %v after %d steps", err, n)
	}
}

// TestLargeKernel makes sure the flat representation keeps a big kernel
// cheap in both semantics (a regression guard, not a timing test).
func TestLargeKernel(t *testing.T) {
	src := "input (n : int)\nlet (a : [n]) = iota n\nlet (b : [n]) = kernel i <= n do let (v : int) = a[i] let (w : int) = v * 2 in (w)\nlet (k : int) = n\nlet (s : int) = b[k]\nin (s)"
	big, small := runBoth(t, src, map[string]string{"n": "200000"}, nil)
	if big != "400000" || small != big {
		t.Errorf("big %s small %s", big, small)
	}
}
