package fuse_test

import (
	"fmt"
	"github.com/arraysem/arraysem/fun/fuse"
	"math/rand"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// Fusion-rich programs: every array has the one size n, so that almost
// every kernel reads earlier arrays at its index (a consumer) and almost
// every array is a producer of several, on one path or on the two
// branches of an if, in loops' and kernels' bodies, folded by reduces and
// scans, with replicates, iotas and copies among them, reads at another
// index (case 5) and divisions that may get stuck. proofs-tests' generator
// makes programs of every shape; this one makes the shapes fusion decides
// about, many times over.

// fuseGen writes one program.
type fuseGen struct {
	r     *rand.Rand
	b     strings.Builder
	arrs  []string // the arrays of type [n] in scope
	ints  []string // the ints a reduce made, in scope
	k     int      // names made
	depth int      // ifs and loops around
}

func (g *fuseGen) name(p string) string { g.k++; return fmt.Sprintf("%s%d", p, g.k) }

func (g *fuseGen) line(ind int, format string, args ...any) {
	g.b.WriteString(strings.Repeat("  ", ind) + fmt.Sprintf(format, args...) + "\n")
}

func (g *fuseGen) arr() string { return g.arrs[g.r.Intn(len(g.arrs))] }

// body writes the statements of a kernel's body over the index i, reading
// arrays of scope (at i, sometimes at one, sometimes in an if's branch),
// and returns its result.
func (g *fuseGen) body(ind int, i string) string {
	acc := i
	for k := 1 + g.r.Intn(2); k > 0; k-- {
		a, idx, v := g.arr(), i, g.name("v")
		if g.r.Intn(8) == 0 {
			idx = "one"
		}
		if g.r.Intn(5) == 0 {
			c, w := g.name("c"), g.name("w")
			g.line(ind, "let (%s : int) = %s %% 2", c, acc)
			g.line(ind, "let (%s : int) =", v)
			g.line(ind+1, "if %s", c)
			g.line(ind+1, "then let (%s : int) = %s[%s]", w, a, idx)
			g.line(ind+1, "     in (%s)", w)
			g.line(ind+1, "else in (%s)", acc)
		} else {
			g.line(ind, "let (%s : int) = %s[%s]", v, a, idx)
		}
		op := []string{"+", "*", "-", "+", "/"}[g.r.Intn(5)]
		s := g.name("s")
		g.line(ind, "let (%s : int) = %s %s %s", s, acc, op, v)
		acc = s
	}
	return acc
}

// fold writes a reduce or scan over an array of scope, binding x.
func (g *fuseGen) fold(ind int, x, typ, form string) {
	a, b, c := g.name("p"), g.name("q"), g.name("c")
	g.line(ind, "let (%s : %s) = %s (%s : int) (%s : int) = zero over %s do", x, typ, form, a, b, g.arr())
	g.line(ind+2, "let (%s : int) = %s + %s", c, a, b)
	g.line(ind+2, "in (%s)", c)
}

// stm writes one statement.
func (g *fuseGen) stm(ind int) {
	switch g.r.Intn(10) {
	case 0, 1, 2, 3: // a kernel: a consumer, and a producer
		x, i := g.name("a"), g.name("i")
		g.line(ind, "let (%s : [n]) = kernel %s <= n do", x, i)
		g.line(ind+2, "in (%s)", g.body(ind+2, i))
		g.arrs = append(g.arrs, x)
	case 4:
		x := g.name("r")
		g.fold(ind, x, "int", "reduce")
		g.ints = append(g.ints, x)
	case 5:
		x := g.name("a")
		g.fold(ind, x, "[n]", "scan")
		g.arrs = append(g.arrs, x)
	case 6, 7: // an if or a loop, with statements of their own
		if g.depth > 1 {
			return
		}
		x := g.name("a")
		arrs, ints := append([]string(nil), g.arrs...), append([]string(nil), g.ints...)
		g.depth++
		if g.r.Intn(2) == 0 {
			g.line(ind, "let (%s : [n]) =", x)
			g.line(ind+1, "if c")
			for _, word := range []string{"then", "else"} {
				g.line(ind+1, "%s", word)
				for k := g.r.Intn(3); k > 0; k-- {
					g.stm(ind + 2)
				}
				g.line(ind+2, "in (%s)", g.arr())
				g.arrs, g.ints = append([]string(nil), arrs...), append([]string(nil), ints...)
			}
		} else {
			acc, s := g.name("acc"), g.name("s")
			g.line(ind, "let (%s : [n]) = loop (%s : [n]) = (%s) for %s <= t do", x, acc, g.arr(), s)
			g.arrs = append(g.arrs, acc)
			for k := 1 + g.r.Intn(2); k > 0; k-- {
				g.stm(ind + 2)
			}
			g.line(ind+2, "in (%s)", g.arrs[len(g.arrs)-1])
			g.arrs, g.ints = arrs, ints
		}
		g.depth--
		g.arrs = append(g.arrs, x)
	case 8: // the cheap producers
		x := g.name("a")
		switch g.r.Intn(3) {
		case 0:
			g.line(ind, "let (%s : [n]) = iota n", x)
		case 1:
			g.line(ind, "let (%s : [n]) = copy %s", x, g.arr())
		case 2:
			g.line(ind, "let (%s : [n]) = kernel %s <= n do in (c)", x, g.name("i"))
		}
		g.arrs = append(g.arrs, x)
	case 9: // a kernel whose body maps and reduces, reading at its index
		x, i, inner, j, v, w, r := g.name("a"), g.name("i"), g.name("b"), g.name("j"), g.name("v"), g.name("w"), g.name("r")
		g.line(ind, "let (%s : [n]) = kernel %s <= n do", x, i)
		g.line(ind+2, "let (%s : [n]) = kernel %s <= n do", inner, j)
		g.line(ind+4, "let (%s : int) = %s[%s]", v, g.arr(), i)
		g.line(ind+4, "let (%s : int) = %s + %s", w, v, j)
		g.line(ind+4, "in (%s)", w)
		saved := g.arrs
		g.arrs = []string{inner}
		g.fold(ind+2, r, "int", "reduce")
		g.arrs = saved
		g.line(ind+2, "in (%s)", r)
		g.arrs = append(g.arrs, x)
	}
}

// fuseProgram is the program of a seed.
func fuseProgram(seed int64) string {
	g := &fuseGen{r: rand.New(rand.NewSource(seed)), arrs: []string{"xs"}}
	g.line(0, "input (n : int) (xs : [n]) (c : int) (t : int)")
	g.line(0, "let (zero : int) = 0")
	g.line(0, "let (one : int) = 1")
	for k := 3 + g.r.Intn(8); k > 0; k-- {
		g.stm(0)
	}
	res := []string{g.arrs[len(g.arrs)-1]}
	for k := g.r.Intn(3); k > 0; k-- {
		res = append(res, g.arr())
	}
	g.line(0, "in (%s)", strings.Join(append(res, g.ints...), ", "))
	return g.b.String()
}

// fuseRun is one run of a program, with its cost counters.
type fuseRun struct {
	vals  []semantics.Array
	err   error
	stats semantics.Stats
}

func runFUN(p *fun.Program, env *fun.Env) fuseRun {
	var r fuseRun
	r.vals, _, r.err = fun.Eval(p, env, &fun.EvalOptions{Stats: &r.stats})
	return r
}

// TestFuseGenerated fuses fusion-rich programs and runs each, fused and
// not, on a few inputs: the fused program type checks, gives the same
// values or gets stuck too, under both semantics, and costs no more
// operations, words, peak words or launches. Under each unsafe case of
// Fig 9 (the mutants') the fused programs still check and compute the
// same values, but some run costs more operations: the counters see
// the duplicated work.
func TestFuseGenerated(t *testing.T) {
	const programs = 250
	for _, unsafe := range []int{0, 3, 4, 5} {
		t.Run(fmt.Sprintf("unsafe%d", unsafe), func(t *testing.T) {
			t.Parallel()
			var opts fuse.Options
			if unsafe > 0 {
				opts.Unsafe = []int{unsafe}
			}
			fused, costlier := 0, 0
			for seed := int64(0); seed < programs; seed++ {
				src := fuseProgram(seed)
				p, err := fun.ParseFile("gen.fun", src)
				if err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, src)
				}
				if _, err := fun.Check(p, nil); err != nil {
					t.Fatalf("seed %d: %v\n%s", seed, err, src)
				}
				q, rep := fuse.Fuse(p, opts)
				fused += rep.Fused()
				if _, err := fun.Check(q, nil); err != nil {
					t.Fatalf("seed %d: the fused program does not type check: %v\n%s\nfused:\n%s", seed, err, src, fun.Print(q))
				}
				r := rand.New(rand.NewSource(seed))
				for trial := 0; trial < 3; trial++ {
					xs := make([]string, r.Intn(4))
					for i := range xs {
						xs[i] = strconv.Itoa(r.Intn(7) - 2)
					}
					args := map[string]string{"xs": "[" + strings.Join(xs, " ") + "]", "c": strconv.Itoa(r.Intn(2)), "t": strconv.Itoa(r.Intn(4))}
					env, err := fun.BindInputs(p, args)
					if err != nil {
						t.Fatal(err)
					}
					a, b := runFUN(p, env), runFUN(q, env)
					small, _, serr := fun.RunSmall(q, env, nil)
					where := fmt.Sprintf("seed %d, %v", seed, args)
					if msg := fuseCompare(a, b); msg != "" && !(unsafe == 3 && a.err != nil) {
						t.Fatalf("%s: %s\n%s\nfused:\n%s%s", where, msg, src, fun.Print(q), rep)
					}
					if msg := fuseCompare(b, fuseRun{vals: small, err: serr}); msg != "" {
						t.Fatalf("%s: the fused program, big- and small-step: %s", where, msg)
					}
					if a.err != nil || b.err != nil {
						continue
					}
					if b.stats.Ops > a.stats.Ops {
						costlier++
					}
					if unsafe == 0 {
						if msgs := fuseCosts(where, a.stats, b.stats); len(msgs) > 0 {
							t.Fatalf("%s\n%s\nfused:\n%s%s", strings.Join(msgs, "\n"), src, fun.Print(q), rep)
						}
					}
				}
			}
			if fused < programs {
				t.Errorf("only %d fusions in %d programs", fused, programs)
			}
			t.Logf("%d fusions, %d runs cost more operations fused", fused, costlier)
			if unsafe > 0 && costlier == 0 {
				t.Errorf("fusing in case %d of Fig 9 never cost more operations", unsafe)
			}
		})
	}
}

