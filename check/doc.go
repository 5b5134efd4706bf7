// Package check is the driver: it holds the Registry of languages and
// passes (registry.go), loads a file by its language (load.go), runs a
// program at every level the registry reaches it and compares the results
// (side.go), and runs the golden tests of examples/ (`arraysem test`,
// golden.go). It is the one place that imports every language; the
// languages and passes themselves are values (package lang), so nothing
// here switches on a language's name.
//
// Where passes live (package lang states the convention): here are only
// their registrations (registry.go), which name each pass and wrap the
// function its own package provides (funmem.Transform, imp.FromFunmem,
// cuda.Emit); no translation is written in this package.
package check
