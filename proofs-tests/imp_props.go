package proofstests

import "github.com/arraysem/arraysem/imp"

// Fig12Rules are the rules of Fig 12.
var Fig12Rules = ruleNames(imp.EImpDecInt, imp.EImpDecMem, imp.EImpAssignInt, imp.EImpAssignMem, imp.EImpRead,
	imp.EImpWrite, imp.EImpAlloc, imp.EImpSeq, imp.EImpIfTrue, imp.EImpIfFalse, imp.EImpSkip, imp.EImpKernel)
