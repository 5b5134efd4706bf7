package check

import (
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
)

// CompileOptions configure the compile path.
type CompileOptions struct {
	To     string // "fun", "funmem" or "imp"
	Expand bool   // run MemoryExpand after the translation
	Layout funmem.Layout
	Raw    bool // skip the simplifier: the procedures' output as is
}

// Stage is one step of the compile path and the program it produced.
type Stage struct {
	Name    string
	Lang    string
	Program *fun.Program // FUN and FUNMEM stages
	Imp     *imp.Program // the IMP stage
}

// Text renders the stage's program in its language's syntax.
func (s Stage) Text() string {
	if s.Imp != nil {
		return imp.Print(s.Imp)
	}
	return funmem.Print(s.Program)
}

// Compile translates a loaded program down to the requested level and
// returns every stage, the last being the result. Each stage's output is
// type checked at its level, so a translation bug shows as the rule that
// rejects its output.
func Compile(l *Loaded, o CompileOptions) ([]Stage, error) {
	if l.Fun == nil {
		return nil, fmt.Errorf("the compile path starts from FUN or FUNMEM, not %s", l.Lang)
	}
	stages := []Stage{{Name: "source", Lang: l.Lang, Program: l.Fun}}
	switch {
	case o.To == l.Lang && !o.Expand:
		return stages, nil
	case l.Lang == "fun" && (o.To == "funmem" || o.To == "imp"), l.Lang == "funmem" && (o.To == "funmem" || o.To == "imp"):
	default:
		return nil, fmt.Errorf("cannot compile %s to %s (fun compiles to fun, funmem or imp; funmem to funmem (--expand) or imp)", l.Lang, o.To)
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
	if o.To == "imp" {
		q, err := imp.FromFunmem(p)
		if err != nil {
			return nil, fmt.Errorf("FunMemToImp: %w", err)
		}
		if err := imp.Check(q, nil); err != nil {
			return nil, fmt.Errorf("FunMemToImp produced a program IMP's checker rejects: %w\n%s", err, imp.Print(q))
		}
		stages = append(stages, Stage{Name: "FunMemToImp", Lang: "imp", Imp: q})
	}
	return stages, nil
}
