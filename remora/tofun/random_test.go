package tofun_test

import (
	"errors"
	"math/rand"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	proofstests "github.com/arraysem/arraysem/proofs-tests"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/tofun"
	"github.com/arraysem/arraysem/semantics"
)

// TestLowerRandom lowers random well-typed Remora programs (the property
// tests' generator, proofs-tests/remoragen.go) that Lower takes as they
// are, and compares FUN's results, decoded, with remora's evaluator: the
// same lines, or both going wrong. Programs Lower refuses (functions not
// inlined, frames of boxes as results, …) are counted, not failures; the
// test asks that most are lowered, so that it cannot pass by refusing.
func TestLowerRandom(t *testing.T) {
	n := 2000
	if testing.Short() {
		n = 300
	}
	cfg := proofstests.DefaultRemoraGenConfig
	cfg.MaxDefs = 0
	lowered := 0
	refused := map[string]int{}
	for seed := int64(0); seed < int64(n); seed++ {
		src := proofstests.GenerateRemora(rand.New(rand.NewSource(seed)), int(seed%10), cfg)
		p, _, err := remora.ParseFile("gen.remora", src)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		if _, err := remora.Check(p, nil); err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		prog, err := tofun.Lower(p)
		var se *semantics.Error
		if errors.As(err, &se) && se.Rule == tofun.Rule && !strings.HasPrefix(se.Msg, tofun.InternalError) {
			why := strings.SplitN(se.Msg, " to FUN: ", 2)
			refused[strings.Join(strings.Fields(why[0])[:min(4, len(strings.Fields(why[0])))], " ")]++
			continue
		}
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, src)
		}
		lowered++
		if _, err := fun.Check(prog, nil); err != nil {
			t.Fatalf("seed %d: FUN's checker: %v\n%s\n%s", seed, err, src, fun.Print(prog))
		}
		vals, _, ferr := fun.Eval(prog, nil, nil)
		vs, rerr := remora.Eval(p, nil)
		switch {
		case ferr != nil && rerr != nil:
			continue
		case ferr != nil || rerr != nil:
			t.Fatalf("seed %d: FUN: %v; remora: %v\n%s\n%s", seed, ferr, rerr, src, fun.Print(prog))
		}
		got, err := tofun.Decode(p.Types, vals)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s\n%s", seed, err, src, fun.Print(prog))
		}
		if want := remora.ValueLines(vs); strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Fatalf("seed %d: FUN gave %q, remora %q\n%s\n%s", seed, got, want, src, fun.Print(prog))
		}
	}
	if lowered < n/2 {
		t.Errorf("only %d of %d random programs were lowered", lowered, n)
	}
	t.Logf("%d of %d random programs lowered and agreed; refused: %v", lowered, n, refused)
}
