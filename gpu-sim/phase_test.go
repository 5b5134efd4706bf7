package gpusim

import (
	"fmt"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/imp"
)

// TestPhases: the compiled engine's barrier phases (shadow.go) run short
// after 2^31 and are renumbered at the next launch, its shadows cleared,
// without changing what the run finds; a launch that would pass the last
// phase stops with a message instead of wrapping. The program is the
// fold of cuda's parallel reduce and scan, and each of its barriers cut
// (races and unwritten reads found alike).
func TestPhases(t *testing.T) {
	p, err := Parse("fold.cu", foldFile(t))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(p.Text, "\n")
	progs := []*Program{p}
	for i, l := range lines {
		if strings.TrimSpace(l) == "__syncthreads();" {
			q, err := Parse("cut.cu", strings.Join(lines[:i], "")+strings.Join(lines[i+1:], ""))
			if err != nil {
				t.Fatal(err)
			}
			progs = append(progs, q)
		}
	}
	for _, prog := range progs {
		for _, o := range []Options{{Block: 4, Stats: true}, {Block: 2, Stats: true, Schedule: Schedule{Kind: "reverse"}}} {
			o.Engine = "reference"
			want := outcomeOf(Run(prog, []string{"n=30"}, o))
			o.Engine = "compiled"
			m := newMachine(prog, o)
			m.phase = maxPhase - 5
			if got := outcomeOf(m.run([]string{"n=30"})); got != want {
				t.Errorf("%s %+v, phases from 2^31-5: %s\nthe tree walker: %s", prog.Name, o, got, want)
			}
		}
	}
	// A launch that reaches the last phase (2^31 of its own) stops.
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

func outcomeOf(out string, st *Stats, err error) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s%v\n", out, err)
	if st != nil {
		st.Print(&b)
	}
	return b.String()
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
