package fun

import (
	"fmt"
	"strings"
	"testing"
)

// redomap and scanomap: E-REDOMAP and E-SCANOMAP in both semantics, the
// order of map and operator steps (which fixes the error reported), the
// small-step's frames, and the parallel map bodies.

const (
	redomapSq = `input (n : int) (xs : [n]) (z : int)
let (s : int) =
  redomap (a : int) (b : int) = z for i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
  combine
    let (c : int) = a - b
    in (c)
in (s)`
	scanomapSq = `input (n : int) (xs : [n]) (z : int)
let (ps : [n]) =
  scanomap (a : int) (b : int) = z for i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
  combine
    let (c : int) = a + b
    in (c)
in (ps)`
	// redomapRows adds the rows of xss, each doubled by the map body.
	redomapRows = `input (n : int) (m : int) (xss : [n][m]) (zero : [m])
let (s : [m]) =
  redomap (a : [m]) (b : [m]) = zero for i <= n do
    let (r : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        let (w : int) = v + v
        in (w)
    in (r)
  combine
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (s)`
	scanomapRows = `input (n : int) (m : int) (xss : [n][m]) (zero : [m])
let (ps : [n][m]) =
  scanomap (a : [m]) (b : [m]) = zero for i <= n do
    let (r : [m]) =
      kernel j <= m do
        let (v : int) = xss[i, j]
        in (v)
    in (r)
  combine
    let (c : [m]) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (ps)`
	// redomapOrder: with d = 2 and z = 0, the operator step of element 1
	// is stuck (it divides by the accumulator 0) before element 2's map
	// body (which divides by zero) runs; with z = 1 it is not, and the map
	// body is.
	redomapOrder = `input (n : int) (d : int) (z : int)
let (s : int) =
  redomap (a : int) (b : int) = z for i <= n do
    let (k : int) = i - d
    let (y : int) = 10 / k
    in (y)
  combine
    let (c : int) = a + b / a
    in (c)
in (s)`
	redomapFloat = `input (n : int) (z : float)
let (s : float) =
  redomap (a : float) (b : float) = z for i <= n do
    let (c : float) = float(i) / 2.0
    in (c)
  combine
    let (c : float) = a + b
    in (c)
in (s)`
)

var evalRedomapCases = []evalCase{
	{rule: "E-REDOMAP", src: redomapSq, args: map[string]string{"xs": "[1 2 3]", "z": "0"}, want: "-14"},
	{rule: "E-REDOMAP", src: redomapSq, args: map[string]string{"xs": "[1 2 3]", "z": "20"}, want: "6"},
	{rule: "E-REDOMAP", src: redomapSq, args: map[string]string{"xs": "[]", "z": "5"}, want: "5"},
	{rule: "E-REDOMAP", src: redomapSq, args: map[string]string{"n": "3", "xs": "[1 2]", "z": "0"},
		err: "inputs"}, // the size of xs is not n: refused at the inputs (see TestRedomapStuck for a stuck index)
	{rule: "E-REDOMAP", src: redomapRows, args: map[string]string{"xss": "[[1 2] [3 4] [5 6]]", "zero": "[0 0]"}, want: "[18 24]"},
	{rule: "E-REDOMAP", src: redomapRows, args: map[string]string{"xss": "[]", "zero": "[7 7]"}, want: "[7 7]"},
	{rule: "E-REDOMAP", src: redomapFloat, args: map[string]string{"n": "3", "z": "0.25"}, want: "3.25"},
	{rule: "E-REDOMAP", src: redomapOrder, args: map[string]string{"n": "3", "d": "0", "z": "1"}, want: "11"},
	{rule: "E-REDOMAP", src: redomapOrder, args: map[string]string{"n": "3", "d": "2", "z": "0"}, err: "t.fun:8:27: E-SCALAR: division by zero (operator /) in b / a"},
	{rule: "E-REDOMAP", src: redomapOrder, args: map[string]string{"n": "3", "d": "2", "z": "1"}, err: "t.fun:5:24: E-SCALAR: division by zero (operator /) in 10 / k"},
	{rule: "E-REDOMAP", src: redomapOrder, args: map[string]string{"n": "-1", "d": "2", "z": "1"}, err: "t.fun:3:44: E-REDOMAP: redomap bound n = -1 is negative"},
	{rule: "E-SCANOMAP", src: scanomapSq, args: map[string]string{"xs": "[1 2 3]", "z": "0"}, want: "[1 5 14]"},
	{rule: "E-SCANOMAP", src: scanomapSq, args: map[string]string{"xs": "[1 2 3]", "z": "10"}, want: "[11 15 24]"},
	{rule: "E-SCANOMAP", src: scanomapSq, args: map[string]string{"xs": "[]", "z": "10"}, want: "[]"},
	{rule: "E-SCANOMAP", src: scanomapRows, args: map[string]string{"xss": "[[1 2] [3 4] [5 6]]", "zero": "[0 0]"}, want: "[[1 2] [4 6] [9 12]]"},
	{rule: "E-SCANOMAP", src: scanomapRows, args: map[string]string{"xss": "[[] []]", "zero": "[]"}, want: "[[] []]"},
	{rule: "E-SCANOMAP", src: scanomapRows, args: map[string]string{"xss": "[]", "m": "3", "zero": "[1 2 3]"}, want: "[]"},
}

