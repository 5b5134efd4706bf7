package proofstests

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"math/rand"
	"runtime/debug"
	"slices"
	"sort"
	"time"
)

// A campaign (arraysem prove) runs the theorems' properties over many
// generated cases. Case k of a property (0 ≤ k < N) is generated from its
// own seed, derived from the campaign seed, the property and k, at size
// k mod (MaxGenSize+1), so a case is the same whichever machine runs it:
// shard i of n (counted from 1, as --shard i/n, the JSON reports and the
// merge's messages write it) runs the cases with k mod n = i − 1, and the
// shards' reports merge into the report of one run. A FUN counterexample is shrunk
// (Shrinks) before it is reported; every one carries the seed and size
// that regenerate it.

// ProveOptions configure a campaign or one shard of it.
type ProveOptions struct {
	Property string // one theorem's name; "" for all
	N        int    // cases per property, over all shards
	Seed     int64
	Shard    int // this shard, 1 ≤ Shard ≤ Shards
	Shards   int
	// Progress, when set, is told how far the campaign is after every
	// case (the command shows it on a terminal, one line rewritten).
	Progress func(Progress)
}

// Progress is how far a campaign has come: in the property now running,
// and over the properties.
type Progress struct {
	Property    string
	Done, Total int // cases of this shard, over all its properties
	Failed      int
	Elapsed     time.Duration
}

// String is a progress line: count, rate and the estimated time left.
func (p Progress) String() string {
	rate := float64(p.Done) / max(p.Elapsed.Seconds(), 1e-9)
	eta := "?"
	if p.Done > 0 {
		eta = (time.Duration(float64(p.Total-p.Done)/rate) * time.Second).Round(time.Second).String()
	}
	return fmt.Sprintf("%s: %d/%d cases, %d failed, %.0f cases/s, about %s left", p.Property, p.Done, p.Total, p.Failed, rate, eta)
}

// ProveResult is one property's outcome on one shard.
type ProveResult struct {
	Property string        `json:"property"`
	Shard    int           `json:"shard"`
	Shards   int           `json:"shards"`
	Seed     int64         `json:"seed"`
	N        int           `json:"n"`
	Cases    int           `json:"cases"`
	Failures []ProveFailed `json:"failures,omitempty"`
	Elapsed  time.Duration `json:"elapsed_ns"`
	// Rounds is how many rounds of the shard's cases the result covers,
	// with the seeds Seed, Seed+1, … (ProveFor); 0 is one round. A merged
	// result has its shards' count when they agree.
	Rounds int `json:"rounds,omitempty"`
	// ShardRounds is a merged result's rounds of each shard (shard i at
	// i−1), when the shards of a --for campaign ran different numbers.
	ShardRounds []int `json:"shard_rounds,omitempty"`
}

// rounds is the number of rounds r covers (at least one).
func (r ProveResult) rounds() int { return max(r.Rounds, 1) }

// ProveFailed is a counterexample.
type ProveFailed struct {
	Case    int    `json:"case"`
	Seed    int64  `json:"seed"`
	Size    int    `json:"size"`
	Message string `json:"message"`
	Program string `json:"program"` // shrunk, for FUN
	// Round is the round of a --for campaign that found it (0: the
	// first, whose seed is the campaign's).
	Round int `json:"round,omitempty"`
}

// caseSeed is the seed of case k of property p: a SplitMix64 step over
// the three, so that neighbouring cases are unrelated.
func caseSeed(seed int64, p string, k int) int64 {
	h := uint64(seed) ^ 0x9e3779b97f4a7c15
	for _, c := range []byte(p) {
		h = (h ^ uint64(c)) * 0x100000001b3
	}
	z := h + uint64(k)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return int64(z ^ (z >> 31))
}

// Prove runs the campaign's share of opts.Shard.
func Prove(opts ProveOptions) ([]ProveResult, error) {
	if opts.Shards < 1 || opts.Shard < 1 || opts.Shard > opts.Shards {
		return nil, fmt.Errorf("shard %d/%d: want 1 ≤ i ≤ n", opts.Shard, opts.Shards)
	}
	if opts.N < 0 {
		return nil, fmt.Errorf("%d cases: want a count ≥ 0", opts.N)
	}
	ths := Theorems
	if opts.Property != "" {
		t, ok := TheoremNamed(opts.Property)
		if !ok {
			return nil, fmt.Errorf("no property %q (arraysem prove --list names them)", opts.Property)
		}
		ths = []Theorem{t}
	}
	defer campaignGC()() // gc.go
	var out []ProveResult
	campaign := time.Now()
	per := 0
	for k := opts.Shard - 1; k < opts.N; k += opts.Shards {
		per++
	}
	pr := Progress{Total: per * len(ths)}
	for _, th := range ths {
		start := time.Now()
		r := ProveResult{Property: th.Name, Shard: opts.Shard, Shards: opts.Shards, Seed: opts.Seed, N: opts.N}
		for k := opts.Shard - 1; k < opts.N; k += opts.Shards {
			r.Cases++
			if f := proveCase(th, opts.Seed, k); f != nil {
				r.Failures = append(r.Failures, *f)
				pr.Failed++
			}
			if opts.Progress != nil {
				pr.Property, pr.Elapsed = th.Name, time.Since(campaign)
				pr.Done++
				opts.Progress(pr)
			}
		}
		r.Elapsed = time.Since(start)
		out = append(out, r)
	}
	return out, nil
}

