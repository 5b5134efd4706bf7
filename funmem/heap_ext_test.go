package funmem

import (
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// Unit tests of the extension forms' heap semantics (heap_ext.go), big-
// and small-step alike (testHeapCases compares them).

const loopSrc = `input (n : int) (t : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (o : int) = 0
let (s : int) = 1
let (k2 : int) (zm : mem) (zo : int) (zs1 : int) (zs : [k2] @ zm -> zo + {(k2 : zs1)}) =
  loop (k : int) (m : mem) (off : int) (st : int) (ys : [k] @ m -> off + {(k : st)}) = (n, xs_mem, o, s, xs) for i <= t do
    let (k1 : int) = k + 1
    let (g_mem : mem) = alloc k1
    let (g : [k1] @ g_mem -> R(k1)) =
      kernel j <= k1 do
        let (old : int) = j <= k
        let (v : int) = if old then let (y : int) = ys[j] in (y) else in (i)
        in (v)
    let (go : int) = 0
    in (k1, g_mem, go, s, g)
in (k2, zs)`

const foldSrc = `input (n : int) (m : int) (xss_mem : mem) (xss : [n][m] @ xss_mem -> R(n, m)) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n)) (z : int)
let (sum : int) =
  reduce (a : int) (b : int) = z over xs do
    let (c : int) = a + b
    in (c)
let (p_mem : mem) = alloc n
let (p : [n] @ p_mem -> R(n)) =
  scan (a : int) (b : int) = z over xs do
    let (c : int) = a - b
    in (c)
let (zm : mem) = alloc m
let (zs : [m] @ zm -> R(m)) = kernel j <= m do in (z)
let (s_mem : mem) (s_off : int) (s_s : int) (s : [m] @ s_mem -> s_off + {(m : s_s)}) =
  reduce (a_mem : mem) (a_off : int) (a_s : int) (a : [m] @ a_mem -> a_off + {(m : a_s)}) (b_mem : mem) (b_off : int) (b_s : int) (b : [m] @ b_mem -> b_off + {(m : b_s)}) = zs over xss do
    let (c_mem : mem) = alloc m
    let (c : [m] @ c_mem -> R(m)) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
let (q_mem : mem) = alloc n * m
let (q : [n][m] @ q_mem -> R(n, m)) =
  scan (a_mem : mem) (a_off : int) (a_s : int) (a : [m] @ a_mem -> a_off + {(m : a_s)}) (b_mem : mem) (b_off : int) (b_s : int) (b : [m] @ b_mem -> b_off + {(m : b_s)}) = zs over xss do
    let (c_mem : mem) = alloc m
    let (c : [m] @ c_mem -> R(m)) =
      kernel j <= m do
        let (u : int) = a[j]
        let (v : int) = b[j]
        let (w : int) = u + v
        in (w)
    in (c)
in (sum, p, s, q)`

const filterSrc = `input (n : int) (m : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n)) (xss_mem : mem) (xss : [n][m] @ xss_mem -> R(n, m))
let (pos_mem : mem) = alloc n
let (k : int) (pos : [k] @ pos_mem -> R(k)) =
  filter (x : int) over xs do
    let (keep : int) = x > 0
    in (keep)
let (even_mem : mem) = alloc n * m
let (r : int) (even : [r][m] @ even_mem -> R(r, m)) =
  filter (row_mem : mem) (row_off : int) (row_s : int) (row : [m] @ row_mem -> row_off + {(m : row_s)}) over xss do
    let (one : int) = 1
    let (h : int) = row[one]
    let (keep : int) = h % 2 == 0
    in (keep)
in (k, pos, r, even)`

func TestHeapLoop(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "grows", src: loopSrc, args: args("xs", "[5 6]", "t", "3"), want: "5 [5 6 1 2 3]", rules: []string{"E-MEM-LOOP", "E-MEM-KERNEL"}},
		{name: "no iteration gives the initial values, in place", src: loopSrc, args: args("xs", "[5 6]", "t", "0"), want: "2 [5 6]", vals: "(2, (ℓ1, 0 + {(2 : 1)}))"},
		{name: "negative bound", src: loopSrc, args: args("xs", "[5 6]", "t", "-1"), err: `^E-MEM-LOOP: loop bound t = -1 is negative`},
	})
}

