package datafile

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/arraysem/arraysem/semantics"
)

// DataArg is the key under which a map of --arg values (NAME → VALUE, as
// lang.RunOptions.Args holds them) holds the file of --data FILE. Input
// names are identifiers, so no input has this name.
const DataArg = "--data"

// Value is one value of a data file.
type Value struct {
	semantics.Array
	// Prim is the type the file gives the elements: a binary value's
	// header, a literal's suffix (or true/false, empty(…)); the zero Prim
	// for a literal without one, this project's own.
	Prim   Prim
	Pos    semantics.Pos // where the value starts in its file
	Binary bool          // read from the binary format
}

// Describe says which value of its file v is, the index-th (from 0), for
// messages: "value 2, at d.in:1:9".
func (v Value) Describe(index int) string {
	return fmt.Sprintf("value %d, at %s", index+1, v.Pos)
}

// Decoder reads the values of a data file one after another.
type Decoder struct {
	file      string
	r         *bufio.Reader
	line, col int
	left      int64  // bytes not yet read; -1 when the size is unknown
	word      []byte // the literal being read
	chunk     []byte // a binary value's elements, a chunk at a time
}

// NewDecoder reads the data file named file (for messages) from r, which
// holds size bytes (-1 when that is unknown: a pipe).
func NewDecoder(file string, r io.Reader, size int64) *Decoder {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<16)
	}
	return &Decoder{file: file, r: br, line: 1, col: 1, left: size}
}

// ReadFile reads every value of a data file.
func ReadFile(file string) ([]Value, error) {
	d, closer, err := Open(file)
	if err != nil {
		return nil, err
	}
	defer closer.Close()
	return d.All()
}

// All reads every value left, up to the end of the file.
func (d *Decoder) All() ([]Value, error) {
	var out []Value
	for {
		v, err := d.Next()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
}

// ReadOne reads a data file that holds exactly one value (what
// --arg NAME=@FILE names).
func ReadOne(file string) (Value, error) {
	d, closer, err := Open(file)
	if err != nil {
		return Value{}, err
	}
	defer closer.Close()
	v, err := d.Next()
	if err == io.EOF {
		return Value{}, semantics.Errorf(semantics.Pos{File: file, Line: d.line, Col: d.col}, semantics.InputError, "", "the file holds no value")
	}
	if err != nil {
		return Value{}, err
	}
	if err := d.skip(); err != nil {
		return Value{}, err
	}
	if _, err := d.r.Peek(1); err == nil {
		return Value{}, d.errorf(d.pos(), "a second value, where the file is to hold one (--data FILE reads a value for each input)")
	}
	return v, nil
}

// Open opens a data file for reading; the closer closes it. A file that
// cannot be opened is an input error naming it.
func Open(file string) (*Decoder, io.Closer, error) {
	f, err := os.Open(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, nil, semantics.Errorf(semantics.Pos{File: file}, semantics.InputError, "", "cannot read the data file: %v", err)
	}
	size := int64(-1)
	if st, err := f.Stat(); err == nil && st.Mode().IsRegular() {
		size = st.Size()
	}
	return NewDecoder(file, bufio.NewReaderSize(f, 1<<18), size), f, nil
}

func (d *Decoder) pos() semantics.Pos { return semantics.Pos{File: d.file, Line: d.line, Col: d.col} }

func (d *Decoder) errorf(pos semantics.Pos, format string, args ...any) error {
	return semantics.Errorf(pos, semantics.InputError, "", format, args...)
}

// readErr is the error of a read that failed: the end of the file where a
// value goes on, or what the system said.
func (d *Decoder) readErr(pos semantics.Pos, err error, what string) error {
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return d.errorf(pos, "the file ends inside %s", what)
	}
	return d.errorf(pos, "reading %s: %v", what, err)
}

