package remoraprops

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand"
	"runtime/debug"
	"strings"
	"testing"

	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

// The flags and parameters of proofs-tests' fun_test.go, the same in this
// test binary, so that a seed and a count mean the same cases in both.
var (
	flagN       = flag.Int("n", 3000, "generated programs per FUN property; the Remora properties run -n/10 (the CI count; raise it for a campaign)")
	flagSeed    = flag.Int64("seed", 1, "seed of the property runs (each property adds its own offset)")
	flagWorkers = flag.Int("workers", 1, "gopter workers per property (more than 1: faster campaigns, runs no longer reproducible by -seed; each case still prints its own seed)")
)

// shortN is -n in a -short run that does not give it (proofs-tests'
// shortN).
const shortN = 300

// caseCount is -n, or shortN in a -short run that does not give -n.
func caseCount() int {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "n" })
	if testing.Short() && !given {
		return min(*flagN, shortN)
	}
	return *flagN
}

// remoraCount is the Remora properties' count of cases.
func remoraCount() int { return max(1, caseCount()/proofstests.RemoraDivisor) }

// params are the gopter parameters of a property: a fixed seed (the
// -seed flag plus the property's offset), n tests, sizes ramping from 0
// to MaxGenSize, -workers workers (1 by default, so runs are reproducible).
func params(offset int64, n int) *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(*flagSeed + offset)
	p.MinSuccessfulTests = n
	p.MinSize, p.MaxSize = 0, proofstests.MaxGenSize
	p.MaxShrinkCount = 400
	p.Workers = max(1, *flagWorkers)
	return p
}

// theorem is the registered theorem named name (theorems.go), which
// arraysem prove runs too.
func theorem(t *testing.T, name string) proofstests.Theorem {
	t.Helper()
	th, ok := proofstests.TheoremNamed(name)
	if !ok || th.Remora == nil {
		t.Fatalf("no Remora theorem %q in proofstests.Theorems", name)
	}
	return th
}

// checkRemora runs a property over remoraCount() generated Remora
// programs (GenRemoraCase), with its gopter seed offset.
func checkRemora(t *testing.T, offset int64, name string, cfg proofstests.RemoraGenConfig, property func(c *proofstests.RemoraCase) string) {
	t.Helper()
	check(t, params(offset, remoraCount()), name, GenRemoraCase(cfg), property)
}

// check runs a property over the cases gen makes; a panic is the
// property's failure.
func check(t *testing.T, ps *gopter.TestParameters, name string, gen gopter.Gen, property func(c *proofstests.RemoraCase) string) {
	t.Helper()
	props := gopter.NewProperties(ps)
	props.Property(name, prop.ForAll(func(c *proofstests.RemoraCase) (msg string) {
		defer func() {
			if r := recover(); r != nil {
				msg = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
			}
		}()
		return property(c) // gopter prints the program (ARG_0) after the message
	}, gen))
	var out bytes.Buffer
	if !props.Run(gopter.NewFormatedReporter(true, 1<<20, &out)) {
		t.Errorf("property %q failed (seed %d, rerun with -args -seed %d):\n%s", name, ps.Seed(), *flagSeed, out.String())
		return
	}
	t.Log(strings.TrimSpace(out.String()))
}

// GenRemoraCase is the gopter generator: a seed from gopter's source and
// gopter's size drive GenerateRemora. Cases do not shrink (the seed and
// size printed with a case regenerate it).
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
