package fun

import (
	"math/rand"
	"strconv"
	"strings"
	"testing"
)

// TestScopeTable: Γ's hash table against a Go map, over random binds,
// lookups and removals in any order (not only last first), from an
// empty Γ and from one sized too small, through the table's growth
// and past a hundred names, with names that collide in a small table.
func TestScopeTable(t *testing.T) {
	names := make([]string, 300)
	for i := range names {
		names[i] = []string{"x", "m", "n", "xs", "sz", "x_1"}[i%6] + strconv.Itoa(i/6)
	}
	for seed := int64(0); seed < 40; seed++ {
		r := rand.New(rand.NewSource(seed))
		s := NewScope("TEST")
		if seed%2 == 1 {
			s = NewScopeSized("TEST", r.Intn(20))
		}
		want := map[string]int{}                 // name → the size bound with it
		pool := names[:10+r.Intn(len(names)-10)] // some seeds fill Γ, some churn it
		for op := 0; op < 3000; op++ {
			x := pool[r.Intn(len(pool))]
			switch r.Intn(3) {
			case 0:
				err := s.Add("T", &Ident{Name: x}, Type{Dims: []*Ident{{Name: strconv.Itoa(op)}}})
				if _, bound := want[x]; bound != (err != nil) {
					t.Fatalf("seed %d op %d: Add %s: %v, bound %v", seed, op, x, err, bound)
				}
				if err == nil {
					want[x] = op
				}
			case 1:
				s.Remove(x)
				delete(want, x)
			}
			for _, y := range pool[:10] {
				typ, ok := s.TypeOf(&Ident{Name: y})
				w, bound := want[y]
				if ok != bound || ok && typ.Dims[0].Name != strconv.Itoa(w) {
					t.Fatalf("seed %d op %d: TypeOf %s = %v %v, want %v %v", seed, op, y, typ, ok, w, bound)
				}
			}
		}
		if len(s.ents) != len(want) {
			t.Fatalf("seed %d: %d entries, want %d", seed, len(s.ents), len(want))
		}
	}
}

// TestNameSet: the zero set is empty and usable; Remove moves the last
// name into the gap and says so; names keep their order otherwise.
func TestNameSet(t *testing.T) {
	var s NameSet
	if s.Has("a") || s.Index("a") != -1 {
		t.Fatal("zero set holds a")
	}
	for _, x := range []string{"a", "b", "c", "d"} {
		if i, added := s.Add(x); !added || s.Name(i) != x {
			t.Fatalf("Add %s = %d %v", x, i, added)
		}
	}
	if i, added := s.Add("b"); added || i != 1 {
		t.Fatalf("Add b again = %d %v, want 1 false", i, added)
	}
	if i, last := s.Remove("b"); i != 1 || last != 3 || s.Name(1) != "d" || s.Index("d") != 1 {
		t.Fatalf("Remove b = %d %d, names %v", i, last, s.names)
	}
	if i, last := s.Remove("c"); i != 2 || last != 2 || s.Len() != 2 {
		t.Fatalf("Remove c = %d %d, names %v", i, last, s.names)
	}
	if i, _ := s.Remove("c"); i != -1 {
		t.Fatalf("Remove c again = %d, want -1", i)
	}
}

// TestScopeRebound: the no-shadowing error names where the name was
// bound first, also after other names came and went around it.
func TestScopeRebound(t *testing.T) {
	s := NewScopeSized("FUN", 2)
	at := func(line int, x string) *Ident { return &Ident{Name: x, NamePos: Pos{File: "f", Line: line, Col: 1}} }
	for i, x := range []string{"a", "b", "c", "d"} {
		if err := s.Add("T", at(i+1, x), Type{}); err != nil {
			t.Fatal(err)
		}
	}
	s.Remove("a") // d fills a's place
	err := s.Add("T-STM", at(9, "d"), Type{})
	if err == nil || !strings.Contains(err.Error(), "d is already bound at f:4:1") {
		t.Fatalf("got %v", err)
	}
	if err := s.Add("T", at(10, "a"), Type{}); err != nil {
		t.Fatalf("a again: %v", err)
	}
}

// TestScopeNeed: the most names bound at once, inputs, a kernel's
// index and the deepest body counted.
func TestScopeNeed(t *testing.T) {
	p, err := ParseFile("x.fun", `input (n : int)
let (a : int) = n + 1
let (xs : [n]) =
  kernel i <= n do
    let (y : int) = i + a
    let (z : int) = y + 1
    in (z)
let (b : int) = a + 1
in (xs)
`)
	if err != nil {
		t.Fatal(err)
	}
	// n; a, xs, b; and inside the kernel i, y, z.
	if got := ScopeNeed(p); got != 7 {
		t.Errorf("ScopeNeed = %d, want 7", got)
	}
}

func benchScope(b *testing.B, n int) {
	ids := make([]*Ident, n)
	for i := range ids {
		ids[i] = &Ident{Name: []string{"x", "m", "n", "xs", "sz"}[i%5] + "_" + strconv.Itoa(i)}
	}
	b.ReportAllocs()
	for it := 0; it < b.N; it++ {
		s := NewScopeSized("FUN", n)
		for i, x := range ids {
			if err := s.Add("T", x, Type{}); err != nil {
				b.Fatal(err)
			}
			for _, j := range []int{i, i / 2, i * 7 / 8, 0} {
				if _, ok := s.TypeOf(ids[j]); !ok {
					b.Fatal("lost")
				}
			}
		}
		for i := n - 1; i >= 0; i-- {
			s.Remove(ids[i].Name)
		}
	}
}

// BenchmarkScope makes Γ as a check does: n names bound, each followed
// by a few lookups, then taken out last first.
func BenchmarkScope10(b *testing.B)  { benchScope(b, 10) }
func BenchmarkScope40(b *testing.B)  { benchScope(b, 40) }
func BenchmarkScope200(b *testing.B) { benchScope(b, 200) }
