package interchange_test

import (
	"flag"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/fun/interchange"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/internal/passtest"
	"github.com/arraysem/arraysem/semantics"
)

var update = flag.Bool("update", false, "rewrite the parts of testdata/interchange.txt after -- interchanged:")

// mark separates a chunk of testdata/interchange.txt from what
// Interchange makes of it.
const mark = "-- interchanged:"

// TestInterchangeGolden runs testdata/interchange.txt: each chunk is a
// program with its cases, then the program Interchange makes of it and
// its notes. The program made must be the one expected, type check,
// print back, and give every case the values the program gives, or get
// stuck where it does, under both semantics. -update rewrites the
// expected parts.
func TestInterchangeGolden(t *testing.T) {
	path := "testdata/interchange.txt"
	if *update {
		passtest.RewriteStable(t, path, mark, func(t *testing.T, path string) map[int]string {
			got := map[int]string{}
			for _, c := range golden.Read(t, path, "--") {
				src, _, _ := strings.Cut(c.Src, "\n"+mark+"\n")
				_, q, notes := run(t, c.File, src)
				got[c.Line] = render(q, notes)
			}
			return got
		})
	}
	for _, c := range golden.Read(t, path, "--") {
		t.Run(c.Name(), func(t *testing.T) {
			src, want := passtest.Expected(t, c, mark)
			p, q, notes := run(t, c.File, src)
			if got := render(q, notes); strings.TrimSpace(got) != strings.TrimSpace(want) {
				t.Errorf("%s:%d: the program made differs (go test ./fun/interchange -update rewrites it)\ngot:\n%s\nwant:\n%s", c.File, c.Line, got, want)
			}
			spec, err := check.ParseSpec(src, "--")
			if err != nil || len(spec.Cases) == 0 {
				t.Fatalf("%s:%d: no cases: %v", c.File, c.Line, err)
			}
			for _, msg := range passtest.RunsAgree(p, q, "interchanged", spec.Cases, nil, func(string, bool, *semantics.Stats, *semantics.Stats) []string { return nil }) {
				t.Error(msg)
			}
		})
	}
}

func run(t *testing.T, file, src string) (*fun.Program, *fun.Program, []string) {
	t.Helper()
	p, err := fun.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	q, notes := interchange.Interchange(p)
	return p, q, notes
}

func render(q *fun.Program, notes []string) string {
	var b strings.Builder
	b.WriteString(fun.Print(q))
	if len(notes) == 0 {
		b.WriteString("-- notes: none\n")
	}
	for _, n := range notes {
		b.WriteString("-- note: " + n + "\n")
	}
	return b.String()
}
