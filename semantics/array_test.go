package semantics

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"
)

func mustValue(t *testing.T, s string) Array {
	t.Helper()
	v, err := ParseValue(s)
	if err != nil {
		t.Fatalf("ParseValue(%q): %v", s, err)
	}
	return v
}

func TestParseAndFormatValues(t *testing.T) {
	for _, tc := range []struct{ in, out, err string }{
		{in: "42", out: "42"},
		{in: "-3", out: "-3"},
		{in: "[1 2 3]", out: "[1 2 3]"},
		{in: "[1, 2, 3]", out: "[1 2 3]"},
		{in: " [[1 2] [3 4]] ", out: "[[1 2] [3 4]]"},
		{in: "[]", out: "[]"},
		{in: "[[1 2] [3]]", err: "irregular"},
		{in: "[1 2", err: "missing ']'"},
		{in: "x", err: "expected a number"},
		{in: "[1 2.5]", err: "mixes int and float"},
		{in: "1e400", err: "out of range"},
		{in: "99999999999999999999", err: "out of range"},
		{in: "1 2", err: "unexpected"},
		{in: strings.Repeat("[", 100) + strings.Repeat("]", 100), err: "nested more than"},
	} {
		v, err := ParseValue(tc.in)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseValue(%q) = %v, %v; want error containing %q", tc.in, v, err, tc.err)
			}
			continue
		}
		if err != nil || v.String() != tc.out {
			t.Errorf("ParseValue(%q) = %v, %v; want %s", tc.in, v, err, tc.out)
		}
	}
}

func TestIndex(t *testing.T) {
	m := mustValue(t, "[[1 2 3] [4 5 6]]")
	for _, tc := range []struct {
		idx  []int64
		want string
		err  string
	}{
		{idx: []int64{1, 1}, want: "1"},
		{idx: []int64{2, 3}, want: "6"},
		{idx: []int64{2}, want: "[4 5 6]"},
		{idx: []int64{3, 1}, err: "index 3 out of bounds 1..2 in dimension 1"},
		{idx: []int64{1, 0}, err: "index 0 out of bounds 1..3 in dimension 2"},
		{idx: []int64{1, 1, 1}, err: "3 indices for an array of rank 2"},
	} {
		v, err := m.Index(tc.idx)
		if tc.err != "" {
			if err == nil || err.Error() != tc.err {
				t.Errorf("Index(%v) = %v, %v; want error %q", tc.idx, v, err, tc.err)
			}
			continue
		}
		if err != nil || v.String() != tc.want {
			t.Errorf("Index(%v) = %v, %v; want %s", tc.idx, v, err, tc.want)
		}
	}
}

// TestSlice pins the corrected reading of Fig 5's slice (ERRATA.md): the
// pair o : s selects s elements, o … o+s-1.
func TestSlice(t *testing.T) {
	v := mustValue(t, "[10 20 30 40 50]")
	m := mustValue(t, "[[1 2 3] [4 5 6] [7 8 9]]")
	for _, tc := range []struct {
		a     Array
		pairs [][2]int64
		want  string
		err   string
	}{
		{a: v, pairs: [][2]int64{{2, 3}}, want: "[20 30 40]"},
		{a: v, pairs: [][2]int64{{1, 5}}, want: "[10 20 30 40 50]"},
		{a: v, pairs: [][2]int64{{6, 0}}, want: "[]"},
		{a: v, pairs: [][2]int64{{4, 3}}, err: "slice 4:3 (elements 4..6) out of bounds 1..5 in dimension 1"},
		{a: v, pairs: [][2]int64{{0, 1}}, err: "out of bounds 1..5"},
		{a: v, pairs: [][2]int64{{1, -1}}, err: "slice size -1 is negative"},
		{a: v, pairs: [][2]int64{{math.MaxInt64, math.MaxInt64}}, err: "out of bounds"},
		{a: m, pairs: [][2]int64{{2, 2}, {1, 2}}, want: "[[4 5] [7 8]]"},
		{a: m, pairs: [][2]int64{{1, 3}, {3, 1}}, want: "[[3] [6] [9]]"},
		{a: m, pairs: [][2]int64{{1, 0}, {1, 3}}, want: "[]"},
	} {
		got, err := tc.a.Slice(tc.pairs)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%v.Slice(%v) = %v, %v; want error %q", tc.a, tc.pairs, got, err, tc.err)
			}
			continue
		}
		if err != nil || got.String() != tc.want {
			t.Errorf("%v.Slice(%v) = %v, %v; want %s", tc.a, tc.pairs, got, err, tc.want)
		}
	}
	// An empty slice keeps its full shape.
	e, _ := m.Slice([][2]int64{{1, 0}, {1, 3}})
	if !SameShape(e.Shape, []int64{0, 3}) {
		t.Errorf("empty slice shape = %v, want [0 3]", e.Shape)
	}
}

