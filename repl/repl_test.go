package repl

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the transcripts in testdata/ with the output the session gives (review the diff!)")

// The transcripts in testdata/*.txt are scripted sessions. A line "> X"
// is input X (run from the package directory, so files are ../examples/…);
// the lines after it, up to the next input, are the output expected from
// it. An expected line "~ REGEX" matches an output line by regular
// expression (for timings). Lines starting with "#" before the first
// input are comments.

type exchange struct {
	input []string // consecutive input lines, the last of which gives the output
	want  []string
	line  int
}

func readTranscript(t *testing.T, path string) []*exchange {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []*exchange
	var cur *exchange
	for i, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		switch {
		case cur == nil && strings.HasPrefix(l, "#"):
		case strings.HasPrefix(l, "> ") || l == ">":
			in := strings.TrimPrefix(strings.TrimPrefix(l, ">"), " ")
			if cur != nil && len(cur.want) == 0 {
				cur.input = append(cur.input, in)
				continue
			}
			cur = &exchange{input: []string{in}, line: i + 1}
			out = append(out, cur)
		case cur == nil:
			t.Fatalf("%s:%d: output before any input", path, i+1)
		default:
			cur.want = append(cur.want, l)
		}
	}
	return out
}

func TestTranscripts(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("testdata", "*.txt"))
	if len(paths) == 0 {
		t.Fatal("no transcripts")
	}
	for _, path := range paths {
		t.Run(filepath.Base(path), func(t *testing.T) {
			var buf bytes.Buffer
			s := NewSession(&buf, Options{})
			defer s.stopStepper()
			var rewritten strings.Builder
			for _, ex := range readTranscript(t, path) {
				var got []string
				for _, in := range ex.input {
					fmt.Fprintf(&rewritten, "> %s\n", in)
					quit := s.Exec(in)
					out := buf.String()
					buf.Reset()
					if out != "" {
						lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
						for _, l := range lines {
							// -update keeps a regex line that still matches.
							w := l
							if k := len(got); k < len(ex.want) && strings.HasPrefix(ex.want[k], "~ ") && compare(ex.want[k:k+1], []string{l}) == nil {
								w = ex.want[k]
							}
							rewritten.WriteString(w + "\n")
							got = append(got, l)
						}
					}
					if quit {
						break
					}
				}
				if err := compare(ex.want, got); err != nil {
					t.Errorf("%s:%d: %s: %v\ngot:\n%s", path, ex.line, strings.Join(ex.input, " / "), err, strings.Join(got, "\n"))
				}
			}
			if *update {
				if err := os.WriteFile(path, []byte(keepComments(path)+rewritten.String()), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
}

// keepComments is a transcript's leading comment lines, kept by -update.
func keepComments(path string) string {
	data, _ := os.ReadFile(path)
	var b strings.Builder
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(l, "#") {
			break
		}
		b.WriteString(l + "\n")
	}
	return b.String()
}

func compare(want, got []string) error {
	if len(want) != len(got) {
		return fmt.Errorf("%d lines of output, want %d", len(got), len(want))
	}
	for i, w := range want {
		if re, ok := strings.CutPrefix(w, "~ "); ok {
			if !regexp.MustCompile("^" + re + "$").MatchString(got[i]) {
				return fmt.Errorf("line %d: %q does not match %q", i+1, got[i], re)
			}
			continue
		}
		if w != got[i] {
			return fmt.Errorf("line %d: %q, want %q", i+1, got[i], w)
		}
	}
	return nil
}
