package cuda_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/internal/planted"
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
	ps, err := harness.Examples(check.NewRegistry(), "..")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// generatedSeeds is how many programs of the FUN generator (seeds 1 to
// generatedSeeds, each in both layouts) TestExamplesOnClang adds to the
// examples: as many as keep the package's tests near a minute on two
// cores, the host build of the bundle being most of it (about a quarter
// of a second of clang++ per distinct program under the sanitizers).
// gpu-sim's property runs more programs, but only in the simulator.
const generatedSeeds = 100

func generated(t *testing.T, n int) []*harness.Program {
	t.Helper()
	ps, err := harness.Generated(check.NewRegistry(), 1, int64(n))
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// TestExamplesOnClang: every example that reaches IMP emits CUDA whose
// device code compiles to PTX, and whose host build, under the address
// and undefined-behaviour sanitizers, prints what the interpreter prints
// on every input of the example's test block, or exits as it goes wrong
// (status 1 stuck, 2 bad input); so do the programs of testdata/emit.txt
// and generatedSeeds programs of the FUN generator. Races are left to
// gpu-sim. To keep CI short the distinct files are compiled as bundles
// (harness.Bundle): all of them to PTX, and in two halves for the host
// (the sanitized host build is the slow one), the three compilations in
// parallel, through the clang cache (cachedBuild); TestStandalone builds
// single files exactly as a user does.
func TestExamplesOnClang(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("building every example with clang takes a minute; go test without -short runs it")
	}
	needClang(t)
	start := time.Now()
	ps := append(append(examples(t), goldenPrograms(t)...), generated(t, generatedSeeds)...)
	// Each distinct file goes to the half of the host build with fewer
	// bytes so far; bins[half] runs program index[file].
	var halves [2][]*harness.Program
	var all []*harness.Program
	var size [2]int
	half, index := map[string]int{}, map[string]int{}
	for _, p := range ps {
		if _, ok := index[p.CUDA]; ok {
			continue
		}
		h := 0
		if size[1] < size[0] {
			h = 1
		}
		half[p.CUDA], index[p.CUDA] = h, len(halves[h])
		halves[h] = append(halves[h], p)
		size[h] += len(p.CUDA)
		all = append(all, p)
	}
	dir, cache := t.TempDir(), clangCacheDir()
	var bins [2]string
	var errs [3]error
	var wg sync.WaitGroup
	wg.Add(3)
	go func() {
		defer wg.Done()
		_, errs[2] = cachedBuild(cache, cuda.PTXCommand, harness.Bundle(all), dir, "bundle_ptx", ".ptx")
	}()
	for h := range bins {
		go func(h int) {
			defer wg.Done()
			bins[h], errs[h] = cachedBuild(cache, cuda.HostCommand, harness.Bundle(halves[h]), dir, fmt.Sprint("bundle", h), "")
		}(h)
	}
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
				got := cuda.Exec(bins[half[j.p.CUDA]], args, time.Minute)
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
	t.Logf("%d programs (%d distinct files), %d inputs; built in %v, all in %v", len(ps), len(all), cases,
		built.Round(time.Millisecond), time.Since(start).Round(time.Millisecond))
}

// TestStandalone builds two emitted files one by one with exactly the
// commands a user runs, and runs them: a matrix product, and a program
// stuck on a division by zero, whose one line of error is the
// interpreter's, the source program's position and rule, in the built
// program and in gpu-sim alike.
func TestStandalone(t *testing.T) {
	t.Parallel()
	clangBuilds(t)
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
		prog, err := gpusim.Parse(name+".cu", p.CUDA)
		if err != nil {
			t.Fatal(err)
		}
		for _, args := range p.Cases {
			got := cuda.Exec(bin, harness.Args(args), time.Minute)
			want := harness.Interpret(p.Imp, args)
			if v, d := harness.Compare(want, got); v != "ok" {
				t.Errorf("%s %v: %s", p.Name, harness.Args(args), d)
			}
			if want.Status != 1 {
				continue
			}
			if got.Stderr != want.Err+"\n" {
				t.Errorf("%s %v: the built program says %q, the interpreter %q", p.Name, harness.Args(args), got.Stderr, want.Err)
			}
			if _, _, err := gpusim.Run(prog, harness.Args(args), gpusim.Options{}); err == nil || err.Error() != want.Err {
				t.Errorf("%s %v: gpu-sim says %v, the interpreter %q", p.Name, harness.Args(args), err, want.Err)
			}
		}
	}
	if n != len(want) {
		t.Fatalf("found %d of the %d examples", n, len(want))
	}
}

// TestHostBarrier builds gpu-sim's planted barrier program (every thread of a
// kernel waits at one __syncthreads) to PTX and for the host, where a block's
// threads are fibres meeting at a barrier: with blocks of 2 threads
// all of them reach it; with 256, the threads past the kernel's bound
// return first and no longer count, so the others pass. With the planted
// out-of-bounds write as well, AddressSanitizer reports the write inside
// the fibre, in the kernel.
func TestHostBarrier(t *testing.T) {
	t.Parallel()
	needClang(t)
	src, err := planted.Program("..", "barrier")
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
		got := cuda.ExecEnv(bin, []string{"n=4", "m=2"}, []string{"ARRAYSEM_BLOCK=" + block}, time.Minute)
		if got.Status != 0 || got.Stdout != want || got.Stderr != "" {
			t.Errorf("blocks of %s: status %d, %q, %s", block, got.Status, got.Stdout, got.Stderr)
		}
	}
	oob, err := os.ReadFile(filepath.Join("..", planted.Dir, "oob.txt"))
	if err != nil {
		t.Fatal(err)
	}
	bad, err := planted.Apply("oob.txt", src, string(oob))
	if err != nil {
		t.Fatal(err)
	}
	bin, err = cuda.Build(cuda.HostCommand, bad, dir, "barrier_oob", "")
	if err != nil {
		t.Fatal(err)
	}
	got := cuda.ExecEnv(bin, []string{"n=4", "m=2"}, []string{"ARRAYSEM_BLOCK=2"}, time.Minute)
	if got.Status == 0 || !strings.Contains(got.Stderr, "AddressSanitizer: heap-buffer-overflow") || !strings.Contains(got.Stderr, "in arraysem_kernel_1") {
		t.Errorf("an out-of-bounds write after a barrier: status %d, %q, %s", got.Status, got.Stdout, got.Stderr)
	}
}