func TestTranspose(t *testing.T) {
	m := mustValue(t, "[[1 2 3] [4 5 6]]")
	tr, err := m.Transpose()
	if err != nil || tr.String() != "[[1 4] [2 5] [3 6]]" {
		t.Errorf("Transpose = %v, %v", tr, err)
	}
	if _, err := mustValue(t, "[1 2]").Transpose(); err == nil {
		t.Error("Transpose of a rank-1 array succeeded")
	}
}

// TestNest pins the corrected reading of Fig 5's nest (ERRATA.md),
// including the paper's own example.
func TestNest(t *testing.T) {
	for _, tc := range []struct {
		flat  []int64
		shape []int64
		want  string
	}{
		{[]int64{1, 2, 3, 4}, []int64{2, 2}, "[[1 2] [3 4]]"},
		{[]int64{1, 2, 3, 4, 5, 6}, []int64{2, 3}, "[[1 2 3] [4 5 6]]"},
		{[]int64{1, 2, 3, 4, 5, 6}, []int64{3, 2}, "[[1 2] [3 4] [5 6]]"},
		{[]int64{7}, nil, "7"},
	} {
		v, err := Nest(tc.flat, tc.shape)
		if err != nil || v.String() != tc.want {
			t.Errorf("Nest(%v, %v) = %v, %v; want %s", tc.flat, tc.shape, v, err, tc.want)
		}
	}
	if _, err := Nest([]int64{1, 2, 3}, []int64{2, 2}); err == nil {
		t.Error("Nest of 3 elements as [2][2] succeeded")
	}
}

func TestParseBytes(t *testing.T) {
	for in, want := range map[string]int64{"4GiB": 4 << 30, "512MB": 512e6, "1000000": 1e6, "2 g": 2 << 30, "1.5KiB": 1536} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	// Issue 32: sizes that wrapped, or were taken as 0.
	for in, want := range map[string]int64{"4EiB": 1 << 62, "4TiB": 4 << 40, "1PB": 1e15, "1B": 1, "0.5KB": 500, "4611686018427387904": 1 << 62} {
		if got, err := ParseBytes(in); err != nil || got != want {
			t.Errorf("ParseBytes(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, in := range []string{"9223372036854775808", "9223372036854775807", "8388608TiB", "1e30", "4.1EiB", "5EB", "4611686018427387905000", "0.000001B", "0.5", "0.0009KB"} {
		if got, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) = %d", in, got)
		}
	}
	for _, in := range []string{"", "GiB", "-1GB", "4 parsecs", "0"} {
		if _, err := ParseBytes(in); err == nil {
			t.Errorf("ParseBytes(%q) succeeded", in)
		}
	}
}

func TestCountLimits(t *testing.T) {
	if _, err := Count([]int64{1 << 20, 1 << 20}); err == nil || !strings.Contains(err.Error(), "exceeds --max-memory 4.0 GiB") {
		t.Errorf("Count of 2^40 elements: %v", err)
	}
	defer SetMaxMemory(MaxMemory())
	SetMaxMemory(1 << 20)
	if _, err := Count([]int64{1 << 10, 1 << 10}); err == nil || err.Error() != "an array of shape [1024][1024] of 1048576 elements (8.0 MiB) exceeds --max-memory 1.0 MiB (raise it with --max-memory)" {
		t.Errorf("Count of 2^20 elements under 1 MiB: %v", err)
	}
	if _, err := Count([]int64{1 << 10, 1 << 7}); err != nil {
		t.Errorf("Count of 2^17 elements under 1 MiB: %v", err)
	}
	// Issue 32: the message counted the sizes up to the one past the
	// limit ([2^62][4] was "of 2^62 elements (0 B)"), and an empty array
	// whose 0 came after a large size was refused.
	if _, err := Count([]int64{1 << 62, 4}); err == nil || err.Error() != "an array of shape [4611686018427387904][4] exceeds --max-memory 1.0 MiB (raise it with --max-memory)" {
		t.Errorf("Count of 2^64 elements: %v", err)
	}
	if _, err := Count([]int64{1 << 20, 1 << 20, 4}); err == nil || !strings.Contains(err.Error(), "of 4398046511104 elements (32.0 TiB)") {
		t.Errorf("Count of 2^42 elements: %v", err)
	}
	if _, err := Count([]int64{1 << 30, 1 << 30}); err == nil || !strings.Contains(err.Error(), "of 1152921504606846976 elements (more than 4 EiB)") {
		t.Errorf("Count of 2^60 elements: %v", err)
	}
	if n, err := Count([]int64{1 << 40, 0}); n != 0 || err != nil {
		t.Errorf("Count of [2^40][0]: %d, %v", n, err)
	}
	if _, err := Count([]int64{3, -1}); err == nil {
		t.Error("Count of a negative size succeeded")
	}
	// FuzzRead's find: a 0 after a size past the limit hid a negative
	// size after it, so a binary file's shape [huge][0][-5] was read.
	if _, err := Count([]int64{1 << 62, 0, -5}); err == nil || err.Error() != "size -5 is negative" {
		t.Errorf("Count of [2^62][0][-5]: %v", err)
	}
	if n, err := Count([]int64{0, 1 << 62}); err != nil || n != 0 {
		t.Errorf("Count([0, 2^62]) = %d, %v", n, err)
	}
}

