// Package semantics holds what every language of arraysem shares: source
// positions and errors that carry a rule name, int64 scalar operators with
// defined behaviour on every input, array values as a shape plus a flat
// buffer, derivation trees, a small-step driver with fuel and history, rule
// counters for coverage, and a scanner for the ALGOL-like concrete syntaxes
// of FUN, FUNMEM and IMP.
//
// Integers are int64. Addition, subtraction, multiplication and negation wrap
// on overflow (two's complement, as Go defines it); division and remainder
// truncate towards zero, and MinInt64 / -1 is MinInt64 with remainder 0.
// Division or remainder by zero is not a Go panic but a stuck state that
// names the operator.
package semantics
