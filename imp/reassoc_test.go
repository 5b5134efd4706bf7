package imp

import "testing"

func TestReassociatesFloats(t *testing.T) {
	reduce := func(typ, op string) string {
		return "var n : int;\nn <- 4;\nvar e : " + typ + ";\ne <- 0;\nvar r : " + typ + ";\n" +
			"reduce r <- e for i <= n do\n  var v : " + typ + ";\n  v <- 1;\n  yield v\n" +
			"combine a, b do\n  var c : " + typ + ";\n  c <- " + op + ";\n  yield c\ndone;\nreturn r\n"
	}
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"float +", reduce("float", "a + b"), true},
		{"float *", reduce("float", "a * b"), true},
		{"float -", reduce("float", "a - b"), false},
		{"int +", reduce("int", "a + b"), false},
	} {
		p, err := ParseFile(c.name+".imp", c.src)
		if err != nil {
			t.Fatalf("%s: %v\n%s", c.name, err, c.src)
		}
		if got := ReassociatesFloats(p); got != c.want {
			t.Errorf("%s: ReassociatesFloats = %v, want %v", c.name, got, c.want)
		}
	}
}