func TestHeapFolds(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "left folds", src: foldSrc, args: args("xss", "[[1 2] [3 4] [5 6]]", "xs", "[3 1 4]", "z", "0"),
			want: "8 [-3 -4 -8] [9 12] [[1 2] [4 6] [9 12]]", rules: []string{"E-MEM-REDUCE", "E-MEM-SCAN"}},
		{name: "from a start that is not neutral", src: foldSrc, args: args("xss", "[[1 2]]", "xs", "[3]", "z", "10"),
			want: "13 [7] [11 12] [[11 12]]"},
		{name: "no rows", src: foldSrc, args: args("xss", "[]", "m", "2", "xs", "[]", "z", "5"),
			want: "5 [] [5 5] []"},
	})
}

func TestHeapFilter(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "keeps in order", src: filterSrc, args: args("xs", "[3 -1 4 -5 0 2]", "xss", "[[1 2] [4 5] [7 8] [6 0] [9 9] [2 2]]"),
			want: "3 [3 4 2] 3 [[4 5] [6 0] [2 2]]", rules: []string{"E-MEM-FILTER"}},
		{name: "keeps none", src: filterSrc, args: args("xs", "[-1 -2]", "xss", "[[1 1] [3 3]]"), want: "0 [] 0 []"},
		// The destination, found when the filter ends, reads o and the
		// count k (the compiled big-step reads o off the slots the body
		// has run over).
		{name: "its destination in its own scope", src: `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (o : int) = 2
let (size : int) = n + o
let (pos_mem : mem) = alloc size
let (k : int) (pos : [k] @ pos_mem -> o + {(k : 1)}) =
  filter (x : int) over xs do
    let (z : int) = o - 2
    let (keep : int) = x > z
    in (keep)
in (k, pos)`, args: args("xs", "[3 -1 4 -5]"), want: "2 [3 4]", rules: []string{"E-MEM-FILTER"}},
	})
}

func TestHeapAssert(t *testing.T) {
	src := `input (n : int)
let (ok : int) = assert n % 2 == 0 "n is even"
let (no : int) = assert n < 10
in (ok, no)`
	testHeapCases(t, []heapCase{
		{name: "holds", src: src, args: args("n", "4"), want: "1 1", rules: []string{"E-MEM-ASSERT"}},
		{name: "with its message", src: src, args: args("n", "3"), err: `^E-MEM-ASSERT: assertion n % 2 == 0 failed: n is even$`},
		{name: "without one", src: src, args: args("n", "12"), err: `^E-MEM-ASSERT: assertion n < 10 failed$`},
	})
}

// TestHeapFoldRaces: the elements of a fold are its tracker's iterations
// (a scan's writes count as theirs), and a combine step may write only
// blocks it allocated.
func TestHeapFoldRaces(t *testing.T) {
	testHeapCases(t, []heapCase{
		{name: "scan rows written to one place", src: `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (zero : int) = 0
let (p_mem : mem) = alloc n
let (p : [n] @ p_mem -> 0 + {(n : 0)}) =
  scan (a : int) (b : int) = zero over xs do
    let (c : int) = a + b
    in (c)
in (zero)`, args: args("xs", "[1 2]"), err: `^E-MEM-SCAN: race: iteration 1 writes ℓ2\[0\], which iteration 2 also uses`, kind: semantics.RaceError},
		{name: "a combine writes an older block", src: `input (n : int) (m : int) (xss_mem : mem) (xss : [n][m] @ xss_mem -> R(n, m))
let (zm : mem) = alloc m
let (zs : [m] @ zm -> R(m)) = iota m
let (s_mem : mem) (s_off : int) (s_s : int) (s : [m] @ s_mem -> s_off + {(m : s_s)}) =
  reduce (a_mem : mem) (a_off : int) (a_s : int) (a : [m] @ a_mem -> a_off + {(m : a_s)}) (b_mem : mem) (b_off : int) (b_s : int) (b : [m] @ b_mem -> b_off + {(m : b_s)}) = zs over xss do
    let (c : [m] @ zm -> R(m)) = copy b
    in (c)
in (m)`, args: args("xss", "[[1 2] [3 4]]"), err: `^E-MEM-REDUCE: race: combine step 1 writes ℓ2\[0\], in a block it did not allocate`, kind: semantics.RaceError},
		{name: "a filter's bodies race as a kernel's iterations", src: `input (n : int) (xs_mem : mem) (xs : [n] @ xs_mem -> R(n))
let (one : int) = 1
let (w_mem : mem) = alloc one
let (f_mem : mem) = alloc n
let (k : int) (f : [k] @ f_mem -> R(k)) =
  filter (x : int) over xs do
    let (w : [one] @ w_mem -> R(one)) = kernel j <= one do in (x)
    in (x)
in (k)`, args: args("xs", "[1 2]"), err: `^E-MEM-FILTER: race: iteration 1 writes ℓ2\[0\], which iteration 2 also uses`, kind: semantics.RaceError},
	})
}
