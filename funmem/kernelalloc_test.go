package funmem

import (
	"fmt"
	"github.com/arraysem/arraysem/fun/slice"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/internal/golden"
	"github.com/arraysem/arraysem/semantics"
)

// toExpanded is the path check/registry.go takes from FUN to FUNMEM with
// --expand: TransformProgram, the simplifier, MemoryExpand (GPU layout),
// the simplifier again; raw leaves the simplifier out (--raw).
func toExpanded(p *fun.Program, raw bool) *fun.Program {
	q := Transform(p)
	if !raw {
		q = Simplify(q)
	}
	q = MemoryExpand(q, GPU)
	if !raw {
		q = Simplify(q)
	}
	return q
}

// loadFun parses and type checks a FUN program.
func loadFun(t *testing.T, file, src string) *fun.Program {
	t.Helper()
	p, err := fun.ParseFile(file, src)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := fun.Check(p, nil); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestAllocsInKernelsMatmul is the check issue 17 asks for: matmul.fun's
// kernels allocate the blocks of l1 and l2, of sizes h1 and h2 computed in
// the kernel's body. Sliced, the sizes are computed before the kernels;
// unsliced, MemoryExpand substitutes the lets of h1 and h2, which cannot
// be stuck, into the sizes (expand_size.go). Either way no allocation is
// left in a kernel.
func TestAllocsInKernelsMatmul(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "examples", "fun", "matmul.fun"))
	if err != nil {
		t.Fatal(err)
	}
	p := loadFun(t, "matmul.fun", string(src))
	for _, raw := range []bool{false, true} {
		if got := AllocsInKernels(toExpanded(p, raw)); len(got) != 0 {
			t.Errorf("raw=%v: unsliced, matmul.fun still allocates in kernels at %v\n%s", raw, got, fun.Print(toExpanded(p, raw)))
		}
		q, rep := slice.Sizes(p)
		if got := AllocsInKernels(toExpanded(q, raw)); len(got) != 0 {
			t.Errorf("raw=%v: sliced, matmul.fun still allocates in kernels at %v\n%s", raw, got, fun.Print(toExpanded(q, raw)))
		}
		if len(rep.Kept) != 0 {
			t.Errorf("the report keeps %v", rep.Kept)
		}
	}
}

// TestAllocsInKernelsKept checks, on every example of examples/fun and
// every program of fun/slice/testdata/slice.txt, that after slicing,
// TransformProgram and MemoryExpand the allocations left in kernels are
// among those the SliceReport says it kept.
func TestAllocsInKernelsKept(t *testing.T) {
	type prog struct{ name, file, src string }
	var progs []prog
	files, _ := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	for _, f := range files {
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		progs = append(progs, prog{filepath.Base(f), filepath.Base(f), string(src)})
	}
	for _, c := range golden.Read(t, filepath.Join("..", "fun", "slice", "testdata", "slice.txt"), "--") {
		src, _, _ := strings.Cut(c.Src, "\n-- sliced:\n")
		progs = append(progs, prog{fmt.Sprintf("slice.txt:%d", c.Line), c.File, src})
	}
	for _, pr := range progs {
		t.Run(pr.name, func(t *testing.T) {
			p, err := fun.ParseFile(pr.file, pr.src)
			if err != nil {
				t.Skip("does not parse")
			}
			if _, err := fun.Check(p, nil); err != nil {
				t.Skip("does not type check")
			}
			q, rep := slice.Sizes(p)
			kept := map[semantics.Pos]bool{}
			for _, k := range rep.Kept {
				kept[k] = true
			}
			for _, raw := range []bool{false, true} {
				left := map[semantics.Pos]bool{}
				for _, pos := range AllocsInKernels(toExpanded(q, raw)) {
					left[pos] = true
					if !kept[pos] {
						t.Errorf("raw=%v: the allocation at %v is left in a kernel, but the report does not keep it\n%s", raw, pos, rep)
					}
				}
				if !raw {
					for k := range kept {
						if !left[k] {
							t.Logf("the report keeps %v, which MemoryExpand hoists", k)
						}
					}
				}
			}
		})
	}
}
