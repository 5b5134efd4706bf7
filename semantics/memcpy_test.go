package semantics

import (
	"errors"
	"fmt"
	"math/rand"
	"slices"
	"testing"
)

// TestMemcpyPlainAgrees: Memcpy on a plain heap (memcpyPlain, no callback
// per element) leaves the blocks and reports the errors that the general
// path does (taken here by recording the accesses, which makes the heap
// not plain), over random LMADs: overlapping copies within one block,
// negative and zero strides, empty shapes, offsets outside the blocks,
// and missing blocks.
func TestMemcpyPlainAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	lmad := func(dims []int64, size int64) LMAD {
		l := LMAD{Offset: r.Int63n(size+4) - 2}
		for _, n := range dims {
			l.Dims = append(l.Dims, LDim{Elems: n, Stride: r.Int63n(7) - 2})
		}
		return l
	}
	run := func(plain bool, sizes []int64, src Label, ls LMAD, dst Label, ld LMAD) ([][]int64, error) {
		h := &Heap{}
		for b, n := range sizes {
			l, err := h.Alloc(n)
			if err != nil {
				t.Fatal(err)
			}
			for i := range h.Block(l) {
				h.Block(l)[i] = int64(100*b + i)
			}
		}
		h.Record(!plain)
		if h.Plain() != plain {
			t.Fatalf("the heap is plain: %v, want %v", h.Plain(), plain)
		}
		err := h.Memcpy(src, ls, dst, ld)
		var out [][]int64
		for b := range sizes {
			out = append(out, slices.Clone(h.Block(Label(b+1))))
		}
		return out, err
	}
	fast := 0
	for k := 0; k < 5000; k++ {
		sizes := []int64{r.Int63n(12) + 1, r.Int63n(12) + 1}
		var dims []int64
		for range r.Intn(4) {
			dims = append(dims, r.Int63n(4))
		}
		src, dst := Label(r.Intn(3)+1), Label(r.Intn(2)+1) // label 3 does not exist
		size := func(l Label) int64 {
			if int(l) <= len(sizes) {
				return sizes[l-1]
			}
			return 1
		}
		ls, ld := lmad(dims, size(src)), lmad(dims, size(dst))
		got, gerr := run(true, sizes, src, ls, dst, ld)
		want, werr := run(false, sizes, src, ls, dst, ld)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !slices.EqualFunc(got, want, slices.Equal) {
			t.Fatalf("Memcpy(ℓ%d %v, ℓ%d %v) on blocks of %v: plain %v, %v; general %v, %v", src, ls, dst, ld, sizes, got, gerr, want, werr)
		}
		if gerr == nil {
			fast++
		}
	}
	if fast < 500 {
		t.Errorf("only %d of the copies succeeded: the cases hardly test the plain path", fast)
	}
}

// TestMemcpyTrackedAgrees: Memcpy on a heap with a tracker and no
// recording (memcpyTracked) against the general path (the same heap also
// recording), over random copies made by iteration 2 of a kernel whose
// iteration 1 touched random words before: the same words, the same
// error (the first race, a read or write outside a block), the same
// operations counted and the same accesses left in the tracker.
func TestMemcpyTrackedAgrees(t *testing.T) {
	r := rand.New(rand.NewSource(2))
	lmad := func(dims []int64, size int64) LMAD {
		l := LMAD{Offset: r.Int63n(size+4) - 2}
		for _, n := range dims {
			l.Dims = append(l.Dims, LDim{Elems: n, Stride: r.Int63n(7) - 2})
		}
		return l
	}
	type touch struct {
		loc   Loc
		write bool
	}
	run := func(record bool, sizes []int64, before []touch, src Label, ls LMAD, dst Label, ld LMAD) (string, error) {
		h := &Heap{}
		for b, n := range sizes {
			l, err := h.Alloc(n)
			if err != nil {
				t.Fatal(err)
			}
			for i := range h.Block(l) {
				h.Block(l)[i] = int64(100*b + i)
			}
		}
		st := &Stats{}
		h.Count(st)
		tr := NewTracker(false)
		h.Push(tr)
		tr.Start(1)
		for _, a := range before {
			if a.write {
				_ = h.Write(a.loc, -1)
			} else {
				_, _ = h.Read(a.loc)
			}
		}
		tr.Start(2)
		h.Record(record)
		err := h.Memcpy(src, ls, dst, ld)
		var out [][]int64
		for b := range sizes {
			out = append(out, slices.Clone(h.Block(Label(b+1))))
		}
		// What the tracker holds: a third access by iteration 3 to every
		// word races with whatever iterations 1 and 2 wrote there.
		var seen []string
		tr.Start(3)
		for b, n := range sizes {
			for o := range n {
				if _, err := h.Read(Loc{Label(b + 1), o}); err != nil {
					seen = append(seen, err.Error())
				}
			}
		}
		return fmt.Sprint(out, st.Ops, seen), err
	}
	tracked, raced := 0, 0
	for k := 0; k < 5000; k++ {
		sizes := []int64{r.Int63n(12) + 1, r.Int63n(12) + 1}
		var dims []int64
		for range r.Intn(4) {
			dims = append(dims, r.Int63n(4))
		}
		src, dst := Label(r.Intn(3)+1), Label(r.Intn(2)+1) // label 3 does not exist
		size := func(l Label) int64 {
			if int(l) <= len(sizes) {
				return sizes[l-1]
			}
			return 1
		}
		var before []touch
		for range r.Intn(7) {
			b := Label(r.Intn(2) + 1)
			before = append(before, touch{Loc{b, r.Int63n(size(b))}, r.Intn(2) == 0})
		}
		ls, ld := lmad(dims, size(src)), lmad(dims, size(dst))
		got, gerr := run(false, sizes, before, src, ls, dst, ld)
		want, werr := run(true, sizes, before, src, ls, dst, ld)
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || got != want {
			t.Fatalf("Memcpy(ℓ%d %v, ℓ%d %v) on blocks of %v after %v:\ntracked %v, %v\ngeneral %v, %v", src, ls, dst, ld, sizes, before, got, gerr, want, werr)
		}
		var race ErrRace
		if errors.As(gerr, &race) {
			raced++
		} else if gerr == nil {
			tracked++
		}
	}
	if tracked < 500 || raced < 200 {
		t.Errorf("%d copies succeeded and %d raced: too few to test both", tracked, raced)
	}
}
