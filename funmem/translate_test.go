package funmem

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

func mustFun(t *testing.T, src string) *fun.Program {
	t.Helper()
	p, err := fun.ParseFile("t.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

func mustCheck(t *testing.T, q *fun.Program) string {
	t.Helper()
	text := Print(q)
	if _, err := Check(q, nil); err != nil {
		t.Fatalf("Fig 8 rejects:\n%s\n%v", text, err)
	}
	r, err := ParseFile("t.funmem", text)
	if err != nil || Print(r) != text {
		t.Fatalf("does not print and parse back: %v\n%s", err, text)
	}
	return text
}

const fig2 = `input (xsize : int) (ysize : int) (zcond : int)
let (zsize : int) (zarr : [zsize]) =
  if zcond
  then let (x : [xsize]) = iota xsize
       in (xsize, x)
  else let (x : [ysize]) = iota ysize
       in (ysize, x)
in (zsize, zarr)`

// TestTransformFig7: Fig 2 through TransformProgram and the simplifier is
// Fig 7 (with the else branch's typo fixed and the final copy of
// TransformProgram).
func TestTransformFig7(t *testing.T) {
	raw := mustCheck(t, Transform(mustFun(t, fig2)))
	for _, want := range []string{
		// Support: block, offset and stride of each branch's array.
		"(zsize : int) (zarr_mem : mem) (zarr_off : int) (zarr_stride1 : int) (zarr : [zsize] @ zarr_mem -> zarr_off + {(zsize : zarr_stride1)})",
		"in (xsize, x_mem, x_mem_off, x_mem_stride1, x)",
		"let (zarr_res : [zsize] @ zarr_res_mem -> R(zsize)) = copy zarr",
		"in (zsize, zarr_res_mem, zarr_res)",
	} {
		if !strings.Contains(raw, want) {
			t.Errorf("TransformProgram's output lacks %q:\n%s", want, raw)
		}
	}
	got := mustCheck(t, Simplify(Transform(mustFun(t, fig2))))
	want := `input (xsize : int) (ysize : int) (zcond : int)
let (zsize : int) (zarr_mem : mem) (zarr : [zsize] @ zarr_mem -> R(zsize)) =
  if zcond then
    let (x_mem : mem) = alloc xsize
    let (x : [xsize] @ x_mem -> R(xsize)) = iota xsize
    in (xsize, x_mem, x)
  else
    let (x_mem2 : mem) = alloc ysize
    let (x : [ysize] @ x_mem2 -> R(ysize)) = iota ysize
    in (ysize, x_mem2, x)
let (zarr_res_mem : mem) = alloc zsize
let (zarr_res : [zsize] @ zarr_res_mem -> R(zsize)) = copy zarr
in (zsize, zarr_res_mem, zarr_res)
`
	if got != want {
		t.Errorf("simplified:\n%s\nwant (Fig 7):\n%s", got, want)
	}
}

// TestTransformLayouts: slices and transposes share their source's block
// with derived LMADs (no copy); kernels get fresh row-major blocks, and
// the simplifier then makes the inner kernel's rows in the outer one's
// block, at its item i (inPlace).
func TestTransformLayouts(t *testing.T) {
	p := Transform(mustFun(t, `input (n : int) (m : int) (a : [n][m]) (o : int) (s : int) (one : int)
let (b : [m][n]) = transpose a
let (c : [s][n]) = b[o : s, one : n]
let (d : [n][m]) = kernel i <= n do
  let (r : [m]) = kernel j <= m do
    let (v : int) = a[i, j]
    in (v)
  in (r)
in (c, d)`))
	if got := mustCheck(t, p); !strings.Contains(got, "let (r_mem : mem) = alloc m") {
		t.Errorf("TransformProgram gives r no block of its own:\n%s", got)
	}
	got := mustCheck(t, Simplify(p))
	for _, want := range []string{
		"input (n : int) (m : int) (o : int) (s : int) (one : int) (a_mem : mem) (a : [n][m] @ a_mem -> R(n, m))",
		"let (b : [m][n] @ a_mem -> 0 + {(m : 1) (n : m)}) = transpose a",
		"let (c : [s][n] @ a_mem -> (m * one - m + o - 1) + {(s : 1) (n : m)}) = b[o : s, one : n]",
		"let (d_mem : mem) = alloc m * n",
		"let (r : [m] @ d_mem -> (i * m - m) + {(m : 1)})",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "r_mem") {
		t.Errorf("r's own block is left:\n%s", got)
	}
}

// TestSimplifyRules exercises each rule of the simplifier on an if.
func TestSimplifyRules(t *testing.T) {
	src := `input (n : int) (c : int) (a : [n])
let (k : int) (b : [k]) (k2 : int) (w : int) =
  if c then
    let (x : [n]) = copy a
    in (n, x, n, n)
  else
    let (y : [n]) = iota n
    let (q : int) = n
    in (n, y, n, q)
in (b, k, k2, w)`
	got := mustCheck(t, Simplify(Transform(mustFun(t, src))))
	// k, k2 and w are n in both branches: the first two by the same
	// variable (renamed to n), w by a let of n (hoisted before the if).
	for _, want := range []string{"let (w : int) = n", "(b_mem : mem) (b : [n] @ b_mem -> R(n))", "in (b_res_mem, b_res, n, n, w)"} {
		if !strings.Contains(got, want) {
			t.Errorf("missing %q in\n%s", want, got)
		}
	}
	if strings.Contains(got, "b_off") || strings.Contains(got, "b_stride") {
		t.Errorf("the offset and stride, 0 and 1 in both branches, are left:\n%s", got)
	}
}

// TestMemoryExpandLayouts pins the offsets of ERRATA M10: thread x's part
// starts at (x − 1)·se (CPU), or element j at (x − 1) + y·L(j) (GPU).
func TestMemoryExpandLayouts(t *testing.T) {
	// Without the simplifier, whose inPlace would make r in t's block:
	// the allocation in the kernel is what MemoryExpand expands.
	p := Transform(mustFun(t, `input (n : int) (m : int)
let (t : [n][m]) = kernel i <= n do
  let (r : [m]) = kernel j <= m do
    let (v : int) = i * j
    in (v)
  in (r)
in (t)`))
	for _, tc := range []struct {
		layout Layout
		want   string
	}{
		{GPU, "let (r : [m] @ r_mem_exp -> (i - 1) + {(m : n)})"},
		{CPU, "let (r : [m] @ r_mem_exp -> (i * m - m) + {(m : 1)})"},
	} {
		got := mustCheck(t, MemoryExpand(p, tc.layout))
		if !strings.Contains(got, tc.want) || !strings.Contains(got, "let (r_mem_exp : mem) = alloc m * n\n") {
			t.Errorf("layout %v:\n%s\nwant %q", tc.layout, got, tc.want)
		}
		if strings.Contains(got, "  let (r_mem : mem)") {
			t.Errorf("the allocation is still inside the kernel:\n%s", got)
		}
	}
}

// TestPolyNormalForm pins the equalities the checker decides.
func TestPolyNormalForm(t *testing.T) {
	parse := func(s string) fun.SExp {
		p, err := fun.ParseFile("e", "let (x : int) = "+s+" in (x)")
		if err != nil {
			t.Fatal(err)
		}
		return p.Body.Stms[0].Exp.(*fun.ScalarExp).X
	}
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"(o - 1) * k", "o * k - k", true},
		{"a * (b + c)", "c * a + a * b", true},
		{"-(x - y)", "y - x", true},
		{"0 + x * 1", "x", true},
		{"x / 2 * 2", "x", false},
		{"x / 2 + 1", "1 + x / 2", true},
		{"6 / 2", "3", true},
		{"x * y", "x + y", false},
	} {
		if got := SameValue(parse(tc.a), parse(tc.b)); got != tc.same {
			t.Errorf("SameValue(%s, %s) = %v", tc.a, tc.b, got)
		}
	}
}

