package cuda_test

import (
	"strings"
	"testing"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/imp"
)

// TestHeapLimit: the host raises the device heap before the first launch
// exactly when a kernel allocates, to the bound computed from the kernel's
// bound and sizes when they depend only on int inputs nothing assigns,
// and to arraysem_heap_default otherwise.
func TestHeapLimit(t *testing.T) {
	for _, c := range []struct {
		name, src, want string // want "": no call
	}{
		{"no allocation in kernels", "input n : int; var m : mem; m <- alloc n; kernel i <= n do m[i - 1] <- i done; return m : [n]", ""},
		{"sizes from inputs", "input n : int; input k : int; kernel i <= n do var b : mem; b <- alloc k; var c : mem; c <- alloc 2 * k done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, n, arraysem_heap_thread(arraysem_heap_thread(0, k), i64_mul(2, k))));"},
		{"two kernels", "input n : int; kernel i <= n do var b : mem; b <- alloc 3 done; kernel j <= 2 do var c : mem; c <- alloc n done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(arraysem_heap_kernel(0, n, arraysem_heap_thread(0, 3)), 2, arraysem_heap_thread(0, n)));"},
		{"a size from the thread", "input n : int; kernel i <= n do var b : mem; b <- alloc i done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, 1, arraysem_heap_default));"},
		{"an input the host assigns", "input n : int; n <- n + 1; kernel i <= 4 do var b : mem; b <- alloc n done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, 1, arraysem_heap_default));"},
		{"an input a thread assigns", "input n : int; kernel i <= 4 do n <- 2; var b : mem; b <- alloc n done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, 1, arraysem_heap_default));"},
		{"a nested kernel's size", "input n : int; kernel i <= 4 do kernel j <= n do var b : mem; b <- alloc n done done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, 4, arraysem_heap_thread(0, n)));"},
		{"a parallel reduce's parts", "input n : int; input k : int; var s : int; reduce s <- 0 for i <= n do var b : mem; b <- alloc k; yield i combine x, y do var c : mem; c <- alloc 2; yield y done; return s",
			"arraysem_heap_limit(arraysem_heap_kernel(0, n, arraysem_heap_thread(arraysem_heap_thread(0, k), 2)));"},
		{"a kernel in a host for loop", "input n : int; for r <= 3 do kernel i <= n do var b : mem; b <- alloc 5 done done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, n, arraysem_heap_thread(0, 5)));"},
		{"a bound from a host for loop's index", "input n : int; for n <= 3 do kernel i <= n do var b : mem; b <- alloc 5 done done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, 1, arraysem_heap_default));"},
		{"an allocation in a thread's for loop", "input n : int; kernel i <= n do for j <= 2 do var b : mem; b <- alloc 3 done done; return n",
			"arraysem_heap_limit(arraysem_heap_kernel(0, 1, arraysem_heap_default));"},
	} {
		p, err := imp.ParseFile("heap.imp", c.src)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if err := imp.Check(p, nil); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		f, err := cuda.Emit(p, cuda.Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		_, text, _ := strings.Cut(f.String(), cuda.PreludeEnd)
		at := strings.Index(text, "arraysem_heap_limit(")
		switch {
		case c.want == "" && at >= 0:
			t.Errorf("%s: a heap limit with no allocation in a kernel", c.name)
		case c.want != "" && !strings.Contains(text, c.want):
			t.Errorf("%s: no %s in\n%s", c.name, c.want, text)
		case c.want != "" && at > strings.Index(text, "ARRAYSEM_LAUNCH"):
			t.Errorf("%s: the heap limit comes after the first launch", c.name)
		}
	}
}
