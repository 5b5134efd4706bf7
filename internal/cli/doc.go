// Package cli is the arraysem command line: the command table
// (commands.go) with each command's flags, help and example, and the
// commands themselves, each a thin layer over the library (cli.go: run,
// step, check, compile, test, side-by-side, prove, repl, demo, cover;
// gpu.go: gpu-sim and gpu-check; bench.go). Main runs one command line
// in a registry of its own (check.NewRegistry); the root package's main
// calls Command. Flags that set compile options are made from the
// options the registered passes declare.
package cli
