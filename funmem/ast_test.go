package funmem

import (
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
)

// FUNMEM's nodes in FUN's trees: fun's tree tools reach inside alloc and
// the memory annotations.
func TestTreeToolsReachFunmemNodes(t *testing.T) {
	const src = `input (n : int)
let (size : int) = n * 2
let (blk : mem) = alloc size
let (xs : [n] @ blk -> R(n)) = iota n
let (h : int) = n - 1
let (one : int) = 1
let (ys : [h] @ blk -> 1 + {(h : 1)}) = xs[one : h]
in (blk, ys)`
	tests := []struct {
		name string
		run  func(p *fun.Program) string
		want string
	}{
		{"Idents", func(p *fun.Program) string {
			var out []string
			fun.Idents(p, func(x *fun.Ident) { out = append(out, x.Name) })
			return strings.Join(out, " ")
		}, "n size n blk size xs n blk n n h n one ys h blk h xs one h blk ys"},
		{"MapProgram renames uses in types and alloc", func(p *fun.Program) string {
			q := fun.MapProgram(p, fun.Uses(fun.Renaming(map[string]string{"blk": "m", "size": "sz", "h": "k"})))
			return Print(q)
		}, `input (n : int)
let (size : int) = n * 2
let (blk : mem) = alloc sz
let (xs : [n] @ m -> R(n)) = iota n
let (h : int) = n - 1
let (one : int) = 1
let (ys : [k] @ m -> 1 + {(k : 1)}) = xs[one : k]
in (m, ys)
`},
		{"CloneProgram shares no identifier", func(p *fun.Program) string {
			q := fun.CloneProgram(p)
			var orig []*fun.Ident
			fun.Idents(p, func(x *fun.Ident) { orig = append(orig, x) })
			fun.Idents(q, func(x *fun.Ident) {
				if slices.Contains(orig, x) {
					t.Errorf("%s is shared", x.Name)
				}
			})
			return Print(q)
		}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p, err := ParseFile("tools.funmem", src)
			if err != nil {
				t.Fatal(err)
			}
			before := Print(p)
			want := tc.want
			if want == "" {
				want = before
			}
			if got := tc.run(p); got != want {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
			if Print(p) != before {
				t.Errorf("the tool changed its argument")
			}
		})
	}
}
