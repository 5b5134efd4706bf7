package semantics

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// A Format is how a compiled program's results print as its source
// program prints its values: the result decoder of a compile path,
// carried into every program the path makes (a header line of the
// FUN, FUNMEM and IMP texts, a table of the CUDA file), so that running
// a compiled program prints what running its source prints. A compiled
// program's results are flat arrays of ints and floats; each of the
// source's results takes one or more of them (Item).
//
// Its text, the header's, is the source language (then "untyped" for a
// source whose boxes have no witnesses to print), a colon and the items:
//
//	remora: bool (box 1 int) (boxes 1 1 (w1 3) float)
//	remora/dynamic untyped: (box 1 int)
//
// item := int | float | bool | char       an array of these atoms, one result
//
//	| rat                           an array of exact rationals (the dynamic
//	                                dialect's), one int result whose last
//	                                axis, of 2, holds each one's numerator
//	                                and (positive) denominator, in lowest
//	                                terms: printed n or n/d
//
//	| (box W item)                  one box: W int results (its witnesses),
//	                                then its contents
//	| (open W item)                 one box printed as its contents alone:
//	                                W int results, not printed, then the
//	                                contents (a dynamic-dialect array whose
//	                                shape is computed at run time, which
//	                                the compile path boxes)
//	| (boxes R W (D …) item)        a frame of R dimensions of boxes: W int
//	                                arrays over the frame (the witnesses of
//	                                each box), then one flat array of every
//	                                box's contents in turn, each of the shape
//	                                D … (a dimension is a sum such as 3,
//	                                w1 or w1+w2+1 of the box's witnesses)
//
// How a value prints is the source's: booleans #t and #f, characters
// #\a (and a row of them as a string "ab"), floats as Racket prints them
// (+inf.0, +nan.0), boxes as (box (3) v) in the typed dialect and (box v)
// in the dynamic one (Untyped), which has no witnesses.
type Format struct {
	Source  string // the source language, for messages
	Untyped bool   // boxes print without their witnesses: (box v)
	Items   []FormatItem
}

// FormatItem is how one of the source's results is laid out and prints.
type FormatItem struct {
	Atom ResultAtom // an array of these atoms, when Box is nil
	Box  *BoxFormat // or a box, or a frame of boxes
}

// ResultAtom is the kind of a source's atoms, which the compiled program holds
// as ints (booleans 0 and 1, characters their code points) or floats.
type ResultAtom uint8

// The atoms.
const (
	AtomInt ResultAtom = iota
	AtomFloat
	AtomBool
	AtomChar
	AtomRat
)

var atomNames = [...]string{"int", "float", "bool", "char", "rat"}

// String is the atom's name in a format's text.
func (a ResultAtom) String() string {
	if int(a) < len(atomNames) {
		return atomNames[a]
	}
	return fmt.Sprintf("ResultAtom(%d)", int(a))
}

// BoxFormat is a box (Frame 0) or a frame of boxes.
type BoxFormat struct {
	Open      bool       // one box that prints as its contents alone
	Frame     int        // the rank of the frame of boxes; 0 for one box
	Witnesses int        // the box's witnesses (dimensions), each an int
	Dims      []NatSum   // a frame's boxes' contents' shape, by their witnesses
	Body      FormatItem // the contents (a frame's: an array of atoms)
}

// NatSum is a dimension computed from a box's witnesses: Const plus the
// witnesses numbered Vars (from 1).
type NatSum struct {
	Const int64
	Vars  []int
}

// String writes the sum as the format's text does: 3, w1, w1+w2+1.
func (n NatSum) String() string {
	var parts []string
	for _, v := range n.Vars {
		parts = append(parts, "w"+strconv.Itoa(v))
	}
	if n.Const != 0 || len(parts) == 0 {
		parts = append(parts, strconv.FormatInt(n.Const, 10))
	}
	return strings.Join(parts, "+")
}

// String writes the format's text.
func (f *Format) String() string {
	var b strings.Builder
	b.WriteString(f.Source)
	if f.Untyped {
		b.WriteString(" untyped")
	}
	b.WriteByte(':')
	for _, it := range f.Items {
		b.WriteByte(' ')
		it.write(&b)
	}
	return b.String()
}

