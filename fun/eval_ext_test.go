package fun

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// The extension forms' evaluation rules, by the same table as evalCases:
// both semantics must give the result (or the stuck state), and the rule
// must have fired.

const (
	sumLoop = `input (t : int) (z : int)
let (s : int) =
  loop (acc : int) = (z) for i <= t do
    let (acc1 : int) = acc + i
    in (acc1)
in (s)`
	// growLoop appends i to the carried array in iteration i: its size is
	// an existential, loop-carried int.
	growLoop = `input (n : int) (xs : [n]) (t : int)
let (k2 : int) (zs : [k2]) =
  loop (k : int) (ys : [k]) = (n, xs) for i <= t do
    let (k1 : int) = k + 1
    let (ys1 : [k1]) =
      kernel j <= k1 do
        let (old : int) = j <= k
        let (v : int) =
          if old
          then let (y : int) = ys[j]
               in (y)
          else in (i)
        in (v)
    in (k1, ys1)
in (k2, zs)`
	reduceSum = `input (n : int) (xs : [n]) (z : int)
let (s : int) =
  reduce (a : int) (b : int) = z over xs do
    let (c : int) = a + b
    in (c)
in (s)`
	reduceSub = `input (n : int) (xs : [n]) (z : int)
let (s : int) =
  reduce (a : int) (b : int) = z over xs do
    let (c : int) = a - b
    in (c)
in (s)`
	// reduceRows adds the rows of an [n][m]: an array-valued reduce.
	reduceRows = `input (n : int) (m : int) (xss : [n][m]) (zero : [m])
let (s : [m]) =
  reduce (a : [m]) (b : [m]) = zero over xss do
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (s)`
	scanSum = `input (n : int) (xs : [n]) (z : int)
let (ps : [n]) =
  scan (a : int) (b : int) = z over xs do
    let (c : int) = a + b
    in (c)
in (ps)`
	scanRows = `input (n : int) (m : int) (xss : [n][m]) (zero : [m])
let (ps : [n][m]) =
  scan (a : [m]) (b : [m]) = zero over xss do
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (ps)`
	filterPos = `input (n : int) (xs : [n])
let (k : int) (ys : [k]) =
  filter (x : int) over xs do
    let (keep : int) = x > 0
    in (keep)
in (k, ys)`
	filterRows = `input (n : int) (m : int) (xss : [n][m])
let (k : int) (yss : [k][m]) =
  filter (xs : [m]) over xss do
    let (one : int) = 1
    let (h : int) = xs[one]
    let (keep : int) = h % 2 == 0
    in (keep)
in (k, yss)`
	assertEven = `input (n : int)
let (ok : int) = assert n % 2 == 0 "n is even"
in (ok)`
)

