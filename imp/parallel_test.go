package imp

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// runJobs runs p under the compiled big-step with jobs goroutines and no
// records (the runs that may go parallel), kernels going parallel from
// the work minWork on (Options.MinParallelWork), and counts the kernel
// starts that ran on goroutines.
func runJobs(t *testing.T, p *Program, args map[string]string, jobs int, minWork, window int64) (evalRun, int) {
	t.Helper()
	env, h, err := BindInputs(p, args)
	if err != nil {
		t.Fatalf("inputs: %v", err)
	}
	r := evalRun{env: env, h: h}
	m, body := compile(p, env, h, &Options{Jobs: jobs, MinParallelWork: minWork, ParallelWindow: window})
	n := 0
	m.onParallel = func() { n++ }
	r.err = m.run(body)
	m.writeBack(env)
	if r.err == nil {
		r.res, r.err = Results(p, env, h)
	}
	return r, n
}

// agreeJobs runs p (whose text is src) on 1 and on 4 goroutines, every
// kernel that may go parallel going, which must do the same, and says
// whether a kernel ran on goroutines (1 or 0) and whether that run went
// wrong.
func agreeJobs(t *testing.T, p *Program, args map[string]string, src string, window int64) (ran, wrong int) {
	t.Helper()
	seq, _ := runJobs(t, p, args, 1, 1, window)
	par, k := runJobs(t, p, args, 4, 1, window)
	agree(t, seq, par)
	if t.Failed() {
		t.Fatalf("program:\n%s", src)
	}
	if k == 0 {
		return 0, 0
	}
	if par.err != nil {
		return 1, 1
	}
	return 1, 0
}

// TestParallelKernelsAgree runs random programs with every kernel
// large enough to go parallel, on 1 and on 4 goroutines, which must give
// the same results, errors, final heaps and environments.
func TestParallelKernelsAgree(t *testing.T) {
	runs := 3000
	if testing.Short() {
		runs = 600
	}
	g := &progGen{rng: rand.New(rand.NewPCG(7, 8))}
	parallel, failed := 0, 0
	for range runs {
		src := g.program()
		p, err := ParseFile("gen.imp", src)
		if err != nil {
			continue
		}
		ran, wrong := agreeJobs(t, p, map[string]string{"n": "3", "xs": "[5 7 9]"}, src, 0)
		parallel, failed = parallel+ran, failed+wrong
	}
	t.Logf("%d programs ran a kernel on goroutines, %d of them went wrong", parallel, failed)
	if parallel < runs/100 || failed < runs/300 {
		t.Errorf("%d programs ran a kernel on goroutines, %d of them went wrong: too few to test both outcomes", parallel, failed)
	}
}

