package proofstests

import (
	"math/rand"

	"github.com/leanovate/gopter"
)

// The gopter generators live in a test file, so that the arraysem command,
// which runs campaigns through Prove, links neither gopter nor testing.

// GenCase is the gopter generator of cases. Each case is built from a seed
// drawn from gopter's random source and from gopter's size parameter; its
// shrinker is ShrinkCase.
func GenCase(cfg GenConfig) gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		seed := params.Rng.Int63()
		c := Generate(rand.New(rand.NewSource(seed)), params.MaxSize, cfg)
		c.Seed = seed
		return gopter.NewGenResult(c, ShrinkCase)
	}
}

// ShrinkCase is the gopter.Shrinker of *Case (Shrinks, as gopter wants it).
func ShrinkCase(v interface{}) gopter.Shrink {
	next := Shrinks(v.(*Case))
	return func() (interface{}, bool) { return next() }
}
