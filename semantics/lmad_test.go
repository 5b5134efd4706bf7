package semantics

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestLMAD pins eqs (1)–(3) with the 1-based reading of ERRATA.md: R(n)
// applied to 1 … n gives 0 … n−1, inside a block of n.
func TestLMAD(t *testing.T) {
	r := RowMajor([]int64{2, 3})
	if r.String() != "0 + {(2 : 3) (3 : 1)}" {
		t.Errorf("R(2, 3) = %v", r)
	}
	for _, tc := range []struct {
		idx  []int64
		want int64
		err  string
	}{
		{[]int64{1, 1}, 0, ""},
		{[]int64{2, 3}, 5, ""},
		{[]int64{1, 3}, 2, ""},
		{[]int64{3, 1}, 0, "index 3 out of bounds 1..2 in dimension 1"},
		{[]int64{1, 0}, 0, "index 0 out of bounds 1..3 in dimension 2"},
	} {
		got, err := r.Apply(tc.idx)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Apply(%v) = %d, %v; want %q", tc.idx, got, err, tc.err)
			}
		} else if err != nil || got != tc.want {
			t.Errorf("Apply(%v) = %d, %v; want %d", tc.idx, got, err, tc.want)
		}
	}
	// slice_f: rows 2..2, columns 2..3 of R(2, 3) start at offset 4.
	s, err := r.Slice([][2]int64{{2, 1}, {2, 2}})
	if err != nil || s.String() != "4 + {(1 : 3) (2 : 1)}" {
		t.Errorf("Slice = %v, %v", s, err)
	}
	if _, err := r.Slice([][2]int64{{2, 2}, {1, 3}}); err == nil || !strings.Contains(err.Error(), "out of bounds 1..2") {
		t.Errorf("out-of-bounds slice: %v", err)
	}
	// index_f fixes the outer dimension: row 2 starts at 3.
	i, err := r.Index(2)
	if err != nil || i.String() != "3 + {(3 : 1)}" {
		t.Errorf("Index(2) = %v, %v", i, err)
	}
	tr, _ := r.Transpose()
	if tr.String() != "0 + {(3 : 1) (2 : 3)}" {
		t.Errorf("Transpose = %v", tr)
	}
	var img []int64
	_ = tr.Image(func(off int64) error { img = append(img, off); return nil })
	if got := toString(img); got != " 0 3 1 4 2 5" {
		t.Errorf("img(tr(R(2, 3))) in domain order =%s", got)
	}
}

// toString renders integers each after a space.
func toString(xs []int64) string {
	var b strings.Builder
	for _, x := range xs {
		b.WriteString(" " + Scalar(x).String())
	}
	return b.String()
}

// TestHeapAndMemcpy pins eq (5): elements copied in domain order, the
// destination's other cells untouched, overlapping copies read first.
func TestHeapAndMemcpy(t *testing.T) {
	h := &Heap{}
	a, _ := h.Alloc(6)
	b, _ := h.Alloc(4)
	for i := int64(0); i < 6; i++ {
		_ = h.Write(Loc{a, i}, 10+i)
	}
	src, _ := RowMajor([]int64{2, 3}).Transpose() // column-major view of a
	dst := LMAD{Offset: 1, Dims: []LDim{{3, 1}}}
	col, _ := src.Index(2) // column 2 of a: 11, 14
	if err := h.Memcpy(a, col, b, LMAD{Offset: 2, Dims: []LDim{{2, 1}}}); err != nil {
		t.Fatal(err)
	}
	if got := toString(h.Block(b)); got != " 0 0 11 14" {
		t.Errorf("block b = %s", got)
	}
	// Overlapping: shift a's first three elements right by one.
	if err := h.Memcpy(a, LMAD{Dims: []LDim{{3, 1}}}, a, dst); err != nil {
		t.Fatal(err)
	}
	if got := toString(h.Block(a)); got != " 10 10 11 12 14 15" {
		t.Errorf("block a = %s", got)
	}
	if err := h.Memcpy(a, LMAD{Dims: []LDim{{3, 1}}}, b, LMAD{Offset: 2, Dims: []LDim{{3, 1}}}); err == nil || !strings.Contains(err.Error(), "offset 4 is outside block ℓ2 of size 4") {
		t.Errorf("memcpy past the block: %v", err)
	}
	if _, err := h.Read(Loc{3, 0}); err == nil {
		t.Error("read of a missing block succeeded")
	}
	if _, err := h.Alloc(-1); err == nil {
		t.Error("negative allocation succeeded")
	}
}

