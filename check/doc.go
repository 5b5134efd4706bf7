// Package check is the driver: it makes the registry of languages,
// passes and pipelines the arraysem command uses (NewRegistry,
// registry.go), loads a file by its language (load.go), runs a program at
// every level a registry reaches it and compares the results (side.go),
// and runs the golden tests of examples/ (`arraysem test`, golden.go),
// whose cases examples.go gives the properties that run over every
// example (ExampleCases); reassoc.go says which programs' float folds a level may re-associate,
// so that their comparisons accept the bound.
// Every function takes the registry it works in, so a test can build its
// own. It is the one place that imports every language; the languages
// and passes themselves are values (package lang), so nothing here
// switches on a language's name.
//
// Where passes live (package lang states the convention): each pass is
// declared, with its options, in its own package (fuse.Pass,
// funmem.MemoryExpandPass, cuda.EmitPass); here are only their
// registrations and the pipelines that order them. The CUDA level is
// registered as cuda.NewLanguage(gpusim.Simulator): package cuda declares
// the language, and gpu-sim, which imports cuda, supplies the simulator
// that runs it.
package check
