package main

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/lang"
)

// TestRegisteredPassReachesTheCommands: one registration (an identity
// pass on FUN, in a clone of the registry) and compile --stages and
// side-by-side show it, with no other edit.
func TestRegisteredPassReachesTheCommands(t *testing.T) {
	saved := check.Registry
	check.Registry = saved.Clone()
	defer func() { check.Registry = saved }()
	check.Registry.AddPass(lang.Pass{Name: "Identity", From: "fun", To: "fun", Doc: "changes nothing",
		Label: func(lang.CompileOptions) string { return "identity" },
		Run:   func(p any, _ lang.CompileOptions) (any, error) { return p, nil }})

	out, errs, status := run(t, "compile", "examples/fun/fig2.fun", "--to", "funmem", "--stages", "--no-slice", "--no-fuse")
	if status != 0 || !strings.Contains(out, "-- stage 1: Identity (fun)\n") || !strings.Contains(out, "-- stage 2: TransformProgram (funmem)\n") {
		t.Errorf("compile --stages: status %d\n%s%s", status, out, errs)
	}
	out, errs, status = run(t, "side-by-side", "examples/fun/fig2.fun", "--arg", "xsize=3", "--arg", "ysize=4", "--arg", "zcond=1")
	if status != 0 || !strings.Contains(out, "\nFUN identity ") || !strings.Contains(out, "verdict: agree") {
		t.Errorf("side-by-side: status %d\n%s%s", status, out, errs)
	}
}
