// Package repl is arraysem's interactive REPL (arraysem repl): a session
// evaluates what is typed at the prompt or loaded (:load FILE) in any
// language of the registry, keeps a Remora file's definitions in scope,
// steps the small-step machine forwards and back (lang.Stepper with its
// history; FUNMEM's and IMP's machines, which change state in place, go
// back by running again), showing the rule each step fired and the
// configuration with the contractum marked where the machine says it
// reduced (lang.Focus), and inspects what a step works on: the environment, FUNMEM's and
// IMP's heap (the cells the step read and wrote marked) and kernels'
// read/write sets, types and derivations, the validity and race checks,
// the side-by-side table and the compile path, whose output the session
// can switch to and step in turn. A kernel's iterations can be scheduled
// in order, in reverse or at random, so that a racy program shows another
// result.
//
// Session.Exec runs one line, so a session is scripted by feeding it
// lines: Run does so for piped input (no prompts, no escape codes), and
// the tests replay the transcripts of testdata/.
package repl