func TestEvalRedomapRules(t *testing.T) { runEvalCases(t, evalRedomapCases) }

// TestRedomapIsReduceOfKernel: redomap ⊕ z f is reduce ⊕ z over (kernel
// i <= n do f), and scanomap the scan, on the values.
func TestRedomapIsReduceOfKernel(t *testing.T) {
	unfused := `input (n : int) (xs : [n]) (z : int)
let (ys : [n]) =
  kernel i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
let (s : int) =
  reduce (a : int) (b : int) = z over ys do
    let (c : int) = a - b
    in (c)
let (ps : [n]) =
  scan (a : int) (b : int) = z over ys do
    let (c : int) = a + b
    in (c)
in (s, ps)`
	fused := `input (n : int) (xs : [n]) (z : int)
let (s : int) =
  redomap (a : int) (b : int) = z for i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
  combine
    let (c : int) = a - b
    in (c)
let (ps : [n]) =
  scanomap (a : int) (b : int) = z for i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
  combine
    let (c : int) = a + b
    in (c)
in (s, ps)`
	for _, args := range []map[string]string{
		{"xs": "[]", "z": "3"}, {"xs": "[4]", "z": "0"}, {"xs": "[1 -2 3 -4 5]", "z": "7"},
	} {
		u, _ := runBoth(t, unfused, args, nil)
		fb, fs := runBoth(t, fused, args, nil)
		if u != fb || u != fs {
			t.Errorf("%v: unfused %s, fused big %s, small %s", args, u, fb, fs)
		}
	}
}

// TestSmallStepRedomapTrace pins the steps: a start step, then per
// element the map body's frame and the operator body's, each ended by
// E-IN.
func TestSmallStepRedomapTrace(t *testing.T) {
	for _, tc := range []struct {
		src   string
		args  map[string]string
		rules string
		ctx   string
	}{
		{redomapSq, map[string]string{"xs": "[1 2]", "z": "0"},
			"E-REDOMAP E-INDEX E-SCALAR E-IN E-SCALAR E-IN E-INDEX E-SCALAR E-IN E-SCALAR E-IN E-IN", "[redomap i = 2 of 2]"},
		{redomapSq, map[string]string{"xs": "[1 2]", "z": "0"},
			"E-REDOMAP E-INDEX E-SCALAR E-IN E-SCALAR E-IN E-INDEX E-SCALAR E-IN E-SCALAR E-IN E-IN", "[redomap 1 of 2 combine]"},
		{redomapSq, map[string]string{"xs": "[]", "z": "0"}, "E-REDOMAP E-IN", ""},
		{scanomapSq, map[string]string{"xs": "[3]", "z": "0"}, "E-SCANOMAP E-INDEX E-SCALAR E-IN E-SCALAR E-IN E-IN", "[scanomap 1 of 1 combine]"},
		{scanomapSq, map[string]string{"xs": "[]", "z": "0"}, "E-SCANOMAP E-IN", ""},
	} {
		checkSteps(t, tc.src, tc.args, tc.rules, tc.ctx)
	}
}

