package gpusim

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/imp"
)

// TestLastPhase: a launch that would pass the last of the compiled
// engine's barrier phases stops with a message instead of wrapping (the
// phases are renumbered at a launch's start after 2^31, TestEnginesPhases).
func TestLastPhase(t *testing.T) {
	// A launch that reaches the last phase (2^31 of its own) stops.
	p, err := Parse("fold.cu", foldFile(t))
	if err != nil {
		t.Fatal(err)
	}
	v := &vm{m: newMachine(p, Options{}), l: &launchState{kernel: "k"}, launch: &cuda.Launch{}}
	v.m.phase = 1<<32 - 1
	defer func() {
		r := recover()
		if s, ok := r.(stop); !ok || !strings.Contains(s.err.Error(), "pass more than 2^31 barriers") {
			t.Errorf("the phase after 2^32-1: %v", r)
		}
	}()
	v.nextPhase()
}

// foldFile is the CUDA of a parallel reduce and scan.
func foldFile(t *testing.T) string {
	t.Helper()
	src := `input n : int;
var s : int;
reduce s <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done;
var ps : mem; ps <- alloc n;
scan ps[i - 1] <- 0 for i <= n do yield i combine a, b do var c : int; c <- a + b; yield c done;
return s, ps : [n]`
	return emitIMP(t, "fold.imp", src)
}

// emitIMP is the CUDA the emitter prints for an IMP program.
func emitIMP(t *testing.T, name, src string) string {
	t.Helper()
	p, err := imp.ParseFile(name, src)
	if err != nil {
		t.Fatal(err)
	}
	if err := imp.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	f, err := cuda.Emit(p, cuda.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f.String()
}
