package imp

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// Unit tests of the extensions' rules, I-FOR, I-ASSERT, I-REDUCE and
// I-SCAN, as eval_test.go's: every case runs under both semantics, which
// must agree on results, heap, environment, errors and traces.

// I-FOR: the body runs for i = 1 … n in turn; the variables of the
// enclosing scope keep what the body assigns, the body's own declarations
// and the index end with the loop.
func TestEvalFor(t *testing.T) {
	sum := `input n : int; var s : int; for i <= n do s <- s + i done; return s`
	runEvalCases(t, []evalCase{
		{name: "accumulates into an outer variable", src: sum, args: args("n=4"),
			rules: []string{"I-FOR", "E-IMP-ASSIGN-INT"}, want: "10", env: "s=10 i=-"},
		{name: "zero iterations", src: sum, args: args("n=0"), rules: []string{"I-FOR"}, want: "0", env: "s=0"},
		{name: "negative bound", src: sum, args: args("n=-1"),
			err: `^eval.imp:1:29: I-FOR: for bound n = -1 is negative$`},
		{name: "negative expression bound", src: `input n : int; for i <= n - 5 do skip done; return n`, args: args("n=2"),
			err: `^eval.imp:1:16: I-FOR: for bound n - 5 = -3 is negative$`},
		{name: "bound divides by zero", src: `input n : int; for i <= 1 / n do skip done; return n`, args: args("n=0"),
			err: `I-FOR: division by zero`},
		{name: "iterations are sequential", src: `input n : int; var m : mem; m <- alloc 1;
for i <= n do var v : int; v <- m[0]; m[0] <- v * 10 + i done; return m : [1]`,
			args: args("n=3"), want: "[123]", trace: []string{}},
		{name: "declarations and the index end at done", src: `input n : int; var i : int; i <- 42; var s : int;
for i <= n do var t : int; t <- i * i; s <- s + t done; return i, s`,
			args: args("n=3"), want: "42 14", env: "i=42 s=14 t=-"},
		{name: "the bound is read once", src: `input n : int; var s : int; for i <= n do n <- 1; s <- s + i done; return n, s`,
			args: args("n=3"), want: "1 6"},
		{name: "a block assigned in the body stays", src: `input n : int; var m : mem;
for i <= n do m <- alloc i; m[i - 1] <- i done; return m : [2]`,
			args: args("n=2"), want: "[0 2]", heap: "ℓ1=[1] ℓ2=[0 2]", env: "m=ℓ2"},
		// As in an if's branch (E-IMP-DEC-INT), a var of an outer name in
		// the body declares that variable anew.
		{name: "a var of an outer name resets it", src: `var s : int; s <- 5; for i <= 1 do var s : int done; return s`,
			want: "0"},
		{name: "nested", src: `input n : int; var s : int; for i <= n do for j <= i do s <- s * 10 + j done done; return s`,
			args: args("n=3"), want: "112123"},
		{name: "in a kernel's iteration", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do var s : int; for j <= i do s <- s + j done; m[i - 1] <- s done; return m : [n]`,
			args: args("n=4"), want: "[1 3 6 10]"},
		{name: "stuck in an iteration", src: `input n : int; var s : int; for i <= n do s <- s + 6 / (2 - i) done; return s`,
			args: args("n=3"), err: `^eval.imp:1:54: E-IMP-ASSIGN-INT: division by zero \(operator /\) in 6 / \(2 - i\)$`},
	})
}

// I-ASSERT: nothing when the condition is not 0; stuck with the message
// (or the condition) at the assert when it is.
func TestEvalAssert(t *testing.T) {
	even := `input n : int;
assert n % 2 == 0 "n is even";
return n`
	runEvalCases(t, []evalCase{
		{name: "holds", src: even, args: args("n=4"), rules: []string{"I-ASSERT"}, want: "4"},
		{name: "fails with its message", src: even, args: args("n=3"),
			err: `^eval.imp:2:1: I-ASSERT: n is even \(assertion n % 2 == 0 is 0\)$`},
		{name: "any value but 0 holds", src: `input n : int; assert n; return n`, args: args("n=-7"), want: "-7"},
		{name: "fails without a message", src: `input n : int; assert n; return n`, args: args("n=0"),
			err: `^eval.imp:1:16: I-ASSERT: assertion n is 0$`},
		{name: "escapes in the message", src: `input n : int; assert n > 0 "n \"is\" \\ positive"; return n`, args: args("n=0"),
			err: `^eval.imp:1:16: I-ASSERT: n "is" \\ positive \(assertion n > 0 is 0\)$`},
		{name: "the condition divides by zero", src: `input n : int; assert 1 / n "no"; return n`, args: args("n=0"),
			err: `^eval.imp:1:25: I-ASSERT: division by zero`},
		{name: "fails in a kernel's iteration", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do m[i - 1] <- i; assert i < 3 "at most two" done; return m : [n]`,
			args: args("n=4"), heap: "ℓ1=[1 2 3 0]", err: `^eval.imp:2:33: I-ASSERT: at most two \(assertion i < 3 is 0\)$`},
	})
}

