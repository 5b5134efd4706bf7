package imp

import (
	"strings"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/semantics"
)

// Print renders a program one statement per line, bodies indented, in a
// syntax that parses back.
func Print(p *Program) string {
	var b strings.Builder
	// Room for what most programs print, rather than growing by doubling
	// from nothing (the campaigns print every program they check): the
	// translations' programs print 25 to 30 bytes a statement.
	b.Grow(32*stmtCount(p.Body) + 256)
	if p.Format != nil {
		b.WriteString(semantics.FormatHeader("--", p.Format))
	}
	for _, in := range p.Inputs {
		b.WriteString("input " + in.Name.Name + " : ")
		if in.Dims == nil {
			b.WriteString(TypeOf(in.Elem).String() + ";\n")
		} else {
			b.WriteString(dims(in.Dims) + elemSuffix(in.Elem) + " @ " + in.Block.Name + ";\n")
		}
	}
	printStmts(&b, p.Body, 0, true)
	parts := make([]string, len(p.Return))
	for i, r := range p.Return {
		parts[i] = r.Name.Name
		if r.Dims != nil {
			parts[i] += " : " + dims(r.Dims) + elemSuffix(r.Elem)
		}
	}
	b.WriteString("return " + strings.Join(parts, ", ") + "\n")
	return b.String()
}

// elemSuffix is what follows an array's shape for its element type:
// "float", or nothing for int.
func elemSuffix(e semantics.Elem) string {
	if e == semantics.FloatElem {
		return "float"
	}
	return ""
}

func dims(ds []fun.SExp) string {
	var b strings.Builder
	for _, d := range ds {
		b.WriteString("[" + fun.PrintSExp(d) + "]")
	}
	return b.String()
}

// PrintStmt renders one statement on one line (bodies included).
func PrintStmt(s Stmt) string {
	var b strings.Builder
	printStmt(&b, s, 0, false)
	return strings.Join(strings.Fields(b.String()), " ")
}

func printStmts(b *strings.Builder, ss []Stmt, depth int, lines bool) {
	for _, s := range ss {
		printStmt(b, s, depth, lines)
		b.WriteString(";\n")
	}
}

func printStmt(b *strings.Builder, s Stmt, depth int, lines bool) {
	indent(b, depth)
	w := func(parts ...string) {
		for _, p := range parts {
			b.WriteString(p)
		}
	}
	se := func(e fun.SExp) { fun.WriteSExp(b, e) }
	switch s := s.(type) {
	case *Skip:
		w("skip")
	case *Decl:
		w("var ", s.X.Name, " : ", s.Type.String())
	case *Assign:
		w(s.X.Name, " <- ")
		se(s.SE)
	case *Alloc:
		w(s.X.Name, " <- alloc ")
		se(s.Size)
	case *Read:
		w(s.X.Name, " <- ", s.Y.Name, "[")
		se(s.Index)
		w("]")
	case *Write:
		w(s.X.Name, "[")
		se(s.Index)
		w("] <- ")
		se(s.Value)
	case *If:
		w("if ", s.Cond.Name, " then\n")
		printStmts(b, s.Then, depth+1, lines)
		indent(b, depth)
		w("else\n")
		printStmts(b, s.Else, depth+1, lines)
		indent(b, depth)
		w("fi")
	case *Kernel:
		w("kernel ", s.X.Name, " <= ")
		se(s.Bound)
		w(" do\n")
		printStmts(b, s.Body, depth+1, lines)
		indent(b, depth)
		w("done")
	case *For:
		w("for ", s.X.Name, " <= ")
		se(s.Bound)
		w(" do\n")
		printStmts(b, s.Body, depth+1, lines)
		indent(b, depth)
		w("done")
	case *Assert:
		w("assert ")
		se(s.Cond)
		if s.Msg != "" {
			w(" ", semantics.Quote(s.Msg))
		}
	case *Reduce:
		w("reduce ", s.Target.Name, " <- ")
		printFold(b, &s.Fold, depth, lines)
	case *Scan:
		w("scan ", s.Block.Name, "[")
		se(s.Addr)
		w("] <- ")
		printFold(b, &s.Fold, depth, lines)
	}
}

// indent writes the indentation of a statement at depth.
func indent(b *strings.Builder, depth int) {
	for ; depth > len(blanks)/2; depth -= len(blanks) / 2 {
		b.WriteString(blanks)
	}
	b.WriteString(blanks[:2*depth])
}

// blanks are the indentation of 16 levels, written at once.
const blanks = "                                "

// stmtCount is the number of statements in ss, the bodies' included (as
// WalkStmts visits them, without a call for each).
func stmtCount(ss []Stmt) int {
	n := len(ss)
	for _, s := range ss {
		switch s := s.(type) {
		case *If:
			n += stmtCount(s.Then) + stmtCount(s.Else)
		case *Kernel:
			n += stmtCount(s.Body)
		case *For:
			n += stmtCount(s.Body)
		case *Reduce:
			n += stmtCount(s.Body) + stmtCount(s.Combine)
		case *Scan:
			n += stmtCount(s.Body) + stmtCount(s.Combine)
		}
	}
	return n
}

// printFold prints a fold's parts as a kernel's body, each part's yield
// indented with it and combine level with reduce or scan:
//
//	reduce s <- 0 for i <= n do
//	  …;
//	  yield y
//	combine a, b do
//	  …;
//	  yield c
//	done
func printFold(b *strings.Builder, f *Fold, depth int, lines bool) {
	ind := strings.Repeat("  ", depth)
	b.WriteString(fun.PrintSExp(f.Neutral) + " for " + f.X.Name + " <= " + fun.PrintSExp(f.Bound) + " do\n")
	printStmts(b, f.Body, depth+1, lines)
	b.WriteString(ind + "  yield " + f.Yield.Name + "\n")
	b.WriteString(ind + "combine " + f.A.Name + ", " + f.B.Name + " do\n")
	printStmts(b, f.Combine, depth+1, lines)
	b.WriteString(ind + "  yield " + f.Result.Name + "\n")
	b.WriteString(ind + "done")
}