func (it FormatItem) write(b *strings.Builder) {
	if it.Box == nil {
		b.WriteString(it.Atom.String())
		return
	}
	x := it.Box
	switch {
	case x.Open:
		fmt.Fprintf(b, "(open %d ", x.Witnesses)
	case x.Frame == 0:
		fmt.Fprintf(b, "(box %d ", x.Witnesses)
	default:
		ds := make([]string, len(x.Dims))
		for i, d := range x.Dims {
			ds[i] = d.String()
		}
		fmt.Fprintf(b, "(boxes %d %d (%s) ", x.Frame, x.Witnesses, strings.Join(ds, " "))
	}
	x.Body.write(b)
	b.WriteByte(')')
}

// ParseFormat reads a format's text (String's).
func ParseFormat(s string) (*Format, error) {
	src, rest, ok := strings.Cut(s, ":")
	if !ok || strings.TrimSpace(src) == "" {
		return nil, fmt.Errorf("result format %q: want SOURCE: ITEM …", s)
	}
	words := strings.Fields(src)
	f := &Format{Source: words[0]}
	switch {
	case len(words) == 2 && words[1] == "untyped":
		f.Untyped = true
	case len(words) > 1:
		return nil, fmt.Errorf("result format %q: want SOURCE [untyped]: ITEM …", s)
	}
	p := &formatParser{toks: formatTokens(rest)}
	for p.i < len(p.toks) {
		it, err := p.item()
		if err != nil {
			return nil, fmt.Errorf("result format %q: %v", s, err)
		}
		f.Items = append(f.Items, it)
	}
	return f, nil
}

func formatTokens(s string) []string {
	s = strings.NewReplacer("(", " ( ", ")", " ) ").Replace(s)
	return strings.Fields(s)
}

type formatParser struct {
	toks []string
	i    int
}

func (p *formatParser) next() string {
	if p.i >= len(p.toks) {
		return ""
	}
	p.i++
	return p.toks[p.i-1]
}

func (p *formatParser) expect(t string) error {
	if got := p.next(); got != t {
		return fmt.Errorf("want %q, found %q", t, got)
	}
	return nil
}

func (p *formatParser) count() (int, error) {
	t := p.next()
	n, err := strconv.Atoi(t)
	if err != nil || n < 0 || n > 64 {
		return 0, fmt.Errorf("want a count, found %q", t)
	}
	return n, nil
}

func (p *formatParser) item() (FormatItem, error) {
	t := p.next()
	for i, name := range atomNames {
		if t == name {
			return FormatItem{Atom: ResultAtom(i)}, nil
		}
	}
	if t != "(" {
		return FormatItem{}, fmt.Errorf("want an atom or a box, found %q", t)
	}
	x := &BoxFormat{}
	var err error
	switch kw := p.next(); kw {
	case "box":
	case "open":
		x.Open = true
	case "boxes":
		if x.Frame, err = p.count(); err != nil {
			return FormatItem{}, err
		}
		if x.Frame == 0 {
			return FormatItem{}, fmt.Errorf("a frame of boxes of rank 0")
		}
	default:
		return FormatItem{}, fmt.Errorf("want box, open or boxes, found %q", kw)
	}
	if x.Witnesses, err = p.count(); err != nil {
		return FormatItem{}, err
	}
	if x.Frame > 0 {
		if err := p.expect("("); err != nil {
			return FormatItem{}, err
		}
		for p.i < len(p.toks) && p.toks[p.i] != ")" {
			d, err := parseNatSum(p.next(), x.Witnesses)
			if err != nil {
				return FormatItem{}, err
			}
			x.Dims = append(x.Dims, d)
		}
		if err := p.expect(")"); err != nil {
			return FormatItem{}, err
		}
	}
	if x.Body, err = p.item(); err != nil {
		return FormatItem{}, err
	}
	if x.Frame > 0 && x.Body.Box != nil {
		return FormatItem{}, fmt.Errorf("a frame of boxes of boxes")
	}
	return FormatItem{Box: x}, p.expect(")")
}

func parseNatSum(s string, witnesses int) (NatSum, error) {
	var n NatSum
	for _, t := range strings.Split(s, "+") {
		if v, ok := strings.CutPrefix(t, "w"); ok {
			k, err := strconv.Atoi(v)
			if err != nil || k < 1 || k > witnesses {
				return n, fmt.Errorf("dimension %q: no witness %s", s, t)
			}
			n.Vars = append(n.Vars, k)
			continue
		}
		k, err := strconv.ParseInt(t, 10, 64)
		if err != nil || k < 0 {
			return n, fmt.Errorf("dimension %q: %q is not a natural number", s, t)
		}
		n.Const += k
	}
	return n, nil
}

