package tofun_test

import (
	"errors"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/ir"
	"github.com/arraysem/arraysem/remora/tofun"
	"github.com/arraysem/arraysem/semantics"
)

// compilePath runs the compile path down to FUN on a checked program:
// Explicitize, Inline, Simplify (unless raw), each output checked again,
// then Lower. An error of a stage before Lower is returned with
// before set.
func compilePath(p *remora.Program, raw bool) (prog *fun.Program, irp *remora.Program, before bool, err error) {
	q, err := ir.Explicitize(p)
	if err != nil {
		return nil, nil, true, err
	}
	if _, err := remora.Check(q, nil); err != nil {
		return nil, nil, true, fmt.Errorf("Explicitize's output does not check: %v", err)
	}
	if q, err = ir.Inline(q); err != nil {
		return nil, nil, true, err
	}
	if _, err := remora.Check(q, nil); err != nil {
		return nil, nil, true, fmt.Errorf("Inline's output does not check: %v", err)
	}
	if !raw {
		q = ir.Simplify(q)
		if _, err := remora.Check(q, nil); err != nil {
			return nil, nil, true, fmt.Errorf("Simplify's output does not check: %v", err)
		}
	}
	prog, err = tofun.Lower(q)
	return prog, q, false, err
}

// agree runs a lowered program (big-step) and remora's evaluator on the
// source program: the same lines, or both going wrong.
func agree(p *remora.Program, prog *fun.Program) error {
	if _, err := fun.Check(prog, nil); err != nil {
		return fmt.Errorf("FUN's checker refuses the lowered program: %v\n%s", err, fun.Print(prog))
	}
	vals, _, ferr := fun.Eval(prog, nil, nil)
	vs, rerr := remora.Eval(p, nil)
	switch {
	case ferr != nil && rerr != nil:
		return nil
	case ferr != nil || rerr != nil:
		return fmt.Errorf("FUN: %v; remora: %v\n%s", ferr, rerr, fun.Print(prog))
	}
	got, err := tofun.Decode(p.Types, vals)
	if err != nil {
		return fmt.Errorf("%v\n%s", err, fun.Print(prog))
	}
	if want := remora.ValueLines(vs); strings.Join(got, "\n") != strings.Join(want, "\n") {
		return fmt.Errorf("FUN gave %q, remora %q\n%s", got, want, fun.Print(prog))
	}
	return nil
}

// isRefusal reports whether err is Lower's refusal (not a bug of its own).
func isRefusal(err error) bool {
	var se *semantics.Error
	return errors.As(err, &se) && se.Rule == tofun.Rule && !strings.HasPrefix(se.Msg, tofun.InternalError)
}

// expectedRefusal is what the examples may be refused for: by Inline, an
// array of distinct functions (MIMD) or a function as a result; by Lower,
// what FUN has no value for (doc.go).
var expectedRefusal = regexp.MustCompile(`Inline: array of distinct functions|Inline: the result is a function|Lower: cannot compile (the box .* to FUN: a Shape witness|the primitive (expt|tan|arcsin|arccos|arctan) to FUN)`)

// TestCompilePathExamples runs every example of examples/remora that
// checks through Explicitize, Inline and Simplify (or not) into Lower: the
// lowered program computes what remora's evaluator computes, or it is
// refused for one of the reasons of expectedRefusal.
func TestCompilePathExamples(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "examples", "remora", "*.remora"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	lowered := 0
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range []bool{true, false} {
			p, _, err := remora.ParseFile(f, string(src))
			if err != nil {
				continue
			}
			if _, err := remora.Check(p, nil); err != nil {
				continue // an example of a type error
			}
			prog, irp, before, err := compilePath(p, raw)
			switch {
			case before && expectedRefusal.MatchString(err.Error()):
				t.Logf("%s: not compiled before Lower: %v", filepath.Base(f), err)
				continue
			case isRefusal(err) && expectedRefusal.MatchString(err.Error()):
				t.Logf("%s: Lower refuses: %v", filepath.Base(f), err)
				continue
			case err != nil:
				t.Errorf("%s: %v", filepath.Base(f), err)
				continue
			}
			lowered++
			if err := agree(p, prog); err != nil {
				t.Errorf("%s (raw %v): %v\nIR:\n%s", filepath.Base(f), raw, err, remora.Language.Print(irp))
			}
		}
	}
	t.Logf("%d compilations lowered", lowered)
}

// TestCompilePathRandom is TestCompilePathExamples on the property
// tests' random programs, definitions included.
func TestCompilePathRandom(t *testing.T) {
	n := 1000
	if testing.Short() {
		n = 200
	}
	lowered := 0
	for seed := int64(0); seed < int64(n); seed++ {
		src := proofstests.GenerateRemora(rand.New(rand.NewSource(seed)), int(seed%10), proofstests.DefaultRemoraGenConfig)
		p, _, err := remora.ParseFile("gen.remora", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := remora.Check(p, nil); err != nil {
			t.Fatal(err)
		}
		prog, irp, before, err := compilePath(p, seed%2 == 0)
		switch {
		case before, isRefusal(err):
			continue
		case err != nil:
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		lowered++
		if err := agree(p, prog); err != nil {
			t.Fatalf("seed %d: %v\n%s\nIR:\n%s", seed, err, src, remora.Language.Print(irp))
		}
	}
	t.Logf("%d of %d random programs compiled and agreed", lowered, n)
}
