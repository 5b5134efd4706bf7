package datafile

import (
	"bytes"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// readAll reads every value of src, a data file called file.
func readAll(file string, src []byte, size int64) ([]Value, error) {
	return NewDecoder(file, bytes.NewReader(src), size).All()
}

// describe is a value as the golden file's ⇒ lines write it.
func describe(v Value) string {
	prim := v.Prim.Name
	if prim == "" {
		prim = "-"
	}
	return fmt.Sprintf("%s : %s %s", v.Array, semantics.TypeString(v.Elem, v.Shape), prim)
}

func TestReadText(t *testing.T) {
	golden.Run(t, filepath.Join("testdata", "read.txt"), "--", func(c *golden.Chunk) error {
		var want []string
		for _, line := range strings.Split(c.Src, "\n") {
			if w, ok := strings.CutPrefix(strings.TrimSpace(line), "-- ⇒ "); ok {
				want = append(want, w)
			}
		}
		vs, err := readAll(c.File, []byte(c.Src), int64(len(c.Src)))
		if c.ErrRe != nil {
			return c.ExpectError(err, semantics.InputError)
		}
		if err != nil {
			return err
		}
		var got []string
		for _, v := range vs {
			got = append(got, describe(v))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			return fmt.Errorf("read\n  %s\nwant\n  %s", strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
		return nil
	})
}

// binaryValue is a value in Futhark's binary format.
func binaryValue(typ string, shape []int64, elems []byte) []byte {
	b := []byte{'b', 2, byte(len(shape))}
	b = append(b, fmt.Sprintf("%4s", typ)...)
	for _, d := range shape {
		b = append(b, byte(d), byte(d>>8), byte(d>>16), byte(d>>24), byte(d>>32), byte(d>>40), byte(d>>48), byte(d>>56))
	}
	return append(b, elems...)
}

func TestReadBinary(t *testing.T) {
	for _, c := range []struct {
		name string
		src  []byte
		want string // as describe writes it
	}{
		{"i64 scalar", binaryValue("i64", nil, []byte{0xfe, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}), "-2 : int i64"},
		{"i32 array", binaryValue("i32", []int64{3}, []byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0x80}), "[1 -1 -2147483648] : [3] i32"},
		{"u32", binaryValue("u32", []int64{1}, []byte{0xff, 0xff, 0xff, 0xff}), "[4294967295] : [1] u32"},
		{"i16 u16", binaryValue("i16", []int64{2}, []byte{0xff, 0xff, 0xff, 0x7f}), "[-1 32767] : [2] i16"},
		{"u16", binaryValue("u16", nil, []byte{0xff, 0xff}), "65535 : int u16"},
		{"i8 u8", binaryValue("i8", []int64{2}, []byte{0x80, 0x7f}), "[-128 127] : [2] i8"},
		{"u8", binaryValue("u8", []int64{1, 2}, []byte{0, 255}), "[[0 255]] : [1][2] u8"},
		{"bool", binaryValue("bool", []int64{2}, []byte{1, 0}), "[1 0] : [2] bool"},
		{"f64", binaryValue("f64", []int64{2}, append(le64(math.Float64bits(1.5)), le64(math.Float64bits(math.Inf(-1)))...)), "[1.5 -Inf] : [2]float f64"},
		{"f64 NaN payload is canonical", binaryValue("f64", nil, le64(0x7ff8000000000123)), "NaN : float f64"},
		{"f32", binaryValue("f32", nil, le32(math.Float32bits(0.1))), "0.10000000149011612 : float f32"},
		{"f16", binaryValue("f16", []int64{3}, []byte{0x00, 0x3c, 0x01, 0x00, 0x00, 0xfc}), "[1.0 5.960464477539063e-08 -Inf] : [3]float f16"},
		{"empty", binaryValue("i64", []int64{0, 3}, nil), "[] : [0][3] i64"},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, size := range []int64{int64(len(c.src)), -1} {
				vs, err := readAll("d.in", c.src, size)
				if err != nil {
					t.Fatal(err)
				}
				if len(vs) != 1 || describe(vs[0]) != c.want || !vs[0].Binary {
					t.Fatalf("read %v, want %s", vs, c.want)
				}
				if vs[0].Elem == semantics.FloatElem && math.IsNaN(vs[0].At(0).Float()) && vs[0].Data[0] != semantics.FloatBits(math.NaN()) {
					t.Errorf("NaN stored as %#x, not the canonical NaN", vs[0].Data[0])
				}
			}
		})
	}
}

func le64(u uint64) []byte {
	var b [8]byte
	for i := range b {
		b[i] = byte(u >> (8 * i))
	}
	return b[:]
}