// Lines prints a compiled program's results vals as the source prints
// its values, one line per item; the error says where vals do not fit
// the format (a compile path's bug, or a program from elsewhere).
func (f *Format) Lines(vals []Array) ([]string, error) {
	var lines []string
	for i, it := range f.Items {
		var b strings.Builder
		rest, err := f.print(&b, it, vals)
		if err != nil {
			return nil, fmt.Errorf("result %d (%s): %v", i+1, itemString(it), err)
		}
		vals = rest
		lines = append(lines, b.String())
	}
	if len(vals) != 0 {
		return nil, fmt.Errorf("%d results left over after the %d the result format takes", len(vals), len(f.Items))
	}
	return lines, nil
}

func itemString(it FormatItem) string {
	var b strings.Builder
	it.write(&b)
	return b.String()
}

// print writes the value of it off the front of vals.
func (f *Format) print(b *strings.Builder, it FormatItem, vals []Array) ([]Array, error) {
	if it.Box == nil {
		if len(vals) == 0 {
			return nil, fmt.Errorf("missing a result")
		}
		return vals[1:], printAtoms(b, it.Atom, vals[0])
	}
	x := it.Box
	if len(vals) < x.Witnesses {
		return nil, fmt.Errorf("missing the box's witnesses")
	}
	ws := vals[:x.Witnesses]
	if x.Frame == 0 {
		var wits []int64
		for _, w := range ws {
			if !w.IsScalar() || w.Elem != IntElem || w.Int() < 0 {
				return nil, fmt.Errorf("witness %s is not a dimension", w)
			}
			wits = append(wits, w.Int())
		}
		if x.Open {
			return f.print(b, x.Body, vals[x.Witnesses:])
		}
		f.openBox(b, wits)
		rest, err := f.print(b, x.Body, vals[x.Witnesses:])
		b.WriteByte(')')
		return rest, err
	}
	if len(vals) < x.Witnesses+1 {
		return nil, fmt.Errorf("missing the frame's witnesses or data")
	}
	var frame []int64
	n := 1
	for i, w := range ws {
		if (w.Elem != IntElem && len(w.Data) > 0) || len(w.Shape) != x.Frame || (i > 0 && !SameShape(w.Shape, frame)) {
			return nil, fmt.Errorf("witness %d over the frame: %s", i+1, w)
		}
		frame = w.Shape
	}
	if x.Witnesses == 0 {
		return nil, fmt.Errorf("a frame of boxes with no witnesses")
	}
	for _, d := range frame {
		n *= int(d)
	}
	data := vals[x.Witnesses]
	off := 0
	var cells []string
	for p := range n {
		wits := make([]int64, len(ws))
		for i, w := range ws {
			if wits[i] = w.Data[p]; wits[i] < 0 {
				return nil, fmt.Errorf("witness %d of box %d is not a dimension: %d", i+1, p+1, wits[i])
			}
		}
		shape := make([]int64, len(x.Dims))
		size := 1
		for i, d := range x.Dims {
			shape[i] = d.Const
			for _, v := range d.Vars {
				shape[i] += wits[v-1]
			}
			size *= int(shape[i])
		}
		if off+size > len(data.Data) {
			return nil, fmt.Errorf("the data ends before box %d's contents", p+1)
		}
		var cb strings.Builder
		f.openBox(&cb, wits)
		if err := printAtoms(&cb, x.Body.Atom, Array{Elem: data.Elem, Shape: shape, Data: data.Data[off : off+size]}); err != nil {
			return nil, fmt.Errorf("box %d: %v", p+1, err)
		}
		cb.WriteByte(')')
		cells = append(cells, cb.String())
		off += size
	}
	if off != len(data.Data) {
		return nil, fmt.Errorf("%d atoms of data are left after the boxes' contents", len(data.Data)-off)
	}
	writeNested(b, frame, func(i int) { b.WriteString(cells[i]) })
	return vals[x.Witnesses+1:], nil
}

// openBox writes "(box " and, in the typed dialect, the witnesses.
func (f *Format) openBox(b *strings.Builder, wits []int64) {
	b.WriteString("(box ")
	if f.Untyped {
		return
	}
	b.WriteByte('(')
	for i, w := range wits {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.FormatInt(w, 10))
	}
	b.WriteString(") ")
}

