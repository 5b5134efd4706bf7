package imp_test

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The compile path FUN → FUNMEM → IMP (check.Compile with To "imp":
// TransformProgram, the simplifier, optionally MemoryExpand in either
// layout, then FunMemToImp and COPY) must preserve meaning: on every test
// input of every examples/fun program, the IMP program, run by either of
// IMP's semantics, gives FUN's results whenever FUN gives any.
//
// IMP checks no bounds: FunMemToImp turns slices into skip and indices
// into raw offsets, so a FUN program stuck on a bound (E-INDEX, E-SLICE)
// may run in IMP, or be stuck elsewhere (E-IMP-READ when the raw offset
// leaves the block, E-IMP-ALLOC when a slice's negative size reaches an
// allocation). Those cases are counted and logged, not failed. A division
// by zero is the same in both (the scalar statements are the same).

// compileModes are the compile paths tried for every program.
var compileModes = []struct {
	name   string
	expand bool
	opts   lang.Options
}{
	{"plain", false, lang.Options{}},
	{"expand-gpu", true, lang.Options{}.With("expand").WithString("layout", funmem.GPU.String())},
	{"expand-cpu", true, lang.Options{}.With("expand").WithString("layout", funmem.CPU.String())},
}

func TestTranslateExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	tally := map[string]int{}
	var boundsRuns []string
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := check.ParseSpec(string(src), "--")
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		l, err := check.Load(check.NewRegistry(), file, string(src), check.Options{})
		if err != nil {
			if spec.LoadError == nil {
				t.Errorf("%s: %v", file, err)
			}
			continue // a type error example: nothing to compile
		}
		base := strings.TrimSuffix(filepath.Base(file), ".fun")
		for _, mode := range compileModes {
			t.Run(base+"/"+mode.name, func(t *testing.T) {
				stages, err := check.NewRegistry().Compile(l, "imp", mode.opts)
				if err != nil {
					t.Fatalf("compile: %v", err)
				}
				li := stages[len(stages)-1].Program
				q, ok := li.Syntax().(*imp.Program)
				if !ok {
					t.Fatalf("the last stage, %s, is not IMP", stages[len(stages)-1].Name())
				}
				tally["translations"]++
				for _, c := range spec.Cases {
					where := fmt.Sprintf("%s:%d", filepath.Base(file), c.Line)
					fr, ferr := l.Run(lang.RunOptions{Semantics: "big", Args: c.Args})
					big, berr := li.Run(lang.RunOptions{Semantics: "big", Args: c.Args})
					small, serr := li.Run(lang.RunOptions{Semantics: "small", Args: c.Args})
					if a, b := outcome(big, berr), outcome(small, serr); a != b {
						t.Errorf("%s: IMP's semantics disagree:\n  big:   %s\n  small: %s", where, a, b)
					}
					tally["runs"]++
					if ferr == nil {
						if a, b := outcome(fr, nil), outcome(big, berr); a != b {
							t.Errorf("%s: FUN gives %s, IMP %s\n%s", where, a, b, imp.Print(q))
						}
						continue
					}
					rule := ruleOf(ferr)
					switch {
					case strings.Contains(ferr.Error(), "division by zero"):
						if berr == nil || !strings.Contains(berr.Error(), "division by zero") {
							t.Errorf("%s: FUN is stuck dividing by zero (%v), IMP gives %s", where, ferr, outcome(big, berr))
						}
						tally["stuck in both: division by zero"]++
					case berr == nil:
						tally[fmt.Sprintf("FUN stuck in %s, IMP runs", rule)]++
						if rule == "E-INDEX" || rule == "E-SLICE" {
							boundsRuns = append(boundsRuns, fmt.Sprintf("%s %s (%v): IMP gives %s", where, mode.name, firstLine(ferr), outcome(big, nil)))
						} else {
							t.Errorf("%s: FUN is stuck in %s (%v), which is not a bound, but IMP runs: %s", where, rule, ferr, outcome(big, nil))
						}
					default:
						tally[fmt.Sprintf("FUN stuck in %s, IMP in %s", rule, ruleOf(berr))]++
					}
				}
			})
		}
	}
	var keys []string
	for k := range tally {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		t.Logf("%-45s %d", k, tally[k])
	}
	for _, s := range boundsRuns {
		t.Logf("FUN stuck on a bound, IMP runs: %s", s)
	}
}

