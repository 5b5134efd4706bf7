package cuda_test

import (
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/internal/golden"
)

// foldPrograms are IMP programs with IMP's extensions (for, assert,
// reduce, scan) and inputs, each with the inputs to run it on: empty
// folds, sizes that are not multiples of any block size tried, operators
// that are associative but not commutative, and stuck states in elements,
// combines, scans' writes and asserts.
var foldPrograms = []impProgram{
	{"sums", `input n : int;
var s : int;
reduce s <- 0 for i <= n do var v : int; v <- i * i % 1000; yield v combine a, b do var c : int; c <- a + b; yield c done;
var last : int;
reduce last <- 0 - 1 for i <= n do var v : int; v <- 3 * i; yield v combine a, b do yield b done;
var first : int;
reduce first <- 0 for i <= n do yield i combine a, b do var c : int; if a then c <- a else c <- b fi; yield c done;
var ps : mem; ps <- alloc n;
scan ps[i - 1] <- 0 for i <= n do var v : int; v <- i % 5 - 2; yield v combine a, b do var c : int; c <- a + b; yield c done;
var ls : mem; ls <- alloc n;
scan ls[n - i] <- 7 for i <= n do var v : int; v <- i % 4 * i; yield v combine a, b do var c : int; if b then c <- b else c <- a fi; yield c done;
return s, last, first, ps : [n], ls : [n]`, sizes("0", "1", "2", "5", "31", "100", "257", "1000")},
	{"array", `input n : int;
input xs : [n] @ xs_mem;
assert n < 5000 "at most 5000 numbers";
var mx : int;
reduce mx <- -9223372036854775808 for i <= n do var v : int; v <- xs_mem[i - 1]; yield v
combine a, b do var bigger : int; bigger <- a >= b; var c : int; if bigger then c <- a else c <- b fi; yield c done;
var run : mem; run <- alloc n;
scan run[i - 1] <- 0 for i <= n do var v : int; v <- xs_mem[i - 1]; yield v combine a, b do var c : int; c <- a + b; yield c done;
var sorted : int; sorted <- 1;
for i <= n - 1 do
  var x : int; x <- xs_mem[i - 1]; var y : int; y <- xs_mem[i];
  var ok : int; ok <- x <= y;
  if ok then skip else sorted <- 0 fi
done;
return mx, run : [n], sorted`, []map[string]string{{"xs": "[]"}, {"xs": "[5]"}, {"xs": "[3 1 4 1 5 9 2 6 5 3 5]"}, {"xs": "[1 2 2 8 9 10 11]"}, {"xs": ints(300)}}},
	{"stuck", `input n : int;
input bad : int;
var s : int;
reduce s <- 0 for i <= n do var v : int; v <- 100 / (i - bad); yield v combine a, b do var c : int; c <- a + b; yield c done;
var m : mem; m <- alloc n - 1;
scan m[i - 1] <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done;
return s`, []map[string]string{{"n": "0", "bad": "0"}, {"n": "300", "bad": "0"}, {"n": "300", "bad": "123"}, {"n": "300", "bad": "300"}, {"n": "-1", "bad": "0"}}},
	{"assert", `input n : int;
var s : int;
reduce s <- 0 for i <= n do assert i != 77 "not 77"; yield i combine a, b do var c : int; c <- a + b; yield c done;
var t : int;
reduce t <- 0 for i <= n do var v : int; v <- i % 2; yield v combine a, b do assert a + b < 30 "the sum stays small"; var c : int; c <- a + b; yield c done;
assert s >= t;
return s, t`, sizes("0", "10", "58", "59", "76", "77", "200")},
	{"nested", `input n : int;
var tot : int; tot <- 0;
for r <= n do
  var part : int;
  reduce part <- 0 for i <= r do var p : int;
    reduce p <- 1 for j <= i % 4 + 1 do yield j combine a, b do var c : int; c <- a * b; yield c done;
    yield p
  combine a, b do var c : int; c <- a + b; yield c done;
  tot <- tot + part
done;
var rows : mem; rows <- alloc 3 * n;
kernel i <= n do
  scan rows[3 * i + j - 4] <- i for j <= 3 do yield j combine a, b do var c : int; c <- a + b; yield c done
done;
return tot, rows : [n][3]`, sizes("0", "1", "6", "40")},
	// Scans followed by a reduce of what they wrote, which their writing
	// pass folds (scanreduce.go): the first element above 2, by a
	// non-commutative operator; an address i + 1 and an element that
	// gets stuck when j = bad; and a reduce that also reads another
	// element, which does not fuse.
	{"scanreduce", `input n : int;
input bad : int;
var ps : mem; ps <- alloc n;
scan ps[i - 1] <- 0 for i <= n do var v : int; v <- i % 7 - 3; yield v combine a, b do var c : int; c <- a + b; yield c done;
var first : int;
reduce first <- 0 for j <= n do var v : int; v <- ps[j - 1]; var big : int; big <- v > 2; var y : int; if big then y <- v * 1000 + j else y <- 0 fi; yield y
combine a, b do var c : int; if a then c <- a else c <- b fi; yield c done;
var ls : mem; ls <- alloc n + 2;
scan ls[i + 1] <- 0 for i <= n do var v : int; v <- i % 4 * i; yield v combine a, b do var c : int; if b then c <- b else c <- a fi; yield c done;
var q : int;
reduce q <- 0 for j <= n do var v : int; v <- ls[j + 1]; var d : int; d <- 100 / (j - bad); var y : int; y <- v * 3 + d; yield y combine a, b do var c : int; c <- a + b; yield c done;
var ms : mem; ms <- alloc n;
scan ms[i - 1] <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done;
var r : int;
reduce r <- 0 for j <= n do var v : int; v <- ms[j - 1]; var u : int; var more : int; more <- j > 1; if more then u <- ms[j - 2] else u <- 0 fi; var y : int; y <- v - u; yield y
combine a, b do var c : int; c <- a + b; yield c done;
return first, q, r, ps : [n]`, []map[string]string{{"n": "0", "bad": "0"}, {"n": "1", "bad": "0"}, {"n": "5", "bad": "0"}, {"n": "31", "bad": "0"},
		{"n": "100", "bad": "0"}, {"n": "257", "bad": "0"}, {"n": "1000", "bad": "-1"}, {"n": "300", "bad": "123"}, {"n": "300", "bad": "300"}}},
	// Floats, which do not fuse: a float reduce of an int scan, a float
	// scan and its reduce.
	{"scanreduce_float", `input n : int;
var ps : mem; ps <- alloc n;
scan ps[i - 1] <- 0 for i <= n do var v : int; v <- i % 7 - 3; yield v combine a, b do var c : int; c <- a + b; yield c done;
var h : float;
reduce h <- 0.5 for j <= n do var v : int; v <- ps[j - 1]; var y : float; y <- float(v) * 0.5; yield y
combine a, b do var c : float; c <- a + b; yield c done;
var fs : mem; fs <- alloc n;
scan fs[i - 1] <- 0.0 for i <= n do var v : float; v <- float(i) * 0.25; yield v combine a, b do var c : float; c <- a + b; yield c done;
var g : float;
reduce g <- 0.0 for j <= n do var v : float; v <- fs[j - 1]; yield v combine a, b do var c : float; c <- a + b; yield c done;
return h, g, ps : [n]`, sizes("0", "1", "40", "300")},
	// A block per iteration (p ≥ 32) whose kernels' columns it folds at
	// once (coop.go, columnFold): the first non-zero element of each of
	// j's columns, by a non-commutative operator; the kernel over j has a
	// kernel after its reduce, whose own columns' results would take the
	// shared words j's later iterations read, so j's folds a column at a
	// time.
	{"columns", `input n : int;
input p : int;
var out : mem; out <- alloc n * 3;
var more : mem; more <- alloc n * 6;
kernel i <= n do
  kernel j <= 3 do
    var f : int;
    reduce f <- 0 for k <= p do var y : int; y <- (k * j + i) % 11; var big : int; big <- y > 7; if big then skip else y <- 0 fi; yield y
    combine a, b do var c : int; if a then c <- a else c <- b fi; yield c done;
    kernel l <= 2 do
      var h : int;
      reduce h <- 0 for k <= p do var y : int; y <- k * l % 7 + j; yield y combine a, b do var c : int; c <- a + b; yield c done;
      more[6 * i + 2 * j + l - 9] <- h
    done;
    out[3 * i + j - 4] <- f
  done
done;
return out : [n][3], more : [n][6]`, []map[string]string{{"n": "0", "p": "40"}, {"n": "3", "p": "0"}, {"n": "3", "p": "40"}, {"n": "2", "p": "333"}}},
	// Columns in chunks of B: w columns, more than some blocks' threads;
	// the first element above 9 of each column, with its k; float sums
	// (of quarters, exact in any order).
	{"wide", `input n : int;
input p : int;
input w : int;
var out : mem; out <- alloc n * w;
kernel i <= n do
  kernel j <= w do
    var f : int;
    reduce f <- 0 for k <= p do var y : int; y <- (k * 7 + j * 3 + i) % 13; var big : int; big <- y > 9; if big then y <- y * 1000 + k else y <- 0 fi; yield y
    combine a, b do var c : int; if a then c <- a else c <- b fi; yield c done;
    out[w * i + j - w - 1] <- f
  done
done;
var fo : mem; fo <- alloc n * w;
kernel i <= n do
  kernel j <= w do
    var g : float;
    reduce g <- 0.5 for k <= p do var y : float; y <- float(k * j + i) * 0.25; yield y combine a, b do var c : float; c <- a + b; yield c done;
    fo[w * i + j - w - 1] <- g
  done
done;
return out : [n][w], fo : [n][w]float`, []map[string]string{{"n": "2", "p": "40", "w": "40"}, {"n": "2", "p": "100", "w": "300"}, {"n": "1", "p": "33", "w": "1"}, {"n": "2", "p": "0", "w": "5"}, {"n": "2", "p": "50", "w": "0"},
		{"n": "2", "p": "1000", "w": "7"}, {"n": "1", "p": "900", "w": "260"}}},
}

