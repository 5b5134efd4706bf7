package fun

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// walkSrc exercises every expression form: inputs with sizes, a scalar
// expression, index, slice, transpose, iota, copy, if and kernel.
const walkSrc = `input (n : int) (xs : [n][n])
let (a : int) = n + 1 * -n
let (e : int) = xs[a, n]
let (one : int) = 1
let (s : [one][one]) = xs[one : one, a : one]
let (t : [n][n]) = transpose xs
let (is : [n]) = iota n
let (c : [n][n]) = copy t
let (r : int) =
  if a
  then let (p : int) = e
       in (p)
  else in (one)
let (k : [n]) =
  kernel i <= n do
    let (y : int) = i
    in (y)
in (r, k)`

func mustParse(t *testing.T, src string) *Program {
	t.Helper()
	p, err := ParseFile("walk.fun", src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestInspect(t *testing.T) {
	p := mustParse(t, walkSrc)
	tests := []struct {
		name string
		run  func() []string
		want string
	}{
		{"identifiers in source order", func() (out []string) {
			Idents(p, func(x *Ident) { out = append(out, x.Name) })
			return
		}, "n xs n n a n n e xs a n one s one one xs one one a one t n n xs is n n c n n t r a p e p one k n i n y i y r k"},
		{"statements, outer before nested", func() (out []string) {
			Stms(p.Body, func(s *Stm) { out = append(out, s.Pat[0].Name.Name) })
			return
		}, "a e one s t is c r p k y"},
		{"bodies, depth first", func() (out []string) {
			Bodies(p.Body, func(b *Body) { out = append(out, b.Result[0].Name) })
			return
		}, "r p one y"},
		{"pruning: f false skips the children", func() (out []string) {
			Inspect(p, func(n Node) bool {
				switch n := n.(type) {
				case *KernelExp, *IfExp:
					return false
				case *Stm:
					out = append(out, n.Pat[0].Name.Name)
				}
				return true
			})
			return
		}, "a e one s t is c r k"},
		{"scalar expressions", func() (out []string) {
			Inspect(p, func(n Node) bool {
				switch n := n.(type) {
				case *BinOp, *UnOp:
					out = append(out, PrintSExp(n.(SExp)))
				case *Const:
					out = append(out, "const")
				}
				return true
			})
			return
		}, "n + 1 * -n 1 * -n const -n const"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := strings.Join(tc.run(), " "); got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

// identPointers lists every *Ident of a tree.
func identPointers(n Node) []*Ident {
	var out []*Ident
	Idents(n, func(x *Ident) { out = append(out, x) })
	return out
}

func TestClone(t *testing.T) {
	p := mustParse(t, walkSrc)
	tests := []struct {
		name  string
		orig  Node
		clone func() Node
		print func(Node) string
	}{
		{"program", p, func() Node { return CloneProgram(p) }, func(n Node) string { return Print(n.(*Program)) }},
		{"body", p.Body.Stms[7].Exp.(*IfExp).Then, func() Node { return CloneBody(p.Body.Stms[7].Exp.(*IfExp).Then) },
			func(n Node) string { return PrintBody(n.(*Body), true) }},
		{"statement", p.Body.Stms[8], func() Node { return CloneStm(p.Body.Stms[8]) }, func(n Node) string { return PrintStm(n.(*Stm), true) }},
		{"expression", p.Body.Stms[3].Exp, func() Node { return CloneExp(p.Body.Stms[3].Exp) }, func(n Node) string { return PrintExp(n.(Exp)) }},
		{"scalar expression", p.Body.Stms[0].Exp.(*ScalarExp).X, func() Node { return CloneSExp(p.Body.Stms[0].Exp.(*ScalarExp).X) },
			func(n Node) string { return PrintSExp(n.(SExp)) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.print(tc.orig)
			c := tc.clone()
			if got := tc.print(c); got != before {
				t.Fatalf("the clone prints\n%s\nnot\n%s", got, before)
			}
			orig, copied := identPointers(tc.orig), identPointers(c)
			if len(orig) != len(copied) {
				t.Fatalf("%d identifiers in the clone, %d in the original", len(copied), len(orig))
			}
			for _, x := range copied {
				if slices.Contains(orig, x) {
					t.Fatalf("identifier %s is shared", x.Name)
				}
				x.Name = "z"
			}
			if after := tc.print(tc.orig); after != before {
				t.Errorf("renaming the clone changed the original:\n%s", after)
			}
		})
	}
}

func TestMap(t *testing.T) {
	src := `input (n : int)
let (a : int) = n + 1
let (k : [n]) =
  kernel i <= n do
    let (b : int) = i * a
    in (b)
in (k)`
	tests := []struct {
		name string
		f    IdentFunc
		want string
	}{
		{"All renames binders and uses", All(Renaming(map[string]string{"n": "m", "i": "j", "a": "c"})),
			"input (m : int) let (c : int) = m + 1 let (k : [m]) = kernel j <= m do let (b : int) = j * c in (b) in (k)"},
		{"Uses keeps the binders", Uses(Renaming(map[string]string{"n": "m", "i": "j", "b": "d"})),
			"input (n : int) let (a : int) = m + 1 let (k : [m]) = kernel i <= m do let (b : int) = j * a in (d) in (k)"},
		{"binder is reported", func(x *Ident, binder bool) *Ident {
			if binder {
				return &Ident{Name: strings.ToUpper(x.Name)}
			}
			return x
		}, "input (N : int) let (A : int) = n + 1 let (K : [n]) = kernel I <= n do let (B : int) = i * a in (b) in (k)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, src)
			before := Print(p)
			got := strings.Join(strings.Fields(Print(MapProgram(p, tc.f))), " ")
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
			if Print(p) != before {
				t.Errorf("MapProgram changed its argument")
			}
		})
	}
}

func TestRewrite(t *testing.T) {
	src := `input (n : int)
let (a : int) = 1
let (k : [n]) =
  kernel i <= n do
    let (a2 : int) = 2
    let (b : int) = i
    in (b)
in (k)`
	tests := []struct {
		name string
		f    func(*Stm) []*Stm
		want string
	}{
		{"keep all", func(s *Stm) []*Stm { return []*Stm{s} }, "let (a : int) = 1 let (k : [n]) = kernel i <= n do let (a2 : int) = 2 let (b : int) = i in (b) in (k)"},
		{"drop the constants, nested too", func(s *Stm) []*Stm {
			if _, ok := s.Exp.(*ScalarExp).X.(*Const); ok {
				return nil
			}
			return []*Stm{s}
		}, "let (k : [n]) = kernel i <= n do let (b : int) = i in (b) in (k)"},
		{"duplicate", func(s *Stm) []*Stm {
			if s.Pat[0].Name.Name == "b" {
				return []*Stm{s, s}
			}
			return []*Stm{s}
		}, "let (a : int) = 1 let (k : [n]) = kernel i <= n do let (a2 : int) = 2 let (b : int) = i let (b : int) = i in (b) in (k)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := mustParse(t, src)
			Rewrite(p.Body, func(s *Stm) []*Stm {
				if _, ok := s.Exp.(*ScalarExp); !ok && tc.name != "duplicate" {
					return []*Stm{s}
				}
				return tc.f(s)
			})
			got := strings.Join(strings.Fields(PrintBody(p.Body, false)), " ")
			if got != tc.want {
				t.Errorf("got  %s\nwant %s", got, tc.want)
			}
		})
	}
}

func TestSubstitute(t *testing.T) {
	x, y := Named("x"), Named("y")
	tests := []struct {
		name string
		e    SExp
		f    func(*Ident) SExp
		want string
	}{
		{"nothing", Binary(semantics.Add, x, Int(1)), func(*Ident) SExp { return nil }, "x + 1"},
		{"a variable by an expression", Binary(semantics.Add, x, Int(1)),
			func(v *Ident) SExp { return map[string]SExp{"x": Binary(semantics.Mul, y, Int(2))}[v.Name] }, "y * 2 + 1"},
		{"under negation", Neg(Binary(semantics.Sub, x, y)),
			func(v *Ident) SExp { return map[string]SExp{"y": Int(3)}[v.Name] }, "-(x - 3)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := PrintSExp(tc.e)
			if got := PrintSExp(Substitute(tc.e, tc.f)); got != tc.want {
				t.Errorf("got %s, want %s", got, tc.want)
			}
			if PrintSExp(tc.e) != before {
				t.Errorf("Substitute changed its argument")
			}
		})
	}
	if got := PrintSExp(RenameSExp(Binary(semantics.Add, x, y), map[string]string{"x": "z"})); got != "z + y" {
		t.Errorf("RenameSExp: got %s", got)
	}
}

func TestScope(t *testing.T) {
	x := &Ident{Name: "x"}
	tests := []struct {
		name string
		run  func(s *Scope) error
		want string // error, "" for none
	}{
		{"bind and look up", func(s *Scope) error {
			if _, err := s.Bind("T-STM", x, Type{}); err != nil {
				return err
			}
			return s.LookupInt("T-VAR", x, "variable")
		}, ""},
		{"no shadowing", func(s *Scope) error {
			s.Bind("T-STM", x, Type{})
			_, err := s.Bind("T-STM", x, Type{})
			return err
		}, "T-STM: x is already bound at - (TEST binds each name once in a scope)"},
		{"undo", func(s *Scope) error {
			undo, _ := s.Bind("T-STM", x, Type{})
			undo()
			_, err := s.Lookup("T-VAR", x, "variable")
			return err
		}, "T-VAR: variable x is not in scope"},
		{"not an int", func(s *Scope) error {
			s.Bind("T-STM", x, Type{Dims: []*Ident{{Name: "n"}}})
			return s.LookupInt("T-VAR", x, "variable")
		}, "T-VAR: variable x has type [n], not int"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run(NewScope("TEST"))
			got := ""
			var se *semantics.Error
			if errors.As(err, &se) {
				got = se.Rule + ": " + se.Msg
			} else if err != nil {
				t.Fatalf("%v is no *semantics.Error", err)
			}
			if got != tc.want {
				t.Errorf("got %q, want %q", got, tc.want)
			}
		})
	}
}

// TestSameOr: a pass's copy equal to its input, node for node and
// position for position, gives the input; a copy that differs anywhere,
// a position included, is itself.
func TestSameOr(t *testing.T) {
	p, err := ParseFile("x.fun", "input (n : int)\nlet (x : int) = n + 1\nin (x)\n")
	if err != nil {
		t.Fatal(err)
	}
	if q := CloneProgram(p); SameOr(p, q) != p {
		t.Error("an equal copy is not the input")
	}
	q := CloneProgram(p)
	q.Body.Stms[0].Let.Col++
	if SameOr(p, q) != q {
		t.Error("a copy with another position is the input")
	}
	q = CloneProgram(p)
	q.Body.Result[0].Name = "n"
	if SameOr(p, q) != q {
		t.Error("a changed copy is the input")
	}
}
