package cuda

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
)

// TestScopeEnter: a body enters its enclosing scope itself where it
// declares nothing at its own level and its bindings are already there
// with their types, and a copy otherwise; walking a body that declares
// (written, referenced) leaves the scope it was given as it was.
func TestScopeEnter(t *testing.T) {
	p, err := imp.ParseFile("t.imp", `input n : int;
var x : int;
if n then x <- 1 else var x : float; x <- 1.5 fi;
for i <= n do x <- i done;
return x`)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b scope) bool { return reflect.ValueOf(a).Pointer() == reflect.ValueOf(b).Pointer() }
	ty := scope{"n": imp.Int, "x": imp.Int}
	iff := p.Body[1].(*imp.If)
	loop := p.Body[2].(*imp.For)
	if !same(ty.enter(iff.Then), ty) {
		t.Errorf("then, declaring nothing, enters a copy")
	}
	if same(ty.enter(iff.Else), ty) {
		t.Errorf("else, declaring x, enters the scope itself")
	}
	if same(ty.enter(loop.Body, slot{"i", imp.Int}), ty) {
		t.Errorf("the loop's body, binding i, enters the scope itself")
	}
	if !same(ty.enter(loop.Body, slot{"n", imp.Int}), ty) {
		t.Errorf("a body binding n as ty has it enters a copy")
	}
	if same(ty.enter(loop.Body, slot{"n", imp.Float}), ty) {
		t.Errorf("a body binding n as a float enters the scope itself")
	}
	before := scope{"n": imp.Int, "x": imp.Int}
	if got := written(p.Body[1:], ty); len(got) != 2 || got[1] != (slot{"x", imp.Float}) {
		t.Errorf("written = %v, want x as an int and as a float", got)
	}
	referenced(p.Body[1:], ty)
	if !reflect.DeepEqual(ty, before) {
		t.Errorf("the scope after walking the body is %v, want %v", ty, before)
	}
}

// TestFresh: fresh gives a base itself, then the first base_k not used,
// whatever took the names before (the function, a reserved IMP name, C++),
// as a search from base_1 at every call does.
func TestFresh(t *testing.T) {
	e := &emitter{names: map[string]int{}}
	e.reserve("t_2")
	e.reserve("int_1")
	f := e.newFn(false)
	e.reserve("t_5") // reserved after f was made: f may take it
	f.used["t_3"] = true
	var got []string
	for range 5 {
		got = append(got, f.fresh("t"))
	}
	got = append(got, f.fresh("int"), f.fresh("int"))
	want := []string{"t", "t_1", "t_4", "t_5", "t_6", "int_2", "int_3"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("fresh gave %v, want %v", got, want)
	}
}

// TestSiteText: a site's message is its position as Pos.String prints
// it, its rule and its format, the first two with % doubled.
func TestSiteText(t *testing.T) {
	e := &emitter{p: &imp.Program{File: "p%.fun"}, out: &File{}}
	for _, c := range []struct {
		pos  fun.Pos
		rule string
	}{
		{fun.Pos{File: "a.fun", Line: 3, Col: 14}, "E-IMP-READ"},
		{fun.Pos{File: "50%.fun", Line: 1, Col: 1}, "R%d"},
		{fun.Pos{Line: 12, Col: 7}, "E"},
		{fun.Pos{File: "f.fun"}, "E"},
		{fun.Pos{}, "E"},
		{fun.Pos{File: "x.fun", Line: 1 << 40, Col: -1}, ""},
	} {
		pos := c.pos
		if !pos.IsValid() { // a statement the passes made: the program's file
			pos = fun.Pos{File: e.p.File}
		}
		want := strings.ReplaceAll(pos.String()+": "+c.rule+": ", "%", "%%") + "size %lld"
		if got := e.out.Sites[e.site(c.pos, c.rule, "size %lld")]; got != want {
			t.Errorf("site(%v, %q) = %q, want %q", c.pos, c.rule, got, want)
		}
	}
}

