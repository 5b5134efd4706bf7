package fun

import "testing"

func TestReassociatesFloats(t *testing.T) {
	fold := func(elem, op string) string {
		scalar := elem
		if scalar == "" {
			scalar = "int"
		}
		return "input (n : int) (xs : [n]" + elem + ")\n" +
			"let (z : " + scalar + ") = xs[n]\n" +
			"let (r : " + scalar + ") =\n  reduce (a : " + scalar + ") (b : " + scalar + ") = z over xs do\n" +
			"    let (c : " + scalar + ") = " + op + "\n    in (c)\nin (r)\n"
	}
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"float +", fold("float", "a + b"), true},
		{"float *", fold("float", "a * b"), true},
		{"float -", fold("float", "a - b"), false},
		{"int +", fold("", "a + b"), false},
		{"float + outside a fold", "input (x : float)\nlet (y : float) = x + x\nin (y)\n", false},
		{"float scan", "input (n : int) (xs : [n]float)\nlet (z : float) = 0.0\nlet (s : [n]float) =\n  scan (a : float) (b : float) = z over xs do\n    let (c : float) = a + b\n    in (c)\nin (s)\n", true},
	} {
		p, err := ParseFile(c.name+".fun", c.src)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, c.src)
		}
		if got := ReassociatesFloats(p); got != c.want {
			t.Errorf("%s: ReassociatesFloats = %v, want %v", c.name, got, c.want)
		}
	}
}
