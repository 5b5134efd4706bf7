package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// Unit tests of floats in the heap semantics, big- and small-step alike
// (testHeapCases compares them): blocks hold words, a float as its bits;
// a read makes a float of a float array's word; scalar statements
// evaluate as FUN's (fun.EvalNum, IEEE); inputs, folds, loops and
// filters carry floats.

const floatFoldSrc = `input (n : int) (m : int) (x0 : float) (xs_mem : mem) (xs : [n]float @ xs_mem -> R(n)) (xss_mem : mem) (xss : [n][m]float @ xss_mem -> R(n, m))
let (zero : float) = 0.0
let (zero_off : int) = 0
let (one_s : int) = 1
let (sum : float) =
  reduce (a : float) (b : float) = zero over xs do
    let (c : float) = a + b
    in (c)
let (p_mem : mem) = alloc n
let (p : [n]float @ p_mem -> R(n)) =
  scan (a : float) (b : float) = x0 over xs do
    let (c : float) = a * b
    in (c)
let (zm : mem) = alloc m
let (zs : [m]float @ zm -> R(m)) = kernel j <= m do in (zero)
let (s_mem : mem) (s_off : int) (s_s : int) (s : [m]float @ s_mem -> s_off + {(m : s_s)}) =
  reduce (a_mem : mem) (a_off : int) (a_s : int) (a : [m]float @ a_mem -> a_off + {(m : a_s)}) (b_mem : mem) (b_off : int) (b_s : int) (b : [m]float @ b_mem -> b_off + {(m : b_s)}) = zs over xss do
    let (c_mem : mem) = alloc m
    let (c : [m]float @ c_mem -> R(m)) =
      kernel j <= m do
        let (u : float) = a[j]
        let (v : float) = b[j]
        let (w : float) = u + v
        in (w)
    in (c)
let (f_mem : mem) = alloc n * m
let (k : int) (f : [k][m]float @ f_mem -> R(k, m)) =
  filter (r_mem : mem) (r_off : int) (r_s : int) (r : [m]float @ r_mem -> r_off + {(m : r_s)}) over xss do
    let (one : int) = 1
    let (h : float) = r[one]
    let (keep : int) = h > x0
    in (keep)
let (t : float) (ys_m : mem) (ys_o : int) (ys_s : int) (ys : [m]float @ ys_m -> ys_o + {(m : ys_s)}) =
  loop (acc : float) (y_m : mem) (y_o : int) (y_s : int) (y : [m]float @ y_m -> y_o + {(m : y_s)}) = (x0, zm, zero_off, one_s, zs) for i <= n do
    let (acc1 : float) = acc / 2.0
    let (g_mem : mem) = alloc m
    let (g : [m]float @ g_mem -> R(m)) =
      kernel j <= m do
        let (old : float) = y[j]
        let (new : float) = xss[i, j]
        let (w : float) = old + new * acc
        in (w)
    let (go : int) = 0
    let (gs : int) = 1
    in (acc1, g_mem, go, gs, g)
in (sum, p, s, k, f, t, ys)`

func TestHeapFloats(t *testing.T) {
	src := floatFoldSrc
	testHeapCases(t, []heapCase{
		{name: "folds, filter and loop of floats", src: src,
			args:  args("x0", "1.5", "xs", "[0.5 2.0 4.0]", "xss", "[[1.0 2.0] [2.5 0.5] [-1.0 1e3]]"),
			want:  "6.5 [0.75 1.5 6.0] [2.5 1002.5] 1 [[2.5 0.5]] 0.1875 [3.0 378.375]",
			rules: []string{"E-MEM-REDUCE", "E-MEM-SCAN", "E-MEM-FILTER", "E-MEM-LOOP", "E-MEM-KERNEL", "E-MEM-INDEX", "E-MEM-SCALAR"}},
		{name: "no rows", src: src,
			args: args("x0", "-0.0", "xs", "[]", "xss", "[]", "m", "2"),
			want: "0.0 [] [0.0 0.0] 0 [] -0.0 [0.0 0.0]"},
	})
}

func TestHeapFloatScalars(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "IEEE arithmetic and the functions", src: `input (x : float) (n : int)
let (zero : float) = 0.0
let (inf : float) = x / zero
let (nan : float) = zero / zero
let (r : float) = sqrt(x) + float(n)
let (k : int) = int(-2.75) + (nan == nan)
let (big : float) = 1e300 * 1e300
in (inf, nan, r, k, big)`, args: args("x", "4.0", "n", "3"), rules: []string{"E-MEM-SCALAR"},
			want: "+Inf NaN 5.0 -2 +Inf", vals: "(+Inf, NaN, 5.0, -2, +Inf)"},
		{name: "int of +Inf overflows", kind: semantics.OverflowError, src: `input (x : float)
let (y : float) = x * 1e308
let (k : int) = int(y)
in (k)`, args: args("x", "10.0"), err: `^E-MEM-SCALAR: integer overflow: int\(\+Inf\) does not fit in 64 bits in int\(y\)$`},
		{name: "a float input", src: `input (x : float)
in (x)`, args: args("x", "2.0"), want: "2.0"},
	})
}

// TestHeapFloatWords: a float array's block holds the floats' bits, read
// back as floats; a write of a float kernel stores its bits; indexing
// reads the word as the array's element type.
func TestHeapFloatWords(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "bits in blocks", src: `input (n : int) (b : mem) (xs : [n]float @ b -> R(n))
let (m : mem) = alloc n
let (ys : [n]float @ m -> R(n)) =
  kernel i <= n do
    let (v : float) = xs[i]
    let (w : float) = -v
    in (w)
let (one : int) = 1
let (y1 : float) = ys[one]
in (m, ys, y1)`, args: args("xs", "[1.0 -0.5]"), rules: []string{"E-MEM-INDEX", "E-MEM-KERNEL"},
			want: "ℓ2 [-1.0 0.5] -1.0",
			heap: "ℓ1=[4607182418800017408 -4620693217682128896] ℓ2=[-4616189618054758400 4602678819172646912]"},
		{name: "an assert on floats", src: `input (x : float)
let (ok : int) = assert x >= 0.0 "x is not negative"
let (r : float) = sqrt(x)
in (ok, r)`, args: args("x", "-1.0"), err: `^E-MEM-ASSERT: assertion x >= 0.0 failed: x is not negative$`},
	})
}