// fuseCompare says how two runs differ: in their values, or in that one
// gets stuck and the other not ("" when they agree, or both are stuck).
func fuseCompare(a, b fuseRun) string {
	switch {
	case a.err != nil && b.err != nil:
		return ""
	case a.err != nil:
		return fmt.Sprintf("the program gets stuck (%v), the fused one gives %v", a.err, b.vals)
	case b.err != nil:
		return fmt.Sprintf("the program gives %v, the fused one gets stuck (%v)", a.vals, b.err)
	}
	if fmt.Sprint(a.vals) != fmt.Sprint(b.vals) {
		return fmt.Sprintf("the program gives %v, the fused one %v", a.vals, b.vals)
	}
	return ""
}

// TestFuseSharesNothing checks that the fused program shares no
// statement or body with the program fused, nor holds one twice, and
// that the program fused is left as it was: the copy propagation leaves
// the statements it does not change as they are rather than copying
// them, which is sound only while fusion's own tree is a tree of fresh
// statements. (Identifiers are not checked: under the unsafe case 4 the
// fused program held one twice before copy propagation changed.)
func TestFuseSharesNothing(t *testing.T) {
	for _, unsafe := range []int{0, 3, 4, 5} {
		var opts fuse.Options
		if unsafe > 0 {
			opts.Unsafe = []int{unsafe}
		}
		for seed := int64(0); seed < 120; seed++ {
			src := fuseProgram(seed)
			p, err := fun.ParseFile("gen.fun", src)
			if err != nil {
				t.Fatal(err)
			}
			before := fun.Print(p)
			q, rep := fuse.Fuse(p, opts)
			if rep.Fused() == 0 {
				continue
			}
			if fun.Print(p) != before {
				t.Fatalf("seed %d, unsafe %d: Fuse changed the program it fused", seed, unsafe)
			}
			nodes := func(n fun.Node, f func(any)) {
				fun.Inspect(n, func(n fun.Node) bool {
					switch n.(type) {
					case *fun.Stm, *fun.Body:
						f(n)
					}
					return true
				})
			}
			inP := map[any]bool{}
			nodes(p, func(n any) { inP[n] = true })
			inQ := map[any]bool{}
			nodes(q, func(n any) {
				if inP[n] || inQ[n] {
					t.Fatalf("seed %d, unsafe %d: the fused program holds a node (%T) of the program fused, or one twice", seed, unsafe, n)
				}
				inQ[n] = true
			})
		}
	}
}