// TestRacefree pins eq (4): writes of one iteration may not meet any
// access of another; reads may be shared, and an iteration may read what
// it writes.
func TestRacefree(t *testing.T) {
	type access struct {
		iter  int64
		off   int64
		write bool
	}
	for _, tc := range []struct {
		name string
		acc  []access
		race string
	}{
		{"disjoint writes", []access{{1, 0, true}, {2, 1, true}, {3, 2, true}}, ""},
		{"shared reads", []access{{1, 0, false}, {2, 0, false}, {3, 0, false}}, ""},
		{"read own write", []access{{1, 0, true}, {1, 0, false}, {2, 1, true}, {2, 1, false}}, ""},
		{"write-write", []access{{1, 0, true}, {2, 5, true}, {3, 0, true}}, "iteration 1 writes ℓ1[0], which iteration 3 also uses"},
		{"read then write", []access{{1, 4, false}, {2, 4, true}}, "iteration 2 writes ℓ1[4], which iteration 1 also uses"},
		{"write then read", []access{{2, 4, true}, {2, 4, false}, {7, 4, false}}, "iteration 2 writes ℓ1[4], which iteration 7 also uses"},
	} {
		h := &Heap{}
		l, _ := h.Alloc(10)
		tr := NewTracker(false)
		h.Push(tr)
		var err error
		for _, a := range tc.acc {
			if tr.Iter != a.iter {
				tr.Start(a.iter)
			}
			if a.write {
				err = h.Write(Loc{l, a.off}, 1)
			} else {
				_, err = h.Read(Loc{l, a.off})
			}
			if err != nil {
				break
			}
		}
		h.Pop()
		switch {
		case tc.race == "" && err != nil:
			t.Errorf("%s: unexpected %v", tc.name, err)
		case tc.race != "" && (err == nil || !strings.Contains(err.Error(), tc.race)):
			t.Errorf("%s: got %v, want a race %q", tc.name, err, tc.race)
		}
	}
}

// TestRaceTrackingScales traces a kernel of 10^6 iterations, each reading
// a shared cell and writing its own: the tracker keeps a constant amount
// per location, so this is linear in the accesses (a quadratic pairwise
// intersection would not finish).
func TestRaceTrackingScales(t *testing.T) {
	const n = 1_000_000
	h := &Heap{}
	l, _ := h.Alloc(n + 1)
	tr := NewTracker(false)
	h.Push(tr)
	for i := int64(1); i <= n; i++ {
		tr.Start(i)
		v, err := h.Read(Loc{l, n})
		if err == nil {
			err = h.Write(Loc{l, i - 1}, v+i)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	tr.Start(n + 1)
	if err := h.Write(Loc{l, 17}, 0); err == nil || !strings.Contains(err.Error(), "iteration 18 writes ℓ1[17], which iteration 1000001 also uses") {
		t.Errorf("late race: %v", err)
	}
}

// BenchmarkRaceTracking reports accesses traced per second.
func BenchmarkRaceTracking(b *testing.B) {
	for k := 0; k < b.N; k++ {
		h := &Heap{}
		l, _ := h.Alloc(1 << 16)
		tr := NewTracker(false)
		h.Push(tr)
		for i := int64(1); i <= 1<<16; i++ {
			tr.Start(i)
			_ = h.Write(Loc{l, i - 1}, i)
		}
	}
	b.ReportMetric(float64(int64(b.N)<<16)/b.Elapsed().Seconds(), "accesses/s")
}

// TestDense checks Dense against Image: an LMAD is dense with n exactly
// when its image, in order, is n consecutive offsets from its offset.
func TestDense(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for k := range 5000 {
		l := LMAD{Offset: r.Int64N(5)}
		for range r.IntN(4) {
			l.Dims = append(l.Dims, LDim{Elems: r.Int64N(4), Stride: r.Int64N(13) - 2})
		}
		if r.IntN(2) == 0 { // row-major strides, often
			l = RowMajor(l.Shape())
			l.Offset = r.Int64N(5)
		}
		var offs []int64
		_ = l.Image(func(off int64) error { offs = append(offs, off); return nil })
		consecutive := true
		for i, off := range offs {
			consecutive = consecutive && off == l.Offset+int64(i)
		}
		n, ok := l.Dense()
		if ok != consecutive || ok && n != int64(len(offs)) {
			t.Fatalf("case %d: %v: Dense %d, %v; image %v", k, l, n, ok, offs)
		}
	}
}