// outcome renders a run's results, or its error.
func outcome(r *lang.Result, err error) string {
	if err != nil {
		return "error: " + err.Error()
	}
	return "{ " + strings.Join(r.Lines, " ") + " }"
}

func ruleOf(err error) string {
	var se *semantics.Error
	if errors.As(err, &se) {
		return se.Rule
	}
	return "?"
}

func firstLine(err error) string {
	s, _, _ := strings.Cut(err.Error(), "\n")
	return s
}

// compileImp compiles a FUN program to IMP (plain), or returns the error.
func compileImp(t *testing.T, src string) (*fun.Program, *imp.Program, error) {
	t.Helper()
	l, err := check.Load(check.NewRegistry(), "t.fun", src, check.Options{})
	if err != nil {
		t.Fatalf("load: %v", err)
	}
	p := l.Syntax().(*fun.Program)
	stages, err := check.NewRegistry().Compile(l, "imp", lang.Options{})
	if err != nil {
		return p, nil, err
	}
	return p, stages[len(stages)-1].Program.Syntax().(*imp.Program), nil
}

// TestFromFunmemSiblingNames: FUN lets sibling scopes (an if's branches,
// consecutive kernels) bind the same name, and FUNMEM keeps the names.
// FunMemToImp must look names up in the scope of the statement, not in one
// Γ of the whole program (the paper's "Γ containing all patterns in the
// entire program", where the last binding of a name would win). With one
// global Γ, the translation of examples/fun/sum_max.fun was refused by
// IMP's checker (cell_mem4 is not declared), and, worse, a program whose
// sibling bindings share a block but not an LMAD was translated without
// complaint into an IMP program that read the wrong element (xs[2] for
// xs[1]). Fixed by the scoped Γ of imp/translate.go; this pins it.
func TestFromFunmemSiblingNames(t *testing.T) {
	// 1. Two kernels each building a row named row: the first kernel's
	// copy must read its own block, row_mem, not the second's.
	two := `input (n : int) (m : int)
let (a : [n][m]) = kernel i <= n do
  let (row : [m]) = iota m
  in (row)
let (b : [n][m]) = kernel i <= n do
  let (row : [m]) = iota m
  in (row)
in (a, b)`
	// 2. Branches binding s to different slices of xs: each branch's
	// s[one] must go through its own LMAD.
	branches := `input (n : int) (xs : [n]) (c : int)
let (one : int) = 1
let (v : int) =
  if c
  then let (s : [n]) = xs[one : n]
       let (w : int) = s[one]
       in (w)
  else let (two : int) = 2
       let (k : int) = n - 1
       let (s : [k]) = xs[two : k]
       let (w : int) = s[one]
       in (w)
in (v)`
	for _, tc := range []struct {
		name, src string
		args      []map[string]string
	}{
		{"two kernels binding row", two, []map[string]string{{"n": "2", "m": "3"}}},
		{"branches binding s", branches, []map[string]string{{"xs": "[10 20 30]", "c": "1"}, {"xs": "[10 20 30]", "c": "0"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fp, q, err := compileImp(t, tc.src)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			for _, a := range tc.args {
				fenv, err := fun.BindInputs(fp, a)
				if err != nil {
					t.Fatal(err)
				}
				want, _, err := fun.Eval(fp, fenv, nil)
				if err != nil {
					t.Fatal(err)
				}
				env, h, err := imp.BindInputs(q, a)
				if err != nil {
					t.Fatal(err)
				}
				got, err := imp.Eval(q, env, h, nil)
				if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
					t.Errorf("%v: FUN gives %v, IMP %v (error %v)\n%s", a, want, got, err, imp.Print(q))
				}
			}
		})
	}
}

