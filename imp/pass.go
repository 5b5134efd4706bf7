package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
)

// SimplifyPass is Simplify as the registry's pass from IMP to IMP (the
// pipeline "imp", after FunMemToImp).
var SimplifyPass = lang.Pass{Name: "Simplify", From: Language.Name(), To: Language.Name(),
	Doc:     "the simplifier: skips, and dead stores to scalars (what cannot go wrong) with their declarations, removed (unless --raw)",
	Options: []lang.Option{{Name: "raw", Kind: lang.BoolOption, Switch: lang.Disables, Help: "skip the simplifiers"}},
	Run:     func(p any, _ lang.Options) (any, []string, error) { return Simplify(p.(*Program)), nil, nil }}

// FromFunmemPass is FromFunmem as the registry's pass from FUNMEM into IMP.
var FromFunmemPass = lang.Pass{Name: "FunMemToImp", From: funmem.Language.Name(), To: Language.Name(),
	Doc: "FUNMEM → IMP: FunMemToImp and COPY (§4)",
	Run: func(p any, _ lang.Options) (any, []string, error) {
		q, err := FromFunmem(p.(*fun.Program))
		return q, nil, err
	}}