func TestStackAndDifference(t *testing.T) {
	a, b := mustValue(t, "[1 2]"), mustValue(t, "[3 4]")
	s, err := Stack([]int64{2}, []Array{a, b})
	if err != nil || s.String() != "[[1 2] [3 4]]" {
		t.Errorf("Stack = %v, %v", s, err)
	}
	if _, err := Stack([]int64{2}, []Array{a, mustValue(t, "[1]")}); err == nil {
		t.Error("Stack of irregular items succeeded")
	}
	empty, _ := Stack([]int64{3}, nil)
	if !SameShape(empty.Shape, []int64{0, 3}) {
		t.Errorf("empty stack shape %v", empty.Shape)
	}
	if d := FirstDifference(s, mustValue(t, "[[1 2] [3 5]]")); d != "element [2, 2] differs: 4 and 5" {
		t.Errorf("FirstDifference = %q", d)
	}
	if d := FirstDifference(s, s); d != "" {
		t.Errorf("FirstDifference of equal arrays = %q", d)
	}
}

func TestAbbrev(t *testing.T) {
	v, _ := Iota(100)
	if got := v.Abbrev(3); got != "[1 2 3 … 100]" {
		t.Errorf("Abbrev = %q", got)
	}
}

// TestPrintedSize checks String's buffer estimate: never short of the
// text for int arrays (so printing a result grows its buffer once), and
// not past what the widest element makes of every one.
func TestPrintedSize(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for k := range 2000 {
		rank := r.IntN(4)
		shape := make([]int64, rank)
		size := int64(1)
		for d := range shape {
			shape[d] = int64(r.IntN(5))
			size *= shape[d]
		}
		data := make([]int64, size)
		for i := range data {
			switch r.IntN(4) {
			case 0:
				data[i] = r.Int64N(10)
			case 1:
				data[i] = -r.Int64N(1000)
			case 2:
				data[i] = int64(r.Uint64())
			default:
				data[i] = []int64{math.MinInt64, math.MaxInt64, 0, -1}[r.IntN(4)]
			}
		}
		a := Array{Shape: shape, Data: data}
		got, text := a.printedSize(), a.String()
		if got < len(text) || got > 20*len(text)+8 { // 20: the widest int against the narrowest
			t.Fatalf("case %d: %s (%d bytes): printedSize %d", k, text, len(text), got)
		}
	}
}

// TestStringJobs checks that printing on goroutines gives String's text,
// for arrays above the threshold of every rank, int and float, with few
// and many rows, on more goroutines than rows too.
func TestStringJobs(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	shapes := [][]int64{
		{minParallelPrint}, {minParallelPrint + 7}, {2, minParallelPrint / 2}, {3, 5, minParallelPrint / 9},
		{minParallelPrint / 4, 5}, {1, minParallelPrint}, {0, 5}, {}, {minParallelPrint - 1},
	}
	for _, shape := range shapes {
		for _, elem := range []Elem{IntElem, FloatElem} {
			size := int64(1)
			for _, d := range shape {
				size *= d
			}
			data := make([]int64, size)
			for i := range data {
				if elem == FloatElem {
					data[i] = int64(math.Float64bits(r.NormFloat64() * 1e3))
				} else {
					data[i] = r.Int64N(2000) - 1000
				}
			}
			a := Array{Elem: elem, Shape: shape, Data: data}
			want := a.String()
			if elem == IntElem && len(shape) > 0 && shape[0] > 0 {
				// The sizes StringJobs measures are the texts': a wrong one
				// would only make it fall back on String.
				rows, mid := shape[0], shape[0]/2
				st := size / rows
				if got := a.rowsSize(0, mid, st) + a.rowsSize(mid, rows, st) + 2; got != len(want) {
					t.Fatalf("shape %v: rowsSize gives %d bytes, String %d", shape, got, len(want))
				}
			}
			for _, jobs := range []int{2, 3, 7} {
				if got := a.StringJobs(jobs); got != want {
					t.Fatalf("shape %v, %v elements, jobs %d: the texts differ (%d and %d bytes)", shape, elem, jobs, len(got), len(want))
				}
			}
		}
	}
}
