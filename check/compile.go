package check

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
)

// CompileOptions configure the compile path.
type CompileOptions struct {
	To     string // "fun" or "funmem"
	Expand bool   // run MemoryExpand after the translation
	Layout funmem.Layout
	Raw    bool // skip the simplifier: the procedures' output as is
}

// Stage is one step of the compile path and the program it produced.
type Stage struct {
	Name    string
	Lang    string
	Program *fun.Program
}

// Compile translates a loaded program down to the requested level and
// returns every stage, the last being the result. Each stage's output is
// type checked at its level, so a translation bug shows as the rule that
// rejects its output.
func Compile(l *Loaded, o CompileOptions) ([]Stage, error) {
	stages := []Stage{{Name: "source", Lang: l.Lang, Program: l.Fun}}
	switch {
	case o.To == l.Lang && !o.Expand:
		return stages, nil
	case l.Lang == "fun" && o.To == "funmem", l.Lang == "funmem" && o.To == "funmem":
	default:
		return nil, fmt.Errorf("cannot compile %s to %s (from fun: to fun or funmem; from funmem: --expand)", l.Lang, o.To)
	}
	p := l.Fun
	add := func(name string, q *fun.Program) error {
		if _, err := funmem.Check(q, nil); err != nil {
			return fmt.Errorf("%s produced a program Fig 8 rejects: %w\n%s", name, err, funmem.Print(q))
		}
		stages = append(stages, Stage{Name: name, Lang: "funmem", Program: q})
		p = q
		return nil
	}
	if l.Lang == "fun" {
		if err := add("TransformProgram", funmem.Transform(p)); err != nil {
			return nil, err
		}
		if !o.Raw {
			if err := add("Simplify", funmem.Simplify(p)); err != nil {
				return nil, err
			}
		}
	}
	if o.Expand {
		if err := add("MemoryExpand", funmem.MemoryExpand(p, o.Layout)); err != nil {
			return nil, err
		}
		if !o.Raw {
			if err := add("Simplify", funmem.Simplify(p)); err != nil {
				return nil, err
			}
		}
	}
	return stages, nil
}
