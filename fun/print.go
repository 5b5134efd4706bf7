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
	// The text's size, about: a line is some 50 bytes. Growing the
	// buffer to it at once spares growing it by doubling.
	pr.Grow(64 * (len(p.Inputs) + stmCount(p.Body) + 1))
	pr.program(p)
	return pr.String()
}

// stmCount is the number of statements in b, nested ones included.
func stmCount(b *Body) int {
	n := len(b.Stms)
	for _, s := range b.Stms {
		for _, nb := range ExpBodies(s.Exp) {
			n += stmCount(nb)
		}
	}
	return n
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
	pr.exp(e)
	return pr.String()
}

// PrintPattern renders a pattern: (x : int) (xs : [n]).
func PrintPattern(ps []*Param) string {
	var b strings.Builder
	writePattern(&b, ps)
	return b.String()
}

// PrintParam renders (x : τ).
func PrintParam(p *Param) string {
	var b strings.Builder
	writeParam(&b, p)
	return b.String()
}

// writePattern writes PrintPattern(ps) to b (the printers write a
// pattern in place, rather than make its string and copy it).
func writePattern(b *strings.Builder, ps []*Param) {
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(' ')
		}
		writeParam(b, p)
	}
}

// writeParam writes PrintParam(p) to b.
func writeParam(b *strings.Builder, p *Param) {
	b.WriteByte('(')
	b.WriteString(p.Name.Name)
	b.WriteString(" : ")
	p.Type.write(b)
	b.WriteByte(')')
}

// String renders a type: int or [n][m] (or an extension's form of it).
func (t Type) String() string {
	if len(t.Dims) == 0 && t.Ext == nil {
		if t.Elem == semantics.FloatElem {
			return "float"
		}
		return "int"
	}
	var b strings.Builder
	t.write(&b)
	return b.String()
}

// write writes t.String() to b.
func (t Type) write(b *strings.Builder) {
	if t.Ext != nil {
		b.WriteString(t.Ext.Format(t.dims()))
		return
	}
	if len(t.Dims) == 0 && t.Elem != semantics.FloatElem {
		b.WriteString("int")
		return
	}
	t.writeDims(b)
}

// dims renders t's dimensions and element type as t.String() does when
// t has no extension's form: [n][m], float, [n]float, or "" for int.
func (t Type) dims() string {
	if len(t.Dims) == 0 {
		if t.Elem == semantics.FloatElem {
			return "float"
		}
		return ""
	}
	var b strings.Builder
	t.writeDims(&b)
	return b.String()
}

func (t Type) writeDims(b *strings.Builder) {
	for _, d := range t.Dims {
		b.WriteByte('[')
		b.WriteString(d.Name)
		b.WriteByte(']')
	}
	if t.Elem == semantics.FloatElem {
		b.WriteString("float")
	}
}

type printer struct {
	strings.Builder
	compact bool
}

// open starts a line at depth (in compact form, a space after what came
// before); closeLine ends it.
func (p *printer) open(depth int) {
	if p.compact {
		if p.Len() > 0 {
			p.WriteByte(' ')
		}
		return
	}
	for range depth {
		p.WriteString("  ")
	}
}

func (p *printer) closeLine() {
	if !p.compact {
		p.WriteByte('\n')
	}
}

func (p *printer) line(depth int, s string) {
	p.open(depth)
	p.WriteString(s)
	p.closeLine()
}

// names writes xs separated by commas.
func (p *printer) names(xs []*Ident) { writeNames(&p.Builder, xs) }

func writeNames(b *strings.Builder, xs []*Ident) {
	for i, x := range xs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(x.Name)
	}
}

func (p *printer) program(prog *Program) {
	if prog.Format != nil {
		p.WriteString(semantics.FormatHeader("--", prog.Format))
	}
	if len(prog.Inputs) > 0 {
		p.open(0)
		p.WriteString("input ")
		writePattern(&p.Builder, prog.Inputs)
		p.closeLine()
	}
	p.body(prog.Body, 0)
}

func (p *printer) body(b *Body, depth int) {
	for _, s := range b.Stms {
		p.stm(s, depth)
	}
	p.open(depth)
	p.WriteString("in (")
	p.names(b.Result)
	p.WriteByte(')')
	p.closeLine()
}

