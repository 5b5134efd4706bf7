package funmem

import (
	"slices"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// TestDeadCodeRounds: deadCode (uses counted once, what stays counted
// first, the walk stopped once every name has a use from it) drops what
// the rounds of "drop every unused let, count again" drop, from every
// body of the seed programs and their expansions.
func TestDeadCodeRounds(t *testing.T) {
	kept, dropped, early := 0, 0, 0
	compare := func(b *fun.Body) {
		s := &simplifier{names: nameSigs{}}
		got, want := s.deadCode(b), deadCodeRounds(b)
		if a, w := fun.PrintBody(got, false), fun.PrintBody(want, false); a != w {
			t.Fatalf("deadCode gives\n%s\nthe rounds\n%s\nfrom\n%s", a, w, fun.PrintBody(b, false))
		}
		switch {
		case got != b:
			dropped++
		case slices.ContainsFunc(b.Stms, droppable):
			kept++
			// The walk stops early when a statement that stays comes
			// after the last one it needed.
			if !droppable(b.Stms[len(b.Stms)-1]) {
				early++
			}
		}
	}
	for _, q := range transformedSeeds(t) {
		for _, p := range []*fun.Program{q, MemoryExpand(q, GPU), MemoryExpand(q, CPU)} {
			eachBody(p.Body, func(b *fun.Body) {
				// Also without its results, and with its first only: more
				// lets are unused then, some used only by others.
				compare(b)
				compare(&fun.Body{Stms: b.Stms})
				compare(&fun.Body{Stms: b.Stms, Result: b.Result[:min(1, len(b.Result))]})
			})
		}
	}
	if kept < 20 || dropped < 20 || early < 10 {
		t.Fatalf("%d bodies kept, %d with lets dropped, %d kept early: the test compares little", kept, dropped, early)
	}
}

// deadCodeRounds is deadCode as its comment says it behaves: drop every
// droppable let whose name the body uses nowhere, then count again.
func deadCodeRounds(b *fun.Body) *fun.Body {
	stms := b.Stms
	for {
		u := useCounter{n: map[string]int{}, step: 1}
		for _, st := range stms {
			if droppable(st) {
				u.n[st.Pat[0].Name.Name] = 0
			}
		}
		u.idents(b.Result)
		for _, st := range stms {
			u.stm(st)
		}
		var out []*fun.Stm
		for _, st := range stms {
			if droppable(st) && u.n[st.Pat[0].Name.Name] == 0 {
				continue
			}
			out = append(out, st)
		}
		if len(out) == len(stms) {
			return &fun.Body{Stms: stms, In: b.In, Result: b.Result}
		}
		stms = out
	}
}

// TestSimplifierReused: a simplifier used again (as Simplify's pool
// does) gives what a new one gives, for every seed program and its
// expansions in turn, and reset leaves nothing of the last call in it:
// no name in scope, no constant, no body in its maps.
func TestSimplifierReused(t *testing.T) {
	s := newSimplifier()
	calls := 0
	for _, q := range transformedSeeds(t) {
		for _, in := range []*fun.Program{q, MemoryExpand(q, GPU), MemoryExpand(q, CPU)} {
			for _, signatures := range []bool{true, false} {
				got, want := s.simplify(in, signatures), newSimplifier().simplify(in, signatures)
				if !fun.Equal(got, want) {
					t.Fatalf("a simplifier used again gives\n%s\na new one\n%s", Print(got), Print(want))
				}
				if !s.reset() {
					t.Fatal("a simplifier cannot be used again after a call")
				}
				if s.scope.Len() != 0 || len(s.consts) != 0 || len(s.clean) != 0 || len(s.sigs) != 0 || len(s.saved) != 0 {
					t.Fatalf("after reset: %d names in scope, %d constants, %d clean bodies, %d signatures, %d saved",
						s.scope.Len(), len(s.consts), len(s.clean), len(s.sigs), len(s.saved))
				}
				calls++
			}
		}
	}
	if calls < 20 {
		t.Fatalf("only %d calls", calls)
	}
}
