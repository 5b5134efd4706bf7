package remora

import "github.com/arraysem/arraysem/semantics"

// The rules of Remora's typed core ("The semantics of rank polymorphism"):
// the reduction rules of Fig 6, which the small-step semantics applies
// one per step, the big-step as written (fig6.go) one per derivation
// node, and the engine counts as those nodes; the typing rules of
// Fig 7; and the kinding and sorting rules of Fig 8. The code names a rule
// by these values, never by a string literal; Rules lists them all. Their
// Go names carry the prefix Rule, as T-VAR and T-APP would collide with
// the type forms TVar and TApp.
var (
	RuleLift     = semantics.Rule{Name: "lift", Figure: "Fig 6", Doc: "an application whose arguments have larger frames replicates their cells to the principal frame"}
	RuleMap      = semantics.Rule{Name: "map", Figure: "Fig 6", Doc: "an application of a frame of functions to arguments of that frame becomes a frame of cell applications"}
	RuleBeta     = semantics.Rule{Name: "β", Figure: "Fig 6", Doc: "a λ applied to cells of its parameters' ranks substitutes them into its body"}
	RuleDelta    = semantics.Rule{Name: "δ", Figure: "Fig 6", Doc: "a primitive applied to cells of its ranks computes its result"}
	RuleCollapse = semantics.Rule{Name: "collapse", Figure: "Fig 6", Doc: "a frame of arrays of one shape becomes one array"}
	RuleTBeta    = semantics.Rule{Name: "Tβ", Figure: "Fig 6", Doc: "a type abstraction applied to types substitutes them"}
	RuleIBeta    = semantics.Rule{Name: "Iβ", Figure: "Fig 6", Doc: "an index abstraction applied to indices substitutes them"}
	RuleProj     = semantics.Rule{Name: "proj", Figure: "Fig 6", Doc: "unboxing a box binds its contents and its hidden indices"}
	RuleLiftDim  = semantics.Rule{Name: "lift-dim", Figure: "Fig 6", Doc: "lift turns a run-time natural number into a dimension index (an extension of §4.2)"}
	RuleMAP      = semantics.Rule{Name: "MAP", Figure: "compiler IR", Doc: "an explicit MAP over its frame, its arguments values, is the application of a λ of its cell types to them (§4.3 of the compiler paper)"}
	RuleREP      = semantics.Rule{Name: "REP", Figure: "compiler IR", Doc: "REP replicates a value over a frame (§5.5's REPLICATE)"}
	RuleCASE     = semantics.Rule{Name: "CASE", Figure: "compiler IR", Doc: "a CASE whose tag is the value k is its alternative k, the only one evaluated (the apply of a defunctionalised array of functions)"}

	RuleTNum     = semantics.Rule{Name: "T-NUM", Figure: "Fig 7", Doc: "an integer literal is an int"}
	RuleTFloat   = semantics.Rule{Name: "T-FLOAT", Figure: "Fig 7", Doc: "a float literal is a float"}
	RuleTBool    = semantics.Rule{Name: "T-BOOL", Figure: "Fig 7", Doc: "#t and #f are bools"}
	RuleTChar    = semantics.Rule{Name: "T-CHAR", Figure: "Fig 7", Doc: "a character literal is a char"}
	RuleTPrim    = semantics.Rule{Name: "T-PRIM", Figure: "Fig 7", Doc: "a primitive has the type the basis gives it"}
	RuleTVar     = semantics.Rule{Name: "T-VAR", Figure: "Fig 7", Doc: "a variable has the type Γ gives it"}
	RuleTArray   = semantics.Rule{Name: "T-ARRAY", Figure: "Fig 7", Doc: "an array or frame of atoms or arrays of one type adds its shape"}
	RuleTAbst    = semantics.Rule{Name: "T-ABST", Figure: "Fig 7", Doc: "a λ has a function type of its parameters' and body's types"}
	RuleTApp     = semantics.Rule{Name: "T-APP", Figure: "Fig 7", Doc: "an application's frame is the largest of the frames around the cells, which must prefix one another"}
	RuleTTAbst   = semantics.Rule{Name: "T-TABST", Figure: "Fig 7", Doc: "a type abstraction has a ∀ type"}
	RuleTTApp    = semantics.Rule{Name: "T-TAPP", Figure: "Fig 7", Doc: "a type application instantiates a ∀, frame by frame"}
	RuleTIAbst   = semantics.Rule{Name: "T-IABST", Figure: "Fig 7", Doc: "an index abstraction has a Π type"}
	RuleTIApp    = semantics.Rule{Name: "T-IAPP", Figure: "Fig 7", Doc: "an index application instantiates a Π with indices of the right sorts"}
	RuleTPack    = semantics.Rule{Name: "T-PACK", Figure: "Fig 7", Doc: "a box hides indices behind a Σ type"}
	RuleTUnpack  = semantics.Rule{Name: "T-UNPACK", Figure: "Fig 7", Doc: "unbox binds a box's contents and fresh indices, which the result may not mention"}
	RuleTLift    = semantics.Rule{Name: "T-LIFT", Figure: "Fig 7", Doc: "lift binds a natural number as a dimension index in its body"}
	RuleTReify   = semantics.Rule{Name: "T-REIFY", Figure: "Fig 7", Doc: "reify-dimension and reify-shape turn an index into an array of ints"}
	RuleTReshape = semantics.Rule{Name: "T-RESHAPE", Figure: "Fig 7", Doc: "reshape keeps the number of elements and changes the shape"}
	RuleTMap     = semantics.Rule{Name: "T-MAP", Figure: "compiler IR", Doc: "every argument of a MAP is its frame around its parameter's cell type; the MAP is the frame around its body's type"}
	RuleTRep     = semantics.Rule{Name: "T-REP", Figure: "compiler IR", Doc: "REP [F] e prefixes e's shape with F"}
	RuleTCase    = semantics.Rule{Name: "T-CASE", Figure: "compiler IR", Doc: "a CASE's tag is an int and its alternatives have one type, the CASE's"}

	RuleKBase  = semantics.Rule{Name: "K-BASE", Figure: "Fig 8", Doc: "a base type is an atom type"}
	RuleKVar   = semantics.Rule{Name: "K-VAR", Figure: "Fig 8", Doc: "a type variable has the kind Δ gives it"}
	RuleKArray = semantics.Rule{Name: "K-ARRAY", Figure: "Fig 8", Doc: "[τ ι] is an array type for an atom type τ and a shape ι"}
	RuleKFun   = semantics.Rule{Name: "K-FUN", Figure: "Fig 8", Doc: "a function type takes and returns array types"}
	RuleKUniv  = semantics.Rule{Name: "K-UNIV", Figure: "Fig 8", Doc: "∀ binds type variables in an array type"}
	RuleKDProd = semantics.Rule{Name: "K-DPROD", Figure: "Fig 8", Doc: "Π binds index variables in an array type"}
	RuleKDSum  = semantics.Rule{Name: "K-DSUM", Figure: "Fig 8", Doc: "Σ binds index variables in an array type"}

	RuleSNat    = semantics.Rule{Name: "S-NAT", Figure: "Fig 8", Doc: "a natural number is a dimension"}
	RuleSVar    = semantics.Rule{Name: "S-VAR", Figure: "Fig 8", Doc: "an index variable has the sort Θ gives it"}
	RuleSShape  = semantics.Rule{Name: "S-SHAPE", Figure: "Fig 8", Doc: "a list of dimensions is a shape"}
	RuleSPlus   = semantics.Rule{Name: "S-PLUS", Figure: "Fig 8", Doc: "a sum of dimensions is a dimension"}
	RuleSAppend = semantics.Rule{Name: "S-APPEND", Figure: "Fig 8", Doc: "an append of shapes is a shape"}
)

// Rules is the rule table of Remora's typed core.
var Rules = semantics.RuleTable{
	RuleLift, RuleMap, RuleBeta, RuleDelta, RuleCollapse, RuleTBeta, RuleIBeta, RuleProj, RuleLiftDim, RuleMAP, RuleREP, RuleCASE,
	RuleTNum, RuleTFloat, RuleTBool, RuleTChar, RuleTPrim, RuleTVar, RuleTArray, RuleTAbst, RuleTApp,
	RuleTTAbst, RuleTTApp, RuleTIAbst, RuleTIApp, RuleTPack, RuleTUnpack, RuleTLift, RuleTReify, RuleTReshape, RuleTMap, RuleTRep, RuleTCase,
	RuleKBase, RuleKVar, RuleKArray, RuleKFun, RuleKUniv, RuleKDProd, RuleKDSum,
	RuleSNat, RuleSVar, RuleSShape, RuleSPlus, RuleSAppend,
}