// The reduction of the rows of xs, with an element part that reads the
// heap.
const sumSrc = `input n : int; input z : int; input xs : [n] @ xs_mem;
var s : int;
reduce s <- z for i <= n do
  var v : int;
  v <- xs_mem[i - 1];
  yield v
combine a, b do
  var c : int;
  c <- a + b;
  yield c
done;
return s`

// I-REDUCE: x gets ((ne ⊕ y1) ⊕ y2) … ⊕ yn, the left fold; elements and
// combines are a kernel's iterations for races.
func TestEvalReduce(t *testing.T) {
	digits := `input n : int; input xs : [n] @ xs_mem; var s : int;
reduce s <- 0 for i <= n do var v : int; v <- xs_mem[i - 1]; yield v
combine a, b do var c : int; c <- a * 10 + b; yield c done; return s`
	runEvalCases(t, []evalCase{
		{name: "sum of an array in memory", src: sumSrc, args: args("xs=[1 2 3 4]", "z=0"),
			rules: []string{"I-REDUCE", "E-IMP-READ"}, want: "10", env: "s=10 i=- v=- a=- b=- c=-",
			trace: []string{"reduce s {1: R = {ℓ1[0]}  W = {}; 2: R = {ℓ1[1]}  W = {}; 3: R = {ℓ1[2]}  W = {}; 4: R = {ℓ1[3]}  W = {}; " +
				"5: R = {}  W = {}; 6: R = {}  W = {}; 7: R = {}  W = {}; 8: R = {}  W = {}}"}},
		// The accumulator starts at ne: a non-neutral ne shows it is used
		// once, before the first element.
		{name: "starts from the neutral element", src: sumSrc, args: args("xs=[1 2 3 4]", "z=100"), want: "110"},
		{name: "zero elements give ne", src: sumSrc, args: args("xs=[]", "z=7"), rules: []string{"I-REDUCE"}, want: "7",
			trace: []string{"reduce s {}"}},
		{name: "a left fold", src: digits, args: args("xs=[1 2 3]"), want: "123"},
		{name: "negative bound", src: `input n : int; var s : int; s <- 5;
reduce s <- 0 for i <= n do yield i combine a, b do yield a done; return s`,
			args: args("n=-2"), env: "s=5", err: `^eval.imp:2:1: I-REDUCE: reduce bound n = -2 is negative$`},
		{name: "the neutral element divides by zero", src: `input n : int; var s : int;
reduce s <- 1 / n for i <= n do yield i combine a, b do yield a done; return s`,
			args: args("n=0"), err: `^eval.imp:2:15: I-REDUCE: division by zero`},
		// Each element part runs in a copy of E, as a kernel's iteration:
		// what it assigns does not survive; nor do the combine's.
		{name: "the parts' assignments do not survive", src: `input n : int; var s : int; var k : int; k <- 1;
reduce s <- 0 for i <= n do k <- k + i; var v : int; v <- k; yield v
combine a, b do k <- 0; var c : int; c <- a + b; yield c done; return s, k`,
			args: args("n=3"), want: "9 1", env: "k=1"},
		{name: "the combine sees the enclosing ints", src: `input n : int; input w : int; var s : int;
reduce s <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b * w; yield c done; return s`,
			args: args("n=3", "w=10"), want: "60"},
		{name: "the index and a, b shadow", src: `input n : int; var i : int; i <- 42; var a : int; a <- 7; var s : int;
reduce s <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done; return s, i, a`,
			args: args("n=3"), want: "6 42 7", env: "i=42 a=7 b=-"},
		{name: "nested in a kernel", src: `input n : int; var m : mem; m <- alloc n;
kernel i <= n do var s : int; reduce s <- 0 for j <= i do yield j combine a, b do var c : int; c <- a + b; yield c done; m[i - 1] <- s done;
return m : [n]`, args: args("n=4"), want: "[1 3 6 10]"},
		{name: "an element reads out of bounds", src: strings.Replace(sumSrc, "xs_mem[i - 1]", "xs_mem[i]", 1), args: args("xs=[1 2 3]", "z=0"),
			err: `^eval.imp:5:3: E-IMP-READ: xs_mem: offset 3 is outside block ℓ1 of size 3$`},
		{name: "a yield not declared", noCheck: true, src: `input n : int; var s : int;
reduce s <- 0 for i <= n do yield y combine a, b do yield a done; return s`,
			args: args("n=1"), err: `^eval.imp:2:35: I-REDUCE: variable y is not declared$`},
		{name: "a combine result not declared", noCheck: true, src: `input n : int; var s : int;
reduce s <- 0 for i <= n do yield i combine a, b do yield c done; return s`,
			args: args("n=1"), err: `^eval.imp:2:59: I-REDUCE: variable c is not declared$`},
	})
}

