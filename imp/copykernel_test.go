package imp

import (
	"slices"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestCopyKernels: kernels whose body is a copy, at the edges of
// copyWords: strides up and down, zero and over an invariant variable,
// one block read and written, floats, offsets out of the block at the
// first or the last iteration, offsets that overflow, a block or a
// variable undefined or of the wrong kind, an offset that is not affine,
// and copies nested in kernels and fors. Each must do what the small-step
// and the rules as written (EvalRules) do (results, errors, heaps, traces, rule
// counts), untraced as well; fast says whether copyWords runs the copy
// (at every start of it).
func TestCopyKernels(t *testing.T) {
	head := "input n : int;\nvar m : mem;\nm <- alloc n * n + n;\nkernel k <= n * n + n do m[k - 1] <- k * 10 done;\nvar q : mem;\nq <- alloc n * n + n;\nvar b : int;\nb <- 2;\nvar f : float;\nf <- 1.5;\n"
	for _, c := range []struct {
		body string
		fast bool
	}{
		{"kernel i <= n do var t : int; t <- m[i - 1]; q[i - 1] <- t done", true},
		{"kernel i <= n do var t : int; t <- m[n - i]; q[i + n] <- t done", true},
		{"kernel i <= n do var t : int; t <- m[b * i]; q[i * b - 1] <- t done", true},
		{"kernel i <= n do var t : int; t <- m[(i + 1) * n - 1]; q[n * n + n - i] <- t done", true},
		{"kernel i <= n do var t : int; t <- m[i - 1]; m[i - 1] <- t done", true},
		{"kernel i <= n do var t : float; t <- m[i - 1]; q[i - 1] <- t done", true},
		{"kernel i <= n do var t : int; t <- m[3]; q[i - 1] <- t done", true},
		{"kernel i <= n do kernel j <= n do var t : int; t <- m[j * n + i - n - 1]; q[i * n + j - n - 1] <- t done done", true},
		{"for i <= n do kernel j <= n do var t : int; t <- m[j + i - 1]; q[i * n + j - 1] <- t done done", true},
		// Left to the rules (the first: tracked, as the race-freedom
		// plan cannot tell the read's offsets from the write's).
		{"kernel i <= n do var t : int; t <- m[i - 1]; m[i + n * n - 1] <- t done", false},
		{"kernel i <= n do kernel j <= n do var t : int; t <- m[i * n + j - n - 1]; q[j * n + i - n - 1] <- t done done", false},
		{"kernel i <= n do var t : int; t <- m[i - 2]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[i * n + n]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[i - 1]; q[i * n * n] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[i * 4611686018427387904 - 1]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[i * i - 1]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[i / 1 - 1]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[f * i - 1]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[i - 1]; q[t - 10] <- t done", false},
		{"kernel i <= n do var t : int; t <- z[i - 1]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- b[i - 1]; q[i - 1] <- t done", false},
		{"kernel i <= n do var t : int; t <- m[i - 1]; q[i - 1] <- t + 1 done", false},
		{"kernel i <= n do var t : int; t <- m[i - 1]; q[0] <- t done", false},
		{"var u : mem; kernel i <= n do var t : int; t <- m[i - 1]; u[i - 1] <- t done", false},
	} {
		src := head + c.body + ";\nreturn q : [n * n + n]\n"
		p, err := ParseFile("copy.imp", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		args := map[string]string{"n": "3"}
		big := agreeAll(t, p, args)
		if got := countCopies(p, args) > 0; got != c.fast {
			t.Errorf("copyWords ran: %v, want %v", got, c.fast)
		}
		t.Logf("%s: %v", c.body, big.err)
		if t.Failed() {
			t.Fatalf("program:\n%s", src)
		}
	}
}

// countCopies is how many kernel starts of p's untraced run copyWords ran.
func countCopies(p *Program, args map[string]string) int {
	env, h, err := BindInputs(p, args)
	if err != nil {
		panic(err)
	}
	m, body := compile(p, env, h, &Options{})
	n := 0
	m.onCopy = func() { n++ }
	m.run(body)
	return n
}

// TestCopyKernelRows: the copies of the nested bench row run as copyWords,
// every start of them (the inner copy's n, the result copy's n).
func TestCopyKernelRows(t *testing.T) {
	p, err := ParseFile("bench.imp", benchNested)
	if err != nil {
		t.Fatal(err)
	}
	if got := countCopies(p, map[string]string{"n": "4"}); got != 8 {
		t.Errorf("%d copy kernel starts ran as copyWords, want 8", got)
	}
}

// TestCopyStrided: a copy kernel run on goroutines copies what the loop
// in order copies, forwards and backwards, strided, onto itself, below and
// above the size from which it is spread.
func TestCopyStrided(t *testing.T) {
	for _, c := range []struct{ w1, ws, r1, rs, n int64 }{
		{0, 1, 0, 1, semantics.MinParallelCopy},
		{0, 1, 5, 1, semantics.MinParallelCopy + 3},
		{semantics.MinParallelCopy * 2, -1, 0, 2, semantics.MinParallelCopy + 1},
		{7, 3, semantics.MinParallelCopy*3 - 1, -3, semantics.MinParallelCopy},
		{0, 1, 0, 1, semantics.MinParallelCopy - 1},
		{9, 2, 9, 2, semantics.MinParallelCopy}, // the same offsets
		{0, 0, 0, 1, 5},
	} {
		src := make([]int64, 3*semantics.MinParallelCopy+8)
		for i := range src {
			src[i] = int64(i*7 + 1)
		}
		want := make([]int64, len(src))
		for i := range c.n {
			want[c.w1+i*c.ws] = src[c.r1+i*c.rs]
		}
		for _, jobs := range []int{1, 2, 3, 4} {
			dst := make([]int64, len(src))
			copyStrided(dst, src, c.w1, c.ws, c.r1, c.rs, c.n, jobs)
			if !slices.Equal(dst, want) {
				t.Fatalf("%+v, jobs %d: the words differ", c, jobs)
			}
		}
	}
}