// TestParallelKernelErrors: kernels of 1000 iterations on 4 goroutines
// that go wrong part way (an assert, a read or a write out of its block,
// a division by zero), after iterations in other goroutines' ranges
// wrote, in the same iteration before the error and after it: the error
// is the first iteration's, and the heap and the environment are those
// of the run in order, which never started the later iterations.
func TestParallelKernelErrors(t *testing.T) {
	head := "input n : int;\nvar m : mem;\nm <- alloc n;\nvar q : mem;\nq <- alloc n;\nvar r : mem;\nr <- alloc n;\nvar b : int;\nb <- 5;\n"
	for _, c := range []struct {
		body     string
		parallel bool
	}{
		{"kernel i <= n do var x : int; x <- i * 2; m[i - 1] <- x done", true},
		{"kernel i <= n do var x : int; x <- i * 2; m[i - 1] <- x; q[i - 1] <- x + b done", true},
		{"kernel i <= n do m[i - 1] <- i; assert i != 637; q[i - 1] <- i done", true},
		{"kernel i <= n do m[i - 1] <- i; assert i != 37; assert i != 998; q[i - 1] <- i done", true},
		{"kernel i <= n do m[i - 1] <- i; var x : int; x <- 5 / (i - 400); q[i - 1] <- x done", true},
		{"kernel i <= n do m[i - 1] <- i; var x : int; x <- r[i]; q[i - 1] <- x done", true},
		{"kernel i <= n do m[i - 1] <- i; var x : int; x <- r[i - 2]; q[i - 1] <- x done", true},
		{"kernel i <= n do m[n - i] <- i; q[n - i - 1] <- i done", true},
		{"kernel i <= n do var b : int; b <- i; m[i - 1] <- b done; m[0] <- b", true},
		// Not parallel: the plan cannot prove the writes disjoint (the
		// tracker finds the races of the last two), or the body
		// branches, allocates or loops.
		{"kernel i <= n do m[i - 1] <- i; var x : int; x <- q[i - 1 + (i == 701) * n]; q[i - 1] <- x done", false},
		{"kernel i <= n do m[i - 1] <- i; q[i - 1 - (i == 1000)] <- i done", false},
		{"kernel i <= n do m[0] <- i done", false},
		{"kernel i <= n do var c : int; c <- i - 500; if c then m[i - 1] <- i else q[i - 1] <- 5 / c fi done", true},
		{"kernel i <= n do var s : int; s <- 0; for j <= 3 do s <- s + j * i done; assert s != 6 * 800; m[i - 1] <- s done", true},
		{"kernel i <= n do reduce b <- 0 for j <= 2 do var y : int; y <- j yield y combine c, d do var e : int; e <- c + d yield e done; m[i - 1] <- b done", false},
		{"kernel i <= n do var r : mem; r <- alloc 1; m[i - 1] <- i done", false},
		// The inner kernel only, at each of the outer's iterations.
		{"kernel i <= 10 do kernel j <= 100 do m[i * 100 + j - 101] <- j done done", true},
	} {
		src := head + c.body + ";\nreturn m : [n], q : [n]\n"
		p, err := ParseFile("par.imp", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		args := map[string]string{"n": "1000"}
		seq, _ := runJobs(t, p, args, 1, 1, 0)
		par, k := runJobs(t, p, args, 4, 1, 0)
		agree(t, seq, par)
		if got := k > 0; got != c.parallel {
			t.Errorf("ran on goroutines: %v, want %v", got, c.parallel)
		}
		t.Logf("%s: %v", c.body, par.err)
		if t.Failed() {
			t.Fatalf("program:\n%s", src)
		}
	}
}

// TestParallelKernelThreshold: a kernel goes parallel from
// DefaultMinParallelWork on, and never with one job.
func TestParallelKernelThreshold(t *testing.T) {
	p, err := ParseFile("par.imp", "input n : int;\nvar m : mem;\nm <- alloc n;\nkernel i <= n do m[i - 1] <- i done;\nreturn m : [n]\n")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		n, jobs int
		want    bool
	}{{10, 4, false}, {1 << 20, 4, true}, {1 << 20, 1, false}} {
		_, k := runJobs(t, p, map[string]string{"n": fmt.Sprint(c.n)}, c.jobs, 0, 0)
		if got := k > 0; got != c.want {
			t.Errorf("n = %d, jobs = %d: parallel %v, want %v", c.n, c.jobs, got, c.want)
		}
	}
}