// I-REDUCE's races: elements and combines may read the same locations,
// but none may write a location another uses.
func TestEvalReduceRace(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "reading one location is no race", src: `input n : int; var m : mem; m <- alloc 1; m[0] <- 5; var s : int;
reduce s <- 0 for i <= n do var v : int; v <- m[0]; yield v
combine a, b do var w : int; w <- m[0]; var c : int; c <- a + b + w; yield c done; return s`,
			args: args("n=2"), want: "20"},
		{name: "elements write one location", src: `input n : int; var m : mem; m <- alloc 1; var s : int;
reduce s <- 0 for i <= n do m[0] <- i; yield i combine a, b do var c : int; c <- a + b; yield c done; return s`,
			args: args("n=2"), kind: semantics.RaceError, heap: "ℓ1=[1]",
			err: `^eval.imp:2:1: I-REDUCE: race: element 1 writes ℓ1\[0\], which element 2 also uses \(elements and combines run as a kernel's iterations: racefree, eq 4\)$`},
		{name: "a combine writes what an element reads", src: `input n : int; var m : mem; m <- alloc 1; var s : int;
reduce s <- 0 for i <= n do var v : int; v <- m[0]; yield v
combine a, b do m[0] <- a; yield b done; return s`,
			args: args("n=2"), kind: semantics.RaceError,
			err: `^eval.imp:2:1: I-REDUCE: race: the combine after element 1 writes ℓ1\[0\], which element 1 also uses`},
		{name: "two combines write one location", src: `input n : int; var m : mem; m <- alloc 1; var s : int;
reduce s <- 0 for i <= n do yield i combine a, b do m[0] <- a; yield b done; return s`,
			args: args("n=2"), kind: semantics.RaceError,
			err: `I-REDUCE: race: the combine after element 1 writes ℓ1\[0\], which the combine after element 2 also uses`},
		{name: "a combine's own block is no race", src: `input n : int; var s : int;
reduce s <- 0 for i <= n do yield i
combine a, b do var t : mem; t <- alloc 1; t[0] <- a + b; var c : int; c <- t[0]; yield c done; return s`,
			args: args("n=3"), want: "6"},
		{name: "elements of an inner kernel racing", src: `input n : int; var m : mem; m <- alloc 1; var s : int;
reduce s <- 0 for i <= n do kernel j <= 2 do m[0] <- j done; yield i combine a, b do yield b done; return s`,
			args: args("n=1"), kind: semantics.RaceError,
			err: `^eval.imp:2:29: E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses`},
		{name: "a kernel's iterations racing through reduces", src: `input n : int; var m : mem; m <- alloc 1;
kernel k <= n do var s : int; reduce s <- 0 for i <= 1 do m[0] <- k; yield i combine a, b do yield b done done; return m : [1]`,
			args: args("n=2"), kind: semantics.RaceError,
			err: `^eval.imp:2:1: E-IMP-KERNEL: race: iteration 1 writes ℓ1\[0\], which iteration 2 also uses`},
	})
}

