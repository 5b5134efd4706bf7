package imp_test

import (
	"testing"

	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// The cost counters of IMP (imp/stats.go), pinned on small programs under
// both semantics, which count alike.
func TestStats(t *testing.T) {
	for _, c := range []struct {
		name string
		src  string
		args map[string]string
		want semantics.Stats
	}{{
		// n = 5 iterations of a read, a multiply and a write.
		name: "kernel",
		src: `input n : int; input xs : [n] @ xs_mem;
var ys : mem; ys <- alloc n;
kernel i <= n do var x : int; x <- xs_mem[i - 1]; var y : int; y <- x * 3; ys[i - 1] <- y; done;
return ys : [n]`,
		args: map[string]string{"xs": "[1 2 3 4 5]"},
		want: semantics.Stats{Ops: 15, Allocs: 1, Words: 5, PeakWords: 5, Kernels: 1},
	}, {
		// A bare copy and the offsets' arithmetic count nothing; an
		// assertion counts its check and its operators.
		name: "scalars",
		src: `input n : int;
var m : int; m <- n; var k : int; k <- (m + 1) * 2; assert k > 0 "positive";
var b : mem; b <- alloc k * 2 - 1;
b[k * 2 - 2] <- k;
return k`,
		args: map[string]string{"n": "3"},
		want: semantics.Stats{Ops: 2 + 2 + 1, Allocs: 1, Words: 15, PeakWords: 15},
	}, {
		// Each iteration's block dies with it: the peak is the outer
		// block and one row; the nested kernels are inside the launch.
		name: "nested",
		src: `input n : int; input m : int;
var t : mem; t <- alloc n * m;
kernel i <= n do
  var r : mem; r <- alloc m;
  kernel j <= m do var p : int; p <- i * j; r[j - 1] <- p; done;
  kernel j <= m do var v : int; v <- r[j - 1]; t[i * m + j - m - 1] <- v; done;
done;
return t : [n][m]`,
		args: map[string]string{"n": "3", "m": "4"},
		want: semantics.Stats{Ops: 12*2 + 12*2, Allocs: 4, Words: 12 + 3*4, PeakWords: 16, Kernels: 1},
	}, {
		// A reduce and a scan are launches; the scan writes once per
		// element.
		name: "folds",
		src: `input n : int; input xs : [n] @ xs_mem;
var s : int;
reduce s <- 0 for i <= n do var v : int; v <- xs_mem[i - 1]; yield v
combine a, b do var c : int; c <- a + b; yield c done;
var ps : mem; ps <- alloc n;
scan ps[i - 1] <- 0 - 1 for i <= n do var v : int; v <- xs_mem[i - 1]; yield v
combine a, b do var c : int; c <- a * b; yield c done;
return s, ps : [n]`,
		args: map[string]string{"xs": "[1 2 3 4]"},
		want: semantics.Stats{Ops: 4*2 + 1 + 4*3, Allocs: 1, Words: 4, PeakWords: 4, Kernels: 2},
	}, {
		// A for's own declarations end with each iteration, and their
		// blocks with them; a block allocated to a variable declared
		// before it lives on. A kernel in a for is a launch each time.
		name: "for",
		src: `input n : int;
var keep : mem;
for i <= n do
  var tmp : mem; tmp <- alloc 10;
  keep <- alloc i;
  kernel j <= i do keep[j - 1] <- j; done;
done;
return n`,
		args: map[string]string{"n": "3"},
		want: semantics.Stats{Ops: 6, Allocs: 6, Words: 30 + 6, PeakWords: 10 + 1 + 2 + 3, Kernels: 3},
	}, {
		// An if's branch is a scope: its block dies at fi.
		name: "if",
		src: `input c : int;
if c then var a : mem; a <- alloc 8 else skip fi;
var b : mem; b <- alloc 5;
return c`,
		args: map[string]string{"c": "1"},
		want: semantics.Stats{Allocs: 2, Words: 13, PeakWords: 8},
	}} {
		p, err := imp.Language.Load(c.name+".imp", c.src, lang.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, sem := range []string{"big", "small"} {
			var st semantics.Stats
			o := lang.RunOptions{Semantics: sem, Args: c.args}
			o.Stats = &st
			r, err := p.Run(o)
			if err != nil {
				t.Fatalf("%s %s: %v", c.name, sem, err)
			}
			if r.Stats != &st {
				t.Errorf("%s %s: the result does not carry the counters", c.name, sem)
			}
			st.SetLive(0)
			if st.String() != c.want.String() {
				t.Errorf("%s %s:\n got %v\nwant %v", c.name, sem, &st, &c.want)
			}
		}
	}
}