// TestParallelKernelBodies runs random kernels that the plans prove race
// free (each iteration writes m[i - 1] and q[i - 1] and reads the input
// and those words), with ifs, fors, asserts, reads out of the block now
// and then and divisions by zero, on 1 and on 4 goroutines, in one window
// or in windows of 3 iterations: the same results, errors, heaps and
// environments.
func TestParallelKernelBodies(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	pick := func(xs ...string) string { return xs[rng.IntN(len(xs))] }
	var sexp func(d int) string
	sexp = func(d int) string {
		if d == 0 || rng.IntN(3) == 0 {
			return pick("i", "a", "v", "w", "n", "0", "1", "3", "-2")
		}
		return "(" + sexp(d-1) + " " + pick("+", "-", "*", "/", "%", "<", "==") + " " + sexp(d-1) + ")"
	}
	var stmts func(d int) string
	stmts = func(d int) string {
		var parts []string
		for range 1 + rng.IntN(3) {
			switch k := rng.IntN(8); {
			case k < 2:
				parts = append(parts, pick("v", "w")+" <- "+sexp(2))
			case k < 3:
				parts = append(parts, pick("v", "w")+" <- xs_mem["+pick("i - 1", "n - i", "i", "i - 2", "v % n")+"]")
			case k < 4:
				parts = append(parts, pick("m", "q")+"[i - 1] <- "+sexp(2))
			case k < 5:
				parts = append(parts, "v <- "+pick("m", "q")+"[i - 1]")
			case k < 6:
				parts = append(parts, "assert "+sexp(1)+" != "+sexp(1))
			case k < 7 && d > 0:
				parts = append(parts, "var c : int; c <- "+sexp(1)+"; if c then "+stmts(d-1)+" else "+stmts(d-1)+" fi")
			case d > 0:
				parts = append(parts, "for j <= 2 do w <- w + j; "+stmts(d-1)+" done")
			default:
				parts = append(parts, "skip")
			}
		}
		return strings.Join(parts, "; ")
	}
	head := "input n : int;\ninput xs : [n] @ xs_mem;\nvar m : mem;\nm <- alloc n;\nvar q : mem;\nq <- alloc n;\nvar a : int;\na <- 7;\n"
	xs := make([]string, 40)
	for i := range xs {
		xs[i] = fmt.Sprint(i%7 - 2)
	}
	args := map[string]string{"n": "40", "xs": "[" + strings.Join(xs, " ") + "]"}
	parallel, failed := 0, 0
	for run := range 1500 {
		// Every other run in windows of 3 iterations a goroutine: errors
		// in a later window, after earlier ones have ended.
		window := []int64{0, 3}[run%2]
		src := head + "kernel i <= n do var v : int; var w : int; " + stmts(2) + " done;\nreturn a, m : [n], q : [n]\n"
		p, err := ParseFile("body.imp", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		ran, wrong := agreeJobs(t, p, args, src, window)
		parallel, failed = parallel+ran, failed+wrong
	}
	t.Logf("%d of 1500 kernels ran on goroutines, %d of them went wrong", parallel, failed)
	if parallel < 500 || failed < 100 || parallel-failed < 100 {
		t.Errorf("%d of 1500 kernels ran on goroutines, %d of them went wrong: too few to test both outcomes", parallel, failed)
	}
}

// TestKernelInterrupt: a long kernel notices Ctrl-C every
// semantics.PollMask+1 iterations, in order and on goroutines, and stops
// with the interrupt at the kernel (here interrupted as it starts, after
// its fuel is spent).
func TestKernelInterrupt(t *testing.T) {
	p, err := ParseFile("int.imp", "input n : int;\nvar m : mem;\nm <- alloc n;\nkernel i <= n do var x : int; x <- i * 2; m[i - 1] <- x done;\nreturn m : [n]\n")
	if err != nil {
		t.Fatal(err)
	}
	defer semantics.ResetInterrupt()
	for _, jobs := range []int{1, 4} {
		semantics.ResetInterrupt()
		env, h, err := BindInputs(p, map[string]string{"n": fmt.Sprint(4 * (semantics.PollMask + 1))})
		if err != nil {
			t.Fatal(err)
		}
		m, body := compile(p, env, h, &Options{Jobs: jobs, MinParallelWork: 1})
		started := 0
		m.onParallel = func() { started++; semantics.Interrupt() }
		m.onUntracked = func() {
			if jobs == 1 {
				started++
				semantics.Interrupt()
			}
		}
		err = m.run(body)
		var e *semantics.Error
		if started != 1 || !errors.As(err, &e) || e.Kind != semantics.InterruptError || e.Pos.Line != 4 {
			t.Errorf("jobs %d: kernels started %d, error %v; want the interrupt at the kernel (line 4)", jobs, started, err)
		}
	}
}
