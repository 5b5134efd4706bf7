package proofstests

import (
	"github.com/arraysem/arraysem/fun/fuse"
	"math/rand"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// fusionCases is how many pipelines TestFusionPipelines runs.
const fusionCases = 1500

// fusionCase is pipeline k, from its own seed.
func fusionCase(k int) *Case {
	seed := caseSeed(*flagSeed, "fuse-pipelines", k)
	c := GenerateFusion(rand.New(rand.NewSource(seed)), k%(MaxGenSize+1))
	c.Seed, c.Size = seed, k%(MaxGenSize+1)
	return c
}

// TestFusionPipelines: the property fuse on the pipelines of
// GenerateFusion, where most producers have consumers; and the pipelines
// do fuse, and are kept for each of Fig 9's cases 3, 4 and 5.
func TestFusionPipelines(t *testing.T) {
	t.Parallel()
	fused, kept := 0, map[int]int{}
	for k := range fusionCases {
		c := fusionCase(k)
		if _, err := fun.Check(c.Prog, nil); err != nil {
			t.Fatalf("GENERATOR BUG: %v%v", err, c)
		}
		if msg := guarded(func() string { return propFuse(c) }); msg != "" {
			t.Fatalf("%s\n(case seed %d, size %d)%v", msg, c.Seed, c.Size, c)
		}
		_, rep := fuse.Fuse(c.Prog, fuse.Options{})
		for _, n := range rep.Notes {
			if n.Fused {
				fused++
			}
			kept[n.Case]++
		}
	}
	t.Logf("%d pipelines: %d producers fused; kept by case of Fig 9: %v", fusionCases, fused, kept)
	if fused < fusionCases/3 || kept[3] == 0 || kept[4] == 0 || kept[5] == 0 {
		t.Errorf("the pipelines exercise fusion too little: %d fused, kept %v", fused, kept)
	}
}