// TestStmtLine: the comment of a statement without a body is what
// imp.PrintStmt prints, for every such statement of the IMP examples and
// of a program whose assertions' messages hold white space to collapse;
// singleSpaced holds exactly when collapsing white space changes nothing.
func TestStmtLine(t *testing.T) {
	files, err := filepath.Glob("../examples/imp/*.imp")
	if err != nil {
		t.Fatal(err)
	}
	srcs := []string{`input n : int;
var x : int; var y : float; var m : mem;
x <- n * 2 + -(3); y <- float(x) / 2.5; m <- alloc n - 1;
m[x % 3] <- n; x <- m[0]; skip;
assert x > 0 "two  spaces"; assert 1 " lead and\ttab ";
return x`}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, string(src))
	}
	kinds := map[string]bool{}
	for i, src := range srcs {
		p, err := imp.ParseFile(fmt.Sprintf("f%d.imp", i), src)
		if err != nil {
			continue // the examples of errors
		}
		imp.WalkStmts(p.Body, func(s imp.Stmt) {
			switch s.(type) {
			case *imp.If, *imp.Kernel, *imp.For, *imp.Reduce, *imp.Scan:
				return
			}
			kinds[fmt.Sprintf("%T", s)] = true
			if got, want := stmtLine(s), imp.PrintStmt(s); got != want {
				t.Errorf("stmtLine gives %q, imp.PrintStmt %q", got, want)
			}
		})
	}
	if len(kinds) < 7 {
		t.Errorf("only %v met", kinds)
	}
	for _, s := range []string{"", "a", "a b", "x <- y[i - 1]", "a  b", " a", "a ", "a\tb", "a\nb", "a\u00a0b", "a\u0085b", "a\u3000b", "α ← β", "a\x01b", "a\x7fb"} {
		if got, want := singleSpaced(s), strings.Join(strings.Fields(s), " ") == s; got != want {
			t.Errorf("singleSpaced(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestUndo: a body entered in place (undo.in) sees its bindings, and
// leaving it (out) puts back every name its bindings and declarations
// changed, a name declared twice included, nested bodies first; a walk
// in place sees each branch's own types (written).
func TestUndo(t *testing.T) {
	p, err := imp.ParseFile("t.imp", `input n : int;
var x : int;
for i <= n do var x : float; var y : float; var y : int; y <- 1; if y then var x : int; x <- 2 else x <- 1.5 fi done;
return x`)
	if err != nil {
		t.Fatal(err)
	}
	loop := p.Body[1].(*imp.For)
	ty := scope{"n": imp.Int, "x": imp.Int}
	before := scope{"n": imp.Int, "x": imp.Int}
	var u undo
	mark := u.in(ty, loop.Body, slot{"i", imp.Int}, slot{"n", imp.Float})
	if ty["i"] != imp.Int || ty["n"] != imp.Float {
		t.Errorf("in the body, the scope is %v", ty)
	}
	for _, s := range loop.Body {
		if d, ok := s.(*imp.Decl); ok {
			ty[d.X.Name] = d.Type
		}
	}
	inner := u.in(ty, loop.Body[4].(*imp.If).Then)
	ty["x"] = imp.Int
	u.out(ty, inner)
	if ty["x"] != imp.Float {
		t.Errorf("after the branch, x is %v, want the body's float", ty["x"])
	}
	u.out(ty, mark)
	if !reflect.DeepEqual(ty, before) || len(u) != 0 {
		t.Errorf("after the body, the scope is %v (undo %v), want %v", ty, u, before)
	}
	want := []slot{{"x", imp.Float}, {"y", imp.Float}, {"y", imp.Int}, {"x", imp.Int}}
	if got := written(loop.Body, ty); !reflect.DeepEqual(got, want) {
		t.Errorf("written = %v, want %v", got, want)
	}
	if !reflect.DeepEqual(ty, before) {
		t.Errorf("after written, the scope is %v, want %v", ty, before)
	}
}

// TestSharedConstants: the nodes the emitter shares (num's small
// integers, zero's) are as made after emitting every IMP example, and a
// small integer is one node wherever it is written.
func TestSharedConstants(t *testing.T) {
	files, err := filepath.Glob("../examples/imp/*.imp")
	if err != nil {
		t.Fatal(err)
	}
	emitted := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		p, err := imp.ParseFile(name, string(src))
		if err != nil || imp.Check(p, nil) != nil {
			continue
		}
		if _, err := Emit(p, Options{}); err == nil {
			emitted++
		}
	}
	if emitted < 10 {
		t.Fatalf("%d examples emitted", emitted)
	}
	for i := range smallInts {
		if smallInts[i].V != int64(i) || smallInts[i].Pos != (Pos{}) || num(int64(i)) != &smallInts[i] {
			t.Errorf("small integer %d is %+v", i, smallInts[i])
		}
	}
	if num(8) == num(8) || num(-1).V != -1 {
		t.Errorf("num shares an integer it does not hold")
	}
	if ExprString(floatZero) != "0.0" || ExprString(nullBlock) != "{nullptr, 0}" {
		t.Errorf("the shared zeros print %s and %s", ExprString(floatZero), ExprString(nullBlock))
	}
}

// TestBoundAnywhere: boundAnywhere finds what written finds at every
// level, with the names loops and folds bind, in the bodies of every
// kernel of the IMP examples.
func TestBoundAnywhere(t *testing.T) {
	var byWritten func(ss []imp.Stmt, acc map[string]bool)
	byWritten = func(ss []imp.Stmt, acc map[string]bool) {
		for _, x := range written(ss, scope{}) {
			acc[x.name] = true
		}
		for _, s := range ss {
			switch s := s.(type) {
			case *imp.If:
				byWritten(s.Then, acc)
				byWritten(s.Else, acc)
			case *imp.For:
				acc[s.X.Name] = true
				byWritten(s.Body, acc)
			}
		}
		for _, k := range parsIn(ss, nil) {
			for _, x := range k.binds {
				acc[x] = true
			}
			for _, b := range k.bodies {
				byWritten(b, acc)
			}
		}
	}
	files, err := filepath.Glob("../examples/imp/*.imp")
	if err != nil {
		t.Fatal(err)
	}
	srcs := map[string]string{"t.imp": `input n : int;
input xs : [n] @ xs_mem;
var y : int; var s : int; var z : int; var m : mem; var o : mem;
kernel k <= n do
  y <- xs_mem[k - 1];
  z <- y + 1;
  m <- alloc z;
  o <- m;
  reduce s <- 0 for i <= k do yield i combine a, b do var c : int; c <- a + b; yield c done
done;
return y`}
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs[name] = string(src)
	}
	bodies := 0
	for name, src := range srcs {
		p, err := imp.ParseFile(name, src)
		if err != nil {
			continue
		}
		for _, k := range parsIn(p.Body, nil) {
			for _, b := range k.bodies {
				got, want := map[string]bool{}, map[string]bool{}
				boundAnywhere(b, got)
				byWritten(b, want)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("%s: boundAnywhere = %v, want %v", name, got, want)
				}
				bodies++
			}
		}
	}
	if bodies < 20 {
		t.Errorf("%d bodies: too few", bodies)
	}
}
