package imp

import "testing"

// TestFastPathOptions: each fast path of the engine is switched off by
// its option of the run, and only by it: a copy kernel runs as copyWords
// unless NoCopyKernels (or NoRaceFreePlans, under which no kernel is
// proved race free) is set, and a kernel the plans prove race free runs
// untracked unless NoRaceFreePlans is set. The results are the same.
func TestFastPathOptions(t *testing.T) {
	t.Parallel()
	src := "input n : int;\ninput xs : [n] @ xs_mem;\nvar m : mem;\nm <- alloc n;\n" +
		"kernel i <= n do var t : int; t <- xs_mem[i - 1]; m[i - 1] <- t done;\n" +
		"kernel i <= n do var t : int; t <- m[i - 1]; m[i - 1] <- t * 2 done;\nreturn m : [n]\n"
	p, err := ParseFile("fast.imp", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		o                 Options
		copies, untracked bool
	}{
		{Options{}, true, true},
		{Options{NoCopyKernels: true}, false, true},
		{Options{NoRaceFreePlans: true}, false, false},
	} {
		env, h, err := BindInputs(p, map[string]string{"xs": "[1 2 3]"})
		if err != nil {
			t.Fatal(err)
		}
		o := c.o
		o.Jobs = 1
		m, body := compile(p, env, h, &o)
		copies, untracked := 0, 0
		m.onCopy = func() { copies++ }
		m.onUntracked = func() { untracked++ }
		if err := m.run(body); err != nil {
			t.Fatal(err)
		}
		m.writeBack(env)
		vs, err := Results(p, env, h)
		if err != nil || len(vs) != 1 || vs[0].String() != "[2 4 6]" {
			t.Errorf("%+v: %v %v, want [2 4 6]", c.o, vs, err)
		}
		if (copies > 0) != c.copies || (untracked > 0) != c.untracked {
			t.Errorf("NoCopyKernels %v, NoRaceFreePlans %v: %d copies, %d untracked kernels; want copies %v, untracked %v",
				c.o.NoCopyKernels, c.o.NoRaceFreePlans, copies, untracked, c.copies, c.untracked)
		}
	}
}
