package check

import (
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
	"github.com/arraysem/arraysem/semantics/datafile"
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
// block runs with no --arg. As in Futhark, "input @ FILE" takes a case's
// inputs from a data file (--data FILE, package datafile), and a value of
// an input block may be one, NAME=@FILE (--arg NAME=@FILE); SpecOf reads
// those names relative to the test file. A semantics: line restricts the semantics the
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

// ParseSpec reads the test block of a source file whose line comments
// start with comment (lang.Language's Comment: "--" for FUN, ";" for
// Remora, whose test blocks are written ";;"). A file without one has no
// cases.
func ParseSpec(src, comment string) (*Spec, error) {
	spec := &Spec{}
	lines := strings.Split(src, "\n")
	in := false
	var sems []string
	var pending *Case
	for i := 0; i < len(lines); i++ {
		text, ok := commentText(lines[i], comment)
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
			more, ok := commentText(lines[i+1], comment)
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
			if file, ok := strings.CutPrefix(strings.TrimSpace(strings.TrimPrefix(text, "input")), "@"); ok {
				if file = strings.TrimSpace(file); file == "" {
					return nil, fmt.Errorf("line %d: input @ wants a data FILE", i+1)
				}
				pending = &Case{Line: start, Args: map[string]string{datafile.DataArg: file}, Semantics: sems}
				continue
			}
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

// commentText is a comment line's text after its marker (repeated:
// ";; ==" is "=="), or false for a line that is no comment.
func commentText(line, comment string) (string, bool) {
	t, ok := strings.CutPrefix(strings.TrimSpace(line), comment)
	if !ok {
		return "", false
	}
	return strings.TrimSpace(strings.TrimLeft(t, comment[:1])), true
}

// SpecOf reads the test block of a file in the language reg picks for it;
// the data files its cases name (input @ FILE, NAME=@FILE) are read
// relative to the file.
func SpecOf(reg *lang.Registry, file, src string) (*Spec, error) {
	l, err := reg.Pick(file, src, "", "")
	if err != nil {
		return nil, err
	}
	spec, err := ParseSpec(src, l.Comment())
	if err != nil {
		return nil, err
	}
	spec.Resolve(filepath.Dir(file))
	return spec, nil
}

// Resolve makes the relative names of the data files the cases read
// (input @ FILE, NAME=@FILE) names relative to dir.
func (s *Spec) Resolve(dir string) {
	join := func(f string) string {
		if filepath.IsAbs(f) {
			return f
		}
		return filepath.Join(dir, f)
	}
	for _, c := range s.Cases {
		for k, v := range c.Args {
			if k == datafile.DataArg {
				c.Args[k] = join(v)
			} else if f, ok := strings.CutPrefix(v, "@"); ok {
				c.Args[k] = "@" + join(f)
			}
		}
	}
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
		// value (Remora's booleans, chars, strings, floats, boxes, the
		// dynamic dialect's integers past 64 bits) is compared as
		// printed.
		v, err := semantics.ParseValue(tok)
		switch {
		case err == nil:
			tok = v.String()
		case strings.Trim(tok, "0123456789-[] ") == "" && !strings.Contains(err.Error(), "out of range"):
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
// no test block (nothing to check; said, not failed). With
// GoldenOptions.Levels, the checks at other levels are among them, and
// Levels breaks them down by level.
type Outcome struct {
	Passed, Failed, Untested int
	// Caveats counts the runs at other levels that went on where the
	// source goes wrong, at a level whose program documents that it may
	// (lang.Caveat: IMP and CUDA check no bounds, ERRATA I2): neither
	// passed nor failed.
	Caveats int
	// Refused counts the runs at other levels that stopped on a 64-bit
	// integer overflow where the source computes an exact integer
	// (Row.Refused): neither passed nor failed.
	Refused int
	// Reassociated counts the passed runs at other levels whose floats
	// agree with the case's only within
	// semantics.FloatReassociationBound: their programs re-associate a
	// float fold.
	Reassociated int
	Levels       []LevelOutcome // in the order the levels were first met
}

// LevelOutcome counts the checks made at one level (named as side-by-side
// names it, lang.LevelName: "IMP expanded (gpu) after Simplify").
type LevelOutcome struct {
	Level                            string
	Passed, Failed, Caveats, Refused int
	Reassociated                     int // of the passed, those within the float bound only
}

// GoldenOptions configure a golden run.
type GoldenOptions struct {
	Verbose bool // list passing files too
	// Levels also runs every case at every level the file's language
	// compiles to (the walks of side-by-side, lang.Registry.Levels), under
	// each of that level's semantics, expecting the case's output, or
	// an error of the same kind as the source's (errors differ in
	// position and rule from level to level). Only the cases that run
	// under the source's default semantics are checked there: a case
	// restricted to another one (FUNMEM's value semantics, which has no
	// memory and so no races) describes that semantics alone. A level
	// whose program re-associates a float fold passes with floats within
	// semantics.FloatReassociationBound of the case's (counted as
	// Reassociated), unless ExactFloats.
	Levels      bool
	ExactFloats bool
}

// FileOutcome is one file's golden run.
type FileOutcome struct {
	Fails  []string
	Checks int            // checks made, the failed ones included
	Levels []LevelOutcome // with GoldenOptions.Levels
	Notes  []string       // the caveat runs, for -v
	// Declined says why the file was not run at other levels: a pass
	// on the way declined it.
	Declined []string
}

// level finds (or adds) the count of a level.
func level(ls *[]LevelOutcome, name string) *LevelOutcome {
	for i := range *ls {
		if (*ls)[i].Level == name {
			return &(*ls)[i]
		}
	}
	*ls = append(*ls, LevelOutcome{Level: name})
	return &(*ls)[len(*ls)-1]
}

// RunGolden runs every golden test under dir (files in a language arraysem
// knows), reporting each failure and a summary line to w.
func RunGolden(reg *lang.Registry, dir string, w io.Writer, o GoldenOptions) (Outcome, error) {
	var files []string
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			if slices.Contains(reg.Extensions(), strings.ToLower(filepath.Ext(path))) {
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
		if src, err := semantics.ReadSource(f); err == nil {
			if spec, err := SpecOf(reg, f, string(src)); err == nil && len(spec.Cases) == 0 && spec.LoadError == nil {
				fmt.Fprintf(w, "note %s: no test block (a -- == or ;; == header with input/output lines), nothing to check\n", f)
				out.Untested++
				continue
			}
		}
		r := runGoldenFile(reg, f, o.Levels, o.ExactFloats)
		for _, msg := range r.Fails {
			fmt.Fprintf(w, "FAIL %s\n", msg)
		}
		for _, msg := range r.Declined {
			fmt.Fprintf(w, "note %s\n", msg)
		}
		out.Failed += len(r.Fails)
		out.Passed += r.Checks - len(r.Fails)
		for _, lv := range r.Levels {
			sum := level(&out.Levels, lv.Level)
			sum.Passed += lv.Passed
			sum.Failed += lv.Failed
			sum.Caveats += lv.Caveats
			out.Caveats += lv.Caveats
			sum.Refused += lv.Refused
			out.Refused += lv.Refused
			sum.Reassociated += lv.Reassociated
			out.Reassociated += lv.Reassociated
		}
		if o.Verbose && len(r.Fails) == 0 {
			fmt.Fprintf(w, "ok   %s (%s)\n", f, semantics.Plural(r.Checks, "check"))
		}
		if o.Verbose {
			for _, n := range r.Notes {
				fmt.Fprintf(w, "note %s\n", n)
			}
		}
	}
	if out.Untested > 0 {
		fmt.Fprintf(w, "%s without a test block\n", semantics.Plural(out.Untested, "file"))
	}
	if o.Levels {
		printLevels(w, out)
	}
	fmt.Fprintf(w, "%d passed, %d failed\n", out.Passed, out.Failed)
	return out, nil
}

// printLevels prints the checks made at other levels, one line a level.
func printLevels(w io.Writer, out Outcome) {
	if len(out.Levels) == 0 {
		// No language compiling further, cases failing at the source,
		// cases restricted to another semantics, or declined walks.
		fmt.Fprintln(w, "levels: no case ran at another level")
		return
	}
	fmt.Fprintln(w, "at the levels the files compile to (counted in the total below):")
	rows := [][]string{{"level", "passed", "failed", "ran on", "refused"}}
	for _, lv := range out.Levels {
		passed := fmt.Sprint(lv.Passed)
		if lv.Reassociated > 0 {
			passed += fmt.Sprintf(" (%d ≈)", lv.Reassociated)
		}
		rows = append(rows, []string{lv.Level, passed, fmt.Sprint(lv.Failed), fmt.Sprint(lv.Caveats), fmt.Sprint(lv.Refused)})
	}
	table.Print(w, rows)
	if out.Reassociated > 0 {
		fmt.Fprintf(w, "(≈ agree (float re-association): %s passed with floats within %s of the case's: their programs re-associate a float fold; --exact-floats compares exactly, -v lists them)\n",
			semantics.Plural(out.Reassociated, "run"), semantics.FloatReassociationWithin)
	}
	if out.Refused > 0 {
		fmt.Fprintf(w, "(refused: %s stopped on a 64-bit integer overflow where the source's integers are exact; -v lists them)\n",
			semantics.Plural(out.Refused, "run"))
	}
	if out.Caveats > 0 {
		fmt.Fprintf(w, "(ran on: %s where the source goes wrong, at levels whose caveat allows it; -v lists them with the caveat)\n",
			semantics.Plural(out.Caveats, "run"))
	}
}

// RunGoldenFile runs one file's cases under every semantics that applies;
// it returns the failures and the number of checks made.
func RunGoldenFile(reg *lang.Registry, file string) (fails []string, checks int) {
	r := runGoldenFile(reg, file, false, false)
	return r.Fails, r.Checks
}

// RunGoldenFileLevels is RunGoldenFile with every case run again at every
// level the file compiles to, as test --levels runs it.
func RunGoldenFileLevels(reg *lang.Registry, file string) (fails []string, checks int) {
	r := runGoldenFile(reg, file, true, false)
	return r.Fails, r.Checks
}

// runGoldenFile runs one file's cases, and with levels each case again
// at every level the file compiles to.
func runGoldenFile(reg *lang.Registry, file string, levels, exact bool) (out FileOutcome) {
	fail := func(msg string) FileOutcome {
		out.Fails = append(out.Fails, msg)
		out.Checks++
		return out
	}
	src, err := semantics.ReadSource(file)
	if err != nil {
		return fail(err.Error())
	}
	spec, err := SpecOf(reg, file, string(src))
	if err != nil {
		return fail(file + ": test block: " + err.Error())
	}
	l, err := Load(reg, file, string(src), Options{})
	if spec.LoadError != nil || err != nil {
		switch {
		case err == nil:
			return fail(fmt.Sprintf("%s: expected the error %q, but it loads", file, spec.LoadError))
		case spec.LoadError == nil:
			return fail(fmt.Sprintf("%s: %v", file, err))
		case !spec.LoadError.MatchString(err.Error()):
			return fail(fmt.Sprintf("%s: expected an error matching %q, got %v", file, spec.LoadError, err))
		}
		out.Checks++
		return out
	}
	if len(spec.Cases) == 0 {
		return fail(file + ": no test block (-- == followed by input/output lines)")
	}
	var lvs []lang.Level
	if levels {
		// A pass whose output its checker rejects, or that hands the
		// target another language's tree, is a broken pass; one that
		// declines the program says what it does not translate
		// (FunMemToImp: inputs that are not row-major; Lower: a
		// primitive FUN cannot compute exactly), a limit of the level
		// rather than a failure of the case.
		all, err := reg.Levels(l)
		if err != nil {
			fail(fmt.Sprintf("%s: compiling to the levels it reaches: %v", file, err))
		}
		for _, lv := range all {
			if lv.Declined != nil {
				out.Declined = append(out.Declined, fmt.Sprintf("%s: not run at %s: %v", file, lv.Name, lv.Declined))
				continue
			}
			lvs = append(lvs, lv)
		}
		lvs = lvs[min(1, len(lvs)):] // the first is the source itself
	}
	for _, c := range spec.Cases {
		sems := c.Semantics
		if sems == nil {
			sems = l.Semantics()
		}
		for _, sem := range sems {
			out.Checks++
			where := fmt.Sprintf("%s:%d (%s)", file, c.Line, sem)
			r, err := l.Run(lang.RunOptions{Semantics: sem, Args: c.Args})
			if msg := compare(c, r, err); msg != "" {
				out.Fails = append(out.Fails, where+": "+msg)
			}
		}
		if len(lvs) > 0 && slices.Contains(sems, l.Semantics()[0]) {
			out.atLevels(file, c, l, sems, lvs, exact)
		}
	}
	return out
}

// atLevels runs a case at each of the levels, under each of their
// semantics, against the case's expectation. The source's run under its
// default semantics is what they are compared with, as side-by-side
// compares every row with its first: for the kind of an expected error,
// and to find the pass that broke the program. At a level of the
// source's own language only the case's semantics (sems) run: a
// semantics: line left the others out because they differ there by
// design (FUNMEM's value semantics on a program that Def 3.1 finds
// invalid).
func (out *FileOutcome) atLevels(file string, c *Case, src lang.Program, sems []string, lvs []lang.Level, exact bool) {
	first := run([]lang.Stage{{Program: src}}, src.Semantics()[0], c.Args)
	first.Stages = []lang.Stage{{Program: src}}
	first.Level = lang.LevelName(first.Stages, lang.Options{})
	if compare(c, first.Result, first.Err) != "" {
		// The source fails its own case (reported above): there is
		// nothing the levels could be held to.
		return
	}
	for _, lv := range lvs {
		count := level(&out.Levels, lv.Name)
		for _, sem := range lv.Program().Semantics() {
			if lv.Program().Language().Name() == src.Language().Name() && !slices.Contains(sems, sem) {
				continue
			}
			row := run(lv.Stages, sem, c.Args)
			row.Level, row.Stages = lv.Name, lv.Stages
			where := fmt.Sprintf("%s:%d (%s %s)", file, c.Line, lv.Name, sem)
			if row.Refused(first) {
				count.Refused++
				out.Notes = append(out.Notes, fmt.Sprintf("%s: refused: %v", where, row.Err))
				continue
			}
			msg := ""
			switch {
			case c.Error == nil:
				msg = compare(c, row.Result, row.Err)
			case row.Err == nil:
				if cv, ok := lv.Program().(lang.Caveat); ok {
					count.Caveats++
					out.Notes = append(out.Notes, fmt.Sprintf("%s: runs on where %s %s goes wrong (%v): %s", where, first.Level, first.Semantics, first.Err, cv.Caveat()))
					continue
				}
				msg = fmt.Sprintf("expected an error like %s %s's (%v), got { %s }", first.Level, first.Semantics, first.Err, strings.Join(row.Result.Lines, " "))
			case kind(row.Err) != kind(first.Err):
				msg = fmt.Sprintf("expected an error of the kind of %s %s's (%v), got %v", first.Level, first.Semantics, first.Err, row.Err)
			}
			out.Checks++
			if msg != "" && c.Error == nil && row.Err == nil && !exact && closeOutput(c.Output, row.Result.Lines) && Reassociates(lv.Stages) {
				msg = ""
				count.Reassociated++
				out.Notes = append(out.Notes, fmt.Sprintf("%s: agree (float re-association): { %s } within %s of { %s }", where, strings.Join(row.Result.Lines, " "), semantics.FloatReassociationWithin, strings.Join(c.Output, " ")))
			}
			if msg == "" {
				count.Passed++
				continue
			}
			count.Failed++
			if pass := blame(first, row, c.Args); pass != "" {
				msg += "; " + pass
			}
			out.Fails = append(out.Fails, where+": "+msg)
		}
	}
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
