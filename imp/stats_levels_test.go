package imp_test

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/arraysem/arraysem/check"
	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/funmem"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// TestStatsLevels: on every case of examples/fun that runs, FUN, FUNMEM
// and IMP count the same launches and words, but where the translations
// legitimately add or change work:
//
//   - FUN → FUNMEM copies an array result into a fresh row-major block
//     (T-MEM-PROG's results, TransformProgram) unless it already has one
//     of its own (the simplifier's ownResults): one launch and the
//     result's words more per result copied;
//   - a filter's block at FUNMEM holds all of its array's rows (the count
//     is known only when it ends), at FUN only those kept: FUNMEM's words
//     are then at least FUN's and its results';
//   - a kernel whose rows an inner kernel makes in the kernel's own block
//     (the simplifier's inPlace) allocates no block for them at FUNMEM,
//     where FUN makes each row an array: FUNMEM's words are then at most
//     FUN's and its results';
//   - IMP's reduce and scan fold ints; FunMemToImp makes a fold over
//     arrays (reduce, scan, redomap, scanomap) and a filter a sequential
//     for, whose kernels launch once per iteration where FUN and FUNMEM
//     count the form as one launch: the launches then differ.
//
// The words IMP allocates are FUNMEM's (each alloc is one), and ops are
// not compared: each level counts the element accesses its own semantics
// makes (docs/performance.md, "Cost counters").
func TestStatsLevels(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "examples", "fun", "*.fun"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no examples: %v", err)
	}
	runs := 0
	for _, file := range files {
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := check.ParseSpec(string(src), "--")
		if err != nil || spec.LoadError != nil {
			continue
		}
		l, err := check.Load(check.NewRegistry(), file, string(src), check.Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		stages, err := check.NewRegistry().Compile(l, "imp", lang.Options{})
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		// Each level's last stage: FUN after its passes.
		last := map[string]lang.Program{}
		for _, s := range stages {
			last[s.Program.Language().Name()] = s.Program
		}
		filter, arrayFold := forms(last["fun"].Syntax().(*fun.Program).Body)
		inPlace := inPlaceRows(last["funmem"].Syntax().(*fun.Program).Body)
		for _, c := range spec.Cases {
			if c.Error != nil {
				continue
			}
			name := filepath.Base(file) + argsString(c.Args)
			got := map[string]semantics.Stats{}
			var results []semantics.Array
			for _, lv := range []string{"fun", "funmem", "imp"} {
				var st semantics.Stats
				o := lang.RunOptions{Args: c.Args}
				o.Stats = &st
				r, err := last[lv].Run(o)
				if err != nil {
					t.Fatalf("%s at %s: %v", name, lv, err)
				}
				if lv == "fun" {
					results = r.Values
				}
				got[lv] = st
			}
			runs++
			f, fm, im := got["fun"], got["funmem"], got["imp"]
			var words, arrays int64 // the array results' copies
			copied := resultCopies(last["funmem"].Syntax().(*fun.Program).Body)
			k := 0
			for i, v := range results {
				if !v.IsScalar() {
					// A copy that makes a result under the FUN result's own
					// name is the program's, not TransformProgram's.
					if own := last["fun"].Syntax().(*fun.Program).Body.Result[i].Name; copied[k] != "" && copied[k] != own {
						words += int64(len(v.Data))
						arrays++
					}
					k++
				}
			}
			if fm.Kernels != f.Kernels+arrays {
				t.Errorf("%s: FUNMEM launches %d kernels, FUN %d and %d result copies", name, fm.Kernels, f.Kernels, arrays)
			}
			if fm.Words != f.Words+words && !(filter && fm.Words > f.Words+words) && !(inPlace && fm.Words < f.Words+words) {
				t.Errorf("%s: FUNMEM allocates %d words, FUN %d and %d in result copies", name, fm.Words, f.Words, words)
			}
			if im.Words != fm.Words || im.Allocs != fm.Allocs {
				t.Errorf("%s: IMP allocates %d blocks of %d words, FUNMEM %d of %d", name, im.Allocs, im.Words, fm.Allocs, fm.Words)
			}
			if im.Kernels != fm.Kernels && !filter && !arrayFold {
				t.Errorf("%s: IMP launches %d kernels, FUNMEM %d", name, im.Kernels, fm.Kernels)
			}
		}
	}
	if runs < 50 {
		t.Errorf("only %d runs compared", runs)
	}
}

// resultCopies is, for each array result of a FUNMEM program's body in
// order, its name when a copy at the top level makes it, or "".
func resultCopies(b *fun.Body) []string {
	copies := map[string]bool{}
	for _, s := range b.Stms {
		if _, ok := s.Exp.(*fun.CopyExp); ok {
			copies[s.Pat[0].Name.Name] = true
		}
	}
	var out []string
	for i, x := range b.Result {
		// An array result follows its block: (x_mem, x).
		if i > 0 && isBlockResult(b, b.Result[i-1].Name) {
			if copies[x.Name] {
				out = append(out, x.Name)
			} else {
				out = append(out, "")
			}
		}
	}
	return out
}

// isBlockResult tells whether the top level of b binds x as a block.
func isBlockResult(b *fun.Body, x string) bool {
	for _, s := range b.Stms {
		for _, p := range s.Pat {
			if p.Name.Name == x {
				return p.Type.Ext != nil && p.Type.Ext.Format("") == "mem"
			}
		}
	}
	return false
}

// forms reports whether b, at any depth, has a filter, and a fold whose
// operands are arrays (reduce, scan, redomap, scanomap).
func forms(b *fun.Body) (filter, arrayFold bool) {
	for _, s := range b.Stms {
		switch e := s.Exp.(type) {
		case *fun.FilterExp:
			filter = true
		case *fun.ReduceExp, *fun.ScanExp, *fun.RedomapExp:
			if ps := fun.ExpParams(e); len(ps) > 0 && ps[0].Type.Rank() > 0 {
				arrayFold = true
			}
		}
		for _, inner := range fun.ExpBodies(s.Exp) {
			f, a := forms(inner)
			filter, arrayFold = filter || f, arrayFold || a
		}
	}
	return filter, arrayFold
}

// inPlaceRows reports whether b, at any depth, has a kernel whose body's
// result an inner kernel makes in the kernel's own block, at its item.
func inPlaceRows(b *fun.Body) bool {
	for _, s := range b.Stms {
		if k, ok := s.Exp.(*fun.KernelExp); ok && len(s.Pat) == 1 && len(k.Body.Result) == 1 {
			for _, in := range k.Body.Stms {
				if len(in.Pat) == 1 && in.Pat[0].Name.Name == k.Body.Result[0].Name &&
					funmem.IsItem(funmem.ArrayOf(in.Pat[0].Type), funmem.ArrayOf(s.Pat[0].Type), k.Var) {
					return true
				}
			}
		}
		for _, inner := range fun.ExpBodies(s.Exp) {
			if inPlaceRows(inner) {
				return true
			}
		}
	}
	return false
}

// argsString renders a case's inputs, for messages.
func argsString(args map[string]string) string {
	keys := slices.Sorted(maps.Keys(args))
	out := ""
	for _, k := range keys {
		out += " " + k + "=" + args[k]
	}
	return out
}
