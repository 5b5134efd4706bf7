package datafile

import (
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Bounds are the ranges that Generate draws the elements of each
// primitive type from, by its name: ints uniformly from [Lo, Hi], floats
// uniformly from [Lo, Hi). A type without bounds takes its whole range
// (as far as int64 holds it: u64's values stop at 2^63-1), a float type
// [0, 1); bool is true or false, evenly.
type Bounds map[string]Range

// Range is one type's bounds: ints in IntLo…IntHi, floats in Lo…Hi.
type Range struct {
	IntLo, IntHi int64
	Lo, Hi       float64
}

// ParseRange reads bounds LO:HI for the type prim (as futhark dataset's
// --i64-bounds=LO:HI reads them).
func ParseRange(prim Prim, s string) (Range, error) {
	a, b, ok := strings.Cut(s, ":")
	if !ok || prim.Kind == 'b' {
		return Range{}, fmt.Errorf("bounds for %s: want LO:HI, got %q", prim.Name, s)
	}
	if prim.Kind == 'f' {
		lo, err1 := strconv.ParseFloat(a, 64)
		hi, err2 := strconv.ParseFloat(b, 64)
		if err1 != nil || err2 != nil || !(lo <= hi) || math.IsInf(hi-lo, 0) {
			return Range{}, fmt.Errorf("bounds for %s: want finite floats LO ≤ HI, got %q", prim.Name, s)
		}
		return Range{Lo: lo, Hi: hi}, nil
	}
	lo, err1 := strconv.ParseInt(a, 10, 64)
	hi, err2 := strconv.ParseInt(b, 10, 64)
	plo, phi := prim.Range()
	if err1 != nil || err2 != nil || lo > hi || lo < plo || hi > phi {
		return Range{}, fmt.Errorf("bounds for %s: want integers %d ≤ LO ≤ HI ≤ %d, got %q", prim.Name, plo, phi, s)
	}
	return Range{IntLo: lo, IntHi: hi}, nil
}

// Generate writes one random value of each type to w, one after another
// (each on a line of its own as text), drawn from a generator seeded
// with seed: the same seed, types and bounds give the same file. The
// elements are made a chunk at a time as they are written, so a data set
// of any size takes little memory to make.
func Generate(w io.Writer, types []Type, seed uint64, bounds Bounds, binary bool) error {
	r := rand.New(rand.NewPCG(seed, 0x6172726179736d)) // "arraysm"
	for _, t := range types {
		b, ok := bounds[t.Prim.Name]
		if !ok {
			lo, hi := t.Prim.Range()
			b = Range{IntLo: lo, IntHi: hi, Lo: 0, Hi: 1}
		}
		draw := drawer(r, t.Prim, b)
		if err := writeValue(w, t, binary, func(dst []int64) {
			for i := range dst {
				dst[i] = draw()
			}
		}); err != nil {
			return err
		}
	}
	return nil
}

// drawer draws elements of type prim within b: ints, or floats' bits.
func drawer(r *rand.Rand, prim Prim, b Range) func() int64 {
	switch prim.Kind {
	case 'b':
		return func() int64 { return int64(r.IntN(2)) }
	case 'f':
		return func() int64 {
			f := b.Lo + (b.Hi-b.Lo)*r.Float64()
			switch prim.Name {
			case "f32":
				f = float64(float32(f))
			case "f16":
				f = f16ToF64(f64ToF16(f))
			}
			return int64(math.Float64bits(f))
		}
	}
	span := uint64(b.IntHi - b.IntLo) // the count less one, wrapping as unsigned
	if span == math.MaxUint64 {
		return func() int64 { return int64(r.Uint64()) }
	}
	return func() int64 { return b.IntLo + int64(r.Uint64N(span+1)) }
}