// advance moves the position over the bytes b, read.
func (d *Decoder) advance(b []byte) {
	if d.left >= 0 {
		d.left -= int64(len(b))
	}
	if nl := bytes.Count(b, []byte{'\n'}); nl > 0 {
		d.line += nl
		b = b[bytes.LastIndexByte(b, '\n')+1:]
		d.col = 1
	}
	d.col += utf8.RuneCount(b)
}

// peek is the next byte, or false at the end of the file.
func (d *Decoder) peek() (byte, bool) {
	b, err := d.r.Peek(1)
	if err != nil {
		return 0, false
	}
	return b[0], true
}

// next reads a byte the caller has peeked.
func (d *Decoder) next() byte {
	b, _ := d.r.ReadByte()
	if d.left >= 0 {
		d.left--
	}
	switch {
	case b == '\n':
		d.line, d.col = d.line+1, 1
	case b&0xC0 != 0x80: // not a UTF-8 continuation byte: a new rune
		d.col++
	}
	return b
}

// skip passes white space, commas and comments (-- to the end of the line).
func (d *Decoder) skip() error {
	for {
		b, ok := d.peek()
		if !ok {
			return nil
		}
		switch b {
		case ' ', '\t', '\n', '\r', ',':
			d.next()
			continue
		case '-':
			if d.comment() {
				continue
			}
		}
		return nil
	}
}

// comment passes a comment (-- to the end of the line) and reports
// whether there was one.
func (d *Decoder) comment() bool {
	if two, err := d.r.Peek(2); err != nil || two[0] != '-' || two[1] != '-' {
		return false
	}
	for {
		c, ok := d.peek()
		if !ok || c == '\n' {
			return true
		}
		d.next()
	}
}

// Next reads the next value, or returns io.EOF when none is left.
func (d *Decoder) Next() (Value, error) {
	if err := d.skip(); err != nil {
		return Value{}, err
	}
	b, ok := d.peek()
	if !ok {
		return Value{}, io.EOF
	}
	if b == 'b' {
		return d.binary()
	}
	pos := d.pos()
	t := textValue{d: d, rank: -1}
	if err := t.literal(0); err != nil {
		return Value{}, err
	}
	shape := t.shape
	if t.rank >= 0 {
		shape = shape[:t.rank]
	}
	for i, s := range shape {
		if s < 0 { // an empty array says its rank, not its inner sizes: [[] []]
			shape = shape[:i]
			break
		}
	}
	if t.data == nil {
		t.data = []int64{}
	}
	return Value{Array: semantics.Array{Elem: t.elem, Shape: shape, Data: t.data}, Prim: t.prim, Pos: pos}, nil
}

// textValue builds a text value: the elements in order, and the shape as
// far as it is known (-1 where no row of that depth has ended yet).
type textValue struct {
	d        *Decoder
	data     []int64
	shape    []int64
	rank     int // -1 until a number or an empty array fixes it
	elem     semantics.Elem
	prim     Prim
	elemSeen bool
}

// literal reads a number or an array at the given depth of nesting.
func (t *textValue) literal(depth int) error {
	d := t.d
	if err := d.skip(); err != nil {
		return err
	}
	pos := d.pos()
	b, ok := d.peek()
	if !ok {
		return d.errorf(pos, "the file ends where a value was expected")
	}
	if b == '[' {
		if depth >= maxRank {
			return d.errorf(pos, "value nested more than %d deep", maxRank)
		}
		d.next()
		count := int64(0)
		for {
			if err := d.skip(); err != nil {
				return err
			}
			c, ok := d.peek()
			if !ok {
				return d.errorf(pos, "missing ']' for this '['")
			}
			if c == ']' {
				d.next()
				break
			}
			if err := t.literal(depth + 1); err != nil {
				return err
			}
			count++
		}
		if count == 0 {
			if err := t.setRank(pos, depth+1); err != nil {
				return err
			}
		}
		return t.setSize(pos, depth, count)
	}
	if b == ']' || b == '(' || b == ')' {
		return d.errorf(pos, "expected a value, found '%c'", b)
	}
	word := t.d.readWord()
	if string(word) == "empty" {
		return t.empty(pos, depth)
	}
	k, elem, prim, err := number(word)
	if err != nil {
		return d.errorf(pos, "%v", err)
	}
	if err := t.setRank(pos, depth); err != nil {
		return err
	}
	if err := t.setType(pos, elem, prim); err != nil {
		return err
	}
	if err := t.fits(pos, word, k); err != nil {
		return err
	}
	t.data = append(t.data, k)
	return nil
}

