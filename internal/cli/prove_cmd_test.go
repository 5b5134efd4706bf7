package cli

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestProveCommand: shards are counted from 1 in the flag, the JSON report
// and the merge's messages; a bad count or shard is refused; a Slurm job
// array's task picks the shard when --shard is not given.
func TestProveCommand(t *testing.T) {
	dir := t.TempDir()
	var files []string
	for i := 1; i <= 2; i++ {
		f := filepath.Join(dir, "s"+string(rune('0'+i))+".json")
		files = append(files, f)
		if out, errs, status := run(t, "prove", "--property", "fun-big-small", "--n", "6", "--shard", string(rune('0'+i))+"/2", "--json", f); status != 0 {
			t.Fatalf("shard %d: status %d\n%s%s", i, status, out, errs)
		}
		data, _ := os.ReadFile(f)
		if !strings.Contains(string(data), `"shard": `+string(rune('0'+i))+",") {
			t.Errorf("shard %d's report:\n%s", i, data)
		}
	}
	if out, errs, status := run(t, "prove", "--merge", files[0], files[1]); status != 0 || !strings.Contains(out, "fun-big-small") {
		t.Errorf("merge: status %d\n%s%s", status, out, errs)
	}
	if _, errs, status := run(t, "prove", "--merge", files[1]); status != 2 || !strings.Contains(errs, "shards [1] of 2 are missing") {
		t.Errorf("merge of shard 2 alone: status %d, %s", status, errs)
	}
	// A report that does not hold to its shard's plan is refused (issue
	// 32; proofs-tests' TestMergeChecksThePlan has the cases).
	data, _ := os.ReadFile(files[0])
	bad := filepath.Join(dir, "bad.json")
	os.WriteFile(bad, []byte(strings.Replace(string(data), `"cases": 3`, `"cases": 1000000`, 1)), 0o644)
	if _, errs, status := run(t, "prove", "--merge", bad, files[1]); status != 2 || !strings.Contains(errs, "1000000 cases, where its plan") {
		t.Errorf("merge of a shard claiming 1000000 cases: status %d, %s", status, errs)
	}
	for _, args := range [][]string{{"--n", "-5"}, {"--shard", "3/2"}, {"--shard", "1/2x"}, {"--shard", "0/2"}, {"--for", "0"}, {"--for", "-1s"}} {
		if _, errs, status := run(t, append([]string{"prove", "--property", "fun-big-small"}, args...)...); status != 2 {
			t.Errorf("prove %v: status %d, %s", args, status, errs)
		}
	}
	env := map[string]string{"SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_MAX": "7"}
	if got, ok := slurmShard(func(k string) string { return env[k] }); !ok || got != "2/4" {
		t.Errorf("slurm task 5 of 4-7: %q %v", got, ok)
	}
	env = map[string]string{"SLURM_ARRAY_TASK_ID": "0", "SLURM_ARRAY_TASK_COUNT": "16"}
	if got, ok := slurmShard(func(k string) string { return env[k] }); !ok || got != "1/16" {
		t.Errorf("slurm task 0 of 16: %q %v", got, ok)
	}
	if _, ok := slurmShard(func(string) string { return "" }); ok {
		t.Error("a shard without Slurm")
	}
}

// TestProgressLine: on a terminal, prove and cover keep one progress line
// (count, rate, time left) rewritten in place and erased at the end; off a
// terminal they print none.
func TestProgressLine(t *testing.T) {
	saved := isTerminal
	defer func() { isTerminal = saved }()
	for _, args := range [][]string{
		{"cover", "--n", "30"},
		{"prove", "--property", "fun-check", "--n", "30"},
	} {
		isTerminal = func(io.Writer) bool { return true }
		// A small cover run may end in "rules never applied": the
		// progress is what comes before the line is erased for good.
		_, errs, _ := run(t, args...)
		end := strings.LastIndex(errs, "\r\x1b[K")
		progress := errs[:max(end, 0)]
		if !strings.HasPrefix(progress, "\r\x1b[K") || !strings.Contains(progress, "/40 cases") && !strings.Contains(progress, "/30 cases") ||
			!strings.Contains(progress, "cases/s, about") || strings.Contains(progress, "\n") {
			t.Errorf("%v on a terminal: the progress line is not one line rewritten in place and erased: %q", args, errs)
		}
		isTerminal = func(io.Writer) bool { return false }
		if _, errs, _ := run(t, args...); strings.Contains(errs, "\r") {
			t.Errorf("%v off a terminal prints a progress line: %q", args, errs)
		}
	}
}