// The inclusive scan of the rows of xs into ps.
const scanSrc = `input n : int; input z : int; input xs : [n] @ xs_mem;
var ps : mem;
ps <- alloc n;
scan ps[i - 1] <- z for i <= n do
  var v : int;
  v <- xs_mem[i - 1];
  yield v
combine a, b do
  var c : int;
  c <- a + b;
  yield c
done;
return ps : [n]`

// I-SCAN: after element i, ne ⊕ y1 ⊕ … ⊕ yi is written at the offset.
func TestEvalScan(t *testing.T) {
	runEvalCases(t, []evalCase{
		{name: "prefix sums of an array in memory", src: scanSrc, args: args("xs=[1 2 3 4]", "z=0"),
			rules: []string{"I-SCAN", "E-IMP-READ"}, want: "[1 3 6 10]", heap: "ℓ1=[1 2 3 4] ℓ2=[1 3 6 10]", env: "i=- v=- a=- b=- c=-",
			trace: []string{"scan ps {1: R = {ℓ1[0]}  W = {ℓ2[0]}; 2: R = {ℓ1[1]}  W = {ℓ2[1]}; 3: R = {ℓ1[2]}  W = {ℓ2[2]}; 4: R = {ℓ1[3]}  W = {ℓ2[3]}; " +
				"5: R = {}  W = {}; 6: R = {}  W = {}; 7: R = {}  W = {}; 8: R = {}  W = {}}"}},
		// Inclusive, from ne: a non-neutral ne shows in every row, and the
		// first row is ne ⊕ y1, not ne.
		{name: "inclusive, from the neutral element", src: scanSrc, args: args("xs=[1 2 3 4]", "z=100"), want: "[101 103 106 110]"},
		{name: "zero elements write nothing", src: scanSrc, args: args("xs=[]", "z=7"), rules: []string{"I-SCAN"}, want: "[]",
			heap: "ℓ1=[] ℓ2=[]", trace: []string{"scan ps {}"}},
		{name: "negative bound", src: `input n : int; var m : mem; m <- alloc 1;
scan m[0] <- 0 for i <= n do yield i combine a, b do yield a done; return m : [1]`,
			args: args("n=-1"), err: `^eval.imp:2:1: I-SCAN: scan bound n = -1 is negative$`},
		{name: "offsets of the index, reversed", src: `input n : int; var m : mem; m <- alloc n;
scan m[n - i] <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done; return m : [n]`,
			args: args("n=4"), want: "[10 6 3 1]"},
		{name: "a left fold", src: `input n : int; var m : mem; m <- alloc n;
scan m[i - 1] <- 0 for i <= n do yield i combine a, b do var c : int; c <- a * 10 + b; yield c done; return m : [n]`,
			args: args("n=3"), want: "[1 12 123]"},
		{name: "offset out of bounds", src: strings.Replace(scanSrc, "ps[i - 1]", "ps[i]", 1), args: args("xs=[1 2 3]", "z=0"),
			heap: "ℓ1=[1 2 3] ℓ2=[0 1 3]", err: `^eval.imp:4:1: I-SCAN: ps: offset 3 is outside block ℓ2 of size 3$`},
		{name: "a block never allocated", src: `input n : int; var m : mem;
scan m[i - 1] <- 0 for i <= n do yield i combine a, b do yield b done; return n`,
			args: args("n=1"), err: `^eval.imp:2:6: I-SCAN: memory block m is ⊥`},
		{name: "the offset divides by zero", src: `input n : int; var m : mem; m <- alloc n;
scan m[1 / (i - 1)] <- 0 for i <= n do yield i combine a, b do yield b done; return m : [n]`,
			args: args("n=1"), err: `^eval.imp:2:10: I-SCAN: division by zero`},
		{name: "two elements write one offset", src: `input n : int; var m : mem; m <- alloc 1;
scan m[0] <- 0 for i <= n do yield i combine a, b do yield b done; return m : [1]`,
			args: args("n=2"), kind: semantics.RaceError, heap: "ℓ1=[1]",
			err: `^eval.imp:2:1: I-SCAN: race: element 1 writes ℓ1\[0\], which element 2 also uses`},
		{name: "an element reads an earlier row", src: `input n : int; var m : mem; m <- alloc n;
scan m[i - 1] <- 0 for i <= n do var v : int; v <- m[0]; yield i combine a, b do var c : int; c <- a + b; yield c done; return m : [n]`,
			args: args("n=2"), kind: semantics.RaceError,
			err: `I-SCAN: race: element 1 writes ℓ1\[0\], which element 2 also uses`},
	})
}