// TestParallelRedomap runs the redomap cases with map bodies on several
// goroutines, and a large redomap whose map bodies go wrong at several
// elements: the values and the error are the sequential run's.
func TestParallelRedomap(t *testing.T) {
	for _, tc := range evalRedomapCases {
		if tc.err == "inputs" {
			continue
		}
		want := evalJobs(t, tc.src, tc.args, 1)
		for _, jobs := range []int{2, 3, 8} {
			if got := evalSpread(t, tc.src, tc.args, jobs); got != want {
				t.Errorf("%s with %d jobs:\n got %s\nwant %s\n%s", tc.rule, jobs, got, want, tc.src)
			}
		}
	}
	// 20000 elements: several windows of 4096 a goroutine on 2 jobs. The
	// map is stuck from element k on, every 1000 elements; the operator
	// divides by the accumulator, stuck when it reaches 0 at element o.
	src := `input (n : int) (k : int) (o : int)
let (s : int) =
  redomap (a : int) (b : int) = o for i <= n do
    let (late : int) = i >= k
    let (r : int) = i % 1000
    let (y : int) =
      if late
      then
        let (q : int) = 1 / r
        in (q)
      else in (i)
    in (y)
  combine
    let (one : int) = 1
    let (c : int) = a - one
    let (d : int) = b / c
    let (e : int) = d * 0 + c
    in (e)
in (s)`
	for _, c := range [][2]int{{30000, 30000}, {9000, 30000}, {30000, 7000}, {9000, 8500}, {9000, 9500}, {1000, 1}, {19001, 19500}} {
		args := map[string]string{"n": "20000", "k": fmt.Sprint(c[0]), "o": fmt.Sprint(c[1])}
		want := evalJobs(t, src, args, 1)
		for _, jobs := range []int{2, 5} {
			if got := evalJobs(t, src, args, jobs); got != want {
				t.Errorf("%v with %d jobs:\n got %s\nwant %s", args, jobs, got, want)
			}
		}
	}
}

// TestRedomapPrintsBack: the printer's redomap and scanomap parse back to
// the same text, laid out and on one line.
func TestRedomapPrintsBack(t *testing.T) {
	for _, src := range []string{redomapSq, scanomapSq, redomapRows} {
		p, err := ParseFile("t.fun", src)
		if err != nil {
			t.Fatal(err)
		}
		out := Print(p)
		q, err := ParseFile("t.fun", out)
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		if again := Print(q); again != out {
			t.Errorf("prints differently:\n%s\n%s", out, again)
		}
		for _, s := range p.Body.Stms {
			line := "in (x)"
			one := PrintStm(s, true) + " " + line
			if _, err := ParseFile("t.fun", one); err != nil {
				t.Errorf("%v: %s", err, one)
			}
		}
		// A deep copy is the same program.
		if c := Print(CloneProgram(p)); c != out {
			t.Errorf("the copy prints differently:\n%s", c)
		}
	}
}

// TestRedomapWalk: the tree tools reach both bodies.
func TestRedomapWalk(t *testing.T) {
	p, err := ParseFile("t.fun", redomapSq)
	if err != nil {
		t.Fatal(err)
	}
	var bodies int
	Bodies(p.Body, func(*Body) { bodies++ })
	if bodies != 3 {
		t.Errorf("Bodies visits %d bodies, want 3 (program, map, operator)", bodies)
	}
	var names []string
	Rewrite(p.Body, func(s *Stm) []*Stm {
		names = append(names, s.Pat[0].Name.Name)
		return []*Stm{s}
	})
	if got := strings.Join(names, " "); got != "x y c s" {
		t.Errorf("Rewrite saw %s", got)
	}
	e := p.Body.Stms[0].Exp.(*RedomapExp)
	if ExpIndex(e) != e.Var || len(ExpBodies(e)) != 2 || ExpBody(e) != nil {
		t.Error("ExpIndex, ExpBodies or ExpBody of a redomap")
	}
	w := WithBodies(e, nil, []*Body{e.Op, e.Map}).(*RedomapExp)
	if w.Map != e.Op || w.Op != e.Map || w == e {
		t.Error("WithBodies")
	}
}
