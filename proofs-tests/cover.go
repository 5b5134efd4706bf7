package proofstests

import (
	"fmt"
	"math/rand"
	"runtime/debug"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Figure is a figure of a paper and the rules it defines, as the code
// names them (derived forms included).
type Figure struct {
	Name  string
	Rules []string
}

// Figures are the figures whose rules the rule-coverage report covers.
var Figures = []Figure{
	{"FUN, Fig 3 (types)", []string{"T-CONST", "T-VAR", "T-OP", "T-SCALAR", "T-INDEX", "T-IF", "T-TRANSPOSE",
		"T-SLICE", "T-KERNEL", "T-RESULT", "T-STM", "T-PROG", "T-IOTA", "T-COPY"}},
	{"FUN, Fig 4 (big- and small-step)", []string{"E-IF-TRUE", "E-IF-FALSE", "E-SCALAR", "E-INDEX", "E-SLICE",
		"E-TRANSPOSE", "E-KERNEL", "E-LET", "E-IN", "E-IOTA", "E-COPY"}},
	{"FUNMEM, Fig 8 (types)", []string{"T-MEM-SCALAR", "T-MEM-ALLOC", "T-MEM-INDEX", "T-MEM-IF", "T-MEM-TRANSPOSE",
		"T-MEM-SLICE", "T-MEM-KERNEL", "T-MEM-RESULT", "T-MEM-STM", "T-MEM-LMAD", "T-MEM-INT", "T-MEM-ARRAY",
		"T-MEM-PROG", "T-MEM-IOTA", "T-MEM-COPY"}},
	{"FUNMEM, Fig 10 (heap, big- and small-step)", []string{"E-MEM-ALLOC", "E-MEM-SLICE", "E-MEM-INDEX",
		"E-MEM-TRANSPOSE", "E-MEM-KERNEL", "E-MEM-IF-T", "E-MEM-IF-F", "E-STMS", "E-MEM-PROG", "E-MEM-SCALAR",
		"E-MEM-IOTA", "E-MEM-COPY"}},
	{"IMP, Fig 12 (big- and small-step)", []string{"E-IMP-DEC-INT", "E-IMP-DEC-MEM", "E-IMP-ASSIGN-INT",
		"E-IMP-ASSIGN-MEM", "E-IMP-READ", "E-IMP-WRITE", "E-IMP-ALLOC", "E-IMP-SEQ", "E-IMP-IF-TRUE",
		"E-IMP-IF-FALSE", "E-IMP-SKIP", "E-IMP-KERNEL"}},
	{"Remora, Fig 6 (small-step, and the big-step's counts)", []string{"lift", "map", "β", "δ", "collapse",
		"Tβ", "Iβ", "proj", "lift-dim"}},
	{"Remora, Fig 7 (types)", []string{"T-NUM", "T-FLOAT", "T-BOOL", "T-CHAR", "T-PRIM", "T-VAR", "T-ARRAY",
		"T-ABST", "T-APP", "T-TABST", "T-TAPP", "T-IABST", "T-IAPP", "T-PACK", "T-UNPACK", "T-LIFT", "T-REIFY",
		"T-RESHAPE"}},
	{"Remora, Fig 8 (kinds and sorts)", []string{"K-BASE", "K-VAR", "K-ARRAY", "K-FUN", "K-UNIV", "K-DPROD",
		"K-DSUM", "S-NAT", "S-VAR", "S-SHAPE", "S-PLUS", "S-APPEND"}},
}

// remoraFigures are the indices in Figures of Remora's figures.
const remoraFig6, remoraFig7, remoraFig8 = 5, 6, 7

// Coverage counts, per figure, how often each of its rules was applied.
type Coverage map[string]semantics.Counter

// Zero lists the rules of Figures that no run applied, as "figure: rule".
func (c Coverage) Zero() []string {
	var out []string
	for _, f := range Figures {
		for _, r := range f.Rules {
			if c[f.Name][r] == 0 {
				out = append(out, f.Name+": "+r)
			}
		}
	}
	return out
}

// Cover generates n programs from seed (sizes ramping up as the property
// tests do) and runs each through every level: FUN's checker and both
// semantics; FUNMEM's checker and heap semantics on each translation
// (TransformProgram, Simplify, MemoryExpand in both layouts); IMP's
// semantics on FunMemToImp of each. It also generates n/3 well-typed
// Remora programs and runs the typed checker and both semantics on each.
// It counts the rules each applies. A panic anywhere is an error naming
// the program.
func Cover(n int, seed int64) (cov Coverage, err error) {
	cov = Coverage{}
	for _, f := range Figures {
		cov[f.Name] = semantics.Counter{}
	}
	funT, funE := cov[Figures[0].Name], cov[Figures[1].Name]
	memT, memE, impE := cov[Figures[2].Name], cov[Figures[3].Name], cov[Figures[4].Name]
	r := rand.New(rand.NewSource(seed))
	for i := 0; i < n; i++ {
		c := Generate(r, i%(MaxGenSize+1), DefaultGenConfig)
		func() {
			defer func() {
				if x := recover(); x != nil {
					err = fmt.Errorf("panic on program %d: %v\n%s\n%s", i, x, c, debug.Stack())
				}
			}()
			coverOne(c, funT, funE, memT, memE, impE)
		}()
		if err != nil {
			return cov, err
		}
	}
	rr := rand.New(rand.NewSource(seed))
	m := max(1, n/3)
	for i := 0; i < m; i++ {
		src := GenerateRemora(rr, i*MaxGenSize/m, DefaultRemoraGenConfig)
		func() {
			defer func() {
				if x := recover(); x != nil {
					err = fmt.Errorf("panic on Remora program %d: %v\n%s\n%s", i, x, src, debug.Stack())
				}
			}()
			coverRemora(src, cov[Figures[remoraFig6].Name], cov[Figures[remoraFig7].Name], cov[Figures[remoraFig8].Name])
		}()
		if err != nil {
			return cov, err
		}
	}
	return cov, nil
}

// coverRemora checks and runs one Remora program, counting Fig 7's and
// Fig 8's rules (split by their prefix) and Fig 6's.
func coverRemora(src string, steps, types, kinds semantics.Counter) {
	p, _, err := remora.ParseFile("gen.remora", src)
	if err != nil {
		return
	}
	c := semantics.Counter{}
	if _, err := remora.Check(p, &remora.CheckOptions{Counter: c}); err != nil {
		return
	}
	for r, k := range c {
		if strings.HasPrefix(r, "T-") {
			types[r] += k
		} else {
			kinds[r] += k
		}
	}
	remora.Eval(p, &remora.EvalOptions{Counter: steps})
	for _, e := range p.Exprs {
		remora.RunSmall(e, &semantics.RunOptions{Fuel: 100000, Counter: steps})
	}
}

func coverOne(c *Case, funT, funE, memT, memE, impE semantics.Counter) {
	if _, err := fun.Check(c.Prog, &fun.CheckOptions{Counter: funT}); err != nil {
		return
	}
	env := c.Env()
	fun.Eval(c.Prog, env, &fun.EvalOptions{Counter: funE})
	fun.RunSmall(c.Prog, env, &semantics.RunOptions{Counter: funE})
	args := map[string]string{}
	for _, in := range c.Inputs {
		args[in.Name] = in.Value.String()
	}
	q := funmem.Transform(c.Prog)
	for _, v := range []*fun.Program{q, funmem.Simplify(q), funmem.MemoryExpand(q, funmem.GPU), funmem.MemoryExpand(q, funmem.CPU)} {
		if _, err := funmem.Check(v, &funmem.CheckOptions{Counter: memT}); err != nil {
			continue
		}
		for _, small := range []bool{false, true} {
			if henv, h, err := funmem.BindInputs(v, args); err == nil {
				opts := &funmem.HeapOptions{Counter: memE}
				if small {
					funmem.RunHeapSmall(v, henv, h, &semantics.RunOptions{Counter: memE})
				} else {
					funmem.EvalHeap(v, henv, h, opts)
				}
			}
		}
		ip, err := imp.FromFunmem(v)
		if err != nil || imp.Check(ip, nil) != nil {
			continue
		}
		for _, small := range []bool{false, true} {
			if ienv, h, err := imp.BindInputs(ip, args); err == nil {
				opts := &imp.Options{Counter: impE}
				if small {
					imp.RunSmall(ip, ienv, h, &semantics.RunOptions{Counter: opts.Counter})
				} else {
					imp.Eval(ip, ienv, h, opts)
				}
			}
		}
	}
}