// proveCase generates and checks case k of a theorem.
func proveCase(th Theorem, seed int64, k int) *ProveFailed {
	cs := caseSeed(seed, th.Name, k)
	size := k % (MaxGenSize + 1)
	if th.Remora != nil {
		cfg := DefaultRemoraGenConfig
		if th.RemoraCfg != nil {
			cfg = th.RemoraCfg()
		}
		c := &RemoraCase{Seed: cs, Size: size}
		if th.Dialect {
			c.Src = GenerateDialect(rand.New(rand.NewSource(cs)), size)
		} else {
			c.Src = GenerateRemora(rand.New(rand.NewSource(cs)), size, cfg)
		}
		if msg := guarded(func() string { return th.Remora(c) }); msg != "" {
			return &ProveFailed{Case: k, Seed: cs, Size: size, Message: msg, Program: c.Src}
		}
		return nil
	}
	c := Generate(rand.New(rand.NewSource(cs)), size, th.FunConfig())
	prop := func(c *Case) string { return guarded(func() string { return th.Fun(c) }) }
	msg := prop(c)
	if msg == "" {
		return nil
	}
	small, smsg := shrinkFun(c, msg, prop)
	return &ProveFailed{Case: k, Seed: cs, Size: size, Message: smsg, Program: small.String()}
}

// guarded runs a property, turning a panic into its failure message.
func guarded(f func() string) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprintf("panic: %v\n%s", r, debug.Stack())
		}
	}()
	return f()
}

// shrinkFun shrinks a failing FUN case with Shrinks: it takes the first
// smaller case that still fails, and again, until none does.
func shrinkFun(c *Case, msg string, prop func(*Case) string) (*Case, string) {
	for steps := 0; steps < 400; steps++ {
		next := Shrinks(c)
		found := false
		for {
			cand, ok := next()
			if !ok {
				break
			}
			if m := prop(cand); m != "" {
				c, msg, found = cand, m, true
				break
			}
		}
		if !found {
			break
		}
	}
	return c, msg
}

// ProveFor runs rounds of the campaign opts describes, each with the next
// seed (opts.Seed, opts.Seed+1, …), until d has passed, and sums them: a
// campaign bounded by time rather than by count (arraysem prove --for 1h).
func ProveFor(opts ProveOptions, d time.Duration) ([]ProveResult, int, error) {
	if d <= 0 {
		return nil, 0, fmt.Errorf("a campaign of %v: want a duration > 0", d)
	}
	start := time.Now()
	var total []ProveResult
	rounds := 0
	for time.Since(start) < d {
		o := opts
		o.Seed = opts.Seed + int64(rounds)
		rs, err := Prove(o)
		if err != nil {
			return nil, rounds, err
		}
		for i := range rs {
			for j := range rs[i].Failures {
				rs[i].Failures[j].Round = rounds
			}
		}
		rounds++
		if total == nil {
			total = rs
			continue
		}
		for i, r := range rs {
			total[i].Cases += r.Cases
			total[i].Failures = append(total[i].Failures, r.Failures...)
			total[i].Elapsed += r.Elapsed
		}
	}
	for i := range total {
		total[i].Rounds = rounds
	}
	return total, rounds, nil
}

// shardCases is the number of the cases k < n with k mod shards =
// shard−1: one round of the shard's plan.
func shardCases(n, shard, shards int) int {
	if n < shard {
		return 0
	}
	return (n-shard)/shards + 1
}

