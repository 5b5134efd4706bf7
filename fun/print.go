package fun

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/semantics"
)

// Print renders a program in the concrete syntax of docs/fun.md, one
// statement per line, nested bodies indented. The output parses back to the
// same tree (positions aside).
func Print(p *Program) string {
	pr := &printer{}
	pr.program(p)
	return pr.String()
}

// PrintBody renders a body; compact puts it on one line (for step traces).
func PrintBody(b *Body, compact bool) string {
	pr := &printer{compact: compact}
	pr.body(b, 0)
	return strings.TrimSuffix(pr.String(), "\n")
}

// PrintStm renders one statement; compact puts it on one line.
func PrintStm(s *Stm, compact bool) string {
	pr := &printer{compact: compact}
	pr.stm(s, 0)
	return strings.TrimSuffix(pr.String(), "\n")
}

// PrintExp renders an expression on one line.
func PrintExp(e Exp) string {
	pr := &printer{compact: true}
	pr.exp(e, 0)
	return pr.String()
}

// PrintPattern renders a pattern: (x : int) (xs : [n]).
func PrintPattern(ps []*Param) string {
	parts := make([]string, len(ps))
	for i, p := range ps {
		parts[i] = PrintParam(p)
	}
	return strings.Join(parts, " ")
}

// PrintParam renders (x : τ).
func PrintParam(p *Param) string { return "(" + p.Name.Name + " : " + p.Type.String() + ")" }

// String renders a type: int or [n][m] (or an extension's form of it).
func (t Type) String() string {
	var b strings.Builder
	for _, d := range t.Dims {
		b.WriteString("[" + d.Name + "]")
	}
	if t.Elem == semantics.FloatElem {
		b.WriteString("float")
	}
	if t.Ext != nil {
		return t.Ext.Format(b.String())
	}
	if b.Len() == 0 {
		return "int"
	}
	return b.String()
}

type printer struct {
	strings.Builder
	compact bool
}

func (p *printer) line(depth int, s string) {
	if p.compact {
		if p.Len() > 0 {
			p.WriteByte(' ')
		}
		p.WriteString(s)
		return
	}
	for range depth {
		p.WriteString("  ")
	}
	p.WriteString(s)
	p.WriteByte('\n')
}

func (p *printer) program(prog *Program) {
	if prog.Format != nil {
		p.WriteString(semantics.FormatHeader("--", prog.Format))
	}
	if len(prog.Inputs) > 0 {
		p.line(0, "input "+PrintPattern(prog.Inputs))
	}
	p.body(prog.Body, 0)
}

func (p *printer) body(b *Body, depth int) {
	for _, s := range b.Stms {
		p.stm(s, depth)
	}
	names := make([]string, len(b.Result))
	for i, x := range b.Result {
		names[i] = x.Name
	}
	p.line(depth, "in ("+strings.Join(names, ", ")+")")
}

func (p *printer) stm(s *Stm, depth int) {
	head := "let " + PrintPattern(s.Pat) + " ="
	switch e := s.Exp.(type) {
	case *IfExp:
		p.line(depth, head)
		p.line(depth+1, "if "+e.Cond.Name+" then")
		p.body(e.Then, depth+2)
		p.line(depth+1, "else")
		p.body(e.Else, depth+2)
	case *KernelExp:
		p.line(depth, head)
		p.line(depth+1, "kernel "+e.Var.Name+" <= "+e.Bound.Name+" do")
		p.body(e.Body, depth+2)
	case *RedomapExp:
		h, b := extHead(e)
		p.line(depth, head)
		p.line(depth+1, h+" do")
		p.body(b, depth+2)
		p.line(depth+1, "combine")
		p.body(e.Op, depth+2)
	case *LoopExp, *ReduceExp, *ScanExp, *FilterExp:
		h, b := extHead(e)
		p.line(depth, head)
		p.line(depth+1, h+" do")
		p.body(b, depth+2)
	default:
		p.line(depth, head+" "+PrintExp(s.Exp))
	}
}

func (p *printer) exp(e Exp, depth int) {
	switch e := e.(type) {
	case *ScalarExp:
		WriteSExp(&p.Builder, e.X)
	case *IndexExp:
		names := make([]string, len(e.Idx))
		for i, x := range e.Idx {
			names[i] = x.Name
		}
		p.WriteString(e.Arr.Name + "[" + strings.Join(names, ", ") + "]")
	case *SliceExp:
		parts := make([]string, len(e.Slices))
		for i, s := range e.Slices {
			parts[i] = s.Off.Name + " : " + s.Size.Name
		}
		p.WriteString(e.Arr.Name + "[" + strings.Join(parts, ", ") + "]")
	case *TransposeExp:
		p.WriteString("transpose " + e.Arr.Name)
	case *IotaExp:
		p.WriteString("iota " + e.N.Name)
	case *CopyExp:
		p.WriteString("copy " + e.Arr.Name)
	case *IfExp:
		p.WriteString("if " + e.Cond.Name + " then " + PrintBody(e.Then, true) + " else " + PrintBody(e.Else, true))
	case *KernelExp:
		p.WriteString("kernel " + e.Var.Name + " <= " + e.Bound.Name + " do " + PrintBody(e.Body, true))
	case *RedomapExp:
		h, b := extHead(e)
		p.WriteString(h + " do " + PrintBody(b, true) + " combine " + PrintBody(e.Op, true))
	case *LoopExp, *ReduceExp, *ScanExp, *FilterExp:
		h, b := extHead(e)
		p.WriteString(h + " do " + PrintBody(b, true))
	case *AssertExp:
		// assert - x would read as the variable assert minus x.
		c := PrintSExp(e.Cond)
		if strings.HasPrefix(c, "-") {
			c = "(" + c + ")"
		}
		p.WriteString("assert " + c)
		if e.HasMsg {
			p.WriteString(" " + QuoteString(e.Msg))
		}
	case fmt.Stringer: // an extension's expression
		p.WriteString(e.String())
	}
}

