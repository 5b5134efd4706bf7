package check

import (
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Options configure loading.
type Options struct {
	Lang string // overrides the extension
	// Dialect picks a dialect of the file's language (Remora's "typed" or
	// "dynamic"); "" follows the file's #lang line.
	Dialect string
	Paper   bool // refuse extensions to the papers' grammars
	Derive  bool // build typing derivations
	Infer   bool // Remora's dynamic dialect: elaborate into the typed core (check --infer)
	Counter semantics.Counter
}

// Load picks a file's language in the registry reg and loads (parses and
// checks) it. Errors are *semantics.Error values (syntax or type errors)
// or plain errors for usage problems.
func Load(reg *lang.Registry, file, src string, o Options) (lang.Program, error) {
	return reg.Load(file, src, o.Lang, o.Dialect, lang.LoadOptions{Paper: o.Paper, Derive: o.Derive, Infer: o.Infer, Counter: o.Counter})
}
