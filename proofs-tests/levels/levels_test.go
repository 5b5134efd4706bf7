package levelprops

import (
	"math/rand"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/proofs-tests/internal/propcheck"
)

// TestLevelsPropertyRunsRegisteredPass: the level-agreement property
// (fun-funmem-imp) walks the registry, so a pass registered there (in a
// clone) is covered with no edit to the property: an identity pass on
// FUN makes levels the property runs, and passes; a pass that breaks
// programs fails it, naming the pass.
func TestLevelsPropertyRunsRegisteredPass(t *testing.T) {
	t.Parallel()
	reg := arraycheck.NewRegistry()
	reg.Append(lang.Pass{Name: "Identity", From: "fun", To: "fun", Doc: "changes nothing",
		Options: []lang.Option{{Name: "no-identity", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip Identity"}},
		Label:   func(lang.Options) string { return "identity" },
		Run:     func(p any, _ lang.Options) (any, []string, error) { return p, nil, nil }})
	stats := proofstests.NewLevelStats()
	propcheck.Check(t, propcheck.Params(90, 20), "levels with an identity pass", propcheck.GenCase(proofstests.DefaultGenConfig), proofstests.LevelsProp(reg, stats))
	stats.Lock()
	for _, run := range []string{"FUN identity after Identity big", "FUN identity after Identity small", "FUNMEM identity after Simplify heap", "FUNMEM identity after Simplify value", "IMP identity after Simplify small"} {
		if stats.Runs[run] != stats.Programs || stats.Programs == 0 {
			t.Errorf("%d runs at %s, for %d programs; runs: %v", stats.Runs[run], run, stats.Programs, stats.Runs)
		}
	}
	if stats.Reached["CUDA"] != stats.Programs || stats.Runs["IMP after FunMemToImp from MemoryExpand GPU big"] == 0 {
		t.Errorf("CUDA reached %d times, for %d programs; runs: %v", stats.Reached["CUDA"], stats.Programs, stats.Runs)
	}
	stats.Unlock()

	// DupResult returns the first result twice.
	broken := arraycheck.NewRegistry()
	broken.Append(lang.Pass{Name: "DupResult", From: "fun", To: "fun", Doc: "returns a result twice, wrongly",
		Run: func(p any, _ lang.Options) (any, []string, error) {
			q := *p.(*fun.Program)
			body := *q.Body
			body.Result = append(body.Result[:len(body.Result):len(body.Result)], body.Result[0])
			q.Body = &body
			return &q, nil, nil
		}})
	prop := proofstests.LevelsProp(broken, nil)
	failed := 0
	for seed := int64(1); seed <= 10; seed++ {
		c := proofstests.Generate(rand.New(rand.NewSource(seed)), 20, proofstests.DefaultGenConfig)
		msg := prop(c)
		if msg == "" {
			continue // FUN goes wrong, and so may the levels
		}
		failed++
		if !strings.Contains(msg, "the first stage that differs is the output of DupResult (fun → fun)") {
			t.Errorf("seed %d: the failure does not name the pass:\n%s", seed, msg)
		}
	}
	if failed == 0 {
		t.Error("a pass that returns a result twice fails no case")
	}
}