func sizes(ns ...string) []map[string]string {
	out := make([]map[string]string, len(ns))
	for i, n := range ns {
		out[i] = map[string]string{"n": n}
	}
	return out
}

// ints is an array literal of k numbers, unsorted.
func ints(k int) string {
	parts := make([]string, k)
	for i := range parts {
		parts[i] = strconv.Itoa((i*7919)%1009 - 500)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// TestFoldsInSim: the fold programs in gpu-sim, with blocks of 1, 2, 3, 32
// and 256 threads (so that threads fold chunks of several elements, blocks
// are partial, and the final combine has several blocks' partials) and
// three schedules, print what the interpreter prints, or get stuck as it
// does; gpu-sim finds no race in the trees and scans.
func TestFoldsInSim(t *testing.T) {
	t.Parallel()
	agreeInSim(t, impPrograms(t, foldPrograms), simRuns{blocks: []int{1, 2, 3, 32, 256}, seed: 7})
}

// TestFoldsAssertMessage: a failing assert prints its message, in gpu-sim
// as the interpreter does (the host build's stderr is checked by
// TestFoldsOnClang).
func TestFoldsAssertMessage(t *testing.T) {
	p := foldProgram(t, "assert", foldPrograms[3].src)
	prog, err := gpusim.Parse("assert.cu", p.CUDA)
	if err != nil {
		t.Fatal(err)
	}
	for n, msg := range map[string]string{"77": "I-ASSERT: not 77 (assertion i != 77 is 0)", "59": "I-ASSERT: the sum stays small (assertion a + b < 30 is 0)"} {
		want := harness.Interpret(p.Imp, map[string]string{"n": n})
		if !strings.Contains(want.Err, msg) {
			t.Fatalf("n=%s: the interpreter says %s", n, want.Err)
		}
		_, _, err := gpusim.Run(prog, []string{"n=" + n}, gpusim.Options{})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("n=%s: gpu-sim says %v, want %q", n, err, msg)
		}
	}
}

// TestFoldLarge: a parallel reduce and scan of 10^5 elements in gpu-sim
// (threads fold chunks of two elements with blocks of 256) agree with the
// interpreter.
func TestFoldLarge(t *testing.T) {
	t.Parallel()
	p := foldProgram(t, "large", `input n : int;
var s : int;
reduce s <- 0 for i <= n do var v : int; v <- i * i % 1000; yield v combine a, b do var c : int; c <- a + b; yield c done;
var last : int;
reduce last <- 7 for i <= n do yield i combine a, b do yield b done;
return s, last`)
	prog, err := gpusim.Parse("large.cu", p.CUDA)
	if err != nil {
		t.Fatal(err)
	}
	args := map[string]string{"n": "100000"}
	if err := simAgrees(prog, harness.Interpret(p.Imp, args), args, gpusim.Options{}); err != nil {
		t.Error(err)
	}
}

// TestFoldsOnClang: the fold programs and the golden chunks with IMP's
// extensions compile to PTX and, under the sanitizers, on the host print
// what the interpreter prints (or fail with its status, a failing assert
// with its message) with blocks of 2, 3 and 256 threads.
func TestFoldsOnClang(t *testing.T) {
	t.Parallel()
	clangBuilds(t)
	ps := impPrograms(t, foldPrograms)
	for _, c := range golden.Read(t, filepath.Join("testdata", "emit.txt"), "--") {
		if c.ErrRe == nil && (strings.Contains(c.Src, "reduce ") || strings.Contains(c.Src, "scan ") || strings.Contains(c.Src, "for ") || strings.Contains(c.Src, "assert ")) {
			p := foldProgram(t, fmt.Sprintf("%s:%d", c.File, c.Line), c.Src)
			p.Cases = []map[string]string{{}}
			ps = append(ps, p)
		}
	}
	agreeOnClang(t, "folds", ps, clangRuns{blocks: []string{"2", "3", "256"}, skipRaces: true,
		also: func(t *testing.T, p *harness.Program, args map[string]string, want harness.Expect, got cuda.Outcome) {
			if strings.Contains(want.Err, "I-ASSERT") && !strings.Contains(got.Stderr, want.Err[strings.Index(want.Err, "I-ASSERT"):]) {
				t.Errorf("%s %v: the interpreter says %s; the program %q", p.Name, harness.Args(args), want.Err, got.Stderr)
			}
		}})
}