// The small steps of the extensions: a for steps by I-FOR to start and
// after each iteration; a fold by its rule to start, at each yield and
// after each combine; an assert by I-ASSERT.
func TestSmallStepExtensionRules(t *testing.T) {
	p := mustParse(t, `var s : int; for i <= 2 do s <- s + i done; assert s;
reduce s <- 0 for i <= 2 do yield i combine a, b do var c : int; c <- a + b; yield c done;
var m : mem; m <- alloc 1;
scan m[0] <- 0 for i <= 1 do yield i combine a, b do yield b done;
for i <= 0 do skip done;
return s`, true)
	env, h, err := BindInputs(p, nil)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	res, _, err := RunSmall(p, env, h, &semantics.RunOptions{OnStep: func(rule string, _ any) { rules = append(rules, rule) }})
	if err != nil {
		t.Fatal(err)
	}
	want := "E-IMP-DEC-INT I-FOR E-IMP-ASSIGN-INT I-FOR E-IMP-ASSIGN-INT I-FOR I-ASSERT " +
		"I-REDUCE I-REDUCE E-IMP-DEC-INT E-IMP-ASSIGN-INT I-REDUCE I-REDUCE E-IMP-DEC-INT E-IMP-ASSIGN-INT I-REDUCE " +
		"E-IMP-DEC-MEM E-IMP-ALLOC I-SCAN I-SCAN I-SCAN I-FOR E-IMP-SEQ"
	if got := strings.Join(rules, " "); got != want {
		t.Errorf("steps\n  %s\nwant\n  %s", got, want)
	}
	if len(res) != 1 || res[0].String() != "3" {
		t.Errorf("results %v", res)
	}
}

