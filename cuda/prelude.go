package cuda

import _ "embed" // the prelude's text

// Prelude is the fixed text every emitted file starts with: the three
// builds' mappings of the CUDA API (the SDK for nvcc; declarations for
// clang's device-only PTX check under ARRAYSEM_NO_CUDA_SDK; the CPU, with
// threads as loop iterations or, where they meet at barriers, fibres, under
// ARRAYSEM_HOST), IMP's
// wrapping arithmetic, the stuck-state record, and the host runtime that
// binds inputs and prints results as `arraysem run` does. gpu-sim
// implements its functions natively and refuses a file whose prelude
// differs.
//
//go:embed prelude.cu
var Prelude string

// PreludeEnd is the last line of the prelude.
const PreludeEnd = "// ==== arraysem prelude: end ====\n"
