package dynamic

import (
	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// RuleUnbox is the dialect's own rule: the typed core's proj, on untyped
// boxes. Its Go name carries the prefix Rule, as remora's do.
var RuleUnbox = semantics.Rule{Name: "unbox", Figure: "§2", Doc: "unbox v b e binds v to the contents of the box b in e, lifting over an array of boxes"}

// Rules is the rule table of the rank-annotated dialect: the reduction
// rules of §2 that Fig 6 formalises for the typed core, on untyped terms.
// They are the typed core's rules (the same values), less those of type
// and index abstraction (Tβ, Iβ) and of lift, which the dialect has not,
// and with unbox for the typed core's proj.
var Rules = semantics.RuleTable{remora.RuleLift, remora.RuleMap, remora.RuleBeta, remora.RuleDelta, remora.RuleCollapse, RuleUnbox}
