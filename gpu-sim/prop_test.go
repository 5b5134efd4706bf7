package gpusim_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
)

var (
	flagN    = flag.Int("n", 200, "generated FUN programs (the CI count; raise it for a campaign)")
	flagSeed = flag.Int64("seed", 1, "seed of the property run")
)

// propSim: a generated FUN program, compiled to IMP in both layouts of
// MemoryExpand and emitted as CUDA, runs in gpu-sim (blocks of 4 threads,
// a shuffled schedule) to the IMP interpreter's verdict on the same
// inputs: the same lines, the same failure, or a race where the
// interpreter finds one.
func propSim(c *proofstests.Case) string {
	l, err := check.Load(check.NewRegistry(), "gen.fun", c.Source(), check.Options{})
	if err != nil {
		return fmt.Sprintf("the generated program does not load: %v", err)
	}
	args := map[string]string{}
	for _, in := range c.Inputs {
		args[in.Name] = in.Value.String()
	}
	for _, name := range []string{"gpu", "cpu"} {
		st, err := check.NewRegistry().Compile(l, "imp", lang.Options{}.With("expand").WithString("layout", name))
		if err != nil {
			return fmt.Sprintf("--layout %s: %v", name, err)
		}
		p := st[len(st)-1].Program.Syntax().(*imp.Program)
		f, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			return fmt.Sprintf("--layout %s: cuda.Emit: %v", name, err)
		}
		prog, err := gpusim.Parse("gen.cu", f.String())
		if err != nil {
			return fmt.Sprintf("--layout %s: gpu-sim cannot parse the emitted file: %v", name, err)
		}
		want := harness.Interpret(p, args)
		out, _, err := gpusim.Run(prog, harness.Args(args), gpusim.Options{Block: 4, Schedule: gpusim.Schedule{Kind: "random", Seed: c.Seed}})
		var se *gpusim.Error
		switch {
		case want.Race:
			if !errors.As(err, &se) || se.Kind != "race" {
				return fmt.Sprintf("--layout %s: the interpreter finds a race (%s); gpu-sim: %q, %v", name, want.Err, out, err)
			}
		case want.Status != 0:
			if !errors.As(err, &se) || se.ExitStatus() != want.Status {
				return fmt.Sprintf("--layout %s: the interpreter: %s; gpu-sim: %q, %v", name, want.Err, out, err)
			}
		case err != nil || out != strings.Join(want.Lines, "\n")+"\n":
			return fmt.Sprintf("--layout %s: the interpreter: %q; gpu-sim: %q, %v", name, want.Lines, out, err)
		}
	}
	return ""
}

func TestRandomFunPrograms(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(*flagSeed)
	params.MinSuccessfulTests = *flagN
	if testing.Short() && !flagSet("n") {
		params.MinSuccessfulTests = *flagN / 4
	}
	params.MinSize, params.MaxSize = 0, proofstests.MaxGenSize
	props := gopter.NewProperties(params)
	props.Property("FUN → IMP → CUDA → gpu-sim = IMP interpreter", prop.ForAll(propSim, genCase))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Errorf("property failed (seed %d):\n%s", *flagSeed, out.String())
		return
	}
	t.Log(strings.TrimSpace(out.String()))
}

// genCase draws a random well-typed FUN program (proofstests.Generate)
// from gopter's source and size, shrinking with proofstests.Shrinks.
func genCase(params *gopter.GenParameters) *gopter.GenResult {
	seed := params.Rng.Int63()
	c := proofstests.Generate(rand.New(rand.NewSource(seed)), params.MaxSize, proofstests.CUDAGenConfig)
	c.Seed = seed
	return gopter.NewGenResult(c, func(v interface{}) gopter.Shrink {
		next := proofstests.Shrinks(v.(*proofstests.Case))
		return func() (interface{}, bool) { return next() }
	})
}

// flagSet reports whether a test flag was given on the command line.
func flagSet(name string) bool {
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}