// CheckResult checks a shard's result against the plan it claims (a
// known property; its seed, n, shard and rounds): the count of cases it
// ran, and each failure's case (one of the shard's, below n), size and
// seed (the case's seed in one of the rounds), each once.
func CheckResult(r ProveResult) error {
	if _, ok := TheoremNamed(r.Property); !ok {
		return fmt.Errorf("no property %q (arraysem prove --list names them)", r.Property)
	}
	at := fmt.Sprintf("%s, shard %d/%d", r.Property, r.Shard, r.Shards)
	switch {
	case r.Shards < 1 || r.Shard < 1 || r.Shard > r.Shards:
		return fmt.Errorf("%s: want 1 ≤ i ≤ n", at)
	case r.N < 0:
		return fmt.Errorf("%s: n %d: want a count ≥ 0", at, r.N)
	case r.Rounds < 0:
		return fmt.Errorf("%s: %d rounds: want a count ≥ 0", at, r.Rounds)
	case r.Elapsed < 0:
		return fmt.Errorf("%s: a negative time, %v", at, r.Elapsed)
	case len(r.ShardRounds) > 0:
		return fmt.Errorf("%s: a merged result (shard_rounds), not a shard's", at)
	}
	per := shardCases(r.N, r.Shard, r.Shards)
	if per > 0 && r.rounds() > math.MaxInt/per || r.Cases != per*r.rounds() {
		return fmt.Errorf("%s: %d cases, where its plan (%d rounds of the %d cases k < %d with k mod %d = %d) has %d×%d", at, r.Cases, r.rounds(), per, r.N, r.Shards, r.Shard-1, r.rounds(), per)
	}
	seen := map[[2]int64]bool{}
	for _, f := range r.Failures {
		switch {
		case f.Case < 0 || f.Case >= r.N:
			return fmt.Errorf("%s: a failure of case %d, outside 0 ≤ k < %d", at, f.Case, r.N)
		case f.Case%r.Shards != r.Shard-1:
			return fmt.Errorf("%s: a failure of case %d, which is shard %d/%d's", at, f.Case, f.Case%r.Shards+1, r.Shards)
		case f.Size != f.Case%(MaxGenSize+1):
			return fmt.Errorf("%s: case %d has size %d, not %d", at, f.Case, f.Size, f.Case%(MaxGenSize+1))
		case seen[[2]int64{int64(f.Case), f.Seed}]:
			return fmt.Errorf("%s: case %d (seed %d) fails twice", at, f.Case, f.Seed)
		}
		seen[[2]int64{int64(f.Case), f.Seed}] = true
		if f.Round < 0 || f.Round >= r.rounds() {
			return fmt.Errorf("%s: case %d fails in round %d, of %d", at, f.Case, f.Round, r.rounds())
		}
		if want := caseSeed(r.Seed+int64(f.Round), r.Property, f.Case); f.Seed != want {
			return fmt.Errorf("%s: case %d has seed %d, where round %d's (campaign seed %d) is %d", at, f.Case, f.Seed, f.Round, r.Seed+int64(f.Round), want)
		}
	}
	return nil
}

// MergeReports merges shard reports (each a JSON list of ProveResult)
// into one result per property, checking each result against its shard's
// plan (CheckResult), that the shards are of one campaign (seed, n,
// shards), and that every shard of each property is there once. Shards
// of a --for campaign may have run different numbers of rounds: the
// merged result says how many each ran (ShardRounds).
func MergeReports(reports [][]ProveResult) ([]ProveResult, error) {
	byProp := map[string]*ProveResult{}
	seen := map[string]map[int]bool{}
	rounds := map[string][]int{}
	var order []string
	for i, rep := range reports {
		if len(rep) == 0 {
			return nil, fmt.Errorf("report %d holds no results", i+1)
		}
		for _, r := range rep {
			if err := CheckResult(r); err != nil {
				return nil, err
			}
			m := byProp[r.Property]
			if m == nil {
				m = &ProveResult{Property: r.Property, Shards: r.Shards, Seed: r.Seed, N: r.N}
				byProp[r.Property] = m
				seen[r.Property] = map[int]bool{}
				order = append(order, r.Property)
			}
			if r.Shards != m.Shards || r.Seed != m.Seed || r.N != m.N {
				return nil, fmt.Errorf("%s: shards of different campaigns (seed %d/%d, n %d/%d, %d/%d shards)", r.Property, r.Seed, m.Seed, r.N, m.N, r.Shards, m.Shards)
			}
			if r.Shard < 1 || r.Shard > r.Shards {
				return nil, fmt.Errorf("%s: shard %d/%d: want 1 ≤ i ≤ n", r.Property, r.Shard, r.Shards)
			}
			if seen[r.Property][r.Shard] {
				return nil, fmt.Errorf("%s: shard %d/%d appears twice", r.Property, r.Shard, r.Shards)
			}
			seen[r.Property][r.Shard] = true
			if rounds[r.Property] == nil {
				rounds[r.Property] = make([]int, r.Shards)
			}
			rounds[r.Property][r.Shard-1] = r.rounds()
			m.Cases += r.Cases
			m.Failures = append(m.Failures, r.Failures...)
			m.Elapsed += r.Elapsed
		}
	}
	var out []ProveResult
	for _, p := range order {
		m := byProp[p]
		var missing []int
		for i := 1; i <= m.Shards; i++ {
			if !seen[p][i] {
				missing = append(missing, i)
			}
		}
		if len(missing) > 0 {
			return nil, fmt.Errorf("%s: shards %v of %d are missing", p, missing, m.Shards)
		}
		sort.SliceStable(m.Failures, func(i, j int) bool { return m.Failures[i].Case < m.Failures[j].Case })
		rs := rounds[p]
		if slices.Min(rs) == slices.Max(rs) {
			if rs[0] > 1 {
				m.Rounds = rs[0]
			}
		} else {
			m.ShardRounds = rs
		}
		out = append(out, *m)
	}
	return out, nil
}

// WriteReport writes results as JSON, for MergeReports.
func WriteReport(w io.Writer, rs []ProveResult) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rs)
}

// ReadReport reads a report WriteReport wrote: one JSON list of results,
// with no field WriteReport does not write and nothing after it.
func ReadReport(r io.Reader) ([]ProveResult, error) {
	var rs []ProveResult
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&rs); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("text after the report's list")
	}
	return rs, nil
}