// TestExtensionRuleCoverage: the extensions' rules fire under both
// semantics, and the checker's under Check.
func TestExtensionRuleCoverage(t *testing.T) {
	src := `input n : int; var s : int; var m : mem; m <- alloc n;
for i <= n do s <- s + i done; assert s "s";
reduce s <- 0 for i <= n do yield i combine a, b do yield b done;
scan m[i - 1] <- 0 for i <= n do yield i combine a, b do yield b done;
return s`
	p := mustParse(t, src, true)
	checked := semantics.Counter{}
	if err := Check(p, checked); err != nil {
		t.Fatal(err)
	}
	for _, r := range []semantics.Rule{ImpFor, ImpAssert, ImpReduce, ImpScan} {
		if checked[r.Name] == 0 {
			t.Errorf("check: %s not applied (applied: %s)", r.Name, golden.RuleList(checked))
		}
	}
	big, small := runBoth(t, p, args("n=2"))
	agree(t, big, small)
	for _, run := range []evalRun{big, small} {
		for _, r := range []semantics.Rule{IFor, IAssert, IReduce, IScan} {
			if run.counter[r.Name] == 0 {
				t.Errorf("%s not applied (applied: %s)", r.Name, golden.RuleList(run.counter))
			}
		}
	}
}

// A run stuck or racing in a fold leaves no race tracker on the heap
// (TestStuckKernelLeavesNoTracker for the folds).
func TestStuckFoldLeavesNoTracker(t *testing.T) {
	for _, src := range []string{
		`var m : mem; m <- alloc 1; var s : int;
reduce s <- 0 for i <= 2 do var first : int; first <- i == 1; if first then m[0] <- 1 else skip fi; assert i < 2 yield i
combine a, b do yield b done; return s`,
		`var m : mem; m <- alloc 1; var s : int;
reduce s <- 0 for i <= 2 do var first : int; first <- i == 1; if first then m[0] <- 1 else skip fi; yield i
combine a, b do var c : int; c <- 1 / (b - 2); yield c done; return s`,
	} {
		p := mustParse(t, src, true)
		for _, sem := range []string{"big", "small"} {
			env, h, _ := BindInputs(p, nil)
			var err error
			if sem == "big" {
				_, err = Eval(p, env, h, nil)
			} else {
				_, _, err = RunSmall(p, env, h, nil)
			}
			if err == nil {
				t.Fatalf("%s: expected the run to be stuck", sem)
			}
			if _, err := h.Read(semantics.Loc{Block: 1, Offset: 0}); err != nil {
				t.Errorf("%s: a race tracker of an abandoned fold is still on the heap: %v", sem, err)
			}
		}
	}
}

