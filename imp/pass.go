package imp

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
)

// FromFunmemPass is FromFunmem as the registry's pass from FUNMEM into IMP.
var FromFunmemPass = lang.Pass{Name: "FunMemToImp", From: funmem.Language.Name(), To: Language.Name(),
	Doc: "FUNMEM → IMP: FunMemToImp and COPY (§4)",
	Run: func(p any, _ lang.Options) (any, []string, error) {
		q, err := FromFunmem(p.(*fun.Program))
		return q, nil, err
	}}
