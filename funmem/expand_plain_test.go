package funmem

import (
	"maps"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
)

// TestMemoryExpandRenamesOnlyWhatIsLeft: MemoryExpand renames an
// expanded kernel's body only when it still names an allocation's block
// (namesAny), and stops before expanding again when a round hoists
// nothing, and so makes the tree the plain renaming of every body, round
// by round to the end, makes: on the FUN examples and the chunks of
// testdata/expand.txt, translated, with and without the simplifier, in
// both layouts.
func TestMemoryExpandRenamesOnlyWhatIsLeft(t *testing.T) {
	expansions := 0
	for _, q := range transformedSeeds(t) {
		for _, in := range []*fun.Program{q, Simplify(q)} {
			for _, l := range []Layout{GPU, CPU} {
				got, want := memoryExpand(in, l, false), memoryExpand(in, l, true)
				if !fun.Equal(got, want) {
					t.Fatalf("%v layout: renaming only what is left gives\n%s\nrenaming every body\n%s", l, Print(got), Print(want))
				}
				if !fun.Equal(got, in) {
					expansions++
				}
			}
		}
	}
	if expansions < 20 {
		t.Fatalf("only %d programs expanded: the test compares little", expansions)
	}
}

// TestDeadCodeSignatures: Simplify gives the same tree whether deadCode
// skips the nested bodies whose signatures hold none of the names it
// counts or walks all of them.
func TestDeadCodeSignatures(t *testing.T) {
	dropped := 0
	for _, q := range transformedSeeds(t) {
		for _, in := range []*fun.Program{q, MemoryExpand(q, GPU), MemoryExpand(q, CPU)} {
			got, want := simplify(in, true), simplify(in, false)
			if !fun.Equal(got, want) {
				t.Fatalf("with signatures Simplify gives\n%s\nwithout\n%s", Print(got), Print(want))
			}
			if countStms(got) < countStms(in) {
				dropped++
			}
		}
	}
	if dropped < 20 {
		t.Fatalf("Simplify dropped statements of only %d programs: the test compares little", dropped)
	}
}

// seedVariants are the transformed seeds (transformedSeeds) and, for
// each, what the campaigns check most of it: Simplify, MemoryExpand for
// the GPU, and Simplify after MemoryExpand for the CPU.
func seedVariants(t testing.TB) []*fun.Program {
	var out []*fun.Program
	for _, q := range transformedSeeds(t) {
		out = append(out, q, Simplify(q), MemoryExpand(q, GPU), Simplify(MemoryExpand(q, CPU)))
	}
	return out
}

// transformedSeeds are the FUN examples and the chunks of
// testdata/expand.txt that check and reach FUNMEM, translated
// (Transform).
func transformedSeeds(t testing.TB) []*fun.Program {
	t.Helper()
	files, chunks := golden.Seeds("../examples/fun/*.fun", "testdata/expand.txt")
	var out []*fun.Program
	for _, src := range append(files, chunks...) {
		src, _, _ = strings.Cut(src, "-- expanded:")
		p, err := fun.ParseFile("t.fun", src)
		if err != nil {
			continue
		}
		if _, err := fun.Check(p, nil); err != nil || fun.CheckCompileRank(p, "TransformProgram") != nil {
			continue
		}
		out = append(out, Transform(p))
	}
	if len(out) == 0 {
		t.Fatal("no seed program reaches FUNMEM")
	}
	return out
}

func countStms(p *fun.Program) int {
	n := 0
	eachBody(p.Body, func(b *fun.Body) { n += len(b.Stms) })
	return n
}

// TestNamesAny: namesAny finds a name exactly when fun.Inspect meets an
// identifier of it, for every name a seed program (and its expansions)
// binds or uses, one at a time, and for a name none has.
func TestNamesAny(t *testing.T) {
	checked := 0
	for _, q := range transformedSeeds(t) {
		for _, p := range []*fun.Program{q, MemoryExpand(q, GPU), Simplify(MemoryExpand(q, CPU))} {
			eachBody(p.Body, func(b *fun.Body) {
				names := map[string]bool{"no such name": true}
				fun.Idents(b, func(x *fun.Ident) { names[x.Name] = true })
				for x := range names {
					want := false
					fun.Idents(b, func(y *fun.Ident) { want = want || y.Name == x })
					if got := namesAny(b, map[string]string{x: "z"}); got != want {
						t.Fatalf("namesAny of %s: %v, want %v, in\n%s", x, got, want, fun.PrintBody(b, false))
					}
					checked++
				}
			})
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d names checked", checked)
	}
}

// TestUseCounterMask: counting with the mask's test first (deadCode's
// useCounter, masked) gives the counts that looking every name up in the
// map gives, for the names each body of the seed programs binds.
func TestUseCounterMask(t *testing.T) {
	counted := 0
	for _, q := range transformedSeeds(t) {
		for _, p := range []*fun.Program{q, Simplify(q), MemoryExpand(q, GPU)} {
			eachBody(p.Body, func(b *fun.Body) {
				plain := useCounter{n: map[string]int{}, step: 1}
				masked := useCounter{n: map[string]int{}, step: 1, masked: true}
				for _, s := range b.Stms {
					for _, q := range s.Pat {
						plain.n[q.Name.Name] = 0
						masked.count0(q.Name.Name)
						masked.mask = masked.mask.with(q.Name.Name)
					}
				}
				for _, u := range []*useCounter{&plain, &masked} {
					u.idents(b.Result)
					for _, s := range b.Stms {
						u.stm(s)
					}
				}
				if !maps.Equal(plain.n, masked.n) {
					t.Fatalf("masked counts %v, want %v, in\n%s", masked.n, plain.n, fun.PrintBody(b, false))
				}
				for _, c := range plain.n {
					counted += c
				}
			})
		}
	}
	if counted < 1000 {
		t.Fatalf("only %d uses counted", counted)
	}
}

// TestOwnResultsShortcuts: ownResults gives what it gives without its
// shortcuts (returning at once when no allocation and copy are returned
// side by side, looking up only the identifiers the counted names'
// signature may hold) on the seed programs, their expansions and their
// simplifications, taking both shortcuts and dropping copies.
func TestOwnResultsShortcuts(t *testing.T) {
	none, dropped := 0, 0
	for _, q := range transformedSeeds(t) {
		for _, p := range []*fun.Program{q, MemoryExpand(q, GPU), Simplify(q), Simplify(MemoryExpand(q, CPU))} {
			got, want := ownResultsWith(p.Body, true), ownResultsWith(p.Body, false)
			if a, b := Print(&fun.Program{Body: got}), Print(&fun.Program{Body: want}); a != b {
				t.Fatalf("with the shortcuts ownResults gives\n%s\nwithout\n%s", a, b)
			}
			if got == p.Body && want == p.Body {
				none++
			}
			if len(got.Stms) < len(p.Body.Stms) {
				dropped++
			}
		}
	}
	if none < 10 || dropped < 10 {
		t.Fatalf("%d bodies kept, %d with copies dropped: the test compares little", none, dropped)
	}
}