// TestIterationsRunInCopies: each iteration of a kernel, and each element
// and combine of a fold, runs in its own copy of E, and a for's iteration
// in a copy whose variables go back to E (I-FOR), under the engine, the
// rules and the small-step alike: the rules and the small-step make an
// iteration's environment in the last one's map, undoing what it could
// change (Env.undo, rebinds), so what an iteration sets, declares or
// declares anew (an outer name, of another type) must not reach the next.
func TestIterationsRunInCopies(t *testing.T) {
	for _, c := range []struct {
		name, src, want string
		env             string // "x=v …" in the final environment ("-" absent)
	}{
		{name: "a kernel's iterations see E's values", src: `input n : int; var x : int; x <- 10; var y : float; var m : mem; m <- alloc n;
kernel i <= n do
  x <- x + i;
  var t : int; t <- x * 100;
  var y : int; y <- t + i;
  if y then var u : int; u <- y; m[i - 1] <- u else skip fi
done; return x, m : [n]`, want: "10 [1101 1202 1303]", env: "x=10 t=- u=- i=- y=0.0"},
		{name: "nested kernels", src: `input n : int; var x : int; var m : mem; m <- alloc n * n;
kernel i <= n do
  x <- x + i;
  kernel j <= n do var z : int; z <- x * 10 + j; x <- z; m[(i - 1) * n + j - 1] <- z done
done; return x, m : [n][n]`, want: "0 [[11 12 13] [21 22 23] [31 32 33]]", env: "x=0 z=- j=-"},
		{name: "a for's iterations carry E's variables on", src: `input n : int; var x : int; x <- 10; var m : mem; m <- alloc n;
for i <= n do x <- x + i; var t : int; t <- x; var w : int; w <- w + 1; m[i - 1] <- t * 10 + w done;
return x, m : [n]`, want: "16 [111 131 161]", env: "x=16 t=- w=- i=-"},
		{name: "a kernel in a for, a for in a kernel", src: `input n : int; var s : int; var m : mem; m <- alloc n;
for k <= n do
  kernel i <= n do var a : int; for j <= i do a <- a + j done; s <- a; m[i - 1] <- a + k done;
  s <- s + 1
done; return s, m : [n]`, want: "3 [4 6 9]", env: "s=3 a=-"},
		{name: "a fold's parts", src: `input n : int; var x : int; x <- 5; var r : int;
reduce r <- 0 for i <= n do var e : int; x <- x + i; e <- x yield e
combine a, b do var c : int; x <- a; c <- a + b yield c done; return x, r`, want: "5 21", env: "x=5 e=- c=-"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p := mustParse(t, c.src, true)
			for _, sem := range []string{"big", "rules", "small"} {
				env, h, err := BindInputs(p, args("n=3"))
				if err != nil {
					t.Fatal(err)
				}
				r := evalRun{env: env}
				switch sem {
				case "big":
					r.res, r.err = Eval(p, env, h, nil)
				case "rules":
					r.res, _, r.err = EvalRules(p, env, h, nil)
				default:
					r.res, _, r.err = RunSmall(p, env, h, nil)
				}
				if r.err != nil || r.results() != c.want {
					t.Errorf("%s: %s, %v; want %s", sem, r.results(), r.err, c.want)
				}
				for _, kv := range strings.Fields(c.env) {
					x, want, _ := strings.Cut(kv, "=")
					got := "-"
					if v, ok := env[x]; ok {
						got = v.String()
					}
					if got != want {
						t.Errorf("%s: %s=%s in the final environment, want %s", sem, x, got, want)
					}
				}
			}
		})
	}
}

// TestStuckIterationShowsItsEnvironment checks what the small-step leaves
// when a kernel's iteration goes wrong: its iterations run in E's own map
// (iteration), yet the configuration that went wrong shows the
// iteration's environment, as a copy of E would hold it, and the
// enclosing environment is E again, as the rules and the engine leave it.
func TestStuckIterationShowsItsEnvironment(t *testing.T) {
	p := mustParse(t, `input n : int; var x : int; x <- 7; var m : mem; m <- alloc n;
kernel i <= n do
  x <- x + i;
  var t : int; t <- m[i * 2 - 1];
  m[i - 1] <- t
done; return x, m : [n]`, true)
	env, h, err := BindInputs(p, args("n=3"))
	if err != nil {
		t.Fatal(err)
	}
	m := Machine{Opts: &Options{}}
	c := Initial(p, env, h)
	for {
		next, _, err := m.Step(c)
		if err != nil {
			if !strings.Contains(err.Error(), "outside block") {
				t.Fatalf("error %v, want a read outside m", err)
			}
			break
		}
		if m.Final(next) {
			t.Fatal("the run ended; want it stuck in iteration 2")
		}
		c = next
	}
	shown := map[string]string{}
	for _, b := range c.Bindings() {
		shown[b.Name] = b.Value
	}
	for x, want := range map[string]string{"i": "2", "x": "9"} {
		if shown[x] != want {
			t.Errorf("the stuck configuration shows %s = %q, want %s (all: %v)", x, shown[x], want, shown)
		}
	}
	if _, ok := shown["t"]; !ok {
		t.Errorf("the stuck configuration does not show t, which iteration 2 declared (all: %v)", shown)
	}
	for x, want := range map[string]string{"x": "7", "i": "-", "t": "-"} {
		got := "-"
		if v, ok := env[x]; ok {
			got = v.String()
		}
		if got != want {
			t.Errorf("%s=%s in the enclosing environment, want %s", x, got, want)
		}
	}
}
