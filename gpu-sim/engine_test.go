package gpusim_test

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
)

// The compiled engine (compile.go, vm.go, shadow.go) against the tree
// walker it is checked with (Options.Engine "reference"): on every
// program, the same output, the same error (kind, position and message)
// and the same statistics (requests, sectors, cost counters).

// outcome is all a run tells: its output, its error and its statistics.
func outcome(prog *gpusim.Program, args []string, o gpusim.Options) string {
	o.Stats = true
	out, st, err := gpusim.Run(prog, args, o)
	var b strings.Builder
	b.WriteString(out)
	var se *gpusim.Error
	if errors.As(err, &se) {
		fmt.Fprintf(&b, "error (%s): %v\n", se.Kind, err)
	} else if err != nil {
		fmt.Fprintf(&b, "error: %v\n", err)
	}
	if st != nil {
		st.Print(&b)
	}
	return b.String()
}

// engines compares the two engines on one run; engine is the compiled
// engine's setting ("compiled" where every kernel must compile, "" where
// it may leave one to the tree walker).
func engines(prog *gpusim.Program, args []string, o gpusim.Options, engine string) string {
	o.Engine = "reference"
	want := outcome(prog, args, o)
	o.Engine = engine
	got := outcome(prog, args, o)
	if got != want {
		return fmt.Sprintf("%s %v %+v: the compiled engine\n%s\nthe tree walker\n%s", prog.Name, args, o, got, want)
	}
	return ""
}

var engineOptions = []gpusim.Options{
	{},
	{Block: 32, Schedule: gpusim.Schedule{Kind: "reverse"}},
	{Block: 2, Schedule: gpusim.Schedule{Kind: "random", Seed: 7}},
	{Block: 4, Schedule: gpusim.Schedule{Kind: "random", Seed: 3}, Fuel: 300},
	{Block: 3, Fuel: 2000},
}

// TestEnginesExamples: every example that reaches IMP, on its inputs,
// under schedules, block sizes and fuel that runs out inside kernels;
// every kernel the emitter produced compiles.
func TestEnginesExamples(t *testing.T) {
	for _, p := range examples(t) {
		prog, err := gpusim.Parse(p.Name+".cu", p.CUDA)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		for _, args := range p.Cases {
			for _, o := range engineOptions {
				if d := engines(prog, argList(args), o, "compiled"); d != "" {
					t.Error(d)
				}
			}
		}
	}
}

func argList(m map[string]string) []string {
	var out []string
	for k, v := range m {
		out = append(out, k+"="+v)
	}
	slices.Sort(out)
	return out
}

// TestEnginesPlanted: the planted bugs, and the fold of TestFoldBarriers
// with each of its barriers cut, are found alike.
func TestEnginesPlanted(t *testing.T) {
	planted := plantedAll(t)
	for name, src := range planted {
		prog, err := gpusim.Parse(name+".cu", src)
		if err != nil {
			continue
		}
		for _, o := range engineOptions {
			if d := engines(prog, []string{"n=4", "m=2"}, o, "compiled"); d != "" {
				t.Error(d)
			}
		}
	}
	src := emitFold(t)
	lines := strings.SplitAfter(src, "\n")
	for i, l := range lines {
		if strings.TrimSpace(l) != "__syncthreads();" {
			continue
		}
		prog, err := gpusim.Parse("cut.cu", strings.Join(lines[:i], "")+strings.Join(lines[i+1:], ""))
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range engineOptions {
			if d := engines(prog, []string{"n=30"}, o, "compiled"); d != "" {
				t.Error(d)
			}
		}
	}
}

// TestEnginesMutated: mutations of the planted programs (those of
// TestMutatedFiles), run under fuel, give the same outcome in both
// engines, the compiled one leaving to the walker what it cannot compile.
func TestEnginesMutated(t *testing.T) {
	planted := plantedAll(t)
	var names []string
	for n := range planted {
		names = append(names, n)
	}
	slices.Sort(names)
	r := rand.New(rand.NewSource(2))
	n := 300
	if testing.Short() {
		n = 60
	}
	for k := 0; k < n; k++ {
		src := []byte(planted[names[r.Intn(len(names))]])
		for m := 0; m < 1+r.Intn(3); m++ {
			i := len(src) - 1 - r.Intn(3000)
			switch r.Intn(3) {
			case 0:
				src = append(src[:i], src[i+1:]...)
			case 1:
				src[i] = "0123456789(){};=-+*&!<>abc \n"[r.Intn(28)]
			case 2:
				j := len(src) - 1 - r.Intn(3000)
				src[i] = src[j]
			}
		}
		prog, err := gpusim.Parse("fuzz.cu", string(src))
		if err != nil {
			continue
		}
		o := gpusim.Options{Block: 4, Fuel: 100000, MaxElems: 1 << 16}
		if d := engines(prog, []string{"n=3", "m=2"}, o, ""); d != "" {
			t.Errorf("mutant %d: %s", k, d)
		}
	}
}

// propEngines: a generated FUN program, compiled to CUDA in both layouts,
// runs alike in the two engines (blocks of 4 and 32, shuffled).
func propEngines(c *proofstests.Case) string {
	l, err := check.Load("gen.fun", c.Source(), check.Options{})
	if err != nil {
		return fmt.Sprintf("the generated program does not load: %v", err)
	}
	var args []string
	for _, in := range c.Inputs {
		args = append(args, in.Name+"="+in.Value.String())
	}
	slices.Sort(args)
	for _, name := range []string{"gpu", "cpu"} {
		st, err := check.Compile(l, "imp", lang.CompileOptions{Expand: true, Layout: name})
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
			return fmt.Sprintf("--layout %s: %v", name, err)
		}
		for _, o := range []gpusim.Options{
			{Block: 4, Schedule: gpusim.Schedule{Kind: "random", Seed: c.Seed}},
			{Block: 32, Fuel: 1 + c.Seed%5000},
		} {
			if d := engines(prog, args, o, "compiled"); d != "" {
				return "--layout " + name + ": " + d
			}
		}
	}
	return ""
}

func TestEnginesRandomFunPrograms(t *testing.T) {
	params := gopter.DefaultTestParametersWithSeed(*flagSeed)
	params.MinSuccessfulTests = *flagN
	if testing.Short() && !flagSet("n") {
		params.MinSuccessfulTests = *flagN / 4
	}
	params.MinSize, params.MaxSize = 0, proofstests.MaxGenSize
	props := gopter.NewProperties(params)
	props.Property("gpu-sim's compiled engine = its tree walker", prop.ForAll(propEngines, genCase))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Errorf("property failed (seed %d):\n%s", *flagSeed, out.String())
	}
}