// fits checks an unsuffixed int element against the type a suffixed one
// gave the array ([0i8 170] is refused, as 170i8 is).
func (t *textValue) fits(pos semantics.Pos, word []byte, k int64) error {
	if (t.prim.Kind != 'i' && t.prim.Kind != 'u') || t.elem != semantics.IntElem {
		return nil
	}
	if lo, hi := t.prim.Range(); k < lo || k > hi {
		return t.d.errorf(pos, "%s does not fit in %s (%d to %d), the array's type", word, t.prim.Name, lo, hi)
	}
	return nil
}

// empty reads empty(TYPE) at depth: an array of no elements whose shape
// (with a 0 in it) and element type are said.
func (t *textValue) empty(pos semantics.Pos, depth int) error {
	d := t.d
	if err := d.skip(); err != nil {
		return err
	}
	if b, ok := d.peek(); !ok || b != '(' {
		return d.errorf(pos, "empty wants a type in parentheses: empty([0]i64)")
	}
	d.next()
	var text []byte
	for {
		b, ok := d.peek()
		if !ok {
			return d.errorf(pos, "missing ')' after empty(")
		}
		if d.comment() {
			text = append(text, ' ')
			continue
		}
		d.next()
		if b == ')' {
			break
		}
		text = append(text, b)
	}
	ty, err := ParseType(string(text))
	if err != nil {
		return d.errorf(pos, "%v", err)
	}
	n := int64(1)
	for _, s := range ty.Shape {
		n *= s
	}
	if len(ty.Shape) == 0 || n != 0 {
		return d.errorf(pos, "empty(%s): the shape of an empty array has a 0 in it", ty)
	}
	if depth+len(ty.Shape) > maxRank {
		return d.errorf(pos, "value nested more than %d deep", maxRank)
	}
	if err := t.setRank(pos, depth+len(ty.Shape)); err != nil {
		return err
	}
	if err := t.setType(pos, ty.Prim.Elem(), ty.Prim); err != nil {
		return err
	}
	for i, s := range ty.Shape {
		if err := t.setSize(pos, depth+i, s); err != nil {
			return err
		}
	}
	return nil
}

// setRank fixes the value's rank: the depth of its numbers, or of an
// empty array's end.
func (t *textValue) setRank(pos semantics.Pos, r int) error {
	if t.rank >= 0 && t.rank != r {
		return t.d.errorf(pos, "irregular array: elements nested %d deep here, %d deep before", r, t.rank)
	}
	t.rank = r
	return nil
}

func (t *textValue) setSize(pos semantics.Pos, depth int, n int64) error {
	for len(t.shape) <= depth {
		t.shape = append(t.shape, -1)
	}
	if t.shape[depth] >= 0 && t.shape[depth] != n {
		return t.d.errorf(pos, "irregular array: %s here, %d in the first row at this depth", semantics.Plural(int(n), "element"), t.shape[depth])
	}
	t.shape[depth] = n
	return nil
}

func (t *textValue) setType(pos semantics.Pos, elem semantics.Elem, prim Prim) error {
	if !t.elemSeen {
		t.elem, t.prim, t.elemSeen = elem, prim, true
		return nil
	}
	if elem != t.elem {
		return t.d.errorf(pos, "array mixes int and float elements")
	}
	if prim.Name != "" && t.prim.Name != "" && prim.Name != t.prim.Name || (prim.Kind == 'b') != (t.prim.Kind == 'b') {
		return t.d.errorf(pos, "array mixes elements of types %s and %s", typeName(t.prim), typeName(prim))
	}
	if t.prim.Name == "" && prim.Name != "" {
		// The elements so far had no suffix: they must fit the type
		// this one gives the array ([170 0i8] is refused).
		t.prim = prim
		if (prim.Kind == 'i' || prim.Kind == 'u') && elem == semantics.IntElem {
			lo, hi := prim.Range()
			for _, k := range t.data {
				if k < lo || k > hi {
					return t.d.errorf(pos, "an element before this one, %d, does not fit in %s (%d to %d), the type this %s gives the array", k, prim.Name, lo, hi, prim.Name)
				}
			}
		}
	}
	return nil
}

