package dynamic

import "github.com/arraysem/arraysem/lang"

// ElaboratePass is Elaborate as the registry's pass from the dialect into
// the typed core.
var ElaboratePass = lang.Pass{Name: "Elaborate", From: Language.Name(), To: "remora", Partial: true,
	Doc: "Remora's dynamic dialect → the typed core: each expression's types inferred and written out, as check --infer does (declined when an expression does not elaborate)",
	Run: func(p any, _ lang.Options) (any, []string, error) {
		q, err := Elaborate(p.(*Program))
		return q, nil, err
	}}
