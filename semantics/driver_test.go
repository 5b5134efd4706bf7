package semantics

import (
	"strings"
	"testing"
)

// countdown is a toy machine: it steps n down to 0, getting stuck at 13.
type countdown struct{}

func (countdown) Final(n int) bool { return n == 0 }
func (countdown) Step(n int) (int, string, error) {
	if n == 13 {
		return n, "", Stuckf(Pos{File: "f", Line: 1, Col: 1}, "R-UNLUCKY", "stuck at 13")
	}
	return n - 1, "R-DEC", nil
}

func TestDriver(t *testing.T) {
	h := &History[int]{}
	c := Counter{}
	d := &Driver[int]{Machine: countdown{}, History: h, Counter: c}
	n, steps, err := d.Run(5)
	if err != nil || n != 0 || steps != 5 || c["R-DEC"] != 5 {
		t.Fatalf("Run(5) = %d, %d, %v, counts %v", n, steps, err, c)
	}
	if len(h.Steps) != 6 || h.Steps[0].Config != 5 || h.Steps[5].Rule != "R-DEC" {
		t.Fatalf("history %+v", h.Steps)
	}
	if got := h.Back(2); got != 2 || len(h.Steps) != 4 {
		t.Errorf("Back(2) = %d with %d steps left", got, len(h.Steps))
	}
	if got := h.Back(100); got != 5 || len(h.Steps) != 1 {
		t.Errorf("Back(100) = %d with %d steps left", got, len(h.Steps))
	}

	_, steps, err = (&Driver[int]{Machine: countdown{}, Fuel: 3}).Run(10)
	if e, ok := err.(*Error); !ok || e.Kind != FuelError || steps != 3 || !strings.Contains(e.Msg, "out of fuel after 3 steps") {
		t.Errorf("fuel: %v after %d steps", err, steps)
	}
	_, _, err = (&Driver[int]{Machine: countdown{}}).Run(20)
	if e, ok := err.(*Error); !ok || e.Kind != StuckError || e.Error() != "f:1:1: R-UNLUCKY: stuck at 13" {
		t.Errorf("stuck: %v", err)
	}
}

func TestErrorFormatAndExitStatus(t *testing.T) {
	e := Errorf(Pos{File: "prog.fun", Line: 2, Col: 10}, TypeError, "T-SLICE", "size variable %s is not in scope", "q")
	if e.Error() != "prog.fun:2:10: T-SLICE: size variable q is not in scope" {
		t.Errorf("Error() = %q", e.Error())
	}
	// Without a place, no "-:" (a file alone is kept).
	for pos, want := range map[Pos]string{{}: "E-IMP-READ: x is ⊥", {File: "p.imp"}: "p.imp: E-IMP-READ: x is ⊥"} {
		if got := Errorf(pos, StuckError, "E-IMP-READ", "x is ⊥").Error(); got != want {
			t.Errorf("Error() at %#v = %q, want %q", pos, got, want)
		}
	}
	for k, want := range map[Kind]int{SyntaxError: 2, TypeError: 2, InputError: 2, StuckError: 1, FuelError: 1, RaceError: 1, MismatchError: 1, InterruptError: 130} {
		if k.ExitStatus() != want {
			t.Errorf("%v.ExitStatus() = %d, want %d", k, k.ExitStatus(), want)
		}
	}
}

func TestScanUnicodeAndPositions(t *testing.T) {
	toks, err := Scan("f", "kernel i ≤ n -- comment ≤\n  x ⊕ -3", []string{"<="})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tk := range toks {
		got = append(got, tk.Text+"@"+tk.Pos.String())
	}
	want := "kernel@f:1:1 i@f:1:8 <=@f:1:10 n@f:1:12 x@f:2:3 +@f:2:5 -@f:2:7 3@f:2:8 @f:2:9"
	if strings.Join(got, " ") != want {
		t.Errorf("tokens\n got %s\nwant %s", strings.Join(got, " "), want)
	}
	for _, bad := range []string{"x $ y", "99999999999999999999", "9223372036854775809", "\xff"} {
		if _, err := Scan("f", bad, nil); err == nil {
			t.Errorf("Scan(%q) succeeded", bad)
		}
	}
}

// located is countdown with a source: configuration n's redex is on line
// n, except at 7, whose redex a step built (no position); its next rule
// is the one Step would apply, said without stepping.
type located struct{ countdown }

func (located) Redex(n int) (Pos, string) {
	rule := "R-DEC"
	if n == 13 {
		rule = "R-UNLUCKY"
	}
	if n == 7 {
		return Pos{}, rule
	}
	return Pos{File: "f", Line: n, Col: 2}, rule
}

// TestOutOfFuelNamesTheRedex: a run out of fuel names the step that would
// come next, by its place and rule (the machine's Locator); a redex a
// step built keeps the driver's position but still names its rule; a
// machine with no Locator says "fuel" at the driver's position.
func TestOutOfFuelNamesTheRedex(t *testing.T) {
	at := Pos{File: "f", Line: 1, Col: 1}
	for _, tc := range []struct {
		name string
		m    Machine[int]
		from int
		want string
	}{
		{"located", located{}, 10, "f:8:2: R-DEC: out of fuel after 2 steps (raise it with --fuel N)"},
		{"built redex", located{}, 9, "f:1:1: R-DEC: out of fuel after 2 steps (raise it with --fuel N)"},
		{"stuck next", located{}, 15, "f:13:2: R-UNLUCKY: out of fuel after 2 steps (raise it with --fuel N)"},
		{"no locator", countdown{}, 10, "f:1:1: fuel: out of fuel after 2 steps (raise it with --fuel N)"},
	} {
		_, _, err := (&Driver[int]{Machine: tc.m, Fuel: 2, Pos: at}).Run(tc.from)
		if e, ok := err.(*Error); !ok || e.Kind != FuelError || e.Error() != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
}
