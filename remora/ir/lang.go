package ir

import (
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/remora"
)

// Language is the compiler's intermediate language (§4.3–4.5 of "Remora
// Compiler — A Master's Project"): the typed core with the explicit MAP,
// REP and CASE forms, which Explicitize, Inline and Simplify produce. It
// reads and runs as the typed dialect does (.rir files), so every stage's
// output can be printed, read back and run.
var Language lang.Language = remora.CoreLanguage(lang.Info{LangName: "remora-ir", LangTitle: "Remora IR", Exts: []string{".rir"}, CommentMark: ";", RefPage: "remora-ir.md", StepName: "small"})