func le32(u uint32) []byte { return le64(uint64(u))[:4] }

func TestReadBinaryErrors(t *testing.T) {
	ok := binaryValue("i64", []int64{1}, le64(5))
	for _, c := range []struct {
		name string
		src  []byte
		size int64 // 0: the source's length
		want string
	}{
		{"version", append([]byte{'b', 1}, ok[2:]...), 0, "d.in:1:1: binary value of version 1; Futhark's binary data format is version 2"},
		{"rank", []byte{'b', 2, 0xff, ' ', 'i', '6', '4'}, 0, "d.in:1:1: binary value of rank -1 (0 to 64)"},
		{"type", binaryValue("i128", nil, nil), 0, `d.in:1:1: binary value of type "i128": not one of Futhark's`},
		{"header cut", ok[:5], 0, "d.in:1:1: the file ends inside a binary value's header"},
		{"shape cut", ok[:10], 0, "d.in:1:1: the file ends inside a binary value's shape"},
		{"negative size", binaryValue("i64", []int64{-1}, nil), 0, "d.in:1:1: binary value of shape [-1]: size -1 is negative"},
		{"elements cut, size known", ok[:len(ok)-1], 0, "d.in:1:1: binary value of type [1]i64: 1 elements of 8 bytes, but the file has 7 bytes left"},
		{"elements cut, size unknown", ok[:len(ok)-1], -1, "d.in:1:1: the file ends inside a binary value's elements (0 of 1 read)"},
		{"a header that lies", binaryValue("i64", []int64{1 << 40}, nil), -1, "exceeds --max-memory"},
		{"u64 past int64", binaryValue("u64", []int64{2}, append(le64(1), le64(1<<63)...)), 0, "d.in:1:1: binary value of type u64: element 2: 9223372036854775808 is past this project's largest int, 2^63-1"},
		{"bool byte", binaryValue("bool", []int64{3}, []byte{0, 1, 2}), 0, "d.in:1:1: binary value of type bool: element 3: byte 2 is no bool (0 or 1)"},
		{"after text", append([]byte("1 2\n  "), binaryValue("i64", nil, le64(1))[:4]...), 0, "d.in:2:3: the file ends inside a binary value's header"},
	} {
		t.Run(c.name, func(t *testing.T) {
			size := c.size
			if size == 0 {
				size = int64(len(c.src))
			}
			_, err := readAll("d.in", c.src, size)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error containing %q", err, c.want)
			}
			if se, ok := err.(*semantics.Error); !ok || se.Kind != semantics.InputError {
				t.Fatalf("got %T %v, want an input error", err, err)
			}
		})
	}
}

// A data file may mix text and binary values; positions after a binary
// value count its bytes as text would (31 bytes here).
func TestReadMixed(t *testing.T) {
	src := append([]byte("-- two values\n3\n"), binaryValue("i64", []int64{2}, append(le64(7), le64(8)...))...)
	src = append(src, " [1.5]"...)
	vs, err := readAll("d.in", src, int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, v := range vs {
		got = append(got, describe(v)+" at "+v.Pos.String())
	}
	want := "3 : int - at d.in:2:1|[7 8] : [2] i64 at d.in:3:1|[1.5] : [1]float - at d.in:3:33"
	if strings.Join(got, "|") != want {
		t.Fatalf("got %s\nwant %s", strings.Join(got, "|"), want)
	}
}

// randomArray is a random regular array: a random shape of rank 0 to 3
// (empty dimensions included), ints or floats (the non-finite ones
// included).
func randomArray(r *rand.Rand) semantics.Array {
	shape := make([]int64, r.IntN(4))
	n := int64(1)
	for i := range shape {
		shape[i] = int64(r.IntN(4))
		n *= shape[i]
	}
	a := semantics.Array{Shape: shape, Data: make([]int64, n)}
	if r.IntN(2) == 0 {
		a.Elem = semantics.FloatElem
	}
	for i := range a.Data {
		switch {
		case a.Elem == semantics.IntElem && r.IntN(4) == 0:
			a.Data[i] = int64(r.Uint64())
		case a.Elem == semantics.IntElem:
			a.Data[i] = int64(r.IntN(201) - 100)
		default:
			fs := []float64{math.NaN(), math.Inf(1), math.Inf(-1), 0, math.Copysign(0, -1), 1e300, 5e-324}
			f := r.NormFloat64() * 1e3
			if r.IntN(4) == 0 {
				f = fs[r.IntN(len(fs))]
			}
			a.Data[i] = semantics.FloatBits(f)
		}
	}
	return a
}

// The text reader reads what --arg reads: a printed value, with or
// without commas, reads back as semantics.ParseValue reads it.
func TestTextReadsAsParseValue(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		a := randomArray(r)
		text := a.String()
		if i%2 == 1 {
			text = strings.ReplaceAll(text, " ", ", ")
		}
		want, err := semantics.ParseValue(text)
		if err != nil {
			t.Fatalf("ParseValue(%q): %v", text, err)
		}
		vs, err := readAll("d.in", []byte(text), -1)
		if err != nil || len(vs) != 1 {
			t.Fatalf("%q: read %v, %v", text, vs, err)
		}
		got := vs[0].Array
		if got.Elem != want.Elem || fmt.Sprint(got.Shape) != fmt.Sprint(want.Shape) || fmt.Sprint(got.Data) != fmt.Sprint(want.Data) {
			t.Fatalf("%q: read %v %v %v, ParseValue gives %v %v %v", text, got.Elem, got.Shape, got.Data, want.Elem, want.Shape, want.Data)
		}
	}
}

