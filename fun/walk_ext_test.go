package fun

import (
	"slices"
	"strings"
	"testing"
)

// walkExtSrc has every extension form, each with its binders.
const walkExtSrc = `input (n : int) (xs : [n]) (t : int)
let (k2 : int) (zs : [k2]) =
  loop (k : int) (ys : [k]) = (n, xs) for i <= t do
    let (one : int) = 1
    in (k, ys)
let (s : int) =
  reduce (a : int) (b : int) = t over xs do
    let (c : int) = a + b
    in (c)
let (ps : [n]) =
  scan (a2 : int) (b2 : int) = t over xs do
    let (c2 : int) = a2 * b2
    in (c2)
let (m : int) (fs : [m]) =
  filter (x : int) over xs do
    let (keep : int) = x > 0
    in (keep)
let (ok : int) = assert n + 1 "msg"
in (zs, s, ps, fs, ok)`

// TestWalkExt checks that the tree tools reach the extension forms'
// identifiers, binders, bodies and scalar expressions.
func TestWalkExt(t *testing.T) {
	p := mustParse(t, walkExtSrc)
	if _, err := Check(p, nil); err != nil {
		t.Fatal(err)
	}
	var names []string
	Idents(p, func(x *Ident) { names = append(names, x.Name) })
	want := "n xs n t k2 zs k2 k ys k n xs i t one k ys s a b t xs c a b c ps n a2 b2 t xs c2 a2 b2 c2 m fs m x xs keep x keep ok n zs s ps fs ok"
	if got := strings.Join(names, " "); got != want {
		t.Errorf("identifiers\ngot  %s\nwant %s", got, want)
	}
	var bodies []string
	Bodies(p.Body, func(b *Body) { bodies = append(bodies, b.Result[0].Name) })
	if got := strings.Join(bodies, " "); got != "zs k c c2 keep" {
		t.Errorf("bodies %s", got)
	}

	// Binders: parameters and the loop's index are binders, their sizes
	// and the initial values, start, array and bound are uses.
	var binders []string
	MapProgram(p, func(x *Ident, binder bool) *Ident {
		if binder {
			binders = append(binders, x.Name)
		}
		return x
	})
	if got := strings.Join(binders, " "); got != "n xs t k2 zs k ys i one s a b c ps a2 b2 c2 m fs x keep ok" {
		t.Errorf("binders %s", got)
	}

	// A deep copy shares no identifier and prints the same.
	c := CloneProgram(p)
	if Print(c) != Print(p) {
		t.Fatalf("the clone prints\n%s", Print(c))
	}
	orig := identPointers(p)
	for _, x := range identPointers(c) {
		if slices.Contains(orig, x) {
			t.Fatalf("identifier %s is shared", x.Name)
		}
	}

	// Renaming uses only (Uses) leaves the parameters bound.
	r := MapProgram(p, Uses(Renaming(map[string]string{"a": "q", "xs": "ws"})))
	if got := Print(r); !strings.Contains(got, "reduce (a : int) (b : int) = t over ws do") || !strings.Contains(got, "let (c : int) = q + b") {
		t.Errorf("renamed uses:\n%s", got)
	}

	// Rewrite reaches the statements of every body.
	var seen []string
	Rewrite(c.Body, func(s *Stm) []*Stm {
		seen = append(seen, s.Pat[0].Name.Name)
		if s.Pat[0].Name.Name == "one" {
			return nil
		}
		return []*Stm{s}
	})
	if got := strings.Join(seen, " "); got != "one k2 c s c2 ps keep m ok" {
		t.Errorf("rewrite saw %s", got)
	}
	if strings.Contains(Print(c), "one") {
		t.Errorf("rewrite did not drop the loop body's statement:\n%s", Print(c))
	}

	// ExpandDerived reaches into the forms' bodies.
	d := mustParse(t, "input (t : int)\nlet (s : int) = loop (acc : int) = (t) for i <= t do let (is : [i]) = iota i let (r : int) = reduce (a : int) (b : int) = acc over is do let (cs : [i]) = copy is in (b) in (r)\nin (s)")
	x := Print(ExpandDerived(d))
	if strings.Contains(x, "iota") || strings.Contains(x, "copy") {
		t.Errorf("derived forms left in:\n%s", x)
	}
	if _, err := Check(ExpandDerived(d), nil); err != nil {
		t.Errorf("the expansion does not check: %v\n%s", err, x)
	}
}
