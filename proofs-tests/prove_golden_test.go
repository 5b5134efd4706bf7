package proofstests

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	arraycheck "github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
)

var updateProve = flag.Bool("update", false, "rewrite testdata/prove.golden with today's outcomes (review the diff!)")

// TestProveGolden pins what the campaigns find (issue 35: making them
// faster must not change a verdict): on a fixed seed, each property's
// campaign (Prove) gives the failures of testdata/prove.golden, and what
// its cases checked counts as there — the runs at each level and
// semantics, the programs reached, the rules applied, how each FUNMEM
// variant agreed with FUN or got stuck — so that a check left out shows.
// The campaigns pass on these cases, so the counterexamples are pinned on
// registries with a pass that breaks programs: each failure's message
// and shrunk program, as arraysem prove reports them.
//
// The counts follow from what the passes make of the generated programs:
// a change to a pass's output may change them (go test ./proofs-tests/
// -run TestProveGolden -update rewrites the file; review the diff: the
// verdicts must not change).
func TestProveGolden(t *testing.T) {
	t.Parallel()
	const seed = 1
	var b strings.Builder

	campaign := func(name string, n int) {
		rs, err := Prove(ProveOptions{Property: name, N: n, Seed: seed, Shard: 1, Shards: 1})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "## campaign %s, seed %d\n", name, seed)
		writeFailures(&b, rs[0].Cases, rs[0].Failures)
	}
	// checks runs a theorem's cases as its campaign does (proveCase),
	// with prop for its property (the theorem's, counting what it sees).
	checks := func(name string, n int, prop func(*Case) string) {
		th, _ := TheoremNamed(name)
		th.Fun = prop
		fmt.Fprintf(&b, "## checks %s, seed %d\n", name, seed)
		writeFailures(&b, n, proveCases(th, seed, n))
	}

	campaign("fun-funmem-imp", 64)
	imp := NewLevelStats()
	checks("fun-funmem-imp", 64, LevelsProp(arraycheck.NewRegistry(), imp))
	writeLevelStats(&b, imp)

	for _, p := range []struct {
		name      string
		n         int
		transform bool
	}{{"passes-valid", 128, false}, {"transform-valid", 64, true}} {
		campaign(p.name, p.n)
		table := &stuckTable{}
		checks(p.name, p.n, propValid(p.transform, table, &bugLog{}))
		writeStuckTable(&b, table)
	}

	campaign("race-oracle", 64)

	campaign("remora-levels", 16)
	rl := NewLevelStats()
	th, _ := TheoremNamed("remora-levels")
	th.Remora = PropRemoraLevels(arraycheck.NewRegistry(), rl)
	fmt.Fprintf(&b, "## checks remora-levels, seed %d\n", seed)
	writeFailures(&b, 16, proveCases(th, seed, 16))
	writeLevelStats(&b, rl)

	// Counterexamples: a pass that turns additions into subtractions or
	// back (every one, or the first), at FUN and at IMP (the level
	// agreement blames it) and at FUNMEM (the validity property sees
	// other results).
	for _, p := range []struct {
		name, level string
		op, by      string
		n           int
	}{
		{"fun-funmem-imp", "fun", "+", "-", -1}, {"fun-funmem-imp", "imp", "-", "+", 1}, {"passes-valid", "funmem", "-", "+", 1},
	} {
		reg := arraycheck.NewRegistry()
		l, _ := reg.Language(p.level)
		reg.Append(swapOp(l, p.op, p.by, p.n))
		th, _ := TheoremNamed(p.name)
		if p.name == "passes-valid" {
			th.Fun = propValidOn(reg, false, &stuckTable{}, &bugLog{})
		} else {
			th.Fun = LevelsProp(reg, nil)
		}
		fmt.Fprintf(&b, "## counterexamples %s, SwapOp %s → %s (%d) at %s, seed %d\n", p.name, p.op, p.by, p.n, p.level, seed)
		writeFailures(&b, 12, proveCases(th, seed, 12))
	}

	golden := filepath.Join("testdata", "prove.golden")
	if *updateProve {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test ./proofs-tests/ -run TestProveGolden -update writes it)", err)
	}
	if got := b.String(); got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		i := 0
		for i < len(gl) && i < len(wl) && gl[i] == wl[i] {
			i++
		}
		show := func(ls []string) string { return strings.Join(ls[i:min(len(ls), i+12)], "\n") }
		t.Errorf("the campaigns' outcomes differ from %s from line %d:\ngot:\n%s\nwant:\n%s", golden, i+1, show(gl), show(wl))
	}
}

// swapOp is a pass at l's level that breaks programs: the first n
// binary operators op of the printed program (all for n < 0) become by.
func swapOp(l lang.Language, op, by string, n int) lang.Pass {
	return lang.Pass{Name: "SwapOp", From: l.Name(), To: l.Name(), Doc: "turns a " + op + " b into a " + by + " b, wrongly",
		Run: func(p any, _ lang.Options) (any, []string, error) {
			text := l.Print(p)
			broken := strings.Replace(text, " "+op+" ", " "+by+" ", n)
			if broken == text {
				return p, nil, nil
			}
			q, err := l.Load("broken"+l.Extensions()[0], broken, lang.LoadOptions{})
			if err != nil {
				return nil, nil, err
			}
			return q.Syntax(), nil, nil
		}}
}

// proveCases runs cases 0..n−1 of th as a campaign does (proveCase,
// shrinking included), and gives its failures.
func proveCases(th Theorem, seed int64, n int) []ProveFailed {
	var fs []ProveFailed
	for k := range n {
		if f := proveCase(th, seed, k); f != nil {
			fs = append(fs, *f)
		}
	}
	return fs
}

// writeFailures writes a campaign's count of cases and its failures,
// each with its message and program.
func writeFailures(b *strings.Builder, cases int, fs []ProveFailed) {
	fmt.Fprintf(b, "%d cases, %d failed\n", cases, len(fs))
	for _, f := range fs {
		fmt.Fprintf(b, "case %d (seed %d, size %d):\n%s\nprogram:\n%s\n", f.Case, f.Seed, f.Size, joinLines("| ", f.Message), joinLines("| ", f.Program))
	}
}

// writeLevelStats writes what a level property counted.
func writeLevelStats(b *strings.Builder, s *LevelStats) {
	s.Lock()
	defer s.Unlock()
	fmt.Fprintf(b, "programs %d, ran on %d, stuck too %d\n", s.Programs, s.RanOn, s.StuckToo)
	writeCounts(b, "runs", s.Runs)
	writeCounts(b, "reached", s.Reached)
	writeCounts(b, "declined", s.Declined)
	writeCounts(b, "rule", s.Rules)
}

// writeStuckTable writes a validity property's table.
func writeStuckTable(b *strings.Builder, s *stuckTable) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeCounts(b, "agree", s.agree)
	names := make([]string, 0, len(s.m))
	for n := range s.m {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		writeCounts(b, "stuck "+n+":", s.m[n])
	}
}

func writeCounts[M ~map[string]int](b *strings.Builder, what string, m M) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(b, "%s %s: %d\n", what, k, m[k])
	}
}
