package funmem

import (
	"errors"
	"fmt"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// ValidityReport is the outcome of checking a FUNMEM program against Def 3.1.
type ValidityReport struct {
	Kernels    int // kernels (and derived fresh arrays) the heap run made
	Iterations int // their iterations, each traced for races
	Results    int // array results compared
}

// CheckValidity decides Def 3.1 for a well-typed FUNMEM program on the
// given inputs: it runs the value-based semantics (unmem, Fig 9, then
// FUN's big-step) and the heap-based one (Fig 10, with racefree), and
// compares each array result v_i with its block read through its LMAD
// (Def 3.1 nests the whole block, nest(H(ℓ_i), [k…]); ERRATA M11). A race is an error of kind RaceError; a difference is an
// error of kind MismatchError naming the result and the first differing
// element.
func CheckValidity(p *fun.Program, args map[string]string) (*ValidityReport, error) {
	v, _, err := checkValidity(p, args, true)
	return v, err
}

// validityHeap is the heap-based run CheckValidity made: its values and final
// heap, or its error; ran is false when it made none (the inputs did not
// bind).
type validityHeap struct {
	ran  bool
	vals []Value
	h    *semantics.Heap
	err  error
}

// ValidityRun is what CheckValidityRun gives: CheckValidity's verdict,
// and what the program's Run gives by the heap semantics.
type ValidityRun struct {
	Err    error        // CheckValidity's error
	Result *lang.Result // l.Run's result by the heap semantics (its Time unset)
	RunErr error        // or its error
}

// CheckValidityRun is CheckValidity's verdict on the FUNMEM program l
// (one Language loaded or adopted), which also gives what
// l.Run(lang.RunOptions{Semantics: "heap", Args: args}) gives, without
// running the heap engine a second time: Def 3.1's heap-based run is that
// run (the same engine, inputs and fuel). Its kernels are not traced, as
// Run does not trace them, so there is no report of them (CheckValidity
// traces them to count them; a trace changes no result, as
// TestCheckValidityRun checks). When CheckValidity makes no heap-based
// run (its inputs do not bind), l.Run runs.
func CheckValidityRun(l lang.Program, args map[string]string) ValidityRun {
	if q, ok := l.(*program); ok {
		_, hr, err := checkValidity(q.p, args, false)
		if hr.ran {
			out := ValidityRun{Err: err, RunErr: hr.err}
			if hr.err == nil {
				out.Result, out.RunErr = q.result(hr.h, hr.vals, 0) // Run's jobs: 0, every core
			}
			return out
		}
		r, rerr := l.Run(lang.RunOptions{Semantics: "heap", Args: args})
		return ValidityRun{Err: err, Result: r, RunErr: rerr}
	}
	_, err := CheckValidity(l.Syntax().(*fun.Program), args)
	r, rerr := l.Run(lang.RunOptions{Semantics: "heap", Args: args})
	return ValidityRun{Err: err, Result: r, RunErr: rerr}
}

// checkValidity is CheckValidity, with the heap-based run it made; trace
// says whether it traces the kernels (to count them in the report).
func checkValidity(p *fun.Program, args map[string]string, trace bool) (*ValidityReport, validityHeap, error) {
	var hr validityHeap
	b := Unmem(p)
	// The inputs' values are read once for both semantics: the heap's
	// blocks are its own copies (no adopting), so that neither run sees
	// what the other does with them.
	given, err := valueArgs(p, args)
	if err != nil {
		return nil, hr, err
	}
	env, h, err := bindInputsFrom(p, given, false)
	if err != nil {
		return nil, hr, err // (whatever the value-based run would do)
	}
	vals, _, verr := fun.Eval(b, unmemEnv(p, given), nil)

	v := &ValidityReport{}
	opts := &HeapOptions{}
	if trace {
		opts.Trace = func(_ *fun.Stm, tr *semantics.KernelTrace) {
			v.Kernels++
			v.Iterations += tr.Len()
		}
	}
	heapVals, herr := EvalHeap(p, env, h, opts)
	hr = validityHeap{ran: true, vals: heapVals, h: h, err: herr}
	var race *semantics.Error
	if errors.As(herr, &race) && race.Kind == semantics.RaceError {
		return v, hr, herr
	}
	switch {
	case verr != nil && herr != nil:
		if verr.Error() == herr.Error() {
			return v, hr, verr
		}
		return v, hr, semantics.Errorf(p.Body.In, semantics.StuckError, Validity.Name,
			"both semantics are stuck: value-based: %v; heap-based: %v", verr, herr)
	case verr != nil:
		return v, hr, semantics.Errorf(p.Body.In, semantics.MismatchError, Validity.Name,
			"invalid: the value-based semantics is stuck (%v), the heap-based one is not", verr)
	case herr != nil:
		return v, hr, semantics.Errorf(p.Body.In, semantics.MismatchError, Validity.Name,
			"invalid: the heap-based semantics is stuck (%v), the value-based one is not", herr)
	}
	for i, x := range p.Body.Result {
		hv := heapVals[i]
		if hv.Kind != ArrayVal {
			if hv.Kind == IntVal {
				if d := semantics.Compare(vals[i], hv.Num().Array(), "value-based", "heap-based"); d != "" {
					return v, hr, mismatch(p, x, d)
				}
			}
			continue
		}
		v.Results++
		// Def 3.1 nests the whole block; we read the block as the result's
		// index function does (ERRATA M11), so a block larger than its
		// result is not called invalid.
		nested, err := Read(h, hv)
		if err != nil {
			return v, hr, mismatch(p, x, fmt.Sprintf("its block %v read through %v: %v", hv.Block, hv.L, err))
		}
		if d := semantics.Compare(vals[i], nested, "value-based", "heap-based"); d != "" {
			return v, hr, mismatch(p, x, d)
		}
	}
	return v, hr, nil
}

func mismatch(p *fun.Program, x *fun.Ident, what string) error {
	return semantics.Errorf(x.NamePos, semantics.MismatchError, Validity.Name, "invalid: result %s: %s", x.Name, what)
}
