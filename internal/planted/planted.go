// Package planted plants bugs in emitted CUDA for the tests of gpu-sim,
// of the arraysem command and of the CUDA toolchain.
//
// The planted bugs are edits of the CUDA emitted for
// examples/imp/kernel.imp, one file each in gpu-sim/testdata/planted:
// NAME.txt plants bug NAME. Keeping the edits, not edited copies of the emitted
// file (with its 40 KB prelude), means an emitter change reaches the
// planted programs by itself; an edit it invalidates (its old text no
// longer found exactly once) fails the tests, to be carried over by hand.
//
// An edit file is a list of hunks, each opened by a line "@@", applied in
// order. A hunk's lines start with ' ' (context, kept), '-' (removed) or
// '+' (added), as in a unified diff without line numbers: the ' ' and '-'
// lines, whole lines, must be found exactly once in the file, and become
// the ' ' and '+' lines. Lines starting with '#' (the explanation of the
// edit: why it plants the bug) and blank lines are skipped anywhere.
package planted

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/lang"
)

// Dir is the directory of the edit files, relative to the repository.
const Dir = "gpu-sim/testdata/planted"

// Apply applies the edit file edits (named file, for its errors) to src.
func Apply(file, src, edits string) (string, error) {
	type hunk struct {
		line     int
		old, new []string
	}
	var hunks []*hunk
	for i, l := range strings.Split(edits, "\n") {
		switch {
		case l == "" || strings.HasPrefix(l, "#"):
		case l == "@@":
			hunks = append(hunks, &hunk{line: i + 1})
		case len(hunks) > 0 && strings.Contains(" -+", l[:1]):
			h := hunks[len(hunks)-1]
			if l[0] != '+' {
				h.old = append(h.old, l[1:])
			}
			if l[0] != '-' {
				h.new = append(h.new, l[1:])
			}
		default:
			return "", fmt.Errorf("%s:%d: want @@, a comment, or in a hunk a line starting with ' ', '-' or '+'", file, i+1)
		}
	}
	if len(hunks) == 0 {
		return "", fmt.Errorf("%s: no hunk", file)
	}
	for _, h := range hunks {
		if len(h.old) == 0 {
			return "", fmt.Errorf("%s:%d: a hunk without ' ' or '-' lines has no place to go", file, h.line)
		}
		// The newlines around the text make it match whole lines only.
		old := "\n" + strings.Join(h.old, "\n") + "\n"
		text := "\n" + src
		if n := strings.Count(text, old); n != 1 {
			return "", fmt.Errorf("%s:%d: the hunk's old text is found %d times in the emitted kernel.imp, not once: has the emitter changed? carry the edit over", file, h.line, n)
		}
		new := "\n"
		for _, l := range h.new {
			new += l + "\n"
		}
		src = strings.Replace(text, old, new, 1)[1:]
	}
	return src, nil
}

// Kernel is the CUDA of examples/imp/kernel.imp under the repository at
// root, emitted now by the registry's walk that `arraysem compile
// examples/imp/kernel.imp --to cuda` prints (and examples/cuda/kernel.cu holds it).
func Kernel(root string) (string, error) {
	const name = "examples/imp/kernel.imp" // the name its error sites print
	src, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
	if err != nil {
		return "", err
	}
	reg := check.NewRegistry()
	l, err := check.Load(reg, name, string(src), check.Options{})
	if err != nil {
		return "", err
	}
	st, err := reg.Compile(l, cuda.LanguageName, lang.Options{})
	if err != nil {
		return "", err
	}
	return st[len(st)-1].Text(), nil
}

// Names lists the planted bugs under root (race for race.txt), sorted.
func Names(root string) ([]string, error) {
	files, err := filepath.Glob(filepath.Join(root, filepath.FromSlash(Dir), "*.txt"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no %s/*.txt under %s (%v)", Dir, root, err)
	}
	var out []string
	for _, f := range files {
		out = append(out, strings.TrimSuffix(filepath.Base(f), ".txt"))
	}
	slices.Sort(out)
	return out, nil
}

// Program is planted bug name: the kernel with its edits applied.
func Program(root, name string) (string, error) {
	kernel, err := Kernel(root)
	if err != nil {
		return "", err
	}
	path := filepath.Join(root, filepath.FromSlash(Dir), name+".txt")
	edits, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	return Apply(path, kernel, string(edits))
}
