package tofun

import (
	"fmt"
	"math"
	"math/rand"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

func arrayOf(elem semantics.Elem, shape []int64, data ...int64) semantics.Array {
	return semantics.Array{Elem: elem, Shape: shape, Data: data}
}

// TestDecode reads FUN results back by the layout of the package doc,
// and refuses results that do not fit the types.
func TestDecode(t *testing.T) {
	typ := func(src string) *remora.Arr {
		ty, err := remora.ParseType("t", src)
		if err != nil {
			t.Fatal(err)
		}
		return remora.CanonArr(ty)
	}
	i := semantics.IntElem
	for _, c := range []struct {
		types []string
		vals  []semantics.Array
		want  string // the lines joined by |, or "error: …" (a fragment)
	}{
		{[]string{"int", "[bool 3]", "[char 2]"}, []semantics.Array{semantics.Scalar(-4), arrayOf(i, []int64{3}, 1, 0, 1), arrayOf(i, []int64{2}, 'h', 'i')}, `-4|[#t #f #t]|"hi"`},
		{[]string{"[float 2]"}, []semantics.Array{arrayOf(semantics.FloatElem, []int64{2}, semantics.FloatBits(1), semantics.FloatBits(0.5))}, "[1.0 0.5]"},
		{[]string{"[int 2 0]"}, []semantics.Array{arrayOf(i, []int64{2, 0})}, "[[] []]"},
		// a box: its witness, then its contents; a box in a box
		{[]string{"(Sigma (n) [int n])"}, []semantics.Array{semantics.Scalar(2), arrayOf(i, []int64{2}, 7, 8)}, "(box (2) [7 8])"},
		{[]string{"(Sigma (r) (Sigma (c) [int r c]))"}, []semantics.Array{semantics.Scalar(1), semantics.Scalar(2), arrayOf(i, []int64{1, 2}, 3, 4)}, "(box (1) (box (2) [[3 4]]))"},
		{[]string{"[bool 1]"}, []semantics.Array{arrayOf(i, []int64{1}, 2)}, "error: neither 0 nor 1"},
		{[]string{"float"}, []semantics.Array{semantics.Scalar(1)}, "error: gave int, not float atoms"},
		{[]string{"int"}, []semantics.Array{semantics.Scalar(1), semantics.Scalar(2)}, "error: left over"},
		{[]string{"int", "int"}, []semantics.Array{semantics.Scalar(1)}, "error: missing a result"},
		{[]string{"(Sigma (n) [int n])"}, []semantics.Array{semantics.Scalar(-1), arrayOf(i, []int64{0})}, "error: not a dimension"},
		{[]string{"[(Sigma (n) [int n]) 2]"}, nil, "error: missing the box's witnesses"},
		{[]string{"[(Sigma (n) [int n]) 2]"}, []semantics.Array{arrayOf(i, []int64{2}, 1, 2)}, "error: missing the frame's witnesses or data"},
		// the witnesses' shape is the frame's, boxes print in it
		{[]string{"[(Sigma (n) [int n 2]) 2 1]"}, []semantics.Array{arrayOf(i, []int64{2, 1}, 1, 0), arrayOf(i, []int64{2}, 7, 8)}, "[[(box (1) [[7 8]])] [(box (0) [])]]"},
		// floats and characters print as Remora prints them
		{[]string{"[float 3]"}, []semantics.Array{arrayOf(semantics.FloatElem, []int64{3}, semantics.FloatBits(math.Inf(1)), semantics.FloatBits(math.NaN()), semantics.FloatBits(-1e21))}, "[+inf.0 +nan.0 -1e+21]"},
		{[]string{"char", "[char 2 0]", "[char 2 1]"}, []semantics.Array{semantics.Scalar(' '), arrayOf(i, []int64{2, 0}), arrayOf(i, []int64{2, 1}, '"', 0x7)}, "#\\space|[[] []]|[\"\\\"\" \"\\u0007\"]"},
		{[]string{"[(Sigma (n) [int n]) 2]"}, []semantics.Array{arrayOf(i, []int64{2}, 1, 2), arrayOf(i, []int64{3}, 7, 8, 9)}, "[(box (1) [7]) (box (2) [8 9])]"},
		{[]string{"[(Sigma (n) [int n]) 2]"}, []semantics.Array{arrayOf(i, []int64{2}, 1, 2), arrayOf(i, []int64{4}, 7, 8, 9, 10)}, "error: 1 atoms of data are left"},
		{[]string{"[(Sigma (n) [int n]) 2]"}, []semantics.Array{arrayOf(i, []int64{2}, 1, 2), arrayOf(i, []int64{2}, 7, 8)}, "error: the data ends before box 2"},
	} {
		types := make([]*remora.Arr, len(c.types))
		for k, s := range c.types {
			types[k] = typ(s)
		}
		lines, err := Decode(types, c.vals)
		got := strings.Join(lines, "|")
		if err != nil {
			got = "error: " + err.Error()
		}
		if frag, isErr := strings.CutPrefix(c.want, "error: "); isErr {
			if err == nil || !strings.Contains(err.Error(), frag) {
				t.Errorf("Decode(%v): got %q, want an error with %q", c.types, got, frag)
			}
		} else if got != c.want {
			t.Errorf("Decode(%v) = %q, want %q", c.types, got, c.want)
		}
	}
}

// TestLowerUnchecked refuses a program the checker has not typed.
func TestLowerUnchecked(t *testing.T) {
	p, _, err := remora.ParseFile("u.remora", "(+ 1 2)")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Lower(p); err == nil || !strings.Contains(err.Error(), "not type checked") {
		t.Errorf("Lower of an unchecked program: %v", err)
	}
}

// TestLowerBoxLiterals lowers literals of boxes (values a pass may fold
// a computation into): one box, and a frame of boxes opened by a MAP.
func TestLowerBoxLiterals(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{`(box (3) (Sigma (n) [int n]) [1 2 3])`, "(box (3) [1 2 3])"},
		{`(MAP [2] ([w (Sigma (len) [char len]) (boxes (len) [char len] [2] ((3) "hey") ((2) "hi"))])
		   (unbox w (s len) (reify-dimension len)))`, "[3 2]"},
	} {
		p, _, err := remora.ParseFile("b.remora", c.src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := remora.Check(p, nil); err != nil {
			t.Fatal(err)
		}
		// Replace the box or the frame of boxes by its value.
		slot := &p.Exprs[0]
		if m, ok := p.Exprs[0].(*remora.Map); ok {
			slot = &m.Args[0]
		}
		v, err := remora.EvalExpr(*slot, nil)
		if err != nil {
			t.Fatal(err)
		}
		*slot = &remora.Lit{Pos: (*slot).At(), V: v}
		if _, err := remora.Check(p, nil); err != nil {
			t.Fatal(err)
		}
		if err := compare(p, []string{c.want}, false); err != nil {
			t.Error(err)
		}
	}
}

// TestFormatAsRemoraPrints: the result format prints random arrays,
// boxes and frames of boxes, laid out as Lower lays them out, exactly as
// Remora prints the values themselves (remora.Value's String).
func TestFormatAsRemoraPrints(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	kinds := []remora.Kind{remora.KInt, remora.KFloat, remora.KBool, remora.KChar}
	names := []string{"int", "float", "bool", "char"}
	floats := []float64{0, math.Copysign(0, -1), 1, 0.1, 2.5e-7, 1e21, 123456.789, math.Inf(1), math.Inf(-1), math.NaN(), -3}
	chars := []rune{'a', ' ', '\n', '"', '\\', 0, 0x7f, 'é', '日', 0x200B, 0x1F600, 0x10FFFF, '\t'}
	atoms := func(k remora.Kind, shape []int64) (*remora.Value, semantics.Array) {
		n := 1
		for _, d := range shape {
			n *= int(d)
		}
		v := remora.NewValue(k, append([]int64{}, shape...), n)
		a := semantics.Array{Shape: append([]int64{}, shape...), Data: make([]int64, n)}
		for i := range n {
			switch k {
			case remora.KFloat:
				v.F[i] = floats[r.Intn(len(floats))]
				a.Elem, a.Data[i] = semantics.FloatElem, semantics.FloatBits(v.F[i])
			case remora.KBool:
				v.I[i] = int64(r.Intn(2))
			case remora.KChar:
				v.I[i] = int64(chars[r.Intn(len(chars))])
			default:
				v.I[i] = r.Int63n(2001) - 1000
			}
			if k != remora.KFloat {
				a.Data[i] = v.I[i]
			}
		}
		return v, a
	}
	shape := func(maxRank int) []int64 {
		s := make([]int64, r.Intn(maxRank+1))
		for i := range s {
			s[i] = int64(r.Intn(4))
		}
		return s
	}
	dims := func(s []int64) string {
		var b strings.Builder
		for _, d := range s {
			fmt.Fprintf(&b, " %d", d)
		}
		return b.String()
	}
	for range 2000 {
		k := r.Intn(len(kinds))
		var typ string
		var want string
		var vals []semantics.Array
		switch r.Intn(3) {
		case 0: // an array of atoms
			s := shape(3)
			v, a := atoms(kinds[k], s)
			typ, want, vals = "["+names[k]+dims(s)+"]", v.String(), []semantics.Array{a}
		case 1: // one box of a vector
			n := int64(r.Intn(4))
			v, a := atoms(kinds[k], []int64{n, 2})
			b := &remora.Box{Indices: []remora.Index{remora.NatIndex(remora.NatConst(n))}, Val: v, Type: &remora.Sigma{Vars: []string{"d"}}}
			typ = "(Sigma (d) [" + names[k] + " d 2])"
			want = remora.AtomScalar(remora.KBox, b).String()
			vals = []semantics.Array{semantics.Scalar(n), a}
		default: // a frame of boxes
			frame := shape(2)
			cnt := 1
			for _, d := range frame {
				cnt *= int(d)
			}
			w := semantics.Array{Shape: frame, Data: make([]int64, cnt)}
			data := semantics.Array{}
			out := remora.NewValue(remora.KBox, frame, cnt)
			for p := range cnt {
				n := int64(r.Intn(3))
				w.Data[p] = n
				v, a := atoms(kinds[k], []int64{n + 1})
				data.Elem = a.Elem
				data.Data = append(data.Data, a.Data...)
				out.A[p] = &remora.Box{Indices: []remora.Index{remora.NatIndex(remora.NatConst(n))}, Val: v, Type: &remora.Sigma{Vars: []string{"d"}}}
			}
			data.Shape = []int64{int64(len(data.Data))}
			typ = "[(Sigma (d) [" + names[k] + " (+ d 1)])" + dims(frame) + "]"
			want, vals = out.String(), []semantics.Array{w, data}
		}
		ty, err := remora.ParseType("t", typ)
		if err != nil {
			t.Fatal(err)
		}
		lines, err := Decode([]*remora.Arr{remora.CanonArr(ty)}, vals)
		if err != nil || len(lines) != 1 || lines[0] != want {
			t.Fatalf("%s: the format prints %q (%v), Remora %q", typ, lines, err, want)
		}
	}
}