// Write then read gives the value back, in both formats, as every type
// that holds it.
func TestWriteRead(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 1000; i++ {
		a := randomArray(r)
		prims := []string{"i64"}
		if a.Elem == semantics.FloatElem {
			prims = []string{"f64"}
		}
		if fits(a, -1<<31, 1<<31-1) {
			prims = append(prims, "i32")
		}
		if fits(a, 0, 255) {
			prims = append(prims, "u8", "u64")
		}
		if fits(a, 0, 1) {
			prims = append(prims, "bool")
		}
		for _, name := range prims {
			prim, _ := PrimNamed(name)
			for _, bin := range []bool{false, true} {
				var buf bytes.Buffer
				if err := Write(&buf, a, prim, bin); err != nil {
					t.Fatalf("Write %v as %s: %v", a, name, err)
				}
				vs, err := readAll("d.in", buf.Bytes(), int64(buf.Len()))
				if err != nil || len(vs) != 1 {
					t.Fatalf("%v as %s (binary %v): %q reads as %v, %v", a, name, bin, buf.Bytes(), vs, err)
				}
				got := vs[0]
				if got.Elem != a.Elem || fmt.Sprint(got.Shape) != fmt.Sprint(a.Shape) || fmt.Sprint(got.Data) != fmt.Sprint(a.Data) || got.Prim != prim {
					t.Fatalf("%v as %s (binary %v): %q reads as %v %v %v", a, name, bin, buf.Bytes(), got.Shape, got.Data, got.Prim)
				}
			}
		}
	}
}

func fits(a semantics.Array, lo, hi int64) bool {
	if a.Elem != semantics.IntElem {
		return false
	}
	for _, k := range a.Data {
		if k < lo || k > hi {
			return false
		}
	}
	return true
}

func TestF16(t *testing.T) {
	// Every f16 reads back as itself through a float64.
	for h := 0; h < 1<<16; h++ {
		f := f16ToF64(uint16(h))
		if math.IsNaN(f) {
			continue
		}
		if got := f64ToF16(f); got != uint16(h) {
			t.Fatalf("f16 %#04x is %v, which rounds to %#04x", h, f, got)
		}
	}
	for _, c := range []struct {
		f    float64
		want uint16
	}{
		{65504, 0x7bff}, {65520, 0x7c00}, {65519.99, 0x7bff}, // the largest, and the tie that rounds to Inf
		{1 + 1.0/2048, 0x3c00}, {1 + 3.0/2048, 0x3c02}, // ties to even
		{math.Ldexp(1, -25), 0}, {math.Ldexp(1.5, -25), 1}, // the smallest subnormal's tie and past it
		{math.Ldexp(1023.5, -24), 0x0400}, // a subnormal rounding up to the smallest normal
	} {
		if got := f64ToF16(c.f); got != c.want {
			t.Errorf("f64ToF16(%v) = %#04x, want %#04x", c.f, got, c.want)
		}
	}
}

func TestReadOne(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	one := write("one.in", "-- xs\n[1 2 3]\n")
	v, err := ReadOne(one)
	if err != nil || v.String() != "[1 2 3]" {
		t.Fatalf("ReadOne: %v, %v", v, err)
	}
	for _, c := range []struct{ text, want string }{
		{"[1 2] 3", "two.in:1:7: a second value, where the file is to hold one"},
		{"-- nothing\n", "two.in:2:1: the file holds no value"},
	} {
		_, err := ReadOne(write("two.in", c.text))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
	_, err = ReadOne(filepath.Join(dir, "missing.in"))
	if err == nil || !strings.HasSuffix(err.Error(), "missing.in: cannot read the data file: no such file or directory") {
		t.Errorf("a missing file: %v", err)
	}
}
