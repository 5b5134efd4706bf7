package check

import (
	"fmt"
	"testing"

	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// snapshotOf renders a stepper's configuration and, for a language with a
// heap, the heap's blocks.
func snapshotOf(st *lang.Stepper) string {
	s := st.String()
	if h, ok := st.Config().(lang.Heaped); ok {
		for l := 1; l <= h.Heap().Blocks(); l++ {
			s += fmt.Sprintf(" ℓ%d=%v", l, h.Heap().Block(semantics.Label(l)))
		}
	}
	return s
}

// TestStepperBack: going back k steps with the history (persistent
// configurations) gives what a fresh run of k steps gives, at every k,
// and stepping on from there ends as a fresh run does, for the languages
// whose configurations are persistent; FUNMEM's and IMP's machines, which
// change state in place, keep no history (the REPL goes back in them by
// running again: repl/testdata/back.txt).
func TestStepperBack(t *testing.T) {
	for _, tc := range []struct {
		file string
		args map[string]string
	}{
		{"../examples/fun/fig2.fun", map[string]string{"xsize": "2", "ysize": "3", "zcond": "1"}},
		{"../examples/funmem/fig7.funmem", map[string]string{"xsize": "2", "ysize": "3", "zcond": "0"}},
		{"../examples/funmem/race_expand.funmem", map[string]string{"n": "3", "m": "4"}},
		{"../examples/imp/fig13.imp", map[string]string{"xsize": "2", "ysize": "3", "zcond": "1"}},
		{"../examples/imp/race.imp", map[string]string{"n": "3"}},
		{"../examples/imp/matmul_expand_gpu.imp", map[string]string{"a": "[[1 2] [3 4]]", "b": "[[5 6] [7 8]]"}},
		{"../examples/remora/rp_fig4_outer_product.remora", nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			p := loadFile(t, tc.file)
			o := lang.RunOptions{Args: tc.args}
			fresh := func(k int) (string, string) {
				st, err := p.Start(o)
				if err != nil {
					t.Fatal(err)
				}
				var last error
				for i := 0; i < k; i++ {
					if _, _, err := st.Step(); err != nil {
						last = err
						break
					}
				}
				return snapshotOf(st), fmt.Sprint(last)
			}
			st, err := p.Start(o)
			if err != nil {
				t.Fatalf("inputs: %v", err)
			}
			if _, heaped := st.Config().(lang.Heaped); st.KeepHistory() == heaped {
				t.Fatalf("KeepHistory kept a history: %v, for a machine with a heap: %v", !heaped, heaped)
			}
			if _, heaped := st.Config().(lang.Heaped); heaped {
				return
			}
			n := 0
			for {
				_, done, err := st.Step()
				if done || err != nil {
					break
				}
				n++
			}
			end := snapshotOf(st)
			for k := n; k >= 0; k-- {
				st.Back(st.Steps() - k)
				if got, _ := fresh(k); snapshotOf(st) != got {
					t.Fatalf("back to step %d:\n got %s\nwant %s", k, snapshotOf(st), got)
				}
			}
			for {
				_, done, err := st.Step()
				if done || err != nil {
					break
				}
			}
			if got := snapshotOf(st); got != end {
				t.Errorf("stepping on after going back ends at\n%s\nnot\n%s", got, end)
			}
		})
	}
}

// TestStepperFocus: every language's machine says where each step reduced
// (lang.Focus): the contractum's span lies within the printed
// configuration, which is what the stepper prints, and a redex is named;
// on Fig 4's outer product the third step (β) is marked as in the paper.
func TestStepperFocus(t *testing.T) {
	for _, tc := range []struct {
		file string
		args map[string]string
	}{
		{"../examples/fun/fig2.fun", map[string]string{"xsize": "2", "ysize": "3", "zcond": "1"}},
		{"../examples/funmem/fig7.funmem", map[string]string{"xsize": "2", "ysize": "3", "zcond": "0"}},
		{"../examples/imp/fig13.imp", map[string]string{"xsize": "2", "ysize": "3", "zcond": "1"}},
		{"../examples/remora/rp_fig4_outer_product.remora", nil},
		{"../examples/remora-dynamic/rp_fig4_outer_product.remora", nil},
	} {
		p := loadFile(t, tc.file)
		st, err := p.Start(lang.RunOptions{Args: tc.args})
		if err != nil {
			t.Fatal(err)
		}
		for k := 1; ; k++ {
			_, done, err := st.Step()
			if done || err != nil {
				break
			}
			f, ok := st.Focus()
			n := len([]rune(f.Text))
			switch {
			case !ok:
				t.Fatalf("%s step %d: no focus", tc.file, k)
			case f.Text != st.String():
				t.Fatalf("%s step %d: focus text %q, stepper prints %q", tc.file, k, f.Text, st.String())
			case f.Lo >= 0 && (f.Lo >= f.Hi || f.Hi > n):
				t.Fatalf("%s step %d: span [%d, %d) of %d runes", tc.file, k, f.Lo, f.Hi, n)
			case f.Redex == "":
				t.Fatalf("%s step %d: no redex", tc.file, k)
			}
			if k == 3 && tc.file == "../examples/remora/rp_fig4_outer_product.remora" {
				if got := string([]rune(f.Text)[f.Lo:f.Hi]); got != "(* 1 [1 2 3 4])" || f.Redex != "((fn ([n int] [m [int 4]]) (* n m)) 1 [1 2 3 4])" {
					t.Errorf("β: contractum %q, redex %q", got, f.Redex)
				}
			}
		}
	}
}
