package imp

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// The programs of the bench rows imp-flat and imp-nested (internal/bench)
// as FunMemToImp compiles them: the flat kernel ys[i] = xs[i] * 2 + i and
// the nested n×n one, each with its copy to the result.
const (
	benchFlat = `input n : int;
var xs_mem : mem;
xs_mem <- alloc n;
kernel j1 <= n do
  xs_mem[j1 - 1] <- j1;
done;
var ys_mem : mem;
ys_mem <- alloc n;
kernel i <= n do
  var x : int;
  x <- xs_mem[i - 1];
  var y : int;
  y <- x * 2 + i;
  ys_mem[i - 1] <- y;
done;
var ys_res_mem : mem;
ys_res_mem <- alloc n;
kernel j2 <= n do
  var t3 : int;
  t3 <- ys_mem[j2 - 1];
  ys_res_mem[j2 - 1] <- t3;
done;
return ys_res_mem : [n]
`
	benchNested = `input n : int;
var xs_mem : mem;
xs_mem <- alloc n;
kernel j1 <= n do
  xs_mem[j1 - 1] <- j1;
done;
var b_mem : mem;
b_mem <- alloc n * n;
kernel i <= n do
  var r_mem : mem;
  r_mem <- alloc n;
  kernel j <= n do
    var x : int;
    x <- xs_mem[j - 1];
    var y : int;
    y <- x * i + j;
    r_mem[j - 1] <- y;
  done;
  kernel j2 <= n do
    var t3 : int;
    t3 <- r_mem[j2 - 1];
    b_mem[i * n + j2 - n - 1] <- t3;
  done;
done;
var b_res_mem : mem;
b_res_mem <- alloc n * n;
kernel j4 <= n do
  kernel j5 <= n do
    var t6 : int;
    t6 <- b_mem[j4 * n + j5 - n - 1];
    b_res_mem[j4 * n + j5 - n - 1] <- t6;
  done;
done;
return b_res_mem : [n][n]
`
	// benchFold is a reduce and a scan over n elements.
	benchFold = `input n : int;
var s : int;
reduce s <- 0 for i <= n do
  var y : int;
  y <- i * i;
yield y combine a, b do
  var c : int;
  c <- a + b;
yield c done;
var out : mem;
out <- alloc n;
scan out[i - 1] <- 0 for i <= n do
  var y : int;
  y <- i + s;
yield y combine a, b do
  var c : int;
  c <- a + b;
yield c done;
return out : [n]
`
	// benchStencil is five relaxation steps of a three-point stencil, a
	// kernel in a loop reading its neighbours through variables its body
	// sets (jl, jr), as FunMemToImp compiles them: race free by the plans
	// (racefree.go, planScope.once).
	benchStencil = `input n : int;
var acc : mem;
acc <- alloc n;
kernel j1 <= n do
  acc[j1 - 1] <- j1 * j1 % 7;
done;
for it <= 5 do
  var nxt : mem;
  nxt <- alloc n;
  kernel j <= n do
    var inner : int;
    inner <- j > 1 && j < n;
    var v : int;
    if inner then
      var jl : int;
      jl <- j - 1;
      var jr : int;
      jr <- j + 1;
      var a : int;
      a <- acc[jl - 1];
      var b : int;
      b <- acc[j - 1];
      var c : int;
      c <- acc[jr - 1];
      v <- (a + 2 * b + c) / 4;
    else
      v <- acc[j - 1];
    fi;
    nxt[j - 1] <- v;
  done;
  acc <- nxt;
done;
return acc : [n]
`
)

