package cuda_test

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
)

// needClang skips a test when clang-14 is not installed, except in CI (the
// CI variable set), where the toolchain is part of the contract.
func needClang(t *testing.T) {
	t.Helper()
	for _, c := range []string{"clang-14", "clang++-14"} {
		if _, err := exec.LookPath(c); err != nil {
			if os.Getenv("CI") != "" {
				t.Fatalf("%s is not on PATH, and CI is set (.ci/run installs it)", c)
			}
			t.Skipf("%s is not on PATH", c)
		}
	}
}

func examples(t *testing.T) []*harness.Program {
	t.Helper()
	ps, err := harness.Examples("..")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// generated is n programs of the FUN generator of proofs-tests (seeds 1 to
// n, sizes growing), each compiled to IMP in both layouts, with the inputs
// they were generated with.
func generated(t *testing.T, n int) []*harness.Program {
	t.Helper()
	var out []*harness.Program
	for seed := int64(1); seed <= int64(n); seed++ {
		c := proofstests.Generate(rand.New(rand.NewSource(seed)), int(seed)%proofstests.MaxGenSize, proofstests.DefaultGenConfig)
		l, err := check.Load("gen.fun", c.Source(), check.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		args := map[string]string{}
		for _, in := range c.Inputs {
			args[in.Name] = in.Value.String()
		}
		for _, lay := range []string{"gpu", "cpu"} {
			st, err := check.Compile(l, "imp", lang.CompileOptions{Expand: true, Layout: lay})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			p := st[len(st)-1].Program.Syntax().(*imp.Program)
			f, err := cuda.Emit(p, cuda.Options{})
			if err != nil {
				t.Fatalf("seed %d: %v", seed, err)
			}
			out = append(out, &harness.Program{Name: fmt.Sprintf("generated seed %d (--layout %s)", seed, lay),
				Imp: p, CUDA: f.String(), Cases: []map[string]string{args}})
		}
	}
	return out
}

// TestExamplesOnClang: every example that reaches IMP emits CUDA whose
// device code compiles to PTX, and whose host build, under the address
// and undefined-behaviour sanitizers, prints what the interpreter prints
// on every input of the example's test block, or exits as it goes wrong
// (status 1 stuck, 2 bad input); so do the programs of testdata/emit.txt and 24 of the FUN generator. Races are left to gpu-sim. To keep CI
// short the distinct files are compiled as one bundle (harness.Bundle) by
// each of the two commands, in parallel; TestStandalone builds single
// files exactly as a user does.
func TestExamplesOnClang(t *testing.T) {
	if testing.Short() {
		t.Skip("building every example with clang takes a minute; go test without -short runs it")
	}
	needClang(t)
	start := time.Now()
	ps := append(append(examples(t), goldenPrograms(t)...), generated(t, 24)...)
	var distinct []*harness.Program
	index := map[string]int{}
	for _, p := range ps {
		if _, ok := index[p.CUDA]; !ok {
			index[p.CUDA] = len(distinct)
			distinct = append(distinct, p)
		}
	}
	dir := t.TempDir()
	src := harness.Bundle(distinct)
	var bin string
	var errs [2]error
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); _, errs[0] = cuda.Build(cuda.PTXCommand, src, dir, "bundle_ptx", ".ptx") }()
	go func() { defer wg.Done(); bin, errs[1] = cuda.Build(cuda.HostCommand, src, dir, "bundle", "") }()
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	built := time.Since(start)
	type job struct {
		p    *harness.Program
		args map[string]string
	}
	jobs := make(chan job)
	var mu sync.Mutex
	cases := 0
	for w := 0; w < 2; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range jobs {
				want := harness.Interpret(j.p.Imp, j.args)
				if want.Race {
					continue
				}
				args := append([]string{strconv.Itoa(index[j.p.CUDA])}, harness.Args(j.args)...)
				got := cuda.Exec(bin, args, time.Minute)
				if v, d := harness.Compare(want, got); v != "ok" {
					t.Errorf("%s %v: %s", j.p.Name, harness.Args(j.args), d)
				}
				mu.Lock()
				cases++
				mu.Unlock()
			}
		}()
	}
	for _, p := range ps {
		for _, args := range p.Cases {
			jobs <- job{p, args}
		}
	}
	close(jobs)
	wg.Wait()
	t.Logf("%d programs (%d distinct files), %d inputs; built in %v, all in %v", len(ps), len(distinct), cases,
		built.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// TestStandalone builds two emitted files one by one with exactly the
// commands a user runs, and runs them: a matrix product, and a program
// stuck on a division by zero.
func TestStandalone(t *testing.T) {
	if testing.Short() {
		t.Skip("clang builds; go test without -short runs them")
	}
	needClang(t)
	ps := examples(t)
	dir := t.TempDir()
	want := map[string]bool{"matmul_expand_gpu.imp": true, "stuck_div.imp": true}
	n := 0
	for i, p := range ps {
		if !want[filepath.Base(p.Name)] {
			continue
		}
		n++
		name := "standalone" + strconv.Itoa(i)
		if _, err := cuda.Build(cuda.PTXCommand, p.CUDA, dir, name, ".ptx"); err != nil {
			t.Fatal(err)
		}
		bin, err := cuda.Build(cuda.HostCommand, p.CUDA, dir, name, "")
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range p.Cases {
			got := cuda.Exec(bin, harness.Args(args), time.Minute)
			if v, d := harness.Compare(harness.Interpret(p.Imp, args), got); v != "ok" {
				t.Errorf("%s %v: %s", p.Name, harness.Args(args), d)
			}
		}
	}
	if n != len(want) {
		t.Fatalf("found %d of the %d examples", n, len(want))
	}
}

// TestHostBarrier builds gpu-sim's planted barrier.cu (every thread of a
// kernel waits at one __syncthreads) to PTX and for the host, where a block's
// threads are OS threads meeting at a barrier: with blocks of 2 threads
// all of them reach it; with 256, the threads past the kernel's bound
// return first and no longer count, so the others pass.
func TestHostBarrier(t *testing.T) {
	needClang(t)
	src, err := os.ReadFile(filepath.Join("..", "gpu-sim", "testdata", "barrier.cu"))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := cuda.Build(cuda.PTXCommand, string(src), dir, "barrier", ".ptx"); err != nil {
		t.Fatal(err)
	}
	bin, err := cuda.Build(cuda.HostCommand, string(src), dir, "barrier", "")
	if err != nil {
		t.Fatal(err)
	}
	want := "[1 4 9 16]\n[[1 2] [2 4] [3 6] [4 8]]\n[7 7]\n"
	for _, block := range []string{"2", "256"} {
		t.Setenv("ARRAYSEM_BLOCK", block)
		got := cuda.Exec(bin, []string{"n=4", "m=2"}, time.Minute)
		if got.Status != 0 || got.Stdout != want || got.Stderr != "" {
			t.Errorf("blocks of %s: status %d, %q, %s", block, got.Status, got.Stdout, got.Stderr)
		}
	}
}