// TestFromFunmemExtensions: FunMemToImp's cases for the extension forms
// give FUN's results, and the statements the design fixes: a loop whose
// body swaps its carried ints (the next values go through temporaries,
// so neither is read after it is overwritten), an int reduce and scan as
// IMP's reduce and scan, an array reduce as a for carrying the
// accumulator's support, a filter as a for with an if, assert as assert.
func TestFromFunmemExtensions(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		args      map[string]string
		has       []string // statements the IMP program must contain
	}{
		{"loop swapping its ints", `input (t : int)
let (one : int) = 1
let (two : int) = 2
let (x : int) (y : int) =
  loop (a : int) (b : int) = (one, two) for i <= t do
    in (b, a)
in (x, y)`, map[string]string{"t": "3"}, []string{"for i <= t do", "a <- a_next"}},
		{"int reduce and scan", `input (n : int) (xs : [n])
let (zero : int) = 0
let (s : int) = reduce (a : int) (b : int) = zero over xs do
  let (c : int) = a + b
  in (c)
let (p : [n]) = scan (a : int) (b : int) = zero over xs do
  in (b)
in (s, p)`, map[string]string{"xs": "[3 1 4]"}, []string{"reduce s <- zero for", "scan p_mem["}},
		{"array reduce", `input (n : int) (m : int) (xss : [n][m])
let (zero : int) = 0
let (zs : [m]) = kernel j <= m do in (zero)
let (s : [m]) = reduce (a : [m]) (b : [m]) = zs over xss do
  let (c : [m]) = kernel j <= m do
    let (u : int) = a[j]
    let (v : int) = b[j]
    let (w : int) = u + v
    in (w)
  in (c)
in (s)`, map[string]string{"xss": "[[1 2] [3 4] [5 6]]"}, []string{"acc_mem", "for i"}},
		{"filter and assert", `input (n : int) (xs : [n])
let (ok : int) = assert n >= 0 "n"
let (k : int) (ys : [k]) = filter (x : int) over xs do
  let (keep : int) = x > 1
  in (keep)
in (k, ys, ok)`, map[string]string{"xs": "[3 1 4]"}, []string{"assert n >= 0 \"n\"", "if keep then"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fp, q, err := compileImp(t, tc.src)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			text := imp.Print(q)
			for _, h := range tc.has {
				if !strings.Contains(text, h) {
					t.Errorf("the IMP program has no %q:\n%s", h, text)
				}
			}
			fenv, err := fun.BindInputs(fp, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			want, _, err := fun.Eval(fp, fenv, nil)
			if err != nil {
				t.Fatal(err)
			}
			env, h, err := imp.BindInputs(q, tc.args)
			if err != nil {
				t.Fatal(err)
			}
			got, err := imp.Eval(q, env, h, nil)
			if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("FUN gives %v, IMP %v (error %v)\n%s", want, got, err, text)
			}
		})
	}
}