// TestInPlace: the simplifier makes a kernel's rows in its own block
// where an inner kernel makes them for the body's result alone, and
// leaves them in their own block otherwise; each program stays valid
// (Def 3.1, race free) on its inputs.
func TestInPlace(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, src      string
		args           map[string]string
		want, dontWant []string
	}{
		{"row", `input (n : int) (m : int)
let (d : [n][m]) = kernel i <= n do
  let (r : [m]) = kernel j <= m do
    let (v : int) = i * j
    in (v)
  in (r)
in (d)`, map[string]string{"n": "3", "m": "4"},
			[]string{"let (r : [m] @ d_mem -> (i * m - m) + {(m : 1)})"}, []string{"r_mem"}},
		{"read besides", `input (n : int) (m : int)
let (d : [n][m]) = kernel i <= n do
  let (r : [m]) = kernel j <= m do
    let (v : int) = i * j
    in (v)
  let (one : int) = 1
  let (first : int) = r[one]
  let (s : [m]) = kernel j <= m do
    let (w : int) = first + j
    in (w)
  in (s)
in (d)`, map[string]string{"n": "3", "m": "4"},
			[]string{"let (r_mem : mem) = alloc m", "let (s : [m] @ d_mem -> (i * m - m) + {(m : 1)})"}, nil},
		{"not a kernel", `input (n : int) (m : int)
let (d : [n][m]) = kernel i <= n do
  let (r : [m]) = iota m
  in (r)
in (d)`, map[string]string{"n": "2", "m": "3"}, []string{"let (r_mem : mem) = alloc m"}, []string{"@ d_mem -> (i"}},
		{"three levels", `input (n : int) (m : int) (k : int)
let (d : [n][m][k]) = kernel i <= n do
  let (r : [m][k]) = kernel j <= m do
    let (q : [k]) = kernel l <= k do
      let (v : int) = i * j + l
      in (v)
    in (q)
  in (r)
in (d)`, map[string]string{"n": "2", "m": "3", "k": "2"},
			[]string{"let (r : [m][k] @ d_mem -> (i * k * m - k * m) + {(m : k) (k : 1)})", "let (q_mem : mem) = alloc k"}, []string{"r_mem"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := Simplify(Transform(mustFun(t, tc.src)))
			got := mustCheck(t, p)
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("missing %q in\n%s", w, got)
				}
			}
			for _, w := range tc.dontWant {
				if strings.Contains(got, w) {
					t.Errorf("unexpected %q in\n%s", w, got)
				}
			}
			if _, err := CheckValidity(p, tc.args); err != nil {
				t.Errorf("%v\n%s", err, got)
			}
		})
	}
}