func typeName(p Prim) string {
	if p.Name == "" {
		return "int (no suffix)"
	}
	return p.Name
}

// readWord reads the bytes up to the next delimiter: white space, a
// comma, a bracket, a parenthesis or a comment.
func (d *Decoder) readWord() []byte {
	d.word = d.word[:0]
	for {
		b, ok := d.peek()
		if !ok {
			return d.word
		}
		switch b {
		case ' ', '\t', '\n', '\r', ',', '[', ']', '(', ')':
			return d.word
		case '-':
			if two, err := d.r.Peek(2); err == nil && two[1] == '-' {
				return d.word
			}
		}
		d.word = append(d.word, d.next())
	}
}

// number reads one scalar literal: this project's (42, -3, 1.5, NaN,
// +Inf) or Futhark's (7i32, 2.5f32, true, f64.nan, -f32.inf).
func number(w []byte) (int64, semantics.Elem, Prim, error) {
	switch string(w) {
	case "true":
		return 1, semantics.IntElem, boolPrim, nil
	case "false":
		return 0, semantics.IntElem, boolPrim, nil
	case "NaN", "Inf", "+Inf", "-Inf":
		f, _ := strconv.ParseFloat(string(w), 64)
		return semantics.FloatBits(f), semantics.FloatElem, Prim{}, nil
	}
	sign := 0
	if len(w) > 0 && (w[0] == '-' || w[0] == '+') {
		sign = 1
	}
	body := w[sign:]
	if len(body) == 7 && body[0] == 'f' && body[3] == '.' {
		if p, ok := PrimNamed(string(body[:3])); ok && p.Kind == 'f' {
			switch string(body[4:]) {
			case "inf":
				return semantics.FloatBits(math.Inf(1 - 2*boolInt(w[0] == '-'))), semantics.FloatElem, p, nil
			case "nan":
				if sign == 0 {
					return semantics.FloatBits(math.NaN()), semantics.FloatElem, p, nil
				}
			}
		}
	}
	n, isFloat := semantics.ScanNumber(string(body))
	if n == 0 {
		return 0, 0, Prim{}, fmt.Errorf("expected a value, found %q", w)
	}
	lit, suffix := w[:sign+n], w[sign+n:]
	var prim Prim
	if len(suffix) > 0 {
		p, ok := PrimNamed(string(suffix))
		if !ok || p.Kind == 'b' {
			return 0, 0, Prim{}, fmt.Errorf("%q: %q is no type suffix (i8 … i64, u8 … u64, f16, f32, f64)", w, suffix)
		}
		prim = p
	}
	if prim.Kind == 'f' || (prim.Name == "" && isFloat) {
		f, err := parseFloat(lit, prim)
		if err != nil {
			return 0, 0, Prim{}, err
		}
		return semantics.FloatBits(f), semantics.FloatElem, prim, nil
	}
	if isFloat {
		return 0, 0, Prim{}, fmt.Errorf("%q: a float literal with the suffix of an integer type", w)
	}
	k, err := parseInt(lit, prim)
	return k, semantics.IntElem, prim, err
}

