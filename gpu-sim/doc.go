// Package gpusim is a SIMT simulator for the CUDA files arraysem's
// emitter (package cuda) prints: gpu-sim, in the terms of "A Rank-
// Polymorphic Compiler to CUDA" §2's model of a GPU. It parses exactly
// the subset the emitter produces (parse.go; anything else is "file:line:
// col: unsupported construct …"), checks that the prelude is this
// version's verbatim and implements the prelude's functions natively
// (machine.go), and runs the host code, cudaMalloc, cudaMemset,
// cudaMemcpy, cudaFree and launches with their grid and block sizes.
//
// A launch's threads run one at a time in a permutable schedule (in
// order, reversed, or shuffled by a seed), in warps of 32; a kernel that
// waits at __syncthreads runs its block's threads as coroutines meeting
// at the barrier; each block has its own instance of a __shared__ array,
// and __device__ functions (the parts of the emitter's parallel reduce
// and scan, fold.go) run in a scope of their own.
//
// Two engines run the kernels. The tree walker (machine.go, race.go) is
// the reference: it interprets the syntax, a goroutine for each thread
// of a block with barriers, a map cell for each address the races track.
// The compiled engine, the default (Options.Engine), compiles a kernel
// once a run to a register machine's code (compile.go, vm.go), each
// thread a loop over instructions that a barrier suspends, and tracks
// races in compact shadow memory (shadow.go); it reports every failure
// with the tree walker's own code, and leaves to it the kernels it
// cannot compile exactly. The tests hold the two to the same output,
// errors and statistics (engine_test.go). Floats (float.go) are Go
// float64s computed with Go's math package, as the interpreter computes
// them, and stored in memory as their bits. While it runs, the machine
// checks (race.go) that no two threads of a launch access one address,
// one of them writing, without a barrier between them (a data race, named
// with both threads and the address); that every access is inside a live
// allocation; that no thread reads memory nothing has written
// (cudaMalloc's memory is uninitialised; the emitter's cudaMemset,
// cudaMemcpy and stores initialise it); and that the threads of a block
// reach the same barriers. Its statistics (stats.go) count per kernel the
// launches, threads, global load and store requests (one per warp per
// access instruction executed) and the 32-byte sectors they touch, the
// measure of coalescing.
//
// Its errors name the source program's positions (source.go): an emitted
// file's sites table holds the interpreter's message for every stuck
// state, the source program's file:line:col and rule, and the site last
// named before an access gives the IMP statement a race, an out-of-bounds
// access or an unwritten read is in; a file without sites (one written
// by hand) is reported at its own lines.
//
// simulator.go supplies Simulator, the cuda.Simulator the CUDA level of
// the driver's registry runs its programs with (cuda.NewLanguage): it
// reads a file back and runs it, giving its errors the kinds the driver
// compares (a race, a stuck state, bad input …). Package cuda cannot
// import this one, which imports it for the AST, so the registry hands
// the simulator to it.
package gpusim
