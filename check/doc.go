// Package check runs programs across languages, semantics and levels: it
// loads a file by its language, runs it under each semantics that applies,
// and runs the golden tests of examples/ (`arraysem test`). The validity
// checker and the side-by-side runner grow here as the levels below FUN
// arrive.
package check
