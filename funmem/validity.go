package funmem

import (
	"errors"
	"fmt"

	"github.com/arraysem/arraysem/fun"
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
	b := Unmem(p)
	fenv, err := bindUnmemInputs(p, args)
	if err != nil {
		return nil, err
	}
	vals, _, verr := fun.Eval(b, fenv, nil)

	env, h, err := BindInputs(p, args)
	if err != nil {
		return nil, err
	}
	v := &ValidityReport{}
	heapVals, herr := EvalHeap(p, env, h, &HeapOptions{Trace: func(_ *fun.Stm, tr *semantics.KernelTrace) {
		v.Kernels++
		v.Iterations += tr.Len()
	}})
	var race *semantics.Error
	if errors.As(herr, &race) && race.Kind == semantics.RaceError {
		return v, herr
	}
	switch {
	case verr != nil && herr != nil:
		if verr.Error() == herr.Error() {
			return v, verr
		}
		return v, semantics.Errorf(p.Body.In, semantics.StuckError, Validity.Name,
			"both semantics are stuck: value-based: %v; heap-based: %v", verr, herr)
	case verr != nil:
		return v, semantics.Errorf(p.Body.In, semantics.MismatchError, Validity.Name,
			"invalid: the value-based semantics is stuck (%v), the heap-based one is not", verr)
	case herr != nil:
		return v, semantics.Errorf(p.Body.In, semantics.MismatchError, Validity.Name,
			"invalid: the heap-based semantics is stuck (%v), the value-based one is not", herr)
	}
	for i, x := range p.Body.Result {
		hv := heapVals[i]
		if hv.Kind != ArrayVal {
			if hv.Kind == IntVal {
				if d := semantics.Compare(vals[i], hv.Num().Array(), "value-based", "heap-based"); d != "" {
					return v, mismatch(p, x, d)
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
			return v, mismatch(p, x, fmt.Sprintf("its block %v read through %v: %v", hv.Block, hv.L, err))
		}
		if d := semantics.Compare(vals[i], nested, "value-based", "heap-based"); d != "" {
			return v, mismatch(p, x, d)
		}
	}
	return v, nil
}

func mismatch(p *fun.Program, x *fun.Ident, what string) error {
	return semantics.Errorf(x.NamePos, semantics.MismatchError, Validity.Name, "invalid: result %s: %s", x.Name, what)
}
