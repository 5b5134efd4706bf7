package fun

import (
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// argsProgram is examples/fun/index.fun: a rank-2 array input, sizes read
// off it, and two indices.
const argsProgram = `input (n : int) (m : int) (xss : [n][m]) (i : int) (j : int)
let (row : [m]) = kernel k <= m do
  let (e : int) = xss[i, k]
  in (e)
let (v : int) = xss[i, j]
let (col : [n]) = kernel k <= n do
  let (e : int) = xss[k, j]
  in (e)
in (v, row, col)
`

// FuzzArgs feeds arbitrary --arg values to semantics.ParseValue and to
// BindInputs on a fixed program (index.fun's), then runs the program
// under both semantics. Nothing may panic; a value that parses prints as
// text that parses back to it; when the inputs bind, the two semantics
// agree. Values over 4 KB are skipped. `go test -fuzz FuzzArgs ./fun`
// searches further.
func FuzzArgs(f *testing.F) {
	for _, s := range [][3]string{
		{"[[1 2 3] [4 5 6]]", "2", "3"},
		{"[]", "1", "1"},
		{"[[] []]", "0", "0"},
		{"[[-5]]", "1", "1"},
		{"[[1 2] [3]]", "1", "2"},
		{"7", "[1]", "-0"},
		{"[[9223372036854775807 -9223372036854775808]]", "1", "2"},
		{" [ [1  2 ] ]", "+1", "01"},
		{"[[1,2],[3,4]]", "1", "x"},
	} {
		f.Add(s[0], s[1], s[2])
	}
	p, err := ParseFile("args.fun", argsProgram)
	if err != nil {
		f.Fatal(err)
	}
	if _, err := Check(p, nil); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, xss, i, j string) {
		if len(xss)+len(i)+len(j) > 4096 {
			return
		}
		for _, s := range []string{xss, i, j} {
			v, err := semantics.ParseValue(s)
			if err != nil {
				continue
			}
			w, err := semantics.ParseValue(v.String())
			if err != nil || !semantics.Equal(v, w) {
				t.Fatalf("%q parses to %s, which parses back to %v (%v)", s, v, w, err)
			}
		}
		env, err := BindInputs(p, map[string]string{"xss": xss, "i": i, "j": j})
		if err != nil {
			return
		}
		big, _, berr := Eval(p, env, nil)
		small, _, serr := RunSmall(p, env, &semantics.RunOptions{Fuel: 1_000_000})
		show := func(vs []semantics.Array, err error) string {
			if err != nil {
				return err.Error()
			}
			return valuesString(vs)
		}
		if b, s := show(big, berr), show(small, serr); b != s {
			t.Fatalf("big-step %s, small-step %s", b, s)
		}
	})
}