// TestFromFunmemFloats: FunMemToImp with floats, in every compile mode,
// gives FUN's results (IEEE values included: NaN, -0.0, +Inf) under both
// of IMP's semantics, and declares what the design fixes: float scalars
// as var x : float, an element read's target with its array's element
// type, float inputs and results with their element type, a float
// reduce's target and yields as floats, loop-carried and if-bound floats
// as float variables; an array's COPY is a word copy (through an int).
func TestFromFunmemFloats(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		args      []map[string]string
		has       []string // statements the plain IMP program must contain
	}{
		{"scalars, reads, folds", `input (n : int) (x : float) (xs : [n]float)
let (zero : float) = 0.0
let (s : float) = reduce (a : float) (b : float) = zero over xs do
  let (c : float) = a + b * x
  in (c)
let (p : [n]float) = scan (a : float) (b : float) = zero over xs do
  let (c : float) = a + b
  in (c)
let (ys : [n]float) = kernel i <= n do
  let (v : float) = xs[i]
  let (w : float) = sqrt(v) / float(i)
  in (w)
let (k : int) = int(s)
in (s, p, ys, k)`,
			[]map[string]string{{"x": "2.0", "xs": "[1.0 4.0 0.25]"}, {"x": "-0.0", "xs": "[]"}, {"x": "0.5", "xs": "[-1.0]"}},
			[]string{"input x : float;", "input xs : [n]float @ xs_mem;", "var zero : float;", "var s : float;", "reduce s <- zero for",
				"var v : float;", ": [n]float", "scan p_mem["}},
		{"loop-carried floats and an if", `input (t : int) (x : float)
let (one : float) = 1.0
let (u : float) (w : float) =
  loop (a : float) (b : float) = (x, one) for i <= t do
    let (c : float) = a * 2.0
    in (b, c)
let (pos : int) = u > w
let (r : float) = if pos then in (u) else in (w)
in (u, w, r)`,
			[]map[string]string{{"t": "3", "x": "1.5"}, {"t": "0", "x": "-2.5"}},
			[]string{"var a : float;", "var a_next", "var r : float;"}},
		{"float array reduce, filter and copies", `input (n : int) (m : int) (xss : [n][m]float)
let (zero : float) = 0.0
let (zs : [m]float) = kernel j <= m do in (zero)
let (s : [m]float) = reduce (a : [m]float) (b : [m]float) = zs over xss do
  let (c : [m]float) = kernel j <= m do
    let (u : float) = a[j]
    let (v : float) = b[j]
    let (w : float) = u + v
    in (w)
  in (c)
let (k : int) (big : [k][m]float) = filter (r : [m]float) over xss do
  let (one : int) = 1
  let (h : float) = r[one]
  let (keep : int) = h > 0.0
  in (keep)
let (t : [m][n]float) = transpose xss
in (s, k, big, t)`,
			[]map[string]string{{"xss": "[[1.0 2.0] [-3.0 4.5] [0.5 1e300]]"}, {"m": "2", "xss": "[]"}},
			[]string{"acc_mem", "var h : float;", ": [m]float"}},
		{"NaN and infinities", `input (x : float)
let (zero : float) = 0.0
let (nan : float) = zero / zero
let (inf : float) = x / zero
let (same : int) = nan == nan
in (nan, inf, same)`,
			[]map[string]string{{"x": "-1.0"}}, []string{"var nan : float;"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := check.Load(check.NewRegistry(), "t.fun", tc.src, check.Options{})
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			for _, mode := range compileModes {
				stages, err := check.NewRegistry().Compile(l, "imp", mode.opts)
				if err != nil {
					t.Fatalf("%s: compile: %v", mode.name, err)
				}
				li := stages[len(stages)-1].Program
				text := imp.Print(li.Syntax().(*imp.Program))
				if !mode.expand {
					for _, h := range tc.has {
						if !strings.Contains(text, h) {
							t.Errorf("the IMP program has no %q:\n%s", h, text)
						}
					}
				}
				for _, a := range tc.args {
					fr, ferr := l.Run(lang.RunOptions{Semantics: "big", Args: a})
					if ferr != nil {
						t.Fatalf("%v: FUN: %v", a, ferr)
					}
					for _, sem := range []string{"big", "small"} {
						r, err := li.Run(lang.RunOptions{Semantics: sem, Args: a})
						if got, want := outcome(r, err), outcome(fr, nil); got != want {
							t.Errorf("%s %s %v: FUN gives %s, IMP %s\n%s", mode.name, sem, a, want, got, text)
						}
					}
				}
			}
		})
	}
}

