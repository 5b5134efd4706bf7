package proofstests

import (
	"bytes"
	"math/rand"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestProveShardsMerge: the shards of a campaign cover its cases once,
// and their merged report is the one-shard report.
func TestProveShardsMerge(t *testing.T) {
	t.Parallel()
	const n = 20
	one, err := Prove(ProveOptions{Property: "fun-big-small", N: n, Seed: 3, Shard: 1, Shards: 1})
	if err != nil {
		t.Fatal(err)
	}
	var parts [][]ProveResult
	for i := 1; i <= 3; i++ {
		rs, err := Prove(ProveOptions{Property: "fun-big-small", N: n, Seed: 3, Shard: i, Shards: 3})
		if err != nil {
			t.Fatal(err)
		}
		// Through JSON, as the shards of a batch job would hand them over.
		var buf bytes.Buffer
		if err := WriteReport(&buf, rs); err != nil {
			t.Fatal(err)
		}
		back, err := ReadReport(&buf)
		if err != nil {
			t.Fatal(err)
		}
		parts = append(parts, back)
	}
	merged, err := MergeReports(parts)
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range parts {
		if p[0].Shard != i+1 {
			t.Errorf("shard %d's report says shard %d", i+1, p[0].Shard)
		}
	}
	if _, err := Prove(ProveOptions{N: -1, Shard: 1, Shards: 1}); err == nil {
		t.Error("a negative count is accepted")
	}
	var last Progress
	if _, err := Prove(ProveOptions{Property: "fun-big-small", N: 6, Seed: 3, Shard: 1, Shards: 2, Progress: func(p Progress) { last = p }}); err != nil || last.Done != 3 || last.Total != 3 {
		t.Errorf("progress %+v, %v", last, err)
	}
	if len(merged) != 1 || merged[0].Cases != n || one[0].Cases != n || len(merged[0].Failures) != len(one[0].Failures) {
		t.Errorf("merged %+v, one shard %+v", merged, one)
	}
	if _, err := MergeReports(parts[:2]); err == nil || !strings.Contains(err.Error(), "shards [3] of 3 are missing") {
		t.Errorf("a missing shard is not reported: %v", err)
	}
	if _, err := MergeReports(append(parts, parts[0])); err == nil || !strings.Contains(err.Error(), "shard 1/3 appears twice") {
		t.Errorf("a shard given twice is not reported: %v", err)
	}
}

// TestProveFindsAndShrinks: a property that fails on programs with a
// kernel is reported with a case that regenerates it, shrunk.
func TestProveFindsAndShrinks(t *testing.T) {
	t.Parallel()
	th := Theorem{Name: "no-kernels", Fun: func(c *Case) string {
		if strings.Contains(fun.Print(c.Prog), "kernel") {
			return "has a kernel"
		}
		return ""
	}}
	var f *ProveFailed
	for k := 0; k < 200 && f == nil; k++ {
		f = proveCase(th, 1, k)
	}
	if f == nil {
		t.Fatal("no generated program has a kernel")
	}
	if !strings.Contains(f.Program, "kernel") || f.Message != "has a kernel" {
		t.Errorf("counterexample %+v", f)
	}
	full := Generate(rand.New(rand.NewSource(f.Seed)), f.Size, DefaultGenConfig).String()
	t.Logf("shrunk to %d bytes from %d:\n%s", len(f.Program), len(full), f.Program)
	if len(f.Program) >= len(full) {
		t.Errorf("not shrunk:\n%s\nfrom\n%s", f.Program, full)
	}
}

// TestMergeChecksThePlan: a merge checks every shard's report against
// the plan it claims and refuses, with the reason, the inconsistent ones
// a merge accepted and printed as a pass (issue 32): counts of 0, -5 or
// 1,000,000 cases, an unknown property, a failure of another shard's
// case, of no case, of the wrong seed or size or round, twice. Shards of
// a --for campaign that ran different numbers of rounds merge, and the
// result says how many each ran.
func TestMergeChecksThePlan(t *testing.T) {
	t.Parallel()
	const prop, n, seed = "fun-check", 7, 5
	shard := func(i int) ProveResult { // shard i of 2, one round, no failure
		return ProveResult{Property: prop, Shard: i, Shards: 2, Seed: seed, N: n, Cases: shardCases(n, i, 2)}
	}
	fail := func(k, round int) ProveFailed {
		return ProveFailed{Case: k, Seed: caseSeed(seed+int64(round), prop, k), Size: k % (MaxGenSize + 1), Round: round, Message: "m"}
	}
	with := func(f func(*ProveResult)) [][]ProveResult {
		r := shard(1)
		f(&r)
		return [][]ProveResult{{r}, {shard(2)}}
	}
	for _, c := range []struct {
		name    string
		reports [][]ProveResult
		want    string
	}{
		{"0 cases", with(func(r *ProveResult) { r.Cases = 0 }), "fun-check, shard 1/2: 0 cases, where its plan (1 rounds of the 4 cases k < 7 with k mod 2 = 0) has 1×4"},
		{"-5 cases", with(func(r *ProveResult) { r.Cases = -5 }), "-5 cases, where its plan"},
		{"1,000,000 cases", with(func(r *ProveResult) { r.Cases = 1000000 }), "1000000 cases, where its plan"},
		{"rounds that wrap", with(func(r *ProveResult) { r.Rounds = 1 << 62; r.Cases = 0 }), "0 cases, where its plan"},
		{"unknown property", with(func(r *ProveResult) { r.Property = "fun-magic" }), `no property "fun-magic"`},
		{"another shard's case", with(func(r *ProveResult) { r.Failures = []ProveFailed{fail(3, 0)} }), "a failure of case 3, which is shard 2/2's"},
		{"no case", with(func(r *ProveResult) { r.Failures = []ProveFailed{fail(8, 0)} }), "a failure of case 8, outside 0 ≤ k < 7"},
		{"a negative case", with(func(r *ProveResult) { r.Failures = []ProveFailed{fail(-2, 0)} }), "a failure of case -2, outside"},
		{"wrong seed", with(func(r *ProveResult) { f := fail(2, 0); f.Seed++; r.Failures = []ProveFailed{f} }), "case 2 has seed"},
		{"wrong size", with(func(r *ProveResult) { f := fail(2, 0); f.Size = 9; r.Failures = []ProveFailed{f} }), "case 2 has size 9, not 2"},
		{"a round it did not run", with(func(r *ProveResult) { r.Failures = []ProveFailed{fail(2, 1)} }), "case 2 fails in round 1, of 1"},
		{"twice", with(func(r *ProveResult) { r.Failures = []ProveFailed{fail(2, 0), fail(2, 0)} }), "case 2 (seed"},
		{"negative rounds", with(func(r *ProveResult) { r.Rounds = -1 }), "-1 rounds"},
		{"negative time", with(func(r *ProveResult) { r.Elapsed = -1 }), "a negative time"},
		{"a negative n", with(func(r *ProveResult) { r.N = -1 }), "n -1: want a count ≥ 0"},
		{"another seed", with(func(r *ProveResult) { r.Seed = 6 }), "shards of different campaigns"},
		{"an empty report", [][]ProveResult{{shard(1)}, {}}, "report 2 holds no results"},
		{"a merged result", with(func(r *ProveResult) { r.ShardRounds = []int{1, 1} }), "a merged result"},
	} {
		if _, err := MergeReports(c.reports); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want %q", c.name, err, c.want)
		}
	}
	// What the plan allows: failures of the shard's own cases, in any of
	// its rounds; rounds that differ between shards, said.
	a, b := shard(1), shard(2)
	a.Rounds, a.Cases, a.Failures = 3, 3*a.Cases, []ProveFailed{fail(4, 2), fail(0, 0)}
	b.Rounds, b.Cases, b.Failures = 2, 2*b.Cases, []ProveFailed{fail(1, 1)}
	m, err := MergeReports([][]ProveResult{{a}, {b}})
	if err != nil {
		t.Fatal(err)
	}
	if m[0].Cases != 3*4+2*3 || len(m[0].Failures) != 3 || m[0].Failures[0].Case != 0 || !slices.Equal(m[0].ShardRounds, []int{3, 2}) || m[0].Rounds != 0 {
		t.Errorf("merged %+v", m[0])
	}
	b.Rounds, b.Cases = 3, 3*3
	if m, err := MergeReports([][]ProveResult{{a}, {b}}); err != nil || m[0].Rounds != 3 || m[0].ShardRounds != nil {
		t.Errorf("merged %+v, %v", m, err)
	}
	if _, _, err := ProveFor(ProveOptions{Property: prop, N: 1, Shard: 1, Shards: 1}, 0); err == nil {
		t.Error("a campaign of no time is accepted")
	}
	for _, text := range []string{`[{"property": "fun-check", "shard": 1, "shards": 1, "n": 0, "cases": 0, "elapsed_ns": 0, "passed": true}]`, `[] []`} {
		if _, err := ReadReport(strings.NewReader(text)); err == nil {
			t.Errorf("%s is read", text)
		}
	}
}
