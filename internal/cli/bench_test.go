package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/bench"
)

// TestBenchTable: `arraysem bench --quick --row R` prints the header
// lines, then a table whose header is bench.Header and which has one row,
// R's, with a cell in every column and a verdict; --json writes the same
// row. It checks the table's shape, never its numbers (speed is the bench
// command's business, not a test's).
func TestBenchTable(t *testing.T) {
	file := filepath.Join(t.TempDir(), "bench.json")
	out, errs, status := run(t, "bench", "--quick", "--row", "lambda-map", "--json", file)
	if status != 0 || errs != "" {
		t.Fatalf("bench: status %d\n%s%s", status, out, errs)
	}
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	if len(lines) < 5 || !strings.Contains(lines[0], "cores") || !strings.HasPrefix(lines[1], "times: ") || lines[2] != "" {
		t.Fatalf("bench: want two lines on the machine and the clock, a blank line, then the table:\n%s", out)
	}
	header := strings.Fields(lines[3])
	if strings.Join(header, " ") != strings.Join(bench.Header, " ") {
		t.Errorf("bench: header %q, want %q", header, bench.Header)
	}
	row := lines[4]
	if !strings.HasPrefix(row, "lambda-map ") {
		t.Fatalf("bench: the table's row is %q, want lambda-map's", row)
	}
	// The columns line up: every cell starts where its header does
	// (counted in runes: the cells have λ, µ, ×, ≤).
	hr, rr := []rune(lines[3]), []rune(row)
	starts := []int{0}
	for i := 1; i < len(hr); i++ {
		if hr[i-1] == ' ' && hr[i] != ' ' {
			starts = append(starts, i)
		}
	}
	if len(starts) != len(bench.Header) {
		t.Fatalf("bench: %d header cells, want %d", len(starts), len(bench.Header))
	}
	var cells []string
	for i, at := range starts {
		end := len(rr)
		if i+1 < len(starts) {
			end = starts[i+1]
		}
		if at >= len(rr) || rr[at] == ' ' || (at > 0 && rr[at-1] != ' ') {
			t.Fatalf("bench: no cell under %q in\n%s\n%s", bench.Header[i], lines[3], row)
		}
		cells = append(cells, strings.TrimSpace(string(rr[at:min(end, len(rr))])))
	}
	if met := cells[len(cells)-1]; met != "yes" && met != "no" && met != "yes (est.)" && met != "no (est.)" {
		t.Errorf("bench: the met cell is %q, want yes or no", met)
	}
	if len(lines) > 5 && lines[5] != "" {
		t.Errorf("bench: one row asked for, more printed:\n%s", out)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var rep bench.Report
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatalf("bench --json: %v\n%s", err, b)
	}
	if len(rep.Rows) != 1 || rep.Rows[0].Row != "lambda-map" || len(rep.Rows[0].Samples) == 0 || !rep.Quick {
		t.Errorf("bench --json: want lambda-map's row with its samples, got %s", b)
	}
}

// TestBenchBadFlags: an unknown row, an unknown clock and a --json file
// that cannot be written are one-line usage errors (exit 2), before any
// row is measured (nothing on stdout).
func TestBenchBadFlags(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--row", "bogus"}, "no row"},
		{[]string{"--clock", "x"}, "want cpu or wall"},
		{[]string{"--row", "small-map", "--json", filepath.Join(t.TempDir(), "no", "dir", "f.json")}, "--json"},
	} {
		out, errs, status := run(t, append([]string{"bench"}, c.args...)...)
		if status != 2 || !strings.Contains(errs, c.want) || strings.Count(strings.TrimSpace(errs), "\n") > 1 || out != "" {
			t.Errorf("bench %s: status %d, stdout %q, stderr %q; want exit 2 and a usage error naming %q", strings.Join(c.args, " "), status, out, errs, c.want)
		}
	}
}
