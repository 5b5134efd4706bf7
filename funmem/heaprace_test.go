package funmem

import (
	"testing"

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
