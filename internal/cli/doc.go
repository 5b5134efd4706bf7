// Package cli is the arraysem command line: the command table
// (commands.go) with each command's flags, help and example, and the
// commands themselves, each a thin layer over the library (cli.go: run,
// step, check, compile, test, side-by-side, prove, repl, demo, cover;
// gpu.go: gpu-sim and gpu-check; bench.go; dataset.go: dataset, random
// data files). hints.go says more than "wrong" about a mistake: the
// command or flag meant, the --arg an input needs, the quotes a split
// array literal needs. memory.go holds --max-memory:
// the bound each run's arrays and heaps are held to, and the watchdog
// that Command starts, since many arrays each under the bound can still
// add up past it. Main runs one command line in a registry of its own
// (check.NewRegistry); the root package's main calls Command. Flags that
// set compile options are made from the options the registered passes
// declare.
package cli
