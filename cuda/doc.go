// Package cuda is the last step of the compile path: it translates an IMP
// program (after memory expansion, in the paper "Compiling a functional
// array language with non-semantic memory information" §4–5) into one
// self-contained CUDA C++ file, following "convert to CUDA" of "A Rank-
// Polymorphic Compiler to CUDA" (§5): each top-level kernel becomes a
// __global__ function with one thread per iteration, kernels nested inside
// a kernel become loops of the thread, and the host code allocates,
// launches and copies back. IMP's extensions (fold.go): for is a C++ loop,
// assert a stuck state; reduce and scan are loops inside a thread and
// parallel on the host (per-thread chunks, a shared-memory tree or scan
// per block between barriers, one block over the blocks' partials), in
// the elements' order, so that only the associativity of the operator is
// assumed: parfold.go folds them as a GPU library does (a striped shared
// tile, sequential addressing, reduce-then-scan); coop.go gives a kernel
// whose iterations fold long rows a block per iteration (and folds the
// columns of a kernel inside it at once, reading a matrix by its rows),
// scanreduce.go folds a reduce of what a scan wrote into the scan's
// writing pass, and fission.go runs a host reduce whose elements fold
// long rows as a kernel first. A fold whose combine part is one operation
// that is not associative (a - b) keeps its left fold instead, in one
// thread (seqfold.go).
// allocating.go names the kernels whose threads allocate (compile
// --stats).
//
// The file is built from a small CUDA AST (syntax.go), which Emit fills
// (emit.go) and String prints (print.go) after a fixed prelude
// (prelude.go, prelude.cu). The simulator in gpu-sim parses printed files
// back into the same AST. toolchain.go holds the compiler commands that
// check an emitted file (clang-14 to PTX, clang++-14 for the host under
// the sanitizers, nvcc for a GPU); package harness runs emitted programs
// against the IMP interpreter.
//
// CUDA is a level of the driver's registry too. pass.go declares Emit as
// the pass from IMP (EmitPass); lang.go declares the language it reaches
// (NewLanguage: .cu files of the emitted subset, checked by reading them
// back, run under the semantics "sim"). The simulator that reads and runs
// them imports this package for the AST, so it is passed in
// (NewLanguage(gpusim.Simulator)) through the Simulator interface, not
// imported.
//
// To emit: f, err := cuda.Emit(p, cuda.Options{}); text := f.String().
//
// IMP types a name per scope (an if's branch, a kernel's or a for's body,
// a fold's part); the emitter follows those scopes (scope.go), and a C++
// variable stands for a name with one type, so a name with two types, as
// FUN → IMP gives an int fold's and a float fold's `combine a, b`, is two
// C++ variables.
//
// IMP's floats (float.go) are doubles in variables and int64_t heap words
// (their bits, NaN canonical) in blocks, with arithmetic that rounds as
// Go's float64 does and results printed in Go's shortest form by the
// prelude; exp, log, sin and cos are the platform's and may differ from
// Go's math package in the last bit (docs/cuda.md, "Floats").
//
// The emitted program reproduces IMP's big-step semantics (Fig 12): int64
// arithmetic wraps, division truncates, blocks are allocated zeroed, a
// kernel's iterations each start from the environment before the kernel,
// and every stuck state the interpreter reports (division by zero,
// reads and writes outside a block, a ⊥ block, negative sizes) makes the
// program print a message on stderr and exit with status 1. Races are the
// one thing it does not check: gpu-sim does.
package cuda
