// Package examples holds the example programs, one per paper figure and
// more, each with its golden test (arraysem test examples/); as a Go
// package it gives the demo the programs it runs.
package examples

import "embed"

// Fig2 is examples/fun/fig2.fun, Fig 2 of the FUN paper as a program.
//
//go:embed fun/fig2.fun
var Fig2 string

// A2ImplicitMap is examples/remora/a2_implicit_map.remora, Appendix A.2 of
// the Remora compiler report.
//
//go:embed remora/a2_implicit_map.remora
var A2ImplicitMap string

// Bench holds the benchmark programs of examples/cuda/bench (FUN and
// typed Remora), which `arraysem bench`'s traffic rows compile to CUDA
// and run in gpu-sim.
//
//go:embed cuda/bench/*.fun cuda/bench/*.remora
var Bench embed.FS
