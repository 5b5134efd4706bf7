package proofstests

import (
	"fmt"
	"math/rand"
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// GenerateFusion makes a FUN pipeline over one size n: the programs the
// fusion pass has most to do with, which the general generator (fungen.go,
// whose reads index anywhere) rarely makes. Each statement is one of a map
// (a kernel reading earlier arrays at its own index), a replicate, an
// iota, a reduce or a scan of an earlier array, an if whose two branches
// each map an earlier array (consumers on disjoint paths), a loop whose
// body reduces an earlier array (a consumer inside a loop: Fig 9, case 3),
// a kernel whose body reduces one (inside another SOAC's body), or a read
// of an earlier array at another index (a use that is no SOAC input: case
// 5). An array is often consumed twice (case 4). The results are a few of
// the variables, arrays among them. Only + - * and comparisons: no case
// gets stuck.
func GenerateFusion(r *rand.Rand, size int) *Case {
	g := &fuseGen{r: r, arrays: []string{"xs"}}
	var b strings.Builder
	b.WriteString("input (n : int) (xs : [n]) (c : int) (t : int)\n")
	b.WriteString("let (zero : int) = 0\nlet (one : int) = 1\n")
	for k := 1; k <= 2+size/4; k++ {
		b.WriteString(g.stm(k))
	}
	// Results: the last array, and one or two others at random.
	res := []string{g.arrays[len(g.arrays)-1]}
	for _, v := range append(append([]string(nil), g.arrays...), g.ints...) {
		if v != res[0] && r.Intn(4) == 0 && len(res) < 3 {
			res = append(res, v)
		}
	}
	fmt.Fprintf(&b, "in (%s)\n", strings.Join(res, ", "))
	p, err := fun.ParseFile("gen.fun", b.String())
	if err != nil {
		panic("GENERATOR BUG: the pipeline does not parse: " + err.Error() + "\n" + b.String())
	}
	n := int64(r.Intn(5))
	xs := make([]int64, n)
	for i := range xs {
		xs[i] = int64(r.Intn(11) - 5)
	}
	c := &Case{Prog: p, Safe: true, Inputs: []Input{
		{Name: "n", Value: semantics.Scalar(n)},
		{Name: "xs", Value: semantics.Array{Shape: []int64{n}, Data: xs}},
		{Name: "c", Value: semantics.Scalar(int64(r.Intn(2)))},
		{Name: "t", Value: semantics.Scalar(int64(r.Intn(3)))},
	}}
	return c
}

type fuseGen struct {
	r      *rand.Rand
	arrays []string // the [n] arrays bound so far
	ints   []string // the ints bound so far
}

func (g *fuseGen) arr() string { return g.arrays[g.r.Intn(len(g.arrays))] }

// mapBody is a kernel body over index i: reads of one or two earlier
// arrays at i, and arithmetic on them.
func (g *fuseGen) mapBody(i, ind string) string {
	var b strings.Builder
	x := g.arr()
	fmt.Fprintf(&b, "%slet (u_%s : int) = %s[%s]\n", ind, i, x, i)
	v := "u_" + i
	if g.r.Intn(2) == 0 {
		y := g.arr()
		fmt.Fprintf(&b, "%slet (w_%s : int) = %s[%s]\n", ind, i, y, i)
		fmt.Fprintf(&b, "%slet (v_%s : int) = u_%s %s w_%s\n", ind, i, i, []string{"+", "-", "*"}[g.r.Intn(3)], i)
		v = "v_" + i
	}
	fmt.Fprintf(&b, "%slet (r_%s : int) = %s * %d + %s\n", ind, i, v, g.r.Intn(3)+1, i)
	fmt.Fprintf(&b, "%sin (r_%s)\n", ind, i)
	return b.String()
}

func (g *fuseGen) stm(k int) string {
	a := fmt.Sprintf("a%d", k)
	i := fmt.Sprintf("i%d", k)
	var s string
	switch g.r.Intn(10) {
	case 0, 1, 2:
		s = fmt.Sprintf("let (%s : [n]) = kernel %s <= n do\n%s", a, i, g.mapBody(i, "  "))
	case 3:
		if g.r.Intn(2) == 0 {
			s = fmt.Sprintf("let (%s : [n]) = iota n\n", a)
		} else {
			s = fmt.Sprintf("let (%s : [n]) = kernel %s <= n do in (one)\n", a, i)
		}
	case 4:
		x := fmt.Sprintf("s%d", k)
		g.ints = append(g.ints, x)
		return fmt.Sprintf("let (%s : int) = reduce (p : int) (q : int) = zero over %s do\n  let (o : int) = p + q\n  in (o)\n", x, g.arr())
	case 5:
		s = fmt.Sprintf("let (%s : [n]) = scan (p : int) (q : int) = zero over %s do\n  let (o : int) = p + q\n  in (o)\n", a, g.arr())
	case 6:
		s = fmt.Sprintf("let (%s : [n]) =\n  if c\n  then let (%st : [n]) = kernel %s <= n do\n%s       in (%st)\n  else let (%se : [n]) = kernel %s <= n do\n%s       in (%se)\n",
			a, a, i, g.mapBody(i, "         "), a, a, i+"e", g.mapBody(i+"e", "         "), a)
	case 7:
		x := fmt.Sprintf("l%d", k)
		g.ints = append(g.ints, x)
		return fmt.Sprintf("let (%s : int) = loop (acc : int) = (zero) for %s <= t do\n  let (s : int) = reduce (p : int) (q : int) = zero over %s do\n    let (o : int) = p + q\n    in (o)\n  let (acc2 : int) = acc + s\n  in (acc2)\n", x, i, g.arr())
	case 8:
		s = fmt.Sprintf("let (%s : [n]) = kernel %s <= n do\n  let (s : int) = reduce (p : int) (q : int) = zero over %s do\n    let (o : int) = p + q\n    in (o)\n  let (r : int) = s + %s\n  in (r)\n", a, i, g.arr(), i)
	default:
		// A read at another index than a SOAC's own: the array must exist.
		x := fmt.Sprintf("e%d", k)
		g.ints = append(g.ints, x)
		return fmt.Sprintf("let (%s : int) = if n\n  then let (y : int) = %s[one]\n       in (y)\n  else in (zero)\n", x, g.arr())
	}
	g.arrays = append(g.arrays, a)
	return s
}
