package propcheck

import (
	"bytes"
	"math/rand"
	"strings"
	"testing"

	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// Check runs a property over the cases gen makes, with the parameters ps
// (Params). The property returns "" when it holds, or what went wrong;
// gopter then shrinks the case (where gen's cases shrink) and the report
// shows the message and the case.
func Check[C any](t *testing.T, ps *gopter.TestParameters, name string, gen gopter.Gen, property func(c C) string) {
	t.Helper()
	props := gopter.NewProperties(ps)
	props.Property(name, prop.ForAll(property, gen))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Errorf("property %q failed (seed %d, rerun with -args -seed %d):\n%s", name, ps.Seed(), *flagSeed, out.String())
		return
	}
	t.Log(strings.TrimSpace(out.String()))
}

// Theorem is the registered theorem named name (proofstests.Theorems),
// which arraysem prove runs too.
func Theorem(t *testing.T, name string) proofstests.Theorem {
	t.Helper()
	th, ok := proofstests.TheoremNamed(name)
	if !ok {
		t.Fatalf("no theorem %q in proofstests.Theorems", name)
	}
	return th
}

// GenCase is proofs-tests' gopter generator of FUN cases: each case is
// built from a seed drawn from gopter's random source and from gopter's
// size parameter; its shrinker is ShrinkCase.
func GenCase(cfg proofstests.GenConfig) gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		seed := params.Rng.Int63()
		c := proofstests.Generate(rand.New(rand.NewSource(seed)), params.MaxSize, cfg)
		c.Seed = seed
		return gopter.NewGenResult(c, ShrinkCase)
	}
}

// ShrinkCase is the gopter.Shrinker of *Case (proofstests.Shrinks).
func ShrinkCase(v interface{}) gopter.Shrink {
	next := proofstests.Shrinks(v.(*proofstests.Case))
	return func() (interface{}, bool) { return next() }
}

// GenRemoraCase is the gopter generator of Remora cases: a seed from
// gopter's source and gopter's size drive GenerateRemora. Cases do not
// shrink (the seed and size printed with a case regenerate it).
func GenRemoraCase(cfg proofstests.RemoraGenConfig) gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		seed := params.Rng.Int63()
		src := proofstests.GenerateRemora(rand.New(rand.NewSource(seed)), params.MaxSize, cfg)
		return gopter.NewGenResult(&proofstests.RemoraCase{Seed: seed, Size: params.MaxSize, Src: src}, gopter.NoShrinker)
	}
}

// GenDialectCase generates numeric programs of the dynamic dialect
// (GenerateDialect).
func GenDialectCase() gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		seed := params.Rng.Int63()
		src := proofstests.GenerateDialect(rand.New(rand.NewSource(seed)), params.MaxSize)
		return gopter.NewGenResult(&proofstests.RemoraCase{Seed: seed, Size: params.MaxSize, Src: src}, gopter.NoShrinker)
	}
}
