package funmem

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// TestHeapUntrackedRaces: kernels whose body writes a block it did not
// allocate, here through a loop's parameter, keep their trackers when the compiled big-step runs
// untraced (heaprace.go), and race as the tree walker says (testHeapCases
// compares the untraced compiled run with it).
func TestHeapUntrackedRaces(t *testing.T) {
	race := semantics.RaceError
	testHeapCases(t, []heapCase{
		{name: "a loop's block parameter is not fresh", src: `input (n : int)
let (b : mem) = alloc n
let (big : mem) = alloc 1
let (one : int) = 1
let (xs : [n] @ b -> R(n)) = kernel i <= n do
  let (q : mem) =
    loop (m : mem) = (big) for t <= one do
      let (w : [one] @ m -> R(one)) = kernel j <= one do in (i)
      in (m)
  in (i)
in (xs)`, args: args("n", "2"), kind: race,
			err: `^E-MEM-KERNEL: race: iteration 1 writes ℓ2\[0\], which iteration 2 also uses \(racefree, eq 4\)$`},
		{name: "fresh blocks in a loop in a kernel are no race", src: `input (n : int)
let (b : mem) = alloc n
let (one : int) = 1
let (xs : [n] @ b -> R(n)) = kernel i <= n do
  let (s : int) =
    loop (a : int) = (i) for t <= one do
      let (m : mem) = alloc one
      let (w : [one] @ m -> R(one)) = kernel j <= one do in (a)
      let (v : int) = w[one]
      let (a2 : int) = v + t
      in (a2)
  in (s)
in (xs)`, args: args("n", "3"), want: "[2 3 4]"},
	})
}

// inPlaceRows is the nested map as FunMemToImp's input makes it (inPlace):
// each row made by an inner kernel in its place in the destination. ROW
// is the inner kernel's index function; PRE statements come before it.
const inPlaceRows = `input (n : int)
let (xs_mem : mem) = alloc n
let (xs : [n] @ xs_mem -> R(n)) = iota n
let (b_mem : mem) = alloc n * n
let (b : [n][n] @ b_mem -> R(n, n)) =
  kernel i <= n do
    PRE
    let (r : [n] @ b_mem -> ROW) =
      kernel j <= n do
        let (x : int) = xs[j]
        let (y : int) = x * i + j
        in (y)
    in (r)
in (b_mem, b)`

func inPlaceCase(pre, row string) string {
	return strings.NewReplacer("PRE", pre, "ROW", row).Replace(inPlaceRows)
}

// TestHeapInPlaceRows: a kernel whose inner kernel makes its item in its
// row of the destination runs untracked (condition 1 admits the item,
// itemPattern) and gives the tree walker's results; an inner kernel
// writing another row keeps the tracker and races as the tree walker
// says. (FUNMEM binds each name once, so the body cannot rebind a name
// the index functions mention; itemPattern refuses one bound in the body
// at all.)
func TestHeapInPlaceRows(t *testing.T) {
	race := semantics.RaceError
	testHeapCases(t, []heapCase{
		{name: "the item in place", src: inPlaceCase("", "(i * n - n) + {(n : 1)}"), args: args("n", "3"),
			want: "ℓ2 [[2 4 6] [3 6 9] [4 8 12]]"},
		{name: "the next row", src: inPlaceCase("", "(i * n) + {(n : 1)}"), args: args("n", "3"), kind: race,
			err: `race`},
		{name: "the next row, round", src: inPlaceCase("let (k : int) = i % n + 1", "(k * n - n) + {(n : 1)}"), args: args("n", "3"), kind: race,
			err: `race`},
	})
}

// TestItemPattern: which kernels condition 1 admits with a write into
// their own item.
func TestItemPattern(t *testing.T) {
	for _, c := range []struct {
		pre, row string
		own      bool
	}{
		{"", "(i * n - n) + {(n : 1)}", true},
		{"", "(n * i - n) + {(n : 1)}", true}, // the same LMAD, written otherwise
		{"", "(i * n) + {(n : 1)}", false},
		{"", "(i * n - n) + {(n : 2)}", false},
		{"let (k : int) = i", "(k * n - n) + {(n : 1)}", false}, // the same row, through a name of the body's
	} {
		p := parseChecked(t, inPlaceCase(c.pre, c.row))
		s := p.Body.Stms[len(p.Body.Stms)-1]
		if got := writesOnlyOwnBlocks(s, s.Exp.(*fun.KernelExp)); got != c.own {
			t.Errorf("%q, row %s: condition 1 %v, want %v", c.pre, c.row, got, c.own)
		}
	}
}