// writeNested writes the cells of a frame as nested brackets.
func writeNested(b *strings.Builder, shape []int64, cell func(i int)) {
	var rec func(dim, off int)
	rec = func(dim, off int) {
		if dim == len(shape) {
			cell(off)
			return
		}
		stride := 1
		for _, d := range shape[dim+1:] {
			stride *= int(d)
		}
		b.WriteByte('[')
		for i := range int(shape[dim]) {
			if i > 0 {
				b.WriteByte(' ')
			}
			rec(dim+1, off+i*stride)
		}
		b.WriteByte(']')
	}
	rec(0, 0)
}

// printAtoms writes an array of atoms as the source prints it.
func printAtoms(b *strings.Builder, a ResultAtom, v Array) error {
	if len(v.Data) > 0 && (v.Elem == FloatElem) != (a == AtomFloat) {
		return fmt.Errorf("the compiled program gave %s, not %s atoms", TypeString(v.Elem, v.Shape), a)
	}
	for _, x := range v.Data {
		if a == AtomBool && x != 0 && x != 1 {
			return fmt.Errorf("boolean %d is neither 0 nor 1", x)
		}
	}
	if a == AtomRat && (len(v.Shape) == 0 || v.Shape[len(v.Shape)-1] != 2) {
		return fmt.Errorf("exact rationals of shape %v have no last axis of numerators and denominators", v.Shape)
	}
	var rec func(dim, off int)
	rec = func(dim, off int) {
		if dim == len(v.Shape) {
			b.WriteString(FormatAtom(a, v.Data[off]))
			return
		}
		if a == AtomRat && dim == len(v.Shape)-1 {
			b.WriteString(strconv.FormatInt(v.Data[off], 10))
			if v.Data[off+1] != 1 {
				b.WriteString("/" + strconv.FormatInt(v.Data[off+1], 10))
			}
			return
		}
		if a == AtomChar && dim == len(v.Shape)-1 && v.Shape[dim] > 0 {
			rs := make([]rune, v.Shape[dim])
			for i := range rs {
				rs[i] = rune(v.Data[off+i])
			}
			b.WriteString(QuoteString(string(rs)))
			return
		}
		stride := 1
		for _, d := range v.Shape[dim+1:] {
			stride *= int(d)
		}
		b.WriteByte('[')
		for i := range int(v.Shape[dim]) {
			if i > 0 {
				b.WriteByte(' ')
			}
			rec(dim+1, off+i*stride)
		}
		b.WriteByte(']')
	}
	rec(0, 0)
	return nil
}

// FormatAtom prints one atom, stored as the word x, as a Remora source
// prints it.
func FormatAtom(a ResultAtom, x int64) string {
	switch a {
	case AtomFloat:
		return FormatRacketFloat(FloatFromBits(x))
	case AtomBool:
		if x != 0 {
			return "#t"
		}
		return "#f"
	case AtomChar:
		return QuoteChar(rune(x))
	}
	return strconv.FormatInt(x, 10)
}

// FormatRacketFloat prints f as Racket does: FormatFloat's digits, with
// +inf.0, -inf.0 and +nan.0.
func FormatRacketFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "+inf.0"
	case math.IsInf(f, -1):
		return "-inf.0"
	case math.IsNaN(f):
		return "+nan.0"
	}
	return FormatFloat(f)
}

// formatHeaderWords follow the comment marker on the header line that
// carries a compiled program's result format.
const formatHeaderWords = " arraysem: results as "

// FormatHeader is the line of a compiled program's text that carries f,
// a comment of the language (comment is its line-comment marker), the
// first line of the text:
//
//	-- arraysem: results as remora: bool (box 1 int)
func FormatHeader(comment string, f *Format) string {
	return comment + formatHeaderWords + f.String() + "\n"
}

// ReadFormatHeader reads the result format off the first line of a
// program's text (FormatHeader's line), or nil if that line is not one.
// A malformed one is a syntax error on its line.
func ReadFormatHeader(file, src, comment string) (*Format, error) {
	line, _, _ := strings.Cut(src, "\n")
	rest, ok := strings.CutPrefix(strings.TrimSpace(line), comment+formatHeaderWords)
	if !ok {
		return nil, nil
	}
	f, err := ParseFormat(rest)
	if err != nil {
		return nil, Errorf(Pos{File: file, Line: 1, Col: 1}, SyntaxError, "", "%v", err)
	}
	return f, nil
}

// HasChars reports whether some result of f holds characters.
func (f *Format) HasChars() bool {
	var has func(it FormatItem) bool
	has = func(it FormatItem) bool {
		if it.Box != nil {
			return has(it.Box.Body)
		}
		return it.Atom == AtomChar
	}
	for _, it := range f.Items {
		if has(it) {
			return true
		}
	}
	return false
}
