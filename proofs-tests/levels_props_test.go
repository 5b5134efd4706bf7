package proofstests

import (
	"maps"
	"os"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
)

// TestLevelCheckedOnce checks the shortcut of LevelStats.level: a level
// whose program is one the case checked already counts what running it
// would count (its runs, ran-on and stuck-too, rules), as a level checked
// on its own does. Run where FUN runs to the end and where it goes wrong.
func TestLevelCheckedOnce(t *testing.T) {
	src, err := os.ReadFile("../examples/fun/assert.fun")
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range []map[string]string{
		{"n": "4", "xs": "[1 2 3 4]"},
		{"n": "3", "xs": "[1 2 3]"}, // FUN goes wrong: the assert fails
	} {
		reg := arraycheck.NewRegistry().Memo()
		p, err := reg.Load("assert.fun", string(src), fun.Language.Name(), "", lang.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		want := levelRun{level: p.Language().Title(), sem: p.Semantics()[0]}
		want.r, want.err = p.Run(lang.RunOptions{Semantics: want.sem, Args: args})
		levels, err := walks(reg, p, lang.Options{}, true)
		if err != nil {
			t.Fatal(err)
		}
		for _, lv := range levels {
			once := NewLevelStats()
			if msg := once.level(lv, want, args); msg != "" {
				t.Fatalf("%s: %s", lv.Name, msg)
			}
			twice := NewLevelStats()
			for range 2 {
				if msg := twice.level(lv, want, args); msg != "" {
					t.Fatalf("%s: %s", lv.Name, msg)
				}
			}
			double := NewLevelStats()
			double.add(once)
			double.add(once)
			if !maps.Equal(twice.Runs, double.Runs) || !maps.Equal(twice.Rules, double.Rules) || !maps.Equal(twice.Reached, double.Reached) ||
				twice.RanOn != double.RanOn || twice.StuckToo != double.StuckToo {
				t.Errorf("%s (args %v): checked twice counts runs %v rules %v ran on %d stuck too %d, want runs %v rules %v ran on %d stuck too %d",
					lv.Name, args, twice.Runs, twice.Rules, twice.RanOn, twice.StuckToo, double.Runs, double.Rules, double.RanOn, double.StuckToo)
			}
			if len(once.Runs) == 0 {
				t.Errorf("%s: no runs counted", lv.Name)
			}
		}
	}
}
