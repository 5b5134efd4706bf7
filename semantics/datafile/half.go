package datafile

import "math"

// Futhark's f16, IEEE binary16: 1 sign bit, 5 exponent bits (bias 15), 10
// fraction bits. Every f16 is a float64 exactly; a float64 rounds to the
// nearest f16, ties to even.

// f16ToF64 is the float64 an f16's bits stand for.
func f16ToF64(h uint16) float64 {
	sign := 1.0
	if h&0x8000 != 0 {
		sign = -1
	}
	exp, frac := int(h>>10&0x1f), float64(h&0x3ff)
	switch exp {
	case 0:
		return sign * math.Ldexp(frac, -24) // subnormal (or zero)
	case 0x1f:
		if frac != 0 {
			return math.NaN()
		}
		return math.Inf(int(sign))
	}
	return sign * math.Ldexp(1024+frac, exp-25)
}

// f64ToF16 rounds f to the nearest f16 (ties to even), to ±Inf past the
// largest.
func f64ToF16(f float64) uint16 {
	var sign uint16
	if math.Signbit(f) {
		sign, f = 0x8000, -f
	}
	switch {
	case math.IsNaN(f):
		return 0x7e00
	case math.IsInf(f, 0):
		return sign | 0x7c00
	}
	// The f16s are the multiples of 2^(e-10) for f in [2^e, 2^(e+1)),
	// e ≥ -14, and of 2^-24 below 2^-14: scale f to count such units and
	// round to an integer, ties to even (math.RoundToEven is exact here,
	// the scaling being by a power of two).
	_, e := math.Frexp(f) // f = m·2^e, m in [0.5, 1)
	e--                   // f in [2^e, 2^(e+1))
	if e < -14 {
		e = -14
	}
	units := math.RoundToEven(math.Ldexp(f, 10-e)) // f / 2^(e-10)
	if units >= 2048 {                             // rounded up to the next binade
		units /= 2
		e++
	}
	if units < 1024 { // subnormal: e is -14
		return sign | uint16(units)
	}
	if e > 15 {
		return sign | 0x7c00
	}
	return sign | uint16(e+15)<<10 | uint16(units-1024)
}
