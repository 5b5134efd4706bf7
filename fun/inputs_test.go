package fun

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics/datafile"
)

// Inputs from files: --arg NAME=@FILE and --data FILE (datafile.DataArg).
func TestBindInputsFromFiles(t *testing.T) {
	dir := t.TempDir()
	file := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	// Futhark's binary [2]i32: 5, -6.
	bin := []byte{'b', 2, 1, ' ', 'i', '3', '2', 2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0xfa, 0xff, 0xff, 0xff}
	binFile := filepath.Join(dir, "xs.bin")
	if err := os.WriteFile(binFile, bin, 0o644); err != nil {
		t.Fatal(err)
	}
	xs := file("xs.in", "-- the array\n[1 2 3]\n")
	fl := file("fl.in", "[1.5, 2.5]")
	all := file("all.in", "3 [7i64, 8i64, 9i64] 2.5")
	free := file("free.in", "[7, 8] 0.5")
	bad := file("bad.in", "[1 2] [3] 4 5")
	p, err := ParseFile("t.fun", "input (n : int) (xs : [n]) (f : float)\nin (n, xs, f)")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args map[string]string
		want string // bindings or an error
	}{
		{map[string]string{"xs": "@" + xs, "f": "1.0"}, "f=1.0 xs=[1 2 3] n=3"},
		{map[string]string{"xs": "@" + binFile, "f": "1.0"}, "f=1.0 xs=[5 -6] n=2"},
		{map[string]string{datafile.DataArg: all}, "f=2.5 xs=[7 8 9] n=3"},
		{map[string]string{datafile.DataArg: free}, "f=0.5 xs=[7 8] n=2"},
		{map[string]string{datafile.DataArg: free, "n": "2"}, "f=0.5 xs=[7 8] n=2"},
		{map[string]string{datafile.DataArg: free, "n": "3"}, "t.fun:1:17: input xs has 2 elements in dimension 1, but its size n is 3"},
		{map[string]string{datafile.DataArg: all, "n": "3"}, "t.fun:1:7: input n is given twice: by --arg and by --data " + all + " (value 1, at " + all + ":1:1)"},
		{map[string]string{datafile.DataArg: free + "x"}, "free.inx: cannot read the data file: no such file or directory"},
		{map[string]string{datafile.DataArg: file("arr.in", "[1 2] [3]")}, "t.fun:1:28: input f has type float, but --data " + dir + "/arr.in (value 2, at " + dir + "/arr.in:1:7) gives an array of shape [1] (no implicit conversions: write floats with a '.' or an exponent, e.g. 2.0)"},
		{map[string]string{datafile.DataArg: bad}, "t.fun:1:1: --data " + bad + " holds 4 values, but the program takes 3 inputs (n, xs, f), or 2 without the sizes read off arrays (xs, f)"},
		{map[string]string{"xs": "@" + fl, "f": "1.0"}, "t.fun:1:17: input xs has type [n], but --arg xs=@" + fl + " gives a float array of shape [2] (no implicit conversions: write ints without a '.', e.g. 2)"},
		{map[string]string{"xs": "@" + all, "f": "1.0"}, all + ":1:3: a second value, where the file is to hold one (--data FILE reads a value for each input)"},
		{map[string]string{"xs": "@" + filepath.Join(dir, "none.in"), "f": "1.0"}, "none.in: cannot read the data file: no such file or directory"},
		{map[string]string{datafile.DataArg: file("err.in", "[1 2 3\n")}, "err.in:1:1: missing ']' for this '['"},
	} {
		got, _ := boundInputs(p, tc.args)
		if !strings.HasSuffix(got, tc.want) {
			t.Errorf("BindInputs(%v) = %q, want %q", tc.args, got, tc.want)
		}
	}
	// A program without inputs takes an empty data file only.
	q, _ := ParseFile("q.fun", "let (x : int) = 1\nin (x)")
	if _, err := BindInputs(q, map[string]string{datafile.DataArg: xs}); err == nil || !strings.Contains(err.Error(), "holds 1 value, but the program takes no inputs") {
		t.Errorf("a program without inputs: %v", err)
	}
	if _, err := BindInputs(q, map[string]string{datafile.DataArg: file("empty.in", "-- nothing\n")}); err != nil {
		t.Errorf("an empty data file for a program without inputs: %v", err)
	}
}

// boundInputs is what BindInputs(p, args) gives, as the tests compare it:
// the bindings "x=v …" in order and the environment, or the error's
// message and nil.
func boundInputs(p *Program, args map[string]string) (string, *Env) {
	env, err := BindInputs(p, args)
	if err != nil {
		return err.Error(), nil
	}
	var parts []string
	for _, b := range env.Bindings() {
		parts = append(parts, b.Name+"="+b.Value.String())
	}
	return strings.Join(parts, " "), env
}
