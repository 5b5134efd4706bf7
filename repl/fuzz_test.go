package repl

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// FuzzSession types arbitrary lines at a session: each line of the input
// is one Exec. The session recovers a panic in a command and reports
// "internal error"; that report fails the target, as a panic would. The
// session runs with 10 000 steps of fuel and 64 MB of memory; inputs over
// 4 KB or 64 lines are skipped, a :set fuel line is dropped (the fuel
// stays small), and so is a :load of anything but an example. The seeds are the inputs of
// the transcripts in testdata, cut at each :load and :lang. `go test -fuzz
// FuzzSession ./repl` searches further.
func FuzzSession(f *testing.F) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	for _, path := range paths {
		data, _ := os.ReadFile(path)
		var chunk []string
		flush := func() {
			if len(chunk) > 0 {
				f.Add(strings.Join(chunk, "\n"))
			}
			chunk = nil
		}
		for _, l := range strings.Split(string(data), "\n") {
			if l != ">" && !strings.HasPrefix(l, "> ") {
				continue
			}
			in := strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ")
			if strings.HasPrefix(in, ":load") || strings.HasPrefix(in, ":lang") || len(chunk) >= 40 {
				flush()
			}
			chunk = append(chunk, in)
		}
		flush()
	}
	f.Fuzz(func(t *testing.T, input string) {
		lines := strings.Split(input, "\n")
		if len(input) > 4096 || len(lines) > 64 {
			return
		}
		kept := lines[:0]
		for _, l := range lines {
			fields := strings.Fields(l)
			if len(fields) > 0 && fields[0] == ":load" && (len(fields) != 2 || !fuzzExample.MatchString(fields[1])) {
				continue
			}
			if len(fields) > 0 && fields[0] == ":set" && strings.Contains(l, "fuel") {
				continue
			}
			kept = append(kept, l)
		}
		lines = kept
		defer semantics.SetMaxMemory(semantics.MaxMemory())
		semantics.SetMaxMemory(64 << 20)
		var buf bytes.Buffer
		s := NewSession(&buf, Options{Fuel: 10_000})
		defer s.stopStepper()
		for _, l := range lines {
			quit := s.Exec(l)
			if strings.Contains(buf.String(), "internal error") {
				t.Fatalf("after %q:\n%s", l, buf.String())
			}
			buf.Reset()
			if quit {
				break
			}
		}
	})
}

// fuzzExample is a file :load may read: one of the examples.
var fuzzExample = regexp.MustCompile(`^\.\./examples/[a-z-]+/[a-z0-9_]+\.[a-z]+$`)
