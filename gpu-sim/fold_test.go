package gpusim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
)

// foldSrc is a parallel reduce and a parallel scan.
const foldSrc = `input n : int;
var s : int;
reduce s <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done;
var ps : mem; ps <- alloc n;
scan ps[i - 1] <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done;
return s, ps : [n]`

func emitFold(t *testing.T) string {
	t.Helper()
	p, err := imp.ParseFile("fold.imp", foldSrc)
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	f, err := cuda.Emit(p, cuda.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.String()
}

// TestFoldBarriers: the emitted reduce's tree and the scans' levels are
// race free in gpu-sim (barriers separate them), and each barrier is
// needed: a file with one __syncthreads removed is a data race on the
// shared tile or partials, or reads one before any thread wrote it. With
// blocks of 4 threads (8 elements a thread a round), 3300 elements are 26
// blocks of four rounds each, so that the rounds follow one another, and
// the block folding the 26 partials has four threads' runs: every level
// of its tree combines two threads' work.
func TestFoldBarriers(t *testing.T) {
	src := emitFold(t)
	prog, err := gpusim.Parse("fold.cu", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, block := range []int{4, 256} {
		out, _, err := gpusim.Run(prog, []string{"n=10"}, gpusim.Options{Block: block})
		if err != nil || out != "55\n[1 3 6 10 15 21 28 36 45 55]\n" {
			t.Fatalf("blocks of %d: %q, %v", block, out, err)
		}
	}
	lines := strings.SplitAfter(src, "\n")
	var barriers []int
	for i, l := range lines {
		if strings.TrimSpace(l) == "__syncthreads();" {
			barriers = append(barriers, i)
		}
	}
	n := len(barriers)
	if n < 10 {
		t.Fatalf("%d barriers in the emitted file", n)
	}
	for k, at := range barriers {
		cut := strings.Join(lines[:at], "") + strings.Join(lines[at+1:], "")
		prog, err := gpusim.Parse("cut.cu", cut)
		if err != nil {
			t.Fatal(err)
		}
		_, _, err = gpusim.Run(prog, []string{"n=3300"}, gpusim.Options{Block: 4})
		var se *gpusim.Error
		if !errors.As(err, &se) || (se.Kind != "race" && se.Kind != "uninitialised") {
			t.Errorf("without barrier %d of %d: %v, want a race", k+1, n, err)
		}
	}
}
