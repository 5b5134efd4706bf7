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

// GenRemoraCase is the gopter generator: a seed from gopter's source and
// gopter's size drive GenerateRemora. Cases do not shrink (the seed and
// size printed with a case regenerate it).
func GenRemoraCase(cfg RemoraGenConfig) gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		seed := params.Rng.Int63()
		src := GenerateRemora(rand.New(rand.NewSource(seed)), params.MaxSize, cfg)
		return gopter.NewGenResult(&RemoraCase{Seed: seed, Size: params.MaxSize, Src: src}, gopter.NoShrinker)
	}
}

// GenDialectCase generates numeric programs of the dynamic dialect
// (GenerateDialect).
func GenDialectCase() gopter.Gen {
	return func(params *gopter.GenParameters) *gopter.GenResult {
		seed := params.Rng.Int63()
		src := GenerateDialect(rand.New(rand.NewSource(seed)), params.MaxSize)
		return gopter.NewGenResult(&RemoraCase{Seed: seed, Size: params.MaxSize, Src: src}, gopter.NoShrinker)
	}
}
