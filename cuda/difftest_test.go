package cuda_test

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
)

// The differential harness of the package's tests: emitted programs run
// in gpu-sim, and built with clang and run on the host, against the IMP
// interpreter.

// impProgram is an IMP program's source, named, with the inputs to run it on.
type impProgram struct {
	name, src string
	cases     []map[string]string
}

// foldProgram parses, checks and emits an IMP program.
func foldProgram(t *testing.T, name, src string) *harness.Program {
	t.Helper()
	p, err := imp.ParseFile(name+".imp", src)
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
	return &harness.Program{Name: name, Imp: p, CUDA: f.String()}
}

// impPrograms are foldProgram's programs of ips, with their inputs.
func impPrograms(t *testing.T, ips []impProgram) []*harness.Program {
	t.Helper()
	var ps []*harness.Program
	for _, ip := range ips {
		p := foldProgram(t, ip.name, ip.src)
		p.Cases = ip.cases
		ps = append(ps, p)
	}
	return ps
}

// simAgrees runs an emitted program in gpu-sim and compares with the
// interpreter's verdict: the same lines, or the same exit status.
func simAgrees(prog *gpusim.Program, want harness.Expect, args map[string]string, opts gpusim.Options) error {
	out, _, err := gpusim.Run(prog, harness.Args(args), opts)
	var se *gpusim.Error
	switch {
	case want.Status != 0:
		if !errors.As(err, &se) || se.ExitStatus() != want.Status {
			return fmt.Errorf("the interpreter: %s; gpu-sim: %q, %v", want.Err, out, err)
		}
	case err != nil || out != strings.Join(want.Lines, "\n")+"\n":
		return fmt.Errorf("the interpreter: %q; gpu-sim: %q, %v", want.Lines, out, err)
	}
	return nil
}

// simRuns says how agreeInSim runs programs in gpu-sim: with blocks of
// each of blocks threads, the k-th block size under the k-th of three
// schedules (in-order, reverse, random with seed), cyclically.
type simRuns struct {
	blocks []int
	seed   int64
	// file is the name gpu-sim parses each program under; "" is the
	// program's name with .cu.
	file string
	// succeed makes an input the interpreter fails on a fatal error of
	// the test: the programs are meant to run to their results.
	succeed bool
}

// agreeInSim runs every input of every program in gpu-sim as r says and
// compares with the interpreter.
func agreeInSim(t *testing.T, ps []*harness.Program, r simRuns) {
	t.Helper()
	schedules := []gpusim.Schedule{{Kind: "in-order"}, {Kind: "reverse"}, {Kind: "random", Seed: r.seed}}
	for _, p := range ps {
		file := r.file
		if file == "" {
			file = p.Name + ".cu"
		}
		prog, err := gpusim.Parse(file, p.CUDA)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		for _, args := range p.Cases {
			want := harness.Interpret(p.Imp, args)
			if r.succeed && want.Status != 0 {
				t.Fatalf("%s %v: the interpreter fails: %s", p.Name, harness.Args(args), want.Err)
			}
			for k, block := range r.blocks {
				if err := simAgrees(prog, want, args, gpusim.Options{Block: block, Schedule: schedules[k%len(schedules)]}); err != nil {
					t.Errorf("%s %v, blocks of %d: %v", p.Name, harness.Args(args), block, err)
				}
			}
		}
	}
}

// clangBuilds skips a test that builds with clang under -short, or when
// clang-14 is not installed (needClang).
func clangBuilds(t *testing.T) {
	t.Helper()
	if testing.Short() {
		t.Skip("clang builds; go test without -short runs them")
	}
	needClang(t)
}

// clangRuns says how agreeOnClang runs a bundle on the host: with
// ARRAYSEM_BLOCK set to each of blocks; skipping the inputs the
// interpreter finds a race on (gpu-sim's to find) when skipRaces; and
// calling also, when set, on each input's verdicts for checks beyond
// harness.Compare's.
type clangRuns struct {
	blocks    []string
	skipRaces bool
	also      func(t *testing.T, p *harness.Program, args map[string]string, want harness.Expect, got cuda.Outcome)
}

// agreeOnClang builds ps as one bundle (harness.Bundle) named name to PTX
// and, under the sanitizers, for the host (through the clang cache,
// cachedBuild), and runs every input of every program as r says,
// comparing with the interpreter.
func agreeOnClang(t *testing.T, name string, ps []*harness.Program, r clangRuns) {
	t.Helper()
	dir, cache, bundle := t.TempDir(), clangCacheDir(), harness.Bundle(ps)
	if _, err := cachedBuild(cache, cuda.PTXCommand, bundle, dir, name, ".ptx"); err != nil {
		t.Fatal(err)
	}
	bin, err := cachedBuild(cache, cuda.HostCommand, bundle, dir, name, "")
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range ps {
		for _, args := range p.Cases {
			// The interpreter's verdict does not depend on the block size.
			want := harness.Interpret(p.Imp, args)
			if r.skipRaces && want.Race {
				continue
			}
			for _, block := range r.blocks {
				got := cuda.ExecEnv(bin, append([]string{strconv.Itoa(i)}, harness.Args(args)...), []string{"ARRAYSEM_BLOCK=" + block}, time.Minute)
				if v, d := harness.Compare(want, got); v != "ok" {
					t.Errorf("%s %v, blocks of %s: %s", p.Name, harness.Args(args), block, d)
				}
				if r.also != nil {
					r.also(t, p, args, want, got)
				}
			}
		}
	}
}
