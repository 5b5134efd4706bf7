package cli

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestReadme runs the commands README.md shows, so that it cannot drift:
// every line of an indented code block that starts with ./arraysem runs
// (from the repository's root, as after `go build -o arraysem .`) and must
// exit 0, unless the block marks it with "$ " and shows its error; a line
// starting with "$ ./arraysem" is followed by its output, compared line by
// line. In compared output, durations (12µs, 3.4ms) match any duration,
// runs of blanks match any run of blanks, and a line "…" matches any lines.
// A command may end with "> FILE" (its output goes to FILE, in a scratch
// directory that later commands' FILE arguments refer to) and with a
// "# comment". Lines of other commands (go, clang, nvcc) are not run here.
func TestReadme(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	made := map[string]string{} // FILE → its path in scratch
	lines := strings.Split(string(data), "\n")
	ran := 0
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if !strings.HasPrefix(l, "    ") {
			continue
		}
		cmd := strings.TrimPrefix(l, "    ")
		compared := strings.HasPrefix(cmd, "$ ./arraysem ") || strings.HasPrefix(cmd, "$ printf '")
		if !compared && !strings.HasPrefix(cmd, "./arraysem ") {
			continue
		}
		cmd = strings.TrimPrefix(cmd, "$ ")
		var want []string
		if compared {
			isOutput := func(k int) bool {
				body := strings.TrimPrefix(lines[k], "    ")
				return strings.HasPrefix(lines[k], "    ") && !strings.HasPrefix(body, "$ ") && !strings.HasPrefix(body, "./arraysem ")
			}
			for i+1 < len(lines) {
				if isOutput(i + 1) {
					i++
					want = append(want, strings.TrimPrefix(lines[i], "    "))
					continue
				}
				// A blank line inside the output, when more output follows.
				if lines[i+1] == "" && i+2 < len(lines) && isOutput(i+2) {
					i++
					want = append(want, "")
					continue
				}
				break
			}
			// A block ends at a blank line; blank lines inside the output
			// are kept only when more output follows in the block.
			for len(want) > 0 && strings.TrimSpace(want[len(want)-1]) == "" {
				want = want[:len(want)-1]
			}
		}
		ran++
		runReadmeLine(t, i+1, cmd, compared, want, scratch, made)
	}
	if ran < 20 {
		t.Errorf("only %d README commands found", ran)
	}
}

var durationRe = regexp.MustCompile(`\d+(\.\d+)?(µs|ms|ns|s)\b`)

func runReadmeLine(t *testing.T, line int, cmd string, compared bool, want []string, scratch string, made map[string]string) {
	t.Helper()
	if c, _, ok := strings.Cut(cmd, " # "); ok {
		cmd = c
	}
	input := ""
	if rest, ok := strings.CutPrefix(cmd, "printf '"); ok {
		text, c, ok := strings.Cut(rest, "' | ")
		if !ok {
			t.Fatalf("README.md:%d: printf '…' | ./arraysem … expected", line)
		}
		input, cmd = strings.ReplaceAll(text, `\n`, "\n"), c
	}
	out := ""
	if c, file, ok := strings.Cut(cmd, " > "); ok {
		cmd, out = c, strings.TrimSpace(file)
	}
	words := shellWords(strings.TrimSpace(cmd))[1:]
	for k, w := range words {
		if p, ok := made[w]; ok {
			words[k] = p
		}
	}
	saved := stdin
	stdin = strings.NewReader(input)
	defer func() { stdin = saved }()
	var stdout, stderr bytes.Buffer
	status := Main(words, &stdout, &stderr)
	if out != "" {
		p := filepath.Join(scratch, filepath.Base(out))
		if err := os.WriteFile(p, stdout.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		made[out] = p
	}
	got := strings.Split(strings.TrimRight(stdout.String()+stderr.String(), "\n"), "\n")
	if !compared {
		if status != 0 {
			t.Errorf("README.md:%d: %s: status %d\n%s%s", line, cmd, status, stdout.String(), stderr.String())
		}
		return
	}
	if !matchLines(want, got) {
		t.Errorf("README.md:%d: %s: status %d; README shows\n%s\nbut it prints\n%s", line, cmd, status, strings.Join(want, "\n"), strings.Join(got, "\n"))
	}
	// What README shows implies the exit status: non-zero exactly when
	// it shows an error.
	if shown := slices.ContainsFunc(want, errorLine); shown != (status != 0) {
		t.Errorf("README.md:%d: %s: exits %d, but README shows %s", line, cmd, status, map[bool]string{true: "an error", false: "no error"}[shown])
	}
}

// errorLine reports whether a line of shown output is an error: a
// file:line:col message, the command's own error, or the REPL's.
func errorLine(l string) bool {
	l = strings.TrimSpace(l)
	return positionRe.MatchString(l) ||
		strings.HasPrefix(l, "arraysem: ") && !strings.HasPrefix(l, "arraysem: notice:") ||
		strings.HasPrefix(l, "error: ") || strings.HasPrefix(l, "verdict: disagree")
}

var positionRe = regexp.MustCompile(`^\S+:\d+:\d+: `)

// matchLines compares shown output with printed output: "…" skips any
// lines, durations and runs of blanks are normalised.
func matchLines(want, got []string) bool {
	norm := func(s string) string {
		s = durationRe.ReplaceAllString(s, "T")
		return strings.Join(strings.Fields(s), " ")
	}
	if len(want) == 0 {
		return len(got) == 0 || len(got) == 1 && got[0] == ""
	}
	if strings.TrimSpace(want[0]) == "…" {
		for k := 0; k <= len(got); k++ {
			if matchLines(want[1:], got[k:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && norm(want[0]) == norm(got[0]) && matchLines(want[1:], got[1:])
}

// TestNoOutsideReferences: users have only the repository, so no file in
// it (docs, examples, usage text, comments) may send them to the design
// notes or paper texts the developers keep beside it.
func TestNoOutsideReferences(t *testing.T) {
	outside := regexp.MustCompile(`\.\./shared|shared/papers|\bDESIGN\.md|\bREMORA\.md|papers/[a-z0-9-]+\.txt`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); name == ".git" || (name == "fuzz" && filepath.Base(filepath.Dir(path)) == "testdata") {
				return filepath.SkipDir
			}
			return nil
		}
		if path == "internal/cli/readme_test.go" { // the pattern above names them
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(src), "\n") {
			if m := outside.FindString(line); m != "" {
				t.Errorf("%s:%d: refers to %q, outside the repository", path, i+1, m)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
