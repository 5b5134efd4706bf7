package check

import (
	"bytes"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestSideNotRun: a row that stops at its fuel where others run to the
// end is marked "not run" with its bound and left out of the comparison,
// and the table's verdict says so rather than fail; when every row stops
// at its fuel, the rows agree that the program goes wrong, as before.
func TestSideNotRun(t *testing.T) {
	const src = "input (n : int)\nlet (z : int) = 0\nlet (s : int) = loop (x : int) = (z) for i <= n do\n    let (y : int) = x + i\n    in (y)\nin (s)\n"
	reg := NewRegistry()
	p, err := Load(reg, "loop.fun", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 3000 iterations: within a big-step's fuel of 5000, past a
	// small-step's (two steps an iteration) and gpu-sim's statements.
	rows, verdict := SideBySideWith(reg, p, map[string]string{"n": "3000"}, SideOptions{Fuel: 5000})
	if verdict != nil {
		t.Fatalf("verdict %v", verdict)
	}
	ran, notRun, same := 0, 0, 0
	for _, r := range rows {
		switch {
		case r.SameAs != "":
			same++
		case r.NotRun:
			notRun++
			if r.Semantics == "big" || r.Semantics == "heap" || r.Semantics == "value" {
				t.Errorf("%s %s not run: %v", r.Level, r.Semantics, r.Err)
			}
			if o := r.Outcome(); !strings.HasPrefix(o, "not run: ") || !strings.Contains(o, "5000") {
				t.Errorf("%s %s: outcome %q names no bound", r.Level, r.Semantics, o)
			}
		case r.Err == nil:
			ran++
			if r.Result.Lines[0] != "4501500" {
				t.Errorf("%s %s: %v", r.Level, r.Semantics, r.Result.Lines)
			}
		default:
			t.Errorf("%s %s went wrong: %v", r.Level, r.Semantics, r.Err)
		}
	}
	if ran == 0 || notRun == 0 || NotRuns(rows) != notRun {
		t.Fatalf("%d rows ran, %d not run (NotRuns %d)", ran, notRun, NotRuns(rows))
	}
	var b bytes.Buffer
	PrintRows(&b, rows, verdict)
	want := "verdict: agree: " + strconv.Itoa(ran) + " runs give the same results; " + strconv.Itoa(notRun) + " rows not run past their bounds (--fuel N, --max-memory)"
	if same > 0 {
		want += "; " + strconv.Itoa(same) + " levels the same program as an earlier level, not run again"
	}
	if !strings.Contains(b.String(), want) {
		t.Errorf("table:\n%s\nwant the verdict %q", b.String(), want)
	}

	// Every row out of fuel: none is marked, they agree in going wrong.
	rows, verdict = SideBySideWith(reg, p, map[string]string{"n": "1000000000000000000"}, SideOptions{Fuel: 100})
	if verdict != nil || NotRuns(rows) != 0 {
		t.Fatalf("verdict %v, %d not run", verdict, NotRuns(rows))
	}
	b.Reset()
	PrintRows(&b, rows, verdict)
	if !strings.Contains(b.String(), "verdict: agree: every level and semantics goes wrong (out of fuel)") {
		t.Errorf("table:\n%s", b.String())
	}
}

// TestSideRulesFuel: with no --fuel, the rows of the rules as written
// (FUN's, FUNMEM's and IMP's tree walkers) stop at RulesFuel iterations
// and are marked "not run", where the engines run the program to the end;
// --fuel runs them.
func TestSideRulesFuel(t *testing.T) {
	const src = "input (n : int)\nlet (z : int) = 0\nlet (s : int) = loop (x : int) = (z) for i <= n do\n    let (y : int) = x + i\n    in (y)\nin (s)\n"
	reg := NewRegistry()
	p, err := Load(reg, "loop.fun", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	n := map[string]string{"n": strconv.Itoa(RulesFuel + 1)}
	rows, verdict := SideBySideWith(reg, p, n, SideOptions{Semantics: []string{"big", "heap", "rules"}})
	if verdict != nil {
		t.Fatalf("verdict %v", verdict)
	}
	rules := 0
	for _, r := range rows {
		if r.Semantics == "rules" {
			rules++
		}
		if (r.Semantics == "rules") != r.NotRun {
			t.Errorf("%s %s: not run %v (%v)", r.Level, r.Semantics, r.NotRun, r.Err)
		}
	}
	if rules < 3 {
		t.Errorf("%d rules rows", rules)
	}
	rows, verdict = SideBySideWith(reg, p, n, SideOptions{Semantics: []string{"rules"}, Fuel: 2 * RulesFuel})
	if verdict != nil || NotRuns(rows) != 0 {
		t.Errorf("with --fuel: verdict %v, %d not run", verdict, NotRuns(rows))
	}
}

// TestSideNotRunMemory: a row whose allocation is past --max-memory
// where the fused levels allocate nothing of that size is marked "not
// run" with the limit, not a disagreement. Not parallel: the limit is
// the process's.
func TestSideNotRunMemory(t *testing.T) {
	const src = "input (n : int)\nlet (xs : [n]) = iota n\nlet (ys : [n]) = kernel i <= n do\n    let (x : int) = xs[i]\n    let (y : int) = x * x\n    in (y)\nlet (zero : int) = 0\nlet (t : int) = reduce (p : int) (q : int) = zero over ys do\n    let (r : int) = p + q\n    in (r)\nin (t)\n"
	reg := NewRegistry()
	p, err := Load(reg, "sq.fun", src, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer semantics.SetMaxMemory(semantics.MaxMemory())
	semantics.SetMaxMemory(16 << 10) // 2048 elements: FUN's iota of 3000 is past it
	rows, verdict := SideBySideWith(reg, p, map[string]string{"n": "3000"}, SideOptions{})
	if verdict != nil {
		t.Fatalf("verdict %v", verdict)
	}
	if r := rows[0]; r.Level != "FUN source" || !r.NotRun || !strings.HasPrefix(r.Outcome(), "not run: sq.fun:2:18: E-IOTA: ") || !strings.Contains(r.Outcome(), "exceeds --max-memory 16.0 KiB") {
		t.Errorf("first row %s %s: %s", r.Level, r.Semantics, r.Outcome())
	}
	ran := 0
	for _, r := range rows {
		if !r.NotRun && r.ran() {
			ran++
			if r.Err != nil || r.Result.Lines[0] != "9004500500" {
				t.Errorf("%s %s: %s", r.Level, r.Semantics, r.Outcome())
			}
		}
	}
	if ran == 0 {
		t.Errorf("no row ran")
	}

	// Only the small-steps, on little fuel: FUN's stops at the limit,
	// the fused levels' at their fuel. Every row stopped at a bound,
	// not all at the same kind: they agree, and the verdict says so (it
	// was a disagreement: "go wrong differently").
	rows, verdict = SideBySideWith(reg, p, map[string]string{"n": "3000"}, SideOptions{Semantics: []string{"small"}, Fuel: 100})
	if verdict != nil {
		t.Fatalf("verdict %v", verdict)
	}
	kinds := map[bool]int{}
	for _, r := range rows {
		if r.ran() {
			kinds[semantics.PastMaxMemory(r.Err)]++
		}
	}
	if kinds[true] == 0 || kinds[false] == 0 {
		t.Fatalf("rows past the limit and out of fuel: %v", kinds)
	}
	var b bytes.Buffer
	PrintRows(&b, rows, verdict)
	if !strings.Contains(b.String(), "verdict: agree: every level and semantics stops at its bound (out of fuel, or past --max-memory") {
		t.Errorf("table:\n%s", b.String())
	}
}

// TestSideProgress: the progress hook hears of every row as it starts,
// numbered, with the total known from the start.
func TestSideProgress(t *testing.T) {
	reg := NewRegistry()
	p, err := Load(reg, "m.fun", "input (n : int)\nlet (m : int) = n + 1\nin (m)\n", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var heard []string
	rows, verdict := SideBySideWith(reg, p, map[string]string{"n": "1"}, SideOptions{Only: []string{"fun", "imp"},
		Progress: func(row, rows int, level, sem string) {
			heard = append(heard, strconv.Itoa(row)+"/"+strconv.Itoa(rows)+" "+level+" "+sem)
		}})
	// The levels whose program is an earlier one's are not run, and not
	// heard of.
	rows = slices.DeleteFunc(rows, func(r Row) bool { return r.SameAs != "" })
	if verdict != nil || len(heard) != len(rows) || len(rows) == 0 {
		t.Fatalf("verdict %v, %d rows, heard %v", verdict, len(rows), heard)
	}
	for i, r := range rows {
		if want := strconv.Itoa(i+1) + "/" + strconv.Itoa(len(rows)) + " " + r.Level + " " + r.Semantics; heard[i] != want {
			t.Errorf("heard %q, want %q", heard[i], want)
		}
	}
}

// TestSideCUDARows: side-by-side's CUDA rows (gpu-sim) show the one line
// the interpreter gives at IMP, for the same variant, the source
// program's position and rule, not a line of the emitted file nor the
// file name twice; the verdict is unchanged: every level goes wrong
// (stuck). On examples/fun/stuck_bound.fun (k < n): unexpanded, the
// thread's allocation of a negative size; expanded, where every thread's
// part has the largest size, the thread's kernel of a negative bound.
func TestSideCUDARows(t *testing.T) {
	src, err := os.ReadFile("../examples/fun/stuck_bound.fun")
	if err != nil {
		t.Fatal(err)
	}
	reg := NewRegistry()
	p, err := Load(reg, "examples/fun/stuck_bound.fun", string(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, verdict := SideBySideWith(reg, p, map[string]string{"n": "4", "k": "2"}, SideOptions{Only: []string{"imp", "cuda"}, Semantics: []string{"big", "sim"}})
	if verdict != nil {
		t.Fatalf("verdict %v", verdict)
	}
	want := map[string]string{ // by variant: the level's name between the language and "after"
		"":               "error: examples/fun/stuck_bound.fun:17:5: E-IMP-ALLOC: allocation of negative size -1",
		"expanded (gpu)": "error: examples/fun/stuck_bound.fun:18:7: E-IMP-KERNEL: kernel bound len = -1 is negative",
		"expanded (cpu)": "error: examples/fun/stuck_bound.fun:18:7: E-IMP-KERNEL: kernel bound len = -1 is negative",
	}
	variant := func(level string) string {
		_, rest, _ := strings.Cut(level, " ")
		v, _, _ := strings.Cut(rest, "after ")
		return strings.TrimSpace(v)
	}
	imp, cuda := 0, 0
	for _, r := range rows {
		w, ok := want[variant(r.Level)]
		if !ok {
			t.Errorf("a row of no variant the test knows: %s", r.Level)
			continue
		}
		if r.SameAs != "" && want[variant(r.SameAs)] != w {
			// A level that is an earlier one's program (a layout that
			// expands it alike) is not run: it must be one that goes
			// wrong as this one would.
			t.Errorf("%s: %s, whose error is not the one this level wants, %s", r.Level, r.Outcome(), w)
		}
		switch {
		case strings.HasPrefix(r.Level, "IMP "):
			imp++
			if r.SameAs == "" && r.Outcome() != w {
				t.Errorf("%s %s: %s; the test wants %s", r.Level, r.Semantics, r.Outcome(), w)
			}
		case strings.HasPrefix(r.Level, "CUDA "):
			cuda++
			if r.SameAs == "" && (r.Outcome() != w || kind(r.Err) != semantics.StuckError) {
				t.Errorf("%s %s: %s (%v); want %s, stuck", r.Level, r.Semantics, r.Outcome(), kind(r.Err), w)
			}
		}
	}
	if cuda != 3 || imp == 0 {
		t.Errorf("%d CUDA rows, %d IMP rows; want 3 CUDA rows (the level, expanded for the gpu and the cpu) and their IMP rows", cuda, imp)
	}
	var b bytes.Buffer
	PrintRows(&b, rows, verdict)
	if !strings.Contains(b.String(), "verdict: agree: every level and semantics goes wrong (stuck)") {
		t.Errorf("table:\n%s", b.String())
	}
}
