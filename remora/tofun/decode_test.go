package tofun

import (
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
		{[]string{"[int 3]"}, []semantics.Array{arrayOf(i, []int64{2}, 1, 2)}, "error: FUN gave shape [2]"},
		{[]string{"float"}, []semantics.Array{semantics.Scalar(1)}, "error: FUN gave int"},
		{[]string{"int"}, []semantics.Array{semantics.Scalar(1), semantics.Scalar(2)}, "error: left over"},
		{[]string{"int", "int"}, []semantics.Array{semantics.Scalar(1)}, "error: missing a result"},
		{[]string{"(Sigma (n) [int n])"}, []semantics.Array{semantics.Scalar(-1), arrayOf(i, []int64{0})}, "error: not a dimension"},
		{[]string{"[(Sigma (n) [int n]) 2]"}, nil, "error: missing the frame's witnesses or data"},
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

// TestDecodeEmptyFromText: an empty array that a level printed as text
// ("[]", gpu-sim) and semantics.ParseValue read back has lost its inner
// dimensions; Decode takes them from the type, and still refuses a
// non-empty array of the wrong shape.
func TestDecodeEmptyFromText(t *testing.T) {
	empty, err := semantics.ParseValue("[]")
	if err != nil {
		t.Fatal(err)
	}
	typ := remora.ArrOf(remora.Int, 0, 2)
	lines, err := Decode([]*remora.Arr{typ}, []semantics.Array{empty})
	if err != nil || len(lines) != 1 || lines[0] != "[]" {
		t.Errorf("Decode([]) at %s = %v, %v", remora.TypeString(typ), lines, err)
	}
	row, _ := semantics.ParseValue("[1 2]")
	if _, err := Decode([]*remora.Arr{typ}, []semantics.Array{row}); err == nil {
		t.Errorf("Decode([1 2]) at %s: no error", remora.TypeString(typ))
	}
}
