package check

import (
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// A golden test is a program file whose header, after a comment line
// "-- ==" (";; ==" in Remora), lists cases in the manner of Futhark's test
// blocks:
//
//	-- ==
//	-- input { n=3 xs=[1 2 3] }
//	-- output { 3 [2 4 6] }
//	-- input { n=0 xs=[] }
//	-- error: E-INDEX: index 1 out of bounds
//
// An output block lists the expected results in order; error: gives a
// regular expression the error line must match. A case without an input
// block runs with no --arg. A semantics: line restricts the semantics the
// following cases run under (by default, every one the language has); an
// error: with no input before it is a load-time (parse or type) error.
type Case struct {
	Line      int               // line of the case in the file
	Args      map[string]string // the input block
	Output    []string          // expected values, normalised
	Error     *regexp.Regexp    // expected error, instead of output
	Semantics []string          // nil: all
}

// Spec is the parsed header of a golden test file.
type Spec struct {
	Cases     []*Case
	LoadError *regexp.Regexp // expected parse or type error
}

// ParseSpec reads the test block of a source file. A file without one has
// no cases.
func ParseSpec(src string) (*Spec, error) {
	spec := &Spec{}
	lines := strings.Split(src, "\n")
	in := false
	var sems []string
	var pending *Case
	for i := 0; i < len(lines); i++ {
		text, ok := commentText(lines[i])
		if !ok {
			if in {
				break
			}
			continue
		}
		if text == "==" {
			in = true
			continue
		}
		if !in {
			continue
		}
		start := i + 1 // the case's line, before a block spanning lines moves i
		// Gather a brace block that spans lines.
		for strings.Count(text, "{") > strings.Count(text, "}") && i+1 < len(lines) {
			more, ok := commentText(lines[i+1])
			if !ok {
				break
			}
			i++
			text += " " + more
		}
		switch {
		case text == "":
		case strings.HasPrefix(text, "semantics:"):
			sems = strings.Fields(strings.TrimPrefix(text, "semantics:"))
		case strings.HasPrefix(text, "input"):
			body, err := braces(text, "input")
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			args, err := parseArgs(body)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			pending = &Case{Line: start, Args: args, Semantics: sems}
		case strings.HasPrefix(text, "output"):
			body, err := braces(text, "output")
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			vals, err := splitValues(body)
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			c := pending
			if c == nil {
				c = &Case{Line: start, Args: map[string]string{}, Semantics: sems}
			}
			c.Output = vals
			spec.Cases = append(spec.Cases, c)
			pending = nil
		case strings.HasPrefix(text, "error:"):
			re, err := regexp.Compile(strings.TrimSpace(strings.TrimPrefix(text, "error:")))
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", i+1, err)
			}
			if pending == nil {
				spec.LoadError = re
				continue
			}
			pending.Error = re
			spec.Cases = append(spec.Cases, pending)
			pending = nil
		default:
			return nil, fmt.Errorf("line %d: expected input, output, error: or semantics:, found %q", i+1, text)
		}
	}
	if pending != nil {
		return nil, fmt.Errorf("line %d: input block without output or error", pending.Line)
	}
	return spec, nil
}

func commentText(line string) (string, bool) {
	t := strings.TrimSpace(line)
	for _, p := range []string{"--", ";;", ";"} {
		if strings.HasPrefix(t, p) {
			return strings.TrimSpace(t[len(p):]), true
		}
	}
	return "", false
}

func braces(text, kw string) (string, error) {
	rest := strings.TrimSpace(strings.TrimPrefix(text, kw))
	if !strings.HasPrefix(rest, "{") || !strings.HasSuffix(rest, "}") {
		return "", fmt.Errorf("%s needs a { … } block", kw)
	}
	return strings.TrimSpace(rest[1 : len(rest)-1]), nil
}

// splitValues splits "3 [1 2 3] [[1] [2]]" into normalised values.
func splitValues(s string) ([]string, error) {
	var out []string
	depth, start := 0, -1
	inStr := false
	emit := func(tok string) error {
		// An int array literal is normalised ([1  2] is [1 2]); any other
		// value (Remora's booleans, chars, strings, floats, boxes) is
		// compared as printed.
		v, err := semantics.ParseValue(tok)
		switch {
		case err == nil:
			tok = v.String()
		case strings.Trim(tok, "0123456789-[] ") == "":
			return err // an int array, but a malformed one ([1 [2]])
		}
		out = append(out, tok)
		return nil
	}
	rs := []rune(s + " ")
	for i := 0; i < len(rs); i++ {
		r := rs[i]
		if inStr {
			if r == '\\' {
				i++
			} else if r == '"' {
				inStr = false
			}
			continue
		}
		switch {
		case r == '"':
			if start < 0 {
				start = i
			}
			inStr = true
		case r == '#' && i+1 < len(rs) && rs[i+1] == '\\':
			if start < 0 {
				start = i
			}
			i += 2
		case r == '[' || r == '(':
			if depth == 0 && start < 0 {
				start = i
			}
			depth++
		case r == ']' || r == ')':
			depth--
		case r == ' ' || r == '\t':
			if depth == 0 && start >= 0 {
				if err := emit(string(rs[start:i])); err != nil {
					return nil, err
				}
				start = -1
			}
		default:
			if start < 0 {
				start = i
			}
		}
	}
	if depth != 0 {
		return nil, fmt.Errorf("unbalanced brackets in %q", s)
	}
	return out, nil
}

