package datafile

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// FuzzRead: any bytes, as a data file of known or unknown size, read to
// values or to one input error with a position in the file, never a
// panic; a value read writes (as text and in the binary format, as its
// own type) to a file that reads back to the same value. Seeded from the
// golden chunks and binary values of every type.
func FuzzRead(f *testing.F) {
	chunks, err := os.ReadFile(filepath.Join("testdata", "read.txt"))
	if err != nil {
		f.Fatal(err)
	}
	for _, c := range strings.Split(string(chunks), "\n---\n") {
		f.Add([]byte(c), false)
	}
	for _, p := range Prims {
		var b bytes.Buffer
		Generate(&b, []Type{{Shape: []int64{2, 3}, Prim: p}}, 1, nil, true)
		f.Add(b.Bytes(), false)
		f.Add(b.Bytes(), true)
	}
	f.Fuzz(func(t *testing.T, src []byte, unknown bool) {
		size := int64(len(src))
		if unknown {
			size = -1
		}
		d := NewDecoder("f.in", bytes.NewReader(src), size)
		for {
			v, err := d.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var se *semantics.Error
				if !errors.As(err, &se) || se.Kind != semantics.InputError || se.Pos.File != "f.in" || strings.Contains(err.Error(), "\n") {
					t.Fatalf("not a one-line input error in f.in: %T %v", err, err)
				}
				return
			}
			for _, bin := range []bool{false, true} {
				var b bytes.Buffer
				prim := v.Prim
				if err := Write(&b, v.Array, prim, bin); err != nil {
					t.Fatalf("%v (%s) does not write: %v", v.Array, prim.Name, err)
				}
				back, err := NewDecoder("g.in", &b, -1).Next()
				if err != nil || back.Elem != v.Elem || !slices.Equal(back.Shape, v.Shape) || !slices.Equal(back.Data, v.Data) {
					t.Fatalf("%v (%s, binary %v) reads back as %v %v, %v", v.Array, prim.Name, bin, back.Shape, back.Data, err)
				}
			}
		}
	})
}