// TestFromFunmemNameClashes: FUN lets a body bind a name that its
// enclosing let's pattern binds (the pattern is not in the body's scope),
// and lets a loop's pattern take its parameters' names in another order;
// IMP's variables are flat. The generator (proofs-tests, ExtGenConfig)
// found the first two filters, shrunk: a filter whose body binds the
// pattern's size k used k as its counter, so the body's declaration reset
// the count (an out-of-block write; a wrong count). Found by reading the
// translation for the same clash: a loop whose pattern is (b, a) for the
// parameters (a, b) assigned b <- a, then a <- b; an if whose branch binds
// a pattern's name as a float declared it over the int the translation
// had declared before the if (IMP's checker refuses that), so the
// branches now set fresh variables; a loop's float parameter, declared
// before the for, outlived the loop in IMP and a later branch's int of
// its name was refused, so such parameters get fresh names. Each program must give FUN's results
// in every compile mode (raw: the simplifier, which drops the dead
// binding, left out) under both of IMP's semantics.
func TestFromFunmemNameClashes(t *testing.T) {
	modes := []lang.Options{{}, lang.Options{}.With("raw"), lang.Options{}.With("expand").WithString("layout", "gpu"), lang.Options{}.With("expand").WithString("layout", "cpu").With("raw")}
	for _, tc := range []struct {
		name, src string
		args      []map[string]string
	}{
		{"filter over rows, the body binding the size", `input (a3 : [n1][n2]) (n2 : int) (n1 : int)
let (u2 : int) (u3 : [u2][n2]) =
  filter (a10 : [n2]) over a3 do
    let (u2 : int) = 1
    in (u2)
in (a3, u2, u3)`, []map[string]string{{"a3": "[[0]]", "n2": "1", "n1": "1"}, {"a3": "[[1 2] [3 4] [5 6]]"}}},
		{"filter after a scan of rows, the body binding the size", `input (n2 : int)
let (h1 : [n2][n2]) =
  kernel i10 <= n2 do
    let (a16 : [n2]) = iota n2
    in (a16)
let (a16 : [n2]) = iota n2
let (a17 : [n2][n2]) =
  scan (a18 : [n2]) (a19 : [n2]) = a16 over h1 do
    let (a24 : [n2]) = iota n2
    in (a24)
let (x21 : int) (a22 : [x21][n2]) =
  filter (a20 : [n2]) over a17 do
    let (x21 : int) = 1
    let (x26 : int) = 0
    in (x26)
in (x21)`, []map[string]string{{"n2": "1"}, {"n2": "3"}}},
		{"a filter in a filter's body, both of size k", `input (n : int) (xss : [n][n])
let (k : int) (ys : [k][n]) =
  filter (r : [n]) over xss do
    let (k : int) (zs : [k]) = filter (x : int) over r do
      let (p : int) = x > 1
      in (p)
    in (k)
in (k, ys)`, []map[string]string{{"xss": "[[1 2] [0 1]]"}, {"xss": "[[5 1 1] [0 0 0] [2 3 4]]"}}},
		{"an if whose branch binds the pattern's names, one as a float", `input (c : int) (x : int)
let (p : int) (q : int) =
  if c then
    let (p : float) = float(x) * 1.5
    let (r : int) = int(p)
    in (r, x)
  else
    let (q : int) = x + 1
    let (p : int) = x - 1
    in (q, p)
in (p, q)`, []map[string]string{{"c": "1", "x": "3"}, {"c": "0", "x": "3"}}},
		{"a float loop parameter's name bound again as an int in a later branch", `input (c : int) (t : int)
let (z : float) = 1.5
let (w : float) =
  loop (a : float) = (z) for i <= t do
    let (b : float) = a * 2.0
    in (b)
let (r : int) =
  if c then
    let (a : int) = 7
    in (a)
  else
    in (c)
in (w, r)`, []map[string]string{{"c": "1", "t": "2"}, {"c": "0", "t": "0"}}},
		{"a loop's pattern swapping its parameters", `input (n : int)
let (x : int) = 1
let (y : int) = 2
let (b : int) (a : int) =
  loop (a : int) (b : int) = (x, y) for i <= n do
    in (b, a)
let (d : int) = a - b
in (a, b, d)`, []map[string]string{{"n": "0"}, {"n": "3"}}},
		{"a loop of arrays, its pattern swapping the sizes", `input (n : int) (t : int)
let (one : int) = 1
let (xs : [n]) = iota n
let (ys : [one]) = iota one
let (q : int) (p : int) (us : [q]) (vs : [p]) =
  loop (p : int) (q : int) (as : [p]) (bs : [q]) = (n, one, xs, ys) for i <= t do
    in (q, p, bs, as)
in (p, q, us, vs)`, []map[string]string{{"n": "3", "t": "0"}, {"n": "3", "t": "1"}, {"n": "2", "t": "4"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			l, err := check.Load(check.NewRegistry(), "t.fun", tc.src, check.Options{})
			if err != nil {
				t.Fatalf("load: %v", err)
			}
			for _, mode := range modes {
				stages, err := check.NewRegistry().Compile(l, "imp", mode)
				if err != nil {
					t.Fatalf("%+v: compile: %v", mode, err)
				}
				li := stages[len(stages)-1].Program
				text := imp.Print(li.Syntax().(*imp.Program))
				for _, a := range tc.args {
					fr, ferr := l.Run(lang.RunOptions{Semantics: "big", Args: a})
					if ferr != nil {
						t.Fatalf("%v: FUN: %v", a, ferr)
					}
					for _, sem := range []string{"big", "small"} {
						r, err := li.Run(lang.RunOptions{Semantics: sem, Args: a})
						if got, want := outcome(r, err), outcome(fr, nil); got != want {
							t.Errorf("%+v %s %v: FUN gives %s, IMP %s\n%s", mode, sem, a, want, got, text)
						}
					}
				}
			}
		})
	}
}
