package gpusim_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda/harness"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
)

func examples(t *testing.T) []*harness.Program {
	t.Helper()
	ps, err := harness.Examples(check.NewRegistry(), "..")
	if err != nil {
		t.Fatal(err)
	}
	return ps
}

// simulate runs a program's CUDA in gpu-sim and judges it against the
// interpreter: the same lines, the same failure, a race where the
// interpreter finds one.
func simulate(t *testing.T, name string, p *harness.Program, args map[string]string, opts gpusim.Options) {
	t.Helper()
	prog, err := gpusim.Parse(name+".cu", p.CUDA)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	want := harness.Interpret(p.Imp, args)
	out, _, err := gpusim.Run(prog, harness.Args(args), opts)
	var se *gpusim.Error
	switch {
	case want.Race:
		if !errors.As(err, &se) || se.Kind != "race" {
			t.Errorf("%s %v: the interpreter finds a race (%s); gpu-sim: %v", name, harness.Args(args), want.Err, err)
		}
	case want.Status != 0:
		if !errors.As(err, &se) || se.ExitStatus() != want.Status {
			t.Errorf("%s %v: the interpreter: %s; gpu-sim: %q, %v", name, harness.Args(args), want.Err, out, err)
		}
	default:
		if err != nil || out != strings.Join(want.Lines, "\n")+"\n" {
			t.Errorf("%s %v: the interpreter: %q; gpu-sim: %q, %v", name, harness.Args(args), want.Lines, out, err)
		}
	}
}

// TestExamples: every example that reaches IMP runs in gpu-sim to the
// interpreter's value, under three schedules and two block sizes (a
// block of 32 puts the threads of a small kernel in several blocks).
func TestExamples(t *testing.T) {
	for _, p := range examples(t) {
		for _, args := range p.Cases {
			for _, o := range []gpusim.Options{{}, {Block: 32, Schedule: gpusim.Schedule{Kind: "reverse"}}, {Block: 2, Schedule: gpusim.Schedule{Kind: "random", Seed: 7}}} {
				simulate(t, p.Name, p, args, o)
			}
		}
	}
}
