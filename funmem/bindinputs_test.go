package funmem

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// TestBindInputsLayouts binds random array inputs laid out by random
// LMADs (dense, offset, strided, column-major, overlapping, several in a
// block, negative offsets) and compares the heap, the environment's
// arrays and the errors with a reference that writes every element
// through its LMAD, in input order, into blocks sized by the offsets
// reached (E-MEM-PROG as written). BindInputs copies a dense input at
// once and adopts the buffer of a block that holds one dense array from
// offset 0; those paths must not be told apart.
func TestBindInputsLayouts(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(31, 32))
	dense, adopted, failed := 0, 0, 0
	for k := range 600 {
		n, m := rng.IntN(4), 1+rng.IntN(3)
		blocks := 1 + rng.IntN(3)
		arrays := 1 + rng.IntN(3)
		var b strings.Builder
		b.WriteString("input (n : int) (m : int)\n")
		for j := range blocks {
			fmt.Fprintf(&b, "input (b%d : mem)\n", j)
		}
		type layout struct {
			block int
			l     semantics.LMAD
		}
		var lays []layout
		args := map[string]string{"n": fmt.Sprint(n), "m": fmt.Sprint(m)}
		for j := range arrays {
			lay := layout{block: rng.IntN(blocks)}
			off := int64(rng.IntN(4))
			if rng.IntN(12) == 0 {
				off = -1
			}
			s1, s2 := int64(m), int64(1) // row-major
			switch rng.IntN(5) {
			case 1: // column-major
				s1, s2 = 1, int64(n)
			case 2: // strided rows
				s1 = int64(m + 1 + rng.IntN(2))
			case 3: // overlapping
				s1, s2 = int64(rng.IntN(2)), int64(rng.IntN(2))
			}
			lay.l = semantics.LMAD{Offset: off, Dims: []semantics.LDim{{Elems: int64(n), Stride: s1}, {Elems: int64(m), Stride: s2}}}
			lays = append(lays, lay)
			fmt.Fprintf(&b, "input (a%d : [n][m] @ b%d -> %d + {(n : %d) (m : %d)})\n", j, lay.block, off, s1, s2)
			rows := make([]string, n)
			for r := range rows {
				cols := make([]string, m)
				for c := range cols {
					cols[c] = fmt.Sprint(100*j + 10*r + c + 1)
				}
				rows[r] = "[" + strings.Join(cols, " ") + "]"
			}
			args[fmt.Sprintf("a%d", j)] = "[" + strings.Join(rows, " ") + "]"
		}
		b.WriteString("in (n)\n")
		src := b.String()
		p, err := ParseFile("inputs.funmem", src)
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		env, h, err := BindInputs(p, args)
		checkOwnBlocks(t, p, args, h, err)

		// The reference.
		sizes := make([]int64, blocks)
		var wantErr string
		for j, lay := range lays {
			lay.l.Image(func(off int64) error {
				if off < 0 && wantErr == "" {
					wantErr = fmt.Sprintf("input a%d's LMAD %v reaches offset %d", j, lay.l, off)
				}
				sizes[lay.block] = max(sizes[lay.block], off+1)
				return nil
			})
			if wantErr != "" {
				break
			}
		}
		if wantErr != "" {
			failed++
			if err == nil || !strings.Contains(err.Error(), wantErr) {
				t.Fatalf("error %v, want %q\n%s", err, wantErr, src)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v\n%s", err, src)
		}
		mem := make([][]int64, blocks)
		for j := range mem {
			mem[j] = make([]int64, sizes[j])
		}
		for j, lay := range lays {
			i := 0
			lay.l.Image(func(off int64) error {
				r, c := i/m, i%m
				mem[lay.block][off] = int64(100*j + 10*r + c + 1)
				i++
				return nil
			})
			if _, ok := lay.l.Dense(); ok && lay.l.Offset >= 0 {
				dense++
			}
		}
		var want []string
		for j := range mem {
			want = append(want, fmt.Sprintf("%v=%v", semantics.Label(j+1), fmt.Sprint(mem[j])))
		}
		if got := heapDump(h); got != strings.Join(want, " ") {
			t.Fatalf("case %d: heap %s, want %s\n%v\n%s", k, got, strings.Join(want, " "), args, src)
		}
		for j, lay := range lays {
			v, _ := env.Lookup(fmt.Sprintf("a%d", j))
			bv, _ := env.Lookup(fmt.Sprintf("b%d", lay.block))
			if v.Block != bv.Block || fmt.Sprint(v.L) != fmt.Sprint(lay.l) {
				t.Fatalf("a%d is %v, want %v in b%d = %v\n%s", j, v, lay.l, lay.block, bv.Block, src)
			}
		}
		// Blocks that hold one dense array from offset 0 (adopted).
		count := make([]int, blocks)
		for _, lay := range lays {
			count[lay.block]++
		}
		for _, lay := range lays {
			if _, ok := lay.l.Dense(); ok && lay.l.Offset == 0 && count[lay.block] == 1 && n > 0 {
				adopted++
			}
		}
	}
	t.Logf("%d dense layouts, %d blocks of one dense array, %d cases refused", dense, adopted, failed)
	if dense < 200 || adopted < 50 || failed < 20 {
		t.Errorf("%d dense layouts, %d refused: too few to test both paths", dense, failed)
	}
}

// checkOwnBlocks: binding the values valueArgs reads without adopting
// their buffers (as validity does, for both semantics) gives BindInputs'
// heap (h, or its error err), in blocks that share no word with those
// values.
func checkOwnBlocks(t *testing.T, p *fun.Program, args map[string]string, h *semantics.Heap, err error) {
	t.Helper()
	given, gerr := valueArgs(p, args)
	if gerr != nil {
		t.Fatal(gerr)
	}
	before := fmt.Sprint(given.Bindings())
	_, h2, err2 := bindInputsFrom(p, given, false)
	if fmt.Sprint(err2) != fmt.Sprint(err) {
		t.Fatalf("without adopting: error %v, want %v", err2, err)
	}
	if err != nil {
		return
	}
	if a, b := heapDump(h2), heapDump(h); a != b {
		t.Fatalf("without adopting: heap %s, want %s", a, b)
	}
	for l := semantics.Label(1); int(l) <= len(MemInputs(p)); l++ {
		b := h2.Block(l)
		for i := range b {
			b[i] = -7
		}
	}
	if after := fmt.Sprint(given.Bindings()); after != before {
		t.Fatalf("writing the heap's blocks changed the values bound: %s, were %s", after, before)
	}
}
