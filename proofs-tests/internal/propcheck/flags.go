package propcheck

import (
	"flag"
	"testing"

	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/leanovate/gopter"
)

// The flags of proofs-tests' fun_test.go, registered in every test binary
// that imports this package.
var (
	flagN       = flag.Int("n", 3000, "generated programs per property (the CI count; raise it for a campaign)")
	flagSeed    = flag.Int64("seed", 1, "seed of the property runs (each property adds its own offset)")
	flagWorkers = flag.Int("workers", 1, "gopter workers per property (more than 1: faster campaigns, runs no longer reproducible by -seed; each case still prints its own seed)")
)

// shortN is the count of a -short run that does not give -n (proofs-tests'
// shortN).
const shortN = 300

// Seed is the -seed flag.
func Seed() int64 { return *flagSeed }

// CaseCount is the number of generated programs per property: -n, or
// shortN in a -short run that does not give -n.
func CaseCount() int {
	given := false
	flag.Visit(func(f *flag.Flag) { given = given || f.Name == "n" })
	if testing.Short() && !given {
		return min(*flagN, shortN)
	}
	return *flagN
}

// Params are the gopter parameters of a property: a fixed seed (the
// -seed flag plus the property's offset), n tests, sizes ramping from 0
// to MaxGenSize, -workers workers (1 by default, so runs are reproducible).
func Params(offset int64, n int) *gopter.TestParameters {
	p := gopter.DefaultTestParametersWithSeed(*flagSeed + offset)
	p.MinSuccessfulTests = n
	p.MinSize, p.MaxSize = 0, proofstests.MaxGenSize
	p.MaxShrinkCount = 400
	p.Workers = max(1, *flagWorkers)
	return p
}
