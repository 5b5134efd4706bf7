package proofstests

import (
	"bytes"
	"math/rand"
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