// TestPassReturnsUnfused checks the pass's shortcut: it gives back the
// program itself, without comparing, when Fuse fused nothing, which must
// be exactly when Fuse's copy is equal to it (node for node and position
// for position) — over the golden file's programs (many fuse nothing)
// and generated ones.
func TestPassReturnsUnfused(t *testing.T) {
	var srcs []string
	for _, c := range golden.Read(t, filepath.Join("testdata", "fuse.txt"), "--") {
		src, _, _ := strings.Cut(c.Src, "\n"+fusedMark+"\n")
		srcs = append(srcs, src)
	}
	for seed := int64(0); seed < 60; seed++ {
		srcs = append(srcs, fuseProgram(seed))
	}
	same := 0
	for i, src := range srcs {
		p, err := fun.ParseFile("t.fun", src)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fun.Check(p, nil); err != nil {
			continue
		}
		q, _ := fuse.Fuse(p, fuse.Options{})
		out, _, err := fuse.Pass.Run(p, lang.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if equal := fun.Equal(p, q); equal != (out.(*fun.Program) == p) {
			t.Fatalf("program %d: Fuse's copy equal to it %v, but the pass gave back the program itself %v", i, equal, !equal)
		} else if equal {
			same++
		}
	}
	if same == 0 || same == len(srcs) {
		t.Fatalf("%d of %d programs unfused: the test compares nothing", same, len(srcs))
	}
	t.Logf("%d of %d programs unfused", same, len(srcs))
}