// TestTransformFreshAvoidsProgramNames: the names Transform makes avoid
// the program's own, whether or not it renamed keywords first (it gathers
// them once, renameKeywords).
func TestTransformFreshAvoidsProgramNames(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"input (n : int) (xs : [n])\nlet (xs_mem : int) = n + 1\nin (xs_mem, xs)", "(xs_mem2 : mem)"},
		{"input (alloc : int) (xs : [alloc])\nlet (xs_mem : int) = alloc + 1\nlet (alloc_ : int) = 2\nin (xs_mem, alloc_, xs)", "(xs_mem2 : mem)"},
		{"input (alloc : int) (xs : [alloc])\nlet (alloc_ : int) = 2\nin (alloc_, xs)", "(alloc_2 : int)"},
	} {
		q := Transform(mustFun(t, tc.src))
		text := Print(q)
		if !strings.Contains(text, tc.want) {
			t.Errorf("%q: Transform's output lacks %q:\n%s", tc.src, tc.want, text)
		}
		r, err := ParseFile("t.funmem", text)
		if err != nil {
			t.Errorf("%q: %v\n%s", tc.src, err, text)
			continue
		}
		if _, err := Check(r, nil); err != nil {
			t.Errorf("%q: %v\n%s", tc.src, err, text)
		}
	}
}
