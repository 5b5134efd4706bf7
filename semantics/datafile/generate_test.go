package datafile

import (
	"bytes"
	"math"
	"testing"
)

func TestGenerate(t *testing.T) {
	types := []string{"[100]i64", "i32", "[3][50]u8", "[200]f64", "[200]f32", "[64]f16", "[40]bool", "[0][2]i16", "[30]u64"}
	var ts []Type
	for _, s := range types {
		ty, err := ParseType(s)
		if err != nil {
			t.Fatal(err)
		}
		ts = append(ts, ty)
	}
	bounds := Bounds{"i64": {IntLo: -5, IntHi: 5}, "f64": {Lo: 2, Hi: 3}}
	for _, bin := range []bool{false, true} {
		var a, b, c bytes.Buffer
		if err := Generate(&a, ts, 42, bounds, bin); err != nil {
			t.Fatal(err)
		}
		Generate(&b, ts, 42, bounds, bin)
		Generate(&c, ts, 43, bounds, bin)
		if !bytes.Equal(a.Bytes(), b.Bytes()) || bytes.Equal(a.Bytes(), c.Bytes()) {
			t.Fatalf("binary %v: the same seed must give the same data, another seed other data", bin)
		}
		vs, err := readAll("d.in", a.Bytes(), int64(a.Len()))
		if err != nil {
			t.Fatal(err)
		}
		if len(vs) != len(ts) {
			t.Fatalf("binary %v: %d values, want %d", bin, len(vs), len(ts))
		}
		for i, v := range vs {
			if got := (Type{Shape: v.Shape, Prim: v.Prim}).String(); got != types[i] || v.Binary != bin {
				t.Errorf("binary %v: value %d is a %s, want %s", bin, i+1, got, types[i])
			}
			lo, hi := ts[i].Prim.Range()
			flo, fhi := 0.0, 1.0
			if r, ok := bounds[ts[i].Prim.Name]; ok {
				lo, hi, flo, fhi = r.IntLo, r.IntHi, r.Lo, r.Hi
			}
			for j := range v.Data {
				if v.Elem == 0 && (v.Data[j] < lo || v.Data[j] > hi) {
					t.Errorf("value %d: element %d out of bounds", i+1, v.Data[j])
				}
				if f := v.At(int64(j)).Float(); v.Elem != 0 && (f < flo || f > fhi || math.IsNaN(f)) {
					t.Errorf("value %d: element %v out of bounds", i+1, f)
				}
			}
		}
	}
}

func TestParseRange(t *testing.T) {
	i8, _ := PrimNamed("i8")
	f32, _ := PrimNamed("f32")
	for _, c := range []struct {
		prim Prim
		s    string
		ok   bool
	}{
		{i8, "-128:127", true}, {i8, "0:128", false}, {i8, "3:2", false}, {i8, "1", false},
		{f32, "-1.5:2", true}, {f32, "2:1", false}, {f32, "0:inf", false},
	} {
		if _, err := ParseRange(c.prim, c.s); (err == nil) != c.ok {
			t.Errorf("ParseRange(%s, %q): %v", c.prim.Name, c.s, err)
		}
	}
}

// BenchmarkReadBinary reads a binary data set of 10^6 i64 elements: the
// bytes allocated per element are the array's 8 (arraysem bench's
// data-read row measures 10^7).
func BenchmarkReadBinary(b *testing.B) {
	ty, _ := ParseType("[1000000]i64")
	var buf bytes.Buffer
	if err := Generate(&buf, []Type{ty}, 1, nil, true); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	b.ResetTimer()
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := readAll("d.in", buf.Bytes(), int64(buf.Len())); err != nil {
			b.Fatal(err)
		}
	}
}