// extHead renders the head of a loop, reduce, scan, filter or redomap,
// up to (without) its do, and returns its body (a redomap's map).
func extHead(e Exp) (string, *Body) {
	names := func(xs []*Ident) string {
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = x.Name
		}
		return strings.Join(parts, ", ")
	}
	switch e := e.(type) {
	case *LoopExp:
		return "loop " + PrintPattern(e.Params) + " = (" + names(e.Init) + ") for " + e.Var.Name + " <= " + e.Bound.Name, e.Body
	case *ReduceExp:
		return "reduce " + PrintPattern(e.Params) + " = " + e.Ne.Name + " over " + e.Arr.Name, e.Body
	case *ScanExp:
		return "scan " + PrintPattern(e.Params) + " = " + e.Ne.Name + " over " + e.Arr.Name, e.Body
	case *FilterExp:
		return "filter " + PrintPattern(e.Params) + " over " + e.Arr.Name, e.Body
	case *RedomapExp:
		return RedomapWord(e) + " " + PrintPattern(e.Params) + " = " + e.Ne.Name + " for " + e.Var.Name + " <= " + e.Bound.Name, e.Map
	}
	return "", nil
}

// RedomapWord is a redomap's keyword: redomap or scanomap.
func RedomapWord(e *RedomapExp) string {
	if e.Scan {
		return "scanomap"
	}
	return "redomap"
}

// PrintSExp renders a scalar expression with the fewest parentheses that
// keep its tree (all binary operators associate to the left).
func PrintSExp(e SExp) string {
	switch e := e.(type) {
	case Var:
		return e.Name
	case *Const:
		return strconv.FormatInt(e.Value, 10)
	}
	var b strings.Builder
	WriteSExp(&b, e)
	return b.String()
}

// WriteSExp writes PrintSExp(e) to b (printers write an expression in
// place, rather than make its string and copy it).
func WriteSExp(b *strings.Builder, e SExp) {
	switch e := e.(type) {
	case *Const:
		var buf [20]byte
		b.Write(strconv.AppendInt(buf[:0], e.Value, 10))
	case *FloatConst:
		b.WriteString(semantics.FormatFloat(e.Value))
	case *Call:
		b.WriteString(e.Func.String())
		b.WriteByte('(')
		WriteSExp(b, e.Arg)
		b.WriteByte(')')
	case Var:
		b.WriteString(e.Name)
	case *UnOp:
		// -x; - -x (a space, not parentheses, so that printing adds no
		// nesting level and "--" never starts a comment); -(3), since -3
		// reads back as the constant; -(a + b).
		b.WriteString(e.Op.String())
		switch a := e.X.(type) {
		case *BinOp:
			b.WriteByte('(')
			WriteSExp(b, a)
			b.WriteByte(')')
		case *UnOp:
			b.WriteByte(' ')
			WriteSExp(b, a)
		case *Const:
			if a.Value < 0 {
				b.WriteByte(' ')
				WriteSExp(b, a)
			} else {
				b.WriteByte('(')
				WriteSExp(b, a)
				b.WriteByte(')')
			}
		case *FloatConst:
			if x := semantics.FormatFloat(a.Value); strings.HasPrefix(x, "-") {
				b.WriteString(" " + x)
			} else {
				b.WriteString("(" + x + ")")
			}
		default:
			WriteSExp(b, e.X)
		}
	case *BinOp:
		if l, ok := e.L.(*BinOp); ok && l.Op.Prec() < e.Op.Prec() {
			b.WriteByte('(')
			WriteSExp(b, l)
			b.WriteByte(')')
		} else {
			WriteSExp(b, e.L)
		}
		b.WriteByte(' ')
		b.WriteString(e.Op.String())
		b.WriteByte(' ')
		if r, ok := e.R.(*BinOp); ok && r.Op.Prec() <= e.Op.Prec() {
			b.WriteByte('(')
			WriteSExp(b, r)
			b.WriteByte(')')
		} else {
			WriteSExp(b, e.R)
		}
	default:
		b.WriteString("?")
	}
}
