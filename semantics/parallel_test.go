package semantics

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// parallelRun is a kernel for ParallelIterations: iteration i writes i to
// word i-1 of block b, noting the old value, and goes wrong at the
// iterations of fails, before its write when early.
func parallelRun(h *Heap, b Label, logs []*WriteLog, fails map[int64]bool, early bool, wait func(i int64)) func(k int, i int64) error {
	return func(k int, i int64) error {
		if wait != nil {
			wait(i)
		}
		if fails[i] && early {
			return fmt.Errorf("iteration %d", i)
		}
		words := h.Block(b)
		logs[k].Note(Loc{Block: b, Offset: i - 1}, words[i-1], i)
		words[i-1] = i
		if fails[i] {
			return fmt.Errorf("iteration %d", i)
		}
		return nil
	}
}

// inOrder is what running the kernel in order leaves: the words of the
// iterations up to the first failing one written (that one's too unless it
// fails early), the others at their old value -1, and the first error.
func inOrder(n int64, fails map[int64]bool, early bool) ([]int64, string) {
	words := slices.Repeat([]int64{-1}, int(n))
	for i := int64(1); i <= n; i++ {
		if fails[i] && early {
			return words, fmt.Sprintf("iteration %d", i)
		}
		words[i-1] = i
		if fails[i] {
			return words, fmt.Sprintf("iteration %d", i)
		}
	}
	return words, ""
}

func newParallelHeap(t *testing.T, n int64) (*Heap, Label) {
	t.Helper()
	h := &Heap{}
	b, err := h.Alloc(n)
	if err != nil {
		t.Fatal(err)
	}
	for i := range h.Block(b) {
		h.Block(b)[i] = -1
	}
	return h, b
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestParallelIterationsAgree runs random kernels, with errors anywhere
// (several in one window and one chunk among them), on 2 to 5 goroutines
// and windows of 1 to 40 iterations: the error is the first by index, and
// the heap is what the in-order run leaves.
func TestParallelIterationsAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for c := range 3000 {
		n := 1 + r.Int64N(300)
		fails := map[int64]bool{}
		for range r.IntN(4) {
			fails[1+r.Int64N(n)] = true
		}
		early := r.IntN(2) == 0
		w := 2 + r.IntN(4)
		window := 1 + r.Int64N(40)
		h, b := newParallelHeap(t, n)
		logs := make([]*WriteLog, w)
		for k := range logs {
			logs[k] = &WriteLog{}
		}
		err := ParallelIterations(h, n, logs, window, parallelRun(h, b, logs, fails, early, nil))
		words, want := inOrder(n, fails, early)
		if errText(err) != want || !slices.Equal(h.Block(b), words) {
			t.Fatalf("case %d: n %d, fails %v (early %v), %d goroutines, window %d:\nerror %q, want %q\nwords %v\nwant  %v", c, n, fails, early, w, window, errText(err), want, h.Block(b), words)
		}
	}
}

// TestParallelIterationsLaterErrorFirst makes the later of two errors in
// one window happen first: the goroutine at iteration 5 waits until
// another has gone wrong at iteration 10. The error is still iteration
// 5's, and iterations 6 … 10's words are undone.
func TestParallelIterationsLaterErrorFirst(t *testing.T) {
	for _, early := range []bool{false, true} {
		const n = 40
		fails := map[int64]bool{5: true, 10: true}
		h, b := newParallelHeap(t, n)
		logs := []*WriteLog{{}, {}}
		tenFailed := make(chan struct{})
		run := parallelRun(h, b, logs, fails, early, func(i int64) {
			if i == 5 {
				<-tenFailed
			}
		})
		// window 64 holds every iteration; chunks of 4: 5 and 10 are in
		// two, taken by the two goroutines.
		err := ParallelIterations(h, n, logs, 64, func(k int, i int64) error {
			err := run(k, i)
			if i == 10 {
				close(tenFailed)
			}
			return err
		})
		words, want := inOrder(n, fails, early)
		if errText(err) != want || !slices.Equal(h.Block(b), words) {
			t.Fatalf("early %v: error %q, want %q\nwords %v\nwant  %v", early, errText(err), want, h.Block(b), words)
		}
	}
}

// TestParallelIterationsPanic: a panic in an iteration is raised again by
// ParallelIterations.
func TestParallelIterationsPanic(t *testing.T) {
	h, _ := newParallelHeap(t, 100)
	defer func() {
		if r := recover(); r == nil || !errors.Is(r.(error), errBoom) {
			t.Fatalf("recovered %v, want the iteration's panic", r)
		}
	}()
	_ = ParallelIterations(h, 100, []*WriteLog{{}, {}}, 8, func(k int, i int64) error {
		if i == 50 {
			panic(errBoom)
		}
		return nil
	})
	t.Fatal("no panic")
}

var errBoom = errors.New("boom")

// TestCloneJobs: CloneJobs copies what append copies, below and above the
// size from which it goes on goroutines, on more goroutines than fit too.
func TestCloneJobs(t *testing.T) {
	for _, n := range []int{0, 1, MinParallelCopy - 1, MinParallelCopy, MinParallelCopy + 7, 3*MinParallelCopy + 1} {
		s := make([]int64, n)
		for i := range s {
			s[i] = int64(i*31 - 7)
		}
		want := append([]int64(nil), s...)
		for _, jobs := range []int{1, 2, 3, 5} {
			got := CloneJobs(s, jobs)
			if !slices.Equal(got, want) || (got == nil) != (want == nil) {
				t.Fatalf("%d words, jobs %d: the copy differs", n, jobs)
			}
			if n > 0 && &got[0] == &s[0] {
				t.Fatalf("%d words, jobs %d: not a copy", n, jobs)
			}
		}
	}
}