// benchEval runs src's big-step at n per iteration, traced or not, and
// reports ns per kernel iteration (work: the iterations one run does).
func benchEval(b *testing.B, src string, n, work int, trace bool) {
	p, err := ParseFile("bench.imp", src)
	if err != nil {
		b.Fatal(err)
	}
	opts := &Options{}
	if trace {
		opts.Trace = func(Stmt, *semantics.KernelTrace) {}
	}
	args := map[string]string{"n": strconv.Itoa(n)}
	b.ReportAllocs()
	for b.Loop() {
		env, h, err := BindInputs(p, args)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Eval(p, env, h, opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(work), "ns/iteration")
}

// BenchmarkEval is IMP's big-step on the bench rows' programs (imp-flat,
// imp-nested; trace-imp with /traced): ns per iteration of the kernels.
func BenchmarkEval(b *testing.B) {
	for _, trace := range []bool{false, true} {
		suffix := ""
		if trace {
			suffix = "/traced"
		}
		b.Run("flat-1e5"+suffix, func(b *testing.B) { benchEval(b, benchFlat, 100_000, 3*100_000, trace) })
		b.Run("nested-300"+suffix, func(b *testing.B) { benchEval(b, benchNested, 300, 3*300*300, trace) })
		b.Run("fold-1e5"+suffix, func(b *testing.B) { benchEval(b, benchFold, 100_000, 2*100_000, trace) })
		b.Run("stencil-1e5"+suffix, func(b *testing.B) { benchEval(b, benchStencil, 100_000, 6*100_000, trace) })
	}
}

// BenchmarkEvalJobs is the flat and the nested bench programs' big-step
// at --jobs 1 and 2 (parallel.go): the kernels' iterations on one or two
// goroutines. Compare the two with benchstat, on an idle machine.
func BenchmarkEvalJobs(b *testing.B) {
	for _, c := range []struct {
		name string
		src  string
		n    int
	}{{"flat-1e6", benchFlat, 1_000_000}, {"nested-1000", benchNested, 1000}} {
		p, err := ParseFile("bench.imp", c.src)
		if err != nil {
			b.Fatal(err)
		}
		args := map[string]string{"n": strconv.Itoa(c.n)}
		for _, jobs := range []int{1, 2} {
			b.Run(c.name+"/jobs="+strconv.Itoa(jobs), func(b *testing.B) {
				for b.Loop() {
					env, h, err := BindInputs(p, args)
					if err != nil {
						b.Fatal(err)
					}
					if _, err := Eval(p, env, h, &Options{Jobs: jobs}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkCheck is the checker on the bench rows' programs, plain (as
// check and every pass run it: it must build nothing) and building the
// typing derivation (check --derive).
func BenchmarkCheck(b *testing.B) {
	for _, c := range []struct{ name, src string }{{"flat", benchFlat}, {"nested", benchNested}, {"fold", benchFold}} {
		p, err := ParseFile("bench.imp", c.src)
		if err != nil {
			b.Fatal(err)
		}
		for _, derive := range []bool{false, true} {
			name := c.name
			if derive {
				name += "/derive"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := CheckDerivation(p, CheckOptions{Derive: derive}); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkReadBack reads back the printed text of every example that
// checks, as the level property does with each IMP level it checks:
// parse, check, print.
func BenchmarkReadBack(b *testing.B) {
	texts := exampleTexts(b)
	b.ReportAllocs()
	for b.Loop() {
		readBack(b, texts)
	}
}

// exampleTexts are the printed texts of the examples that check.
func exampleTexts(tb testing.TB) []string {
	files, err := filepath.Glob(filepath.Join("..", "examples", "imp", "*.imp"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("no examples: %v", err)
	}
	var texts []string
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			tb.Fatal(err)
		}
		p, err := ParseFile(file, string(src))
		if err != nil || Check(p, nil) != nil {
			continue // an example of an error
		}
		texts = append(texts, Print(p))
	}
	return texts
}

// readBack parses, checks and prints each text, which must print as it was.
func readBack(tb testing.TB, texts []string) {
	for _, text := range texts {
		p, err := ParseFile("back.imp", text)
		if err != nil {
			tb.Fatal(err)
		}
		if err := Check(p, nil); err != nil {
			tb.Fatal(err)
		}
		if Print(p) != text {
			tb.Fatal("prints differently")
		}
	}
}
