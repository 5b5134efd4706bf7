// Package semantics holds what every language of arraysem shares: source
// positions and errors that carry a rule name, int64 scalar operators with
// defined behaviour on every input, array values as a shape plus a flat
// buffer, derivation trees, a small-step driver with fuel and history, a
// small-step machine with an explicit evaluation context that both Remora
// dialects run (ContextMachine), rule counters for coverage, and a scanner for the ALGOL-like concrete syntaxes
// of FUN, FUNMEM and IMP.
//
// Integers are int64. Addition, subtraction, multiplication and negation wrap
// on overflow (two's complement, as Go defines it); division and remainder
// truncate towards zero, and MinInt64 / -1 is MinInt64 with remainder 0.
// Division or remainder by zero is not a Go panic but a stuck state that
// names the operator.
//
// Floats (an extension of the languages) are IEEE float64. An array knows
// its element type (Elem); a float element is stored as its bits in the
// same int64 buffer, so heaps, LMADs and the array functions are those of
// ints, and a heap word is a word whatever it holds. Every NaN is stored
// as one canonical NaN, so results never depend on the hardware's NaN
// payloads. Float operators follow IEEE (1.0 / 0.0 is +Inf, comparisons
// with NaN give 0); int(x) truncates toward zero and is an error on NaN,
// ±Inf or a value outside int64. Floats print in Go's shortest form, always
// as floats: 3.0, 0.5, 1e+21, -0.0, +Inf, NaN.
package semantics