var boolPrim, _ = PrimNamed("bool")

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// parseInt reads a signed decimal integer that must fit prim (int64
// when prim is the zero Prim).
func parseInt(lit []byte, prim Prim) (int64, error) {
	k, ok := fastInt(lit)
	if !ok {
		var err error
		k, err = strconv.ParseInt(string(lit), 10, 64)
		if err != nil {
			if prim.Kind == 'u' && lit[0] != '-' {
				if _, uerr := strconv.ParseUint(string(lit), 10, 64); uerr == nil {
					return 0, fmt.Errorf("%s%s is past this project's largest int, 2^63-1 (9223372036854775807)", lit, prim.Name)
				}
			}
			if ne := (*strconv.NumError)(nil); errors.As(err, &ne) {
				err = ne.Err
			}
			return 0, fmt.Errorf("bad integer %q: %v", lit, err)
		}
	}
	if prim.Name != "" {
		if lo, hi := prim.Range(); k < lo || k > hi {
			return 0, fmt.Errorf("%s%s does not fit in %s (%d to %d)", lit, prim.Name, prim.Name, lo, hi)
		}
	}
	return k, nil
}

// fastInt reads an optionally signed run of at most 18 digits without
// allocating; false for anything else (strconv reads it).
func fastInt(lit []byte) (int64, bool) {
	neg, s := false, lit
	if len(s) > 0 && (s[0] == '-' || s[0] == '+') {
		neg, s = s[0] == '-', s[1:]
	}
	if len(s) == 0 || len(s) > 18 {
		return 0, false
	}
	k := int64(0)
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, false
		}
		k = 10*k + int64(c-'0')
	}
	if neg {
		k = -k
	}
	return k, true
}

// parseFloat reads a float literal as prim's type reads it: rounded to
// the nearest f64, f32 or f16 (then widened, exactly).
func parseFloat(lit []byte, prim Prim) (float64, error) {
	if prim.Name == "f32" {
		f, err := strconv.ParseFloat(string(lit), 32)
		if err != nil {
			return 0, fmt.Errorf("bad f32 %q: %v", lit, numErr(err))
		}
		return f, nil
	}
	f, err := semantics.ParseFloatLiteral(string(lit))
	if err != nil {
		return 0, err
	}
	if prim.Name == "f16" {
		h := f64ToF16(f)
		if math.IsInf(f16ToF64(h), 0) && !math.IsInf(f, 0) {
			return 0, fmt.Errorf("bad f16 %q: value out of range", lit)
		}
		return f16ToF64(h), nil
	}
	return f, nil
}

func numErr(err error) error {
	if ne := (*strconv.NumError)(nil); errors.As(err, &ne) {
		return ne.Err
	}
	return err
}

// binary reads a value in Futhark's binary format.
func (d *Decoder) binary() (Value, error) {
	pos := d.pos()
	var head [7]byte
	if _, err := io.ReadFull(d.r, head[:]); err != nil {
		return Value{}, d.readErr(pos, err, "a binary value's header")
	}
	d.advance(head[:])
	if head[1] != 2 {
		return Value{}, d.errorf(pos, "binary value of version %d; Futhark's binary data format is version 2", head[1])
	}
	rank := int(int8(head[2]))
	if rank < 0 || rank > maxRank {
		return Value{}, d.errorf(pos, "binary value of rank %d (0 to %d)", rank, maxRank)
	}
	var tname [4]byte
	tname[0], tname[1], tname[2] = head[3], head[4], head[5]
	tname[3] = head[6]
	prim, ok := PrimNamed(string(bytes.TrimLeft(tname[:], " ")))
	if !ok {
		return Value{}, d.errorf(pos, "binary value of type %q: not one of Futhark's (%s)", tname[:], primNames())
	}
	shape := make([]int64, rank)
	if rank > 0 {
		raw := make([]byte, 8*rank)
		if _, err := io.ReadFull(d.r, raw); err != nil {
			return Value{}, d.readErr(pos, err, "a binary value's shape")
		}
		d.advance(raw)
		for i := range shape {
			shape[i] = int64(binary.LittleEndian.Uint64(raw[8*i:]))
		}
	}
	n, err := semantics.Count(shape)
	if err != nil {
		return Value{}, d.errorf(pos, "binary value of shape %s: %v", shapeText(shape), err)
	}
	if d.left >= 0 && n > d.left/int64(prim.Bytes) {
		return Value{}, d.errorf(pos, "binary value of type %s: %d elements of %d bytes, but the file has %d bytes left", Type{shape, prim}, n, prim.Bytes, d.left)
	}
	data, err := d.elements(pos, prim, n)
	if err != nil {
		return Value{}, err
	}
	return Value{Array: semantics.Array{Elem: prim.Elem(), Shape: shape, Data: data}, Prim: prim, Pos: pos, Binary: true}, nil
}

