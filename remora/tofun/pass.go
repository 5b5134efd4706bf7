package tofun

import (
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/remora/ir"
)

// LowerPass is Lower as the registry's pass from the Remora IR into FUN.
var LowerPass = lang.Pass{Name: "Lower", From: ir.Language.Name(), To: fun.Language.Name(), Partial: true,
	Doc: "Remora IR → FUN: MAPs become kernels, the basis FUN's forms (reduce, scan, loop, filter), boxes run-time sizes (package remora/tofun)",
	Run: func(p any, _ lang.Options) (any, []string, error) {
		q, err := Lower(p.(*remora.Program))
		return q, nil, err
	}}
