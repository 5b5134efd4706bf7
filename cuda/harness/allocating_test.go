package harness_test

import (
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/cuda/harness"
	"github.com/arraysem/arraysem/funmem"
	gpusim "github.com/arraysem/arraysem/gpu-sim"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// stillAllocating are the examples whose kernels allocate (cuda.File's
// Allocating) when compiled as compile --to cuda compiles them, with
// MemoryExpand (in either layout), and why.
var stillAllocating = map[string]string{
	// IMP has no MemoryExpand: these are IMP as written, allocating in
	// kernels (the device heap is what they show), or the expansions of
	// matmul.fun as MemoryExpand made them before it hoisted the blocks
	// whose sizes the kernel's body computes.
	"examples/imp/fizzbuzz.imp":          "IMP, as written",
	"examples/imp/kernel.imp":            "IMP, as written",
	"examples/imp/sum_max.imp":           "IMP, as written",
	"examples/imp/matmul_expand_cpu.imp": "IMP, as written",
	"examples/imp/matmul_expand_gpu.imp": "IMP, as written",
	// Each thread of the frame [3 4 5] builds iota [n] of its own cell's
	// n, read from an array: a size known only inside the thread.
	"examples/remora-dynamic/rp2_fact.remora": "a size read from an array in the thread",
}

// TestAllocatingExamples compiles every example that reaches CUDA as
// compile --to cuda does (MemoryExpand on by default, in the GPU layout;
// and in the CPU layout) and checks that the kernels that still allocate
// are those of stillAllocating, no more (a regression of MemoryExpand)
// and no fewer (the list is kept current). Without MemoryExpand
// (--no-expand) it counts them too, for the log.
func TestAllocatingExamples(t *testing.T) {
	reg := check.NewRegistry()
	var files []string
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && slices.Contains(reg.Extensions(), strings.ToLower(filepath.Ext(path))) {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	variants := []struct {
		name string
		o    lang.Options
	}{
		{"gpu", lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, "gpu")},
		{"cpu", lang.Options{}.With(funmem.ExpandOption.Name).WithString(funmem.LayoutOption.Name, "cpu")},
		{"--no-expand", lang.Options{}},
	}
	allocating := map[string][]string{}
	reached := 0
	for _, file := range files {
		rel, _ := filepath.Rel(root, file)
		rel = filepath.ToSlash(rel)
		if harness.Exclusion(rel) != "" {
			continue
		}
		src, err := semantics.ReadSource(file)
		if err != nil {
			t.Fatal(err)
		}
		l, err := check.Load(reg, file, string(src), check.Options{})
		if err != nil {
			continue // an example of an error the checker finds
		}
		if _, err := reg.Path(l.Language().Name(), cuda.LanguageName); err != nil || l.Language().Name() == cuda.LanguageName {
			continue
		}
		counted := false
		for _, v := range variants {
			st, err := reg.Compile(l, cuda.LanguageName, v.o)
			var pe *lang.PassError
			if err != nil && lang.Declines(err) && errors.As(err, &pe) && pe.Pass.Partial {
				break // a construct a partial pass does not compile
			}
			if err != nil {
				t.Fatalf("%s (%s): %v", rel, v.name, err)
			}
			if !counted {
				reached, counted = reached+1, true
			}
			sim, ok := st[len(st)-1].Program.Syntax().(interface{ Program() *gpusim.Program })
			if !ok {
				t.Fatalf("%s: the CUDA level's program is a %T", rel, st[len(st)-1].Program.Syntax())
			}
			if ks := sim.Program().File.Allocating(); len(ks) > 0 {
				allocating[v.name] = append(allocating[v.name], rel)
			}
		}
	}
	want := slices.Sorted(maps.Keys(stillAllocating))
	for _, v := range variants[:2] {
		got := allocating[v.name]
		sort.Strings(got)
		if !slices.Equal(got, want) {
			t.Errorf("with MemoryExpand (%s layout), the examples whose kernels allocate are\n  %s\nwant (stillAllocating)\n  %s", v.name, strings.Join(got, "\n  "), strings.Join(want, "\n  "))
		}
	}
	if reached < 150 {
		t.Errorf("only %d examples reach CUDA", reached)
	}
	t.Logf("%d examples reach CUDA; kernels allocate in %d with MemoryExpand, %d without (--no-expand)",
		reached, len(allocating["gpu"]), len(allocating["--no-expand"]))
}
