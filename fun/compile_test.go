package fun

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// lazySrc has a body for each way the engine may leave one uncompiled:
// a kernel, loop, scan and filter of no iterations, a redomap of no
// elements, an if's branch not taken (whose code names a variable that
// is not bound: running it would be stuck), and a reduce whose int step
// folds every element without its body. Each body's first variable
// names it.
const lazySrc = `input (n : int) (c : int) (a : [n])
let (z : int) = 0
let (e : [z]) = kernel i <= z do let (kz : int) = a[i] in (kz)
let (lz : int) = loop (p : int) = (z) for i <= z do let (lbody : int) = p + i in (lbody)
let (xs : [z]) = iota z
let (sz : [z]) = scan (u : int) (v : int) = z over xs do let (sbody : int) = u + v in (sbody)
let (fk : int) (fz : [fk]) = filter (x : int) over xs do let (fbody : int) = x > 0 in (fbody)
let (rz : int) = redomap (u : int) (v : int) = z for i <= z do let (mz : int) = i in (mz) combine let (oz : int) = u + v in (oz)
let (x : int) = if c then let (tc : int) = n + 1 in (tc) else let (fc : int) = q + 1 in (fc)
let (b : [n]) = kernel i <= n do let (kb : int) = a[i] let (k2 : int) = if kb then let (tk : int) = kb * 2 in (tk) else let (ek : int) = 0 in (ek) in (k2)
let (s : int) = reduce (u : int) (v : int) = z over b do let (rb : int) = u + v in (rb)
let (l : int) = loop (p : int) = (z) for i <= n do let (lb : int) = p + i in (lb)
in (e, lz, sz, fk, rz, x, b, s, l)`

// TestCompiledWhenFirstRun checks that the engine compiles a body when it
// first runs, and only then: never a body of no iterations nor a branch
// not taken, and a reduce's body only where its int step gives up (no
// fast paths, or derivations asked for); and that what runs is the right
// body (the values are the rules').
func TestCompiledWhenFirstRun(t *testing.T) {
	p, err := ParseFile("t.fun", lazySrc)
	if err != nil {
		t.Fatal(err)
	}
	env, err := BindInputs(p, map[string]string{"c": "1", "a": "[3 0 5]"})
	if err != nil {
		t.Fatal(err)
	}
	want, _, err := EvalRules(p, env, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		o    EvalOptions
		want string // the bodies compiled, by their first variable
	}{
		{"plain", EvalOptions{Jobs: 1}, "kb lb tc tk"},
		{"parallel", EvalOptions{Jobs: 4, MinParallelWork: 1}, "kb lb tc tk"},
		{"no fast paths", EvalOptions{Jobs: 1, NoIntFastPaths: true}, "kb lb rb tc tk"},
		{"derived", EvalOptions{Derive: true}, "kb lb rb tc tk"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var mu sync.Mutex
			var got []string
			o := tc.o
			o.compiled = func(b *Body) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, firstVar(b))
			}
			vs, _, err := Eval(p, env, &o)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(vs, want, semantics.Equal) {
				t.Errorf("got %v, want the rules' %v", vs, want)
			}
			slices.Sort(got)
			// Kernel b's else (ek) is first taken by its second iteration.
			if w := strings.Fields(tc.want + " ek"); !slices.Equal(got, sorted(w)) {
				t.Errorf("compiled %v, want %v", got, sorted(w))
			}
		})
	}
	// The branch not taken is stuck when it runs: c = 0 takes it.
	env0, _ := BindInputs(p, map[string]string{"c": "0", "a": "[3 0 5]"})
	if _, _, err := Eval(p, env0, nil); err == nil || !strings.Contains(err.Error(), "variable q is unbound") {
		t.Errorf("the else branch did not run: %v", err)
	}
}

func sorted(xs []string) []string { slices.Sort(xs); return xs }

// firstVar names a body by the first variable it binds, or the first it
// returns.
func firstVar(b *Body) string {
	if len(b.Stms) > 0 {
		return b.Stms[0].Pat[0].Name.Name
	}
	return b.Result[0].Name
}

// TestShapeReservesCompiledSlots checks, for every body of the examples
// at every depth, that shapes counts the slots, weight and nested bodies
// compiling it takes, so a body compiled when first run writes only the slots
// reserved for it.
func TestShapeReservesCompiledSlots(t *testing.T) {
	files, _ := filepath.Glob("../examples/fun/*.fun")
	if len(files) == 0 {
		t.Fatal("no examples")
	}
	bodies := 0
	for _, f := range append(files, "t.fun") {
		src := lazySrc
		if f != "t.fun" {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			src = string(b)
		}
		p, err := ParseFile(f, src)
		if err != nil {
			continue // an example of a parse error
		}
		tab := shapes(p.Body)
		k := 0 // the index of each body in tab: the compiler's order
		var visit func(b *Body)
		visit = func(b *Body) {
			bodies++
			sh := tab[k]
			for _, looped := range []bool{false, true} {
				c := &compiler{looped: looped, next: k + 1, compilation: &compilation{shapes: tab}}
				bc := c.body(nil, b)
				if c.slots != sh.slots || bc.weight != sh.weight || c.next != k+sh.bodies {
					t.Errorf("%s: body at %v: compiled %d slots, weight %d, %d bodies; shapes says %+v", f, b.In, c.slots, bc.weight, c.next-k, sh)
				}
			}
			k++
			for _, s := range b.Stms {
				for _, nb := range ExpBodies(s.Exp) {
					visit(nb)
				}
			}
		}
		visit(p.Body)
		if k != len(tab) {
			t.Errorf("%s: %d bodies, shapes has %d", f, k, len(tab))
		}
	}
	if bodies < 100 {
		t.Errorf("only %d bodies", bodies)
	}
}