func shapeText(shape []int64) string {
	var b bytes.Buffer
	for _, s := range shape {
		fmt.Fprintf(&b, "[%d]", s)
	}
	return b.String()
}

// elements reads n elements of type prim straight into a flat buffer, a
// chunk of the file at a time. When the file's size is unknown the
// buffer grows as elements arrive, so that a header that lies cannot
// make it allocate what the file does not hold.
func (d *Decoder) elements(pos semantics.Pos, prim Prim, n int64) ([]int64, error) {
	const chunkBytes = 1 << 16
	if d.chunk == nil {
		d.chunk = make([]byte, chunkBytes)
	}
	var out []int64
	if d.left >= 0 {
		out = make([]int64, 0, n)
	} else {
		out = make([]int64, 0, min(n, chunkBytes))
	}
	size := int64(prim.Bytes)
	for done := int64(0); done < n; {
		k := min(n-done, chunkBytes/size)
		buf := d.chunk[:k*size]
		if _, err := io.ReadFull(d.r, buf); err != nil {
			return nil, d.readErr(pos, err, fmt.Sprintf("a binary value's elements (%d of %d read)", done, n))
		}
		d.advance(buf)
		start := len(out)
		out = slices.Grow(out, int(k))[:start+int(k)]
		if i, msg := decode(out[start:], buf, prim); msg != "" {
			return nil, d.errorf(pos, "binary value of type %s: element %d: %s", prim.Name, done+int64(i)+1, msg)
		}
		done += k
	}
	return out, nil
}

// decode converts the little-endian elements of buf into dst; an element
// that cannot be represented is its index and why.
func decode(dst []int64, buf []byte, prim Prim) (int, string) {
	le := binary.LittleEndian
	switch prim.Name {
	case "i64":
		for i := range dst {
			dst[i] = int64(le.Uint64(buf[8*i:]))
		}
	case "u64":
		for i := range dst {
			u := le.Uint64(buf[8*i:])
			if u > math.MaxInt64 {
				return i, fmt.Sprintf("%d is past this project's largest int, 2^63-1", u)
			}
			dst[i] = int64(u)
		}
	case "i32":
		for i := range dst {
			dst[i] = int64(int32(le.Uint32(buf[4*i:])))
		}
	case "u32":
		for i := range dst {
			dst[i] = int64(le.Uint32(buf[4*i:]))
		}
	case "i16":
		for i := range dst {
			dst[i] = int64(int16(le.Uint16(buf[2*i:])))
		}
	case "u16":
		for i := range dst {
			dst[i] = int64(le.Uint16(buf[2*i:]))
		}
	case "i8":
		for i := range dst {
			dst[i] = int64(int8(buf[i]))
		}
	case "u8":
		for i := range dst {
			dst[i] = int64(buf[i])
		}
	case "bool":
		for i := range dst {
			if buf[i] > 1 {
				return i, fmt.Sprintf("byte %d is no bool (0 or 1)", buf[i])
			}
			dst[i] = int64(buf[i])
		}
	case "f64":
		for i := range dst {
			dst[i] = semantics.FloatBits(math.Float64frombits(le.Uint64(buf[8*i:])))
		}
	case "f32":
		for i := range dst {
			dst[i] = semantics.FloatBits(float64(math.Float32frombits(le.Uint32(buf[4*i:]))))
		}
	case "f16":
		for i := range dst {
			dst[i] = semantics.FloatBits(f16ToF64(le.Uint16(buf[2*i:])))
		}
	}
	return 0, ""
}