func (p *printer) stm(s *Stm, depth int) {
	p.open(depth)
	p.WriteString("let ")
	writePattern(&p.Builder, s.Pat)
	p.WriteString(" =")
	switch e := s.Exp.(type) {
	case *IfExp:
		p.closeLine()
		p.open(depth + 1)
		p.WriteString("if ")
		p.WriteString(e.Cond.Name)
		p.WriteString(" then")
		p.closeLine()
		p.body(e.Then, depth+2)
		p.line(depth+1, "else")
		p.body(e.Else, depth+2)
	case *KernelExp:
		p.closeLine()
		p.open(depth + 1)
		p.WriteString("kernel ")
		p.WriteString(e.Var.Name)
		p.WriteString(" <= ")
		p.WriteString(e.Bound.Name)
		p.WriteString(" do")
		p.closeLine()
		p.body(e.Body, depth+2)
	case *RedomapExp:
		p.closeLine()
		p.open(depth + 1)
		b := writeExtHead(&p.Builder, e)
		p.WriteString(" do")
		p.closeLine()
		p.body(b, depth+2)
		p.line(depth+1, "combine")
		p.body(e.Op, depth+2)
	case *LoopExp, *ReduceExp, *ScanExp, *FilterExp:
		p.closeLine()
		p.open(depth + 1)
		b := writeExtHead(&p.Builder, e)
		p.WriteString(" do")
		p.closeLine()
		p.body(b, depth+2)
	default:
		p.WriteByte(' ')
		p.exp(s.Exp)
		p.closeLine()
	}
}

// exp writes an expression on one line.
func (p *printer) exp(e Exp) {
	switch e := e.(type) {
	case *ScalarExp:
		WriteSExp(&p.Builder, e.X)
	case *IndexExp:
		p.WriteString(e.Arr.Name)
		p.WriteByte('[')
		p.names(e.Idx)
		p.WriteByte(']')
	case *SliceExp:
		p.WriteString(e.Arr.Name)
		p.WriteByte('[')
		for i, s := range e.Slices {
			if i > 0 {
				p.WriteString(", ")
			}
			p.WriteString(s.Off.Name)
			p.WriteString(" : ")
			p.WriteString(s.Size.Name)
		}
		p.WriteByte(']')
	case *TransposeExp:
		p.WriteString("transpose ")
		p.WriteString(e.Arr.Name)
	case *IotaExp:
		p.WriteString("iota ")
		p.WriteString(e.N.Name)
	case *CopyExp:
		p.WriteString("copy ")
		p.WriteString(e.Arr.Name)
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
	var b strings.Builder
	body := writeExtHead(&b, e)
	return b.String(), body
}

// writeExtHead writes extHead(e)'s head to b and returns its body.
func writeExtHead(b *strings.Builder, e Exp) *Body {
	switch e := e.(type) {
	case *LoopExp:
		b.WriteString("loop ")
		writePattern(b, e.Params)
		b.WriteString(" = (")
		writeNames(b, e.Init)
		b.WriteString(") for ")
		b.WriteString(e.Var.Name)
		b.WriteString(" <= ")
		b.WriteString(e.Bound.Name)
		return e.Body
	case *ReduceExp:
		b.WriteString("reduce ")
		writePattern(b, e.Params)
		b.WriteString(" = ")
		b.WriteString(e.Ne.Name)
		b.WriteString(" over ")
		b.WriteString(e.Arr.Name)
		return e.Body
	case *ScanExp:
		b.WriteString("scan ")
		writePattern(b, e.Params)
		b.WriteString(" = ")
		b.WriteString(e.Ne.Name)
		b.WriteString(" over ")
		b.WriteString(e.Arr.Name)
		return e.Body
	case *FilterExp:
		b.WriteString("filter ")
		writePattern(b, e.Params)
		b.WriteString(" over ")
		b.WriteString(e.Arr.Name)
		return e.Body
	case *RedomapExp:
		b.WriteString(RedomapWord(e))
		b.WriteByte(' ')
		writePattern(b, e.Params)
		b.WriteString(" = ")
		b.WriteString(e.Ne.Name)
		b.WriteString(" for ")
		b.WriteString(e.Var.Name)
		b.WriteString(" <= ")
		b.WriteString(e.Bound.Name)
		return e.Map
	}
	return nil
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
