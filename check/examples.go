package check

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/arraysem/arraysem/lang"
)

// ExampleCase is a case of an example's test block, with the example at
// a level of the compile path.
type ExampleCase struct {
	Where   string            // the case's file:line
	Program lang.Program      // the example, at the level
	Args    map[string]string // the case's inputs
}

// ExampleCases are the cases of the examples in dirs (each a directory
// examples/LANG of files *.LANG), each example compiled to the language
// level where it is not already of it; examples that do not load (those
// of a checker's errors) have no cases. The properties that hold one
// semantics to another over every example (engine ≡ rules, the
// small-steps' Redex) run over these.
func ExampleCases(reg *lang.Registry, level string, dirs ...string) ([]ExampleCase, error) {
	var out []ExampleCase
	for _, dir := range dirs {
		ext := filepath.Base(dir)
		files, err := filepath.Glob(filepath.Join(dir, "*."+ext))
		if err != nil || len(files) == 0 {
			return nil, fmt.Errorf("no examples in %s: %v", dir, err)
		}
		for _, file := range files {
			src, err := os.ReadFile(file)
			if err != nil {
				return nil, err
			}
			spec, err := ParseSpec(string(src), "--")
			if err != nil || spec.LoadError != nil {
				continue
			}
			l, err := Load(reg, file, string(src), Options{})
			if err != nil {
				return nil, fmt.Errorf("%s: %v", file, err)
			}
			if l.Language().Name() != level {
				stages, err := reg.Compile(l, level, lang.Options{})
				if err != nil {
					return nil, fmt.Errorf("%s: %v", file, err)
				}
				l = stages[len(stages)-1].Program
			}
			for _, c := range spec.Cases {
				out = append(out, ExampleCase{fmt.Sprintf("%s:%d", file, c.Line), l, c.Args})
			}
		}
	}
	return out, nil
}
