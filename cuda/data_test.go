package cuda_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/semantics"
	"github.com/arraysem/arraysem/semantics/datafile"
)

// TestDataInputsOnClang: the built program reads data files as `arraysem
// run` does (--data FILE, NAME=@FILE; package datafile): this project's
// literals and Futhark's text, Futhark's binary format of every type, the
// two mixed in one file with comments, a data set that gives the arrays
// alone, empty arrays; and it refuses with status 2 what the interpreter
// refuses (a u64 past int64, a bool byte that is no bool, truncated or
// irregular values, mixed types, a count of values that fits no input
// list, sizes that disagree, a missing file). gpu-sim, which binds inputs
// with the interpreter's code, agrees.
func TestDataInputsOnClang(t *testing.T) {
	p := foldProgram(t, "data", `input n : int;
input m : int;
input xs : [n][m] @ xs_mem;
input fs : [n]float @ fs_mem;
input k : int;
return k, xs_mem : [n][m], fs_mem : [n]float`)
	dir := t.TempDir()
	file := func(name string, parts ...[]byte) string {
		f := filepath.Join(dir, name)
		if err := os.WriteFile(f, bytes.Join(parts, nil), 0o644); err != nil {
			t.Fatal(err)
		}
		return f
	}
	bin := func(prim string, elem semantics.Elem, shape []int64, data ...int64) []byte {
		pr, _ := datafile.PrimNamed(prim)
		var b bytes.Buffer
		if err := datafile.Write(&b, semantics.Array{Elem: elem, Shape: shape, Data: data}, pr, true); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	fl := func(fs ...float64) []int64 {
		var out []int64
		for _, f := range fs {
			out = append(out, semantics.FloatBits(f))
		}
		return out
	}
	text := func(s string) []byte { return []byte(s) }
	data := func(f string) map[string]string { return map[string]string{datafile.DataArg: f} }
	xs16 := bin("i16", semantics.IntElem, []int64{2, 3}, 1, -2, 3, 32767, -32768, 0)
	// A u64 of 2^63, and a bool byte of 2: values no int64 (or bool) is.
	u64 := bin("u64", semantics.IntElem, nil, 0)
	u64[len(u64)-1] = 0x80
	bool2 := bin("bool", semantics.IntElem, nil, 0)
	bool2[len(bool2)-1] = 2
	cases := []map[string]string{
		data(file("all.in", text("2 3 [[1 2 3] [4 5 6]] [1.5 -0.0] 7"))),
		data(file("futhark.in", text("-- arrays only\n[[1i64, 2i64, 3i64], -- a row\n [4i64, 5i64, 6i64]]\n[f32.inf, 0.1f32] 7u8\n"))),
		data(file("binary.in", xs16, bin("f16", semantics.FloatElem, []int64{2}, fl(0.1, -65504)...), bin("bool", semantics.IntElem, nil, 1))),
		data(file("mixed.in", text("-- xs in binary\n"), bin("i64", semantics.IntElem, []int64{1, 2}, -9223372036854775808, 9223372036854775807), text(" [NaN] -- fs\n 3"))),
		data(file("u.in", bin("u8", semantics.IntElem, []int64{1, 1}, 255), bin("f64", semantics.FloatElem, []int64{1}, 0x7ff8000000000123), bin("u64", semantics.IntElem, nil, 9223372036854775807))),
		data(file("f32.in", bin("i32", semantics.IntElem, []int64{1, 1}, -5), bin("f32", semantics.FloatElem, []int64{1}, fl(1e-40)...), bin("u32", semantics.IntElem, nil, 4294967295))),
		data(file("empty.in", text("empty([0][3]i64) empty([0]f64) 1"))),
		data(file("empty2.in", text("0 4 [] [] 1"))),
		{datafile.DataArg: file("sizes.in", text("[[1] [2]] [1.0 2.0] 3")), "n": "2"},
		{"xs": "@" + file("xs.in", text("[[1 2] [3 4]]")), "fs": "@" + file("fs.bin", bin("f64", semantics.FloatElem, []int64{2}, fl(0.5, 2)...)), "k": "9"},
		data(file("layout.in", text("empty ( [ 0 ][2]u16 ),empty([0]f16)true"))),
		data(file("adjacent.in", text("[[1,2,],[3,4,]][1e3f32,-f32.inf]-3i16"))),
		data(file("comments.in", text("[[1]]--a\n[--b\n1.0]3--c\n"))),
		data(file("empty-comment.in", text("empty(--a\n[0][2]i64) empty([0]f64)--b\n 0"))),
		// Refused, with status 2.
		{datafile.DataArg: file("sizes.in", text("[[1] [2]] [1.0 2.0] 3")), "n": "3"},
		{datafile.DataArg: file("all.in", text("2 3 [[1 2 3] [4 5 6]] [1.5 -0.0] 7")), "k": "3"},
		data(file("u64.in", xs16, text("[1.0 2.0]"), u64)),
		data(file("bool.in", xs16, text("[1.0 2.0]"), bool2)),
		data(file("count.in", text("[[1]] [1.0]"))),
		data(file("irregular.in", text("[[1 2] [3]] [1.0 2.0] 3"))),
		data(file("types.in", text("[[1i32] [2i64]] [1.0 2.0] 3"))),
		data(file("range.in", text("[[300u8]] [1.0] 3"))),
		data(file("ints.in", text("[[1]] [1] 3"))),
		data(file("cut.in", xs16[:len(xs16)-1])),
		data(file("version.in", append([]byte{'b', 1}, xs16[2:]...))),
		data(file("after.in", text("[[1]] [1.0] 3 x"))),
		data(filepath.Join(dir, "missing.in")),
		{"xs": "@" + file("two.in", text("[[1]] [[2]]")), "fs": "[1.0]", "k": "1"},
		data(file("comment.in", text("[[1]] [1.0] 3--x\n4"))),
		data(file("nan.in", text("[[1]] [-f64.nan] 3"))),
		data(file("word.in", text("[[1]] [1.0] emptyx"))),
		// An unsuffixed element the suffix of another does not hold, in
		// either order (FuzzRead's find).
		data(file("suffix1.in", text("[[170 0i8]] [1.0] 3"))),
		data(file("suffix2.in", text("[[0i8 170]] [1.0] 3"))),
		data(file("suffix3.in", text("[[1 2]] [1.0 2f32] 3"))),
	}
	// The interpreter accepts the first fourteen and refuses the others.
	for i, args := range cases {
		if want := harness.Interpret(p.Imp, args); (want.Status == 0) != (i < 14) {
			t.Fatalf("case %d %v: the interpreter gives %+v", i, harness.Args(args), want)
		}
	}
	inputsAgree(t, p, "data", cases)
}
