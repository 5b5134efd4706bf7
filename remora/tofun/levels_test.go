package tofun_test

import (
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/tofun"
)

// TestLowerLevels runs the lowered programs of testdata/lower.txt and of
// some random Remora programs down every level below FUN (FUNMEM, IMP,
// CUDA in gpu-sim: check.SideBySide on the printed FUN program), which
// must agree with FUN. This is why Lower gives FUN's reduce and scan only
// associative operators from their neutral element: the CUDA level
// re-associates them.
func TestLowerLevels(t *testing.T) {
	var srcs []string
	for _, c := range golden.Read(t, filepath.Join("testdata", "lower.txt"), ";") {
		if c.ErrRe == nil {
			srcs = append(srcs, c.Src)
		}
	}
	n := 60
	if testing.Short() {
		n = 10
	}
	cfg := proofstests.DefaultRemoraGenConfig
	cfg.MaxDefs = 0
	for seed := int64(0); seed < int64(n); seed++ {
		srcs = append(srcs, proofstests.GenerateRemora(rand.New(rand.NewSource(1000+seed)), int(seed%10), cfg))
	}
	for _, src := range srcs {
		p, _, err := remora.ParseFile("lower.txt", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := remora.Check(p, nil); err != nil {
			t.Fatal(err)
		}
		prog, err := tofun.Lower(p)
		if err != nil {
			continue // refusals are TestLowerGolden's and TestLowerRandom's
		}
		fsrc := fun.Print(prog)
		lp, err := check.Load(check.NewRegistry(), "lowered.fun", fsrc, check.Options{})
		if err != nil {
			t.Errorf("%v\n%s\n%s", err, src, fsrc)
			continue
		}
		rows, err := check.SideBySide(check.NewRegistry(), lp, nil)
		if err != nil {
			t.Errorf("%v\n%s\n%s", err, src, fsrc)
			continue
		}
		for _, r := range rows {
			if r.Declined != nil {
				t.Errorf("%s declined the lowered program: %v\n%s", r.Level, r.Declined, src)
			}
		}
	}
}