var evalExtCases = []evalCase{
	{rule: "E-LOOP", src: sumLoop, args: map[string]string{"t": "4", "z": "0"}, want: "10"},
	{rule: "E-LOOP", src: sumLoop, args: map[string]string{"t": "1", "z": "5"}, want: "6"},
	{rule: "E-LOOP", src: sumLoop, args: map[string]string{"t": "0", "z": "7"}, want: "7"},
	{rule: "E-LOOP", src: sumLoop, args: map[string]string{"t": "-1", "z": "7"}, err: "t.fun:3:35: E-LOOP: loop bound t = -1 is negative"},
	{rule: "E-LOOP", src: growLoop, args: map[string]string{"xs": "[5]", "t": "3"}, want: "4 | [5 1 2 3]"},
	{rule: "E-LOOP", src: growLoop, args: map[string]string{"xs": "[]", "t": "2"}, want: "2 | [1 2]"},
	{rule: "E-LOOP", src: growLoop, args: map[string]string{"xs": "[9 8]", "t": "0"}, want: "2 | [9 8]"},
	{rule: "E-LOOP", src: "input (n : int) (xs : [n]) (t : int)\nlet (s : int) = loop (acc : int) = (n) for i <= t do let (v : int) = xs[i] in (v)\nin (s)",
		args: map[string]string{"xs": "[4 5]", "t": "3"}, err: "E-INDEX: index 3 out of bounds 1..2 in dimension 1 of xs"},
	{rule: "E-REDUCE", src: reduceSum, args: map[string]string{"xs": "[1 2 3]", "z": "0"}, want: "6"},
	{rule: "E-REDUCE", src: reduceSum, args: map[string]string{"xs": "[1 2 3]", "z": "10"}, want: "16"},
	{rule: "E-REDUCE", src: reduceSum, args: map[string]string{"xs": "[]", "z": "10"}, want: "10"},
	{rule: "E-REDUCE", src: reduceSub, args: map[string]string{"xs": "[1 2 3]", "z": "0"}, want: "-6"},
	{rule: "E-REDUCE", src: reduceRows, args: map[string]string{"xss": "[[1 2] [3 4] [5 6]]", "zero": "[0 0]"}, want: "[9 12]"},
	{rule: "E-REDUCE", src: reduceRows, args: map[string]string{"xss": "[]", "zero": "[0 0]"}, want: "[0 0]"},
	{rule: "E-SCAN", src: scanSum, args: map[string]string{"xs": "[1 2 3]", "z": "0"}, want: "[1 3 6]"},
	{rule: "E-SCAN", src: scanSum, args: map[string]string{"xs": "[1 2 3]", "z": "10"}, want: "[11 13 16]"},
	{rule: "E-SCAN", src: scanSum, args: map[string]string{"xs": "[]", "z": "10"}, want: "[]"},
	{rule: "E-SCAN", src: scanRows, args: map[string]string{"xss": "[[1 2] [3 4] [5 6]]", "zero": "[0 0]"}, want: "[[1 2] [4 6] [9 12]]"},
	{rule: "E-SCAN", src: scanRows, args: map[string]string{"xss": "[[] []]", "zero": "[]"}, want: "[[] []]"},
	{rule: "E-FILTER", src: filterPos, args: map[string]string{"xs": "[3 -1 4 -5 0 2]"}, want: "3 | [3 4 2]"},
	{rule: "E-FILTER", src: filterPos, args: map[string]string{"xs": "[-3 0]"}, want: "0 | []"},
	{rule: "E-FILTER", src: filterPos, args: map[string]string{"xs": "[]"}, want: "0 | []"},
	{rule: "E-FILTER", src: filterRows, args: map[string]string{"xss": "[[1 2] [4 5] [7 8] [6 0]]"}, want: "2 | [[4 5] [6 0]]"},
	{rule: "E-FILTER", src: filterRows, args: map[string]string{"xss": "[[1 2]]"}, want: "0 | []"},
	{rule: "E-FILTER", src: filterRows, args: map[string]string{"xss": "[[] []]"}, err: "E-INDEX: index 1 out of bounds 1..0 in dimension 1 of xs"},
	{rule: "E-ASSERT", src: assertEven, args: map[string]string{"n": "4"}, want: "1"},
	{rule: "E-ASSERT", src: assertEven, args: map[string]string{"n": "3"}, err: "t.fun:2:18: E-ASSERT: assertion n % 2 == 0 failed: n is even"},
	{rule: "E-ASSERT", src: "input (n : int)\nlet (ok : int) = assert n\nin (ok)", args: map[string]string{"n": "0"}, err: "t.fun:2:18: E-ASSERT: assertion n failed"},
	{rule: "E-ASSERT", src: "input (n : int)\nlet (ok : int) = assert 1 / n \"never\"\nin (ok)", args: map[string]string{"n": "0"},
		err: "t.fun:2:27: E-ASSERT: division by zero (operator /) in 1 / n"},
	{rule: "E-ASSERT", src: "input (n : int)\nlet (ok : int) = assert n \"say \\\"no\\\"\"\nin (ok)", args: map[string]string{"n": "0"},
		err: `E-ASSERT: assertion n failed: say "no"`},
}

func TestEvalExtRules(t *testing.T) { runEvalCases(t, evalExtCases) }

// checkSteps runs src's small-step on args: the rules applied, in order,
// must be rules, and some configuration must start with ctx (unless
// ctx is "").
func checkSteps(t *testing.T, src string, args map[string]string, rules, ctx string) {
	t.Helper()
	p, err := ParseFile("t.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	env, err := BindInputs(p, args)
	if err != nil {
		t.Fatal(err)
	}
	var applied []string
	seen := ctx == ""
	_, _, err = RunSmall(p, env, &semantics.RunOptions{OnStep: func(rule string, state any) {
		applied = append(applied, rule)
		if ctx != "" && strings.HasPrefix(state.(Config).String(), ctx) {
			seen = true
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(applied, " "); got != rules {
		t.Errorf("%v: rules %s, want %s", args, got, rules)
	}
	if !seen {
		t.Errorf("%v: no configuration starts with %s", args, ctx)
	}
}

// TestSmallStepExtTrace pins the steps of the extension forms: a start
// step, then one E-IN per iteration (a frame each), as for kernels.
func TestSmallStepExtTrace(t *testing.T) {
	for _, tc := range []struct {
		src   string
		args  map[string]string
		rules string
		ctx   string // a configuration's context while an iteration runs
	}{
		{sumLoop, map[string]string{"t": "2", "z": "0"}, "E-LOOP E-SCALAR E-IN E-SCALAR E-IN E-IN", "[loop i = 2 of 2]"},
		{sumLoop, map[string]string{"t": "0", "z": "0"}, "E-LOOP E-IN", ""},
		{reduceSum, map[string]string{"xs": "[1 2]", "z": "0"}, "E-REDUCE E-SCALAR E-IN E-SCALAR E-IN E-IN", "[reduce 2 of 2]"},
		{scanSum, map[string]string{"xs": "[1 2]", "z": "0"}, "E-SCAN E-SCALAR E-IN E-SCALAR E-IN E-IN", "[scan 1 of 2]"},
		{scanSum, map[string]string{"xs": "[]", "z": "0"}, "E-SCAN E-IN", ""},
		{filterPos, map[string]string{"xs": "[1 -2]"}, "E-FILTER E-SCALAR E-IN E-SCALAR E-IN E-IN", "[filter 2 of 2]"},
		{assertEven, map[string]string{"n": "2"}, "E-ASSERT E-IN", ""},
	} {
		checkSteps(t, tc.src, tc.args, tc.rules, tc.ctx)
	}
}