// parseArgs reads "n=3 xs=[1 2 3]".
func parseArgs(s string) (map[string]string, error) {
	args := map[string]string{}
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		eq := strings.IndexByte(s, '=')
		if eq <= 0 {
			return nil, fmt.Errorf("expected name=value in %q", s)
		}
		name := strings.TrimSpace(s[:eq])
		rest := strings.TrimLeft(s[eq+1:], " ")
		end, depth := len(rest), 0
		for i, r := range rest {
			if r == '[' {
				depth++
			} else if r == ']' {
				depth--
			} else if r == ' ' && depth == 0 {
				end = i
				break
			}
		}
		args[name] = rest[:end]
		s = rest[end:]
	}
	return args, nil
}

// Outcome counts a golden run: checks passed and failed, and files with
// no test block (nothing to check; said, not failed).
type Outcome struct{ Passed, Failed, Untested int }

// RunGolden runs every golden test under dir (files in a language arraysem
// knows), reporting each failure and a summary line to w.
func RunGolden(dir string, w io.Writer, verbose bool) (Outcome, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if slices.Contains(Registry.Extensions(), strings.ToLower(filepath.Ext(path))) {
				files = append(files, path)
			}
		}
		return nil
	})
	if err != nil {
		return Outcome{}, err
	}
	sort.Strings(files)
	var out Outcome
	for _, f := range files {
		if src, err := os.ReadFile(f); err == nil {
			if spec, err := ParseSpec(string(src)); err == nil && len(spec.Cases) == 0 && spec.LoadError == nil {
				fmt.Fprintf(w, "note %s: no test block (a -- == or ;; == header with input/output lines), nothing to check\n", f)
				out.Untested++
				continue
			}
		}
		fails, n := RunGoldenFile(f)
		for _, msg := range fails {
			fmt.Fprintf(w, "FAIL %s\n", msg)
		}
		out.Failed += len(fails)
		out.Passed += n - len(fails)
		if verbose && len(fails) == 0 {
			fmt.Fprintf(w, "ok   %s (%s)\n", f, semantics.Plural(n, "check"))
		}
	}
	if out.Untested > 0 {
		fmt.Fprintf(w, "%s without a test block\n", semantics.Plural(out.Untested, "file"))
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", out.Passed, out.Failed)
	return out, nil
}

// RunGoldenFile runs one file's cases under every semantics that applies;
// it returns the failures and the number of checks made.
func RunGoldenFile(file string) (fails []string, checks int) {
	src, err := os.ReadFile(file)
	if err != nil {
		return []string{err.Error()}, 1
	}
	spec, err := ParseSpec(string(src))
	if err != nil {
		return []string{file + ": test block: " + err.Error()}, 1
	}
	l, err := Load(file, string(src), Options{})
	if spec.LoadError != nil || err != nil {
		checks++
		switch {
		case err == nil:
			return []string{fmt.Sprintf("%s: expected the error %q, but it loads", file, spec.LoadError)}, checks
		case spec.LoadError == nil:
			return []string{fmt.Sprintf("%s: %v", file, err)}, checks
		case !spec.LoadError.MatchString(err.Error()):
			return []string{fmt.Sprintf("%s: expected an error matching %q, got %v", file, spec.LoadError, err)}, checks
		}
		return nil, checks
	}
	if len(spec.Cases) == 0 {
		return []string{file + ": no test block (-- == followed by input/output lines)"}, 1
	}
	for _, c := range spec.Cases {
		sems := c.Semantics
		if sems == nil {
			sems = l.Semantics()
		}
		for _, sem := range sems {
			checks++
			where := fmt.Sprintf("%s:%d (%s)", file, c.Line, sem)
			r, err := l.Run(lang.RunOptions{Semantics: sem, Args: c.Args})
			if msg := compare(c, r, err); msg != "" {
				fails = append(fails, where+": "+msg)
			}
		}
	}
	return fails, checks
}

func compare(c *Case, r *lang.Result, err error) string {
	if c.Error != nil {
		if err == nil {
			return fmt.Sprintf("expected an error matching %q, got { %s }", c.Error, strings.Join(r.Lines, " "))
		}
		if !c.Error.MatchString(err.Error()) {
			return fmt.Sprintf("expected an error matching %q, got %v", c.Error, err)
		}
		return ""
	}
	if err != nil {
		return "unexpected error: " + err.Error()
	}
	got := r.Lines
	if strings.Join(got, " ") != strings.Join(c.Output, " ") {
		return fmt.Sprintf("expected output { %s }, got { %s }", strings.Join(c.Output, " "), strings.Join(got, " "))
	}
	return ""
}
