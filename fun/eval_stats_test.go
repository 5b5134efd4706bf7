package fun

import (
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// statsCases pin FUN's cost counters (eval_stats.go) on small programs.
var statsCases = []struct {
	name string
	src  string
	args map[string]string
	want semantics.Stats
}{{
	// n = 5 iterations of a read, a multiply and a write.
	name: "kernel",
	src: `input (n : int) (xs : [n])
let (ys : [n]) = kernel i <= n do
  let (x : int) = xs[i]
  let (y : int) = x * 3
  in (y)
in (ys)`,
	args: map[string]string{"xs": "[1 2 3 4 5]"},
	want: semantics.Stats{Ops: 15, Allocs: 1, Words: 5, PeakWords: 5, Kernels: 1},
}, {
	// A bare copy counts nothing; an assertion its check and operators;
	// slices and transposes are views.
	name: "scalars",
	src: `input (n : int) (xss : [n][n])
let (m : int) = n
let (k : int) = (m + 1) * 2
let (ok : int) = assert k > 0 "positive"
let (one : int) = 1
let (s : [n][one]) = xss[one : n, one : one]
let (t : [n][n]) = transpose xss
in (k, s, t)`,
	args: map[string]string{"xss": "[[1 2] [3 4]]"},
	want: semantics.Stats{Ops: 2 + 2},
}, {
	// The rows are the inner kernels' arrays, which die with their
	// iterations: the peak is the table and one row. Nested kernels are
	// inside the launch.
	name: "nested",
	src: `input (n : int) (m : int)
let (tab : [n][m]) =
  kernel i <= n do
    let (row : [m]) =
      kernel j <= m do
        let (p : int) = i * j
        in (p)
    in (row)
in (tab)`,
	args: map[string]string{"n": "3", "m": "4"},
	want: semantics.Stats{Ops: 12 + 12 + 12, Allocs: 4, Words: 24, PeakWords: 16, Kernels: 1},
}, {
	// iota writes n elements, copy reads and writes each: launches both.
	name: "iota-copy",
	src: `input (n : int)
let (xs : [n]) = iota n
let (ys : [n]) = copy xs
in (ys)`,
	args: map[string]string{"n": "4"},
	want: semantics.Stats{Ops: 4 + 8, Allocs: 2, Words: 8, PeakWords: 8, Kernels: 2},
}, {
	// A reduce reads its rows; a scan reads and writes them.
	name: "folds",
	src: `input (n : int) (xs : [n])
let (zero : int) = 0
let (s : int) = reduce (a : int) (b : int) = zero over xs do
  let (c : int) = a + b
  in (c)
let (ps : [n]) = scan (a : int) (b : int) = zero over xs do
  let (c : int) = a * b
  in (c)
in (s, ps)`,
	args: map[string]string{"xs": "[1 2 3 4]"},
	want: semantics.Stats{Ops: 4*2 + 4*3, Allocs: 1, Words: 4, PeakWords: 4, Kernels: 2},
}, {
	// A filter reads every row, and makes and writes the rows it keeps.
	name: "filter",
	src: `input (n : int) (m : int) (xss : [n][m])
let (r : int) (even : [r][m]) =
  filter (row : [m]) over xss do
    let (one : int) = 1
    let (h : int) = row[one]
    let (keep : int) = h % 2 == 0
    in (keep)
in (r, even)`,
	args: map[string]string{"xss": "[[1 2] [4 5] [6 7]]"},
	want: semantics.Stats{Ops: 6 + 3*(1+2) + 4, Allocs: 1, Words: 4, PeakWords: 4, Kernels: 1},
}, {
	// redomap: the map bodies' ops and the operator's, no array;
	// scanomap makes and writes its rows.
	name: "redomap",
	src: `input (n : int) (xs : [n])
let (zero : int) = 0
let (s : int) =
  redomap (a : int) (b : int) = zero for i <= n do
    let (x : int) = xs[i]
    let (y : int) = x * x
    in (y)
  combine
    let (c : int) = a + b
    in (c)
let (ps : [n]) =
  scanomap (a : int) (b : int) = zero for i <= n do
    let (x : int) = xs[i]
    in (x)
  combine
    let (c : int) = a + b
    in (c)
in (s, ps)`,
	args: map[string]string{"xs": "[1 2 3]"},
	want: semantics.Stats{Ops: 3*3 + 3*3, Allocs: 1, Words: 3, PeakWords: 3, Kernels: 2},
}, {
	// A kernel in a loop's body is a launch each time; the loop's
	// iterations' arrays die with them, its results with the program.
	name: "loop-if",
	src: `input (n : int)
let (one : int) = 1
let (ys : [n]) = iota n
let (zs : [n]) =
  loop (acc : [n]) = (ys) for i <= one do
    let (big : [n]) = kernel j <= n do
      let (v : int) = acc[j]
      let (w : int) = v + i
      in (w)
    in (big)
let (c : int) = n > 2
let (t : int) =
  if c
  then
    let (tmp : [n]) = iota n
    in (n)
  else in (n)
in (zs, t)`,
	args: map[string]string{"n": "3"},
	want: semantics.Stats{Ops: 3 + 3*3 + 1 + 3, Allocs: 3, Words: 9, PeakWords: 6, Kernels: 3},
}}

// TestStats runs each case by the big-step (sequential, and on goroutines
// with every kernel and map large enough) and by the small-step: all
// count alike.
func TestStats(t *testing.T) {
	for _, c := range statsCases {
		p, err := ParseFile(c.name+".fun", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if _, err := Check(p, nil); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		env, err := BindInputs(p, c.args)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		check := func(how string, st *semantics.Stats) {
			t.Helper()
			st.SetLive(0)
			if st.String() != c.want.String() {
				t.Errorf("%s %s:\n got %v\nwant %v", c.name, how, st, &c.want)
			}
		}
		for _, jobs := range []int{1, 4} {
			var st semantics.Stats
			if _, _, err := Eval(p, env, &EvalOptions{Jobs: jobs, Stats: &st, MinParallelWork: 1}); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			check(map[int]string{1: "big", 4: "big --jobs 4"}[jobs], &st)
		}
		var st semantics.Stats
		if _, _, err := RunSmall(p, env, &semantics.RunOptions{Stats: &st}); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		check("small", &st)
	}
}
