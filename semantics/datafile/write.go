package datafile

import (
	"bufio"
	"encoding/binary"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/arraysem/arraysem/semantics"
)

// Write writes the value v to w, as text (Futhark's literals, which this
// package reads back) or in Futhark's binary format, its elements as the
// type prim (the zero Prim: i64 for ints, f64 for floats). An element
// that prim cannot hold (300 as a u8) is an error.
func Write(w io.Writer, v semantics.Array, prim Prim, binary bool) error {
	if prim.Name == "" {
		prim = DefaultPrim(v.Elem)
	}
	if prim.Elem() != v.Elem {
		return fmt.Errorf("a value of %s elements cannot be written as %s", v.Elem, prim.Name)
	}
	data := v.Data
	return writeValue(w, Type{Shape: v.Shape, Prim: prim}, binary, func(dst []int64) {
		copy(dst, data)
		data = data[len(dst):]
	})
}

// writeValue writes a value of type t whose elements fill gives, a
// chunk at a time, in order.
func writeValue(w io.Writer, t Type, bin bool, fill func(dst []int64)) error {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriterSize(w, 1<<16)
	}
	n := int64(1)
	for _, d := range t.Shape {
		n *= d
	}
	chunk := make([]int64, min(n, 1<<13))
	var out []byte
	if bin {
		out = append(out, 'b', 2, byte(len(t.Shape)))
		out = append(out, t.Prim.binaryName()...)
		for _, d := range t.Shape {
			out = binary.LittleEndian.AppendUint64(out, uint64(d))
		}
	} else if n == 0 && len(t.Shape) > 0 {
		out = append(out, "empty("+t.String()+")"...)
	}
	// blocks[k]: the elements of one array of dimensions k, k+1, …:
	// where a text array's brackets open and close.
	blocks := make([]int64, len(t.Shape))
	s := int64(1)
	for k := len(t.Shape) - 1; k >= 0; k-- {
		s *= t.Shape[k]
		blocks[k] = s
	}
	for i := int64(0); i < n; {
		k := min(n-i, int64(len(chunk)))
		fill(chunk[:k])
		for j, bits := range chunk[:k] {
			at := i + int64(j)
			if !bin {
				if at > 0 {
					out = append(out, ", "...)
				}
				for _, st := range blocks {
					if at%st == 0 {
						out = append(out, '[')
					}
				}
			}
			var err error
			if out, err = appendElem(out, t.Prim, bits, bin); err != nil {
				return fmt.Errorf("element %d: %v", at+1, err)
			}
			if !bin {
				for _, st := range blocks {
					if (at+1)%st == 0 {
						out = append(out, ']')
					}
				}
			}
		}
		if _, err := bw.Write(out); err != nil {
			return err
		}
		out = out[:0]
		i += k
	}
	if !bin {
		out = append(out, '\n')
	}
	if _, err := bw.Write(out); err != nil {
		return err
	}
	return bw.Flush()
}

// appendElem appends one element (an int, or a float's bits) as prim's
// type writes it.
func appendElem(out []byte, prim Prim, bits int64, bin bool) ([]byte, error) {
	le := binary.LittleEndian
	if prim.Kind == 'f' {
		f := semantics.FloatFromBits(bits)
		if bin {
			switch prim.Name {
			case "f64":
				return le.AppendUint64(out, math.Float64bits(f)), nil
			case "f32":
				return le.AppendUint32(out, math.Float32bits(float32(f))), nil
			}
			return le.AppendUint16(out, f64ToF16(f)), nil
		}
		switch {
		case math.IsNaN(f):
			return append(out, prim.Name+".nan"...), nil
		case math.IsInf(f, 1):
			return append(out, prim.Name+".inf"...), nil
		case math.IsInf(f, -1):
			return append(out, "-"+prim.Name+".inf"...), nil
		}
		size := 64
		if prim.Name == "f32" {
			size = 32
		}
		start := len(out)
		out = strconv.AppendFloat(out, f, 'g', -1, size)
		if !containsAny(out[start:], ".e") {
			out = append(out, ".0"...)
		}
		return append(out, prim.Name...), nil
	}
	if lo, hi := prim.Range(); bits < lo || bits > hi {
		return nil, fmt.Errorf("%d does not fit in %s (%d to %d)", bits, prim.Name, lo, hi)
	}
	if bin {
		switch prim.Bytes {
		case 8:
			return le.AppendUint64(out, uint64(bits)), nil
		case 4:
			return le.AppendUint32(out, uint32(bits)), nil
		case 2:
			return le.AppendUint16(out, uint16(bits)), nil
		}
		return append(out, byte(bits)), nil
	}
	if prim.Kind == 'b' {
		if bits == 1 {
			return append(out, "true"...), nil
		}
		return append(out, "false"...), nil
	}
	out = strconv.AppendInt(out, bits, 10)
	return append(out, prim.Name...), nil
}

func containsAny(b []byte, chars string) bool {
	for _, c := range b {
		for i := 0; i < len(chars); i++ {
			if c == chars[i] {
				return true
			}
		}
	}
	return false
}
