//go:build robust

package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The mutation campaign of issue 32, kept as a tool anyone can rerun:
//
//	go test -tags robust ./internal/cli -run TestMutationCampaign -timeout 2h
//
// Every example program is mutated (ARRAYSEM_CAMPAIGN_N mutants each,
// default 5, seeded by ARRAYSEM_CAMPAIGN_SEED, default 1) and each mutant
// goes through check, run, small-step run and compile --to cuda as the
// arraysem command (this test binary run again), under --max-memory
// 1GiB and a 60-second bound; and each example's CUDA (what compile --to
// cuda emits for it, or the .cu file itself) is mutated as many times,
// each mutant run by gpu-sim. A run fails the campaign when it exits
// outside {0, 1, 2}, prints a panic, a Go stack or an internal error, or
// passes the bound; the totals are logged (go test -v), as
// docs/robustness.md records them.

// campaignChild is the environment variable that makes the test binary
// the arraysem command.
const campaignChild = "ARRAYSEM_CAMPAIGN_CHILD"

// campaignTokens are what a mutation inserts: brackets, keywords and the
// sizes and numbers that found the bugs.
var campaignTokens = []string{"(", ")", "[", "]", " ", "\n", "0", "-1", "1.5", "99999999999", "9223372036854775807",
	"4611686018427387904", "(iota [400000000])", "iota", "kernel", "let", "in", "reduce", "#t", "(expt 9 10000)",
	"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]", "{", "}", ":", "@", "+", "*", "/"}

// mutate is src with one to three edits: a span deleted or duplicated, a
// token inserted, a number replaced by a large one, two lines swapped.
func mutate(r *rand.Rand, src string) string {
	for range 1 + r.Intn(3) {
		if len(src) == 0 {
			return campaignTokens[r.Intn(len(campaignTokens))]
		}
		i := r.Intn(len(src))
		j := min(len(src), i+1+r.Intn(10))
		switch r.Intn(5) {
		case 0:
			src = src[:i] + src[j:]
		case 1:
			src = src[:j] + src[i:j] + src[j:]
		case 2:
			src = src[:i] + campaignTokens[r.Intn(len(campaignTokens))] + src[i:]
		case 3:
			nums := fuzzDigits(src)
			if len(nums) > 0 {
				at := nums[r.Intn(len(nums))]
				src = src[:at[0]] + campaignTokens[8+r.Intn(3)] + src[at[1]:]
			}
		case 4:
			lines := strings.Split(src, "\n")
			a, b := r.Intn(len(lines)), r.Intn(len(lines))
			lines[a], lines[b] = lines[b], lines[a]
			src = strings.Join(lines, "\n")
		}
	}
	return src
}

// fuzzDigits are the spans of the runs of digits in s.
func fuzzDigits(s string) [][2]int {
	var out [][2]int
	for i := 0; i < len(s); {
		if s[i] < '0' || s[i] > '9' {
			i++
			continue
		}
		j := i
		for j < len(s) && s[j] >= '0' && s[j] <= '9' {
			j++
		}
		out = append(out, [2]int{i, j})
		i = j
	}
	return out
}

func TestMutationCampaign(t *testing.T) {
	if os.Getenv(campaignChild) != "" {
		args := os.Args[1:]
		for i, a := range args {
			if a == "--" {
				args = args[i+1:]
				break
			}
		}
		go watchMemory(os.Stderr)
		os.Exit(Main(args, os.Stdout, os.Stderr))
	}
	n, seed := 5, int64(1)
	if v, err := strconv.Atoi(os.Getenv("ARRAYSEM_CAMPAIGN_N")); err == nil {
		n = v
	}
	if v, err := strconv.ParseInt(os.Getenv("ARRAYSEM_CAMPAIGN_SEED"), 10, 64); err == nil {
		seed = v
	}
	files, _ := filepath.Glob(filepath.Join("examples", "*", "*")) // the tests run at the repository root (main_test.go)
	r := rand.New(rand.NewSource(seed))
	dir := t.TempDir()
	commands := [][]string{{"check"}, {"run"}, {"run", "--semantics", "small", "--fuel", "100000"}, {"compile", "--to", "cuda"}}
	var runs, crashes, badExits, hangs int
	status := map[int]int{}
	start := time.Now()
	child := func(ctx context.Context, args ...string) *exec.Cmd {
		cmd := exec.CommandContext(ctx, os.Args[0], append([]string{"-test.run=^TestMutationCampaign$", "--"}, args...)...)
		cmd.Env = append(os.Environ(), campaignChild+"=1")
		return cmd
	}
	for _, file := range files {
		ext := filepath.Ext(file)
		if !strings.Contains(".fun .funmem .imp .remora .cu", ext) || ext == "" {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		type variant struct {
			ext, src string
			commands [][]string
		}
		variants := []variant{{ext, string(src), commands}}
		cudaRun := [][]string{{"gpu-sim"}}
		if ext == ".cu" {
			variants = []variant{{ext, string(src), cudaRun}}
		} else if abs, err := filepath.Abs(file); err == nil {
			// The child starts where this test was started and moves to
			// the repository's root as this one did: give it the whole path.
			if cu, err := child(context.Background(), "compile", abs, "--to", "cuda").Output(); err == nil {
				variants = append(variants, variant{".cu", string(cu), cudaRun})
			}
		}
		for _, v := range variants {
			for k := range n {
				ext := v.ext
				m := filepath.Join(dir, fmt.Sprintf("m%d%s", k, ext))
				if err := os.WriteFile(m, []byte(mutate(r, v.src)), 0o644); err != nil {
					t.Fatal(err)
				}
				for _, c := range v.commands {
					args := append(append([]string{c[0], m}, c[1:]...), "--max-memory", "1GiB")
					ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
					cmd := child(ctx, args...)
					var out bytes.Buffer
					cmd.Stdout, cmd.Stderr = &out, &out
					err := cmd.Run()
					timedOut := ctx.Err() != nil
					cancel()
					runs++
					code := 0
					var ee *exec.ExitError
					if errors.As(err, &ee) {
						code = ee.ExitCode()
					}
					status[code]++
					text := out.String()
					keep := func(what string) {
						saved := filepath.Join(os.TempDir(), fmt.Sprintf("campaign-%s-%d-%d%s", filepath.Base(file), seed, k, ext))
						data, _ := os.ReadFile(m)
						os.WriteFile(saved, data, 0o644)
						t.Errorf("%s: %s of a mutant of %s (kept as %s):\n%.2000s", strings.Join(c, " "), what, file, saved, text)
					}
					switch {
					case timedOut:
						hangs++
						keep("past 60 s")
					case strings.Contains(text, "panic") || strings.Contains(text, "goroutine ") || strings.Contains(text, "internal error"):
						crashes++
						keep("a crash")
					case code != 0 && code != 1 && code != 2:
						badExits++
						keep(fmt.Sprintf("exit status %d", code))
					}
				}
			}
		}
	}
	t.Logf("%d mutants of each example, seed %d: %d runs in %v; exit statuses %v; %d crashes, %d exit statuses outside {0, 1, 2}, %d past 60 s",
		n, seed, runs, time.Since(start).Round(time.Second), status, crashes, badExits, hangs)
}
