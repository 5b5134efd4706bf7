package cuda

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/arraysem/arraysem/semantics"
)

// String prints the file: header comment, prelude, tables, functions.
func (f *File) String() string {
	var out strings.Builder
	f.print(func(head string, rest []byte) {
		out.Grow(len(head) + len(Prelude) + len(rest))
		out.WriteString(head)
		out.WriteString(Prelude)
		out.Write(rest)
	})
	return out.String()
}

// Parts is the file's text around the prelude: String() is head +
// Prelude + rest.
func (f *File) Parts() (head, rest string) {
	f.print(func(h string, r []byte) { head, rest = h, string(r) })
	return head, rest
}

// print prints the file's header comment and what follows the prelude
// (rest, valid only during the call) for use to take.
func (f *File) print(use func(head string, rest []byte)) {
	// What follows the prelude is printed first, into a buffer the last
	// file printed used, and the file is then made at its size: the
	// prelude is most of a generated program's file, and growing one
	// builder past it (or making room for the largest tables and
	// functions) was a few percent of the bytes the level property
	// allocated.
	b, _ := printBufs.Get().(*buffer)
	if b == nil {
		b = new(buffer)
	}
	defer printBufs.Put(b)
	*b = (*b)[:0]
	b.WriteString("\n")
	b.WriteString("static const char *const arraysem_sites[] = {\n")
	var num [20]byte
	for i, s := range f.Sites {
		b.WriteString("    /* ")
		b.Write(strconv.AppendInt(num[:0], int64(i), 10))
		b.WriteString(" */ ")
		writeQuote(b, s)
		b.WriteString(",\n")
	}
	b.WriteString("    nullptr,\n};\n")
	table(b, "arraysem_inputs", f.Inputs)
	table(b, "arraysem_defaults", f.Defaults)
	if f.Format != nil {
		table(b, "arraysem_format", []string{f.Format.String()})
		var graphic []string
		if f.Format.HasChars() {
			graphic = []string{GraphicRanges()}
		}
		table(b, "arraysem_graphic", graphic)
	}
	for _, fn := range f.Funcs {
		b.WriteString("\n")
		printFunc(b, fn)
	}
	head := fmt.Sprintf("// %s in CUDA, emitted by arraysem from IMP (one thread per iteration of a\n", f.Source) +
		"// top-level kernel; nested kernels are loops of the thread). Inputs are\n" +
		"// NAME=VALUE arguments, as `arraysem run --arg` takes them; the results print\n" +
		"// as `arraysem run` prints them; a stuck state exits with status 1.\n"
	use(head, *b)
}

// buffer is what the printer writes into: a byte slice that its writes
// append to (bytes.Buffer's writes, which also track reads, were a
// quarter of the printing; these inline).
type buffer []byte

func (b *buffer) WriteString(s string) { *b = append(*b, s...) }
func (b *buffer) WriteByte(c byte) error {
	*b = append(*b, c)
	return nil
}

// Write appends p, for fmt.Fprintf.
func (b *buffer) Write(p []byte) (int, error) {
	*b = append(*b, p...)
	return len(p), nil
}

func table(b *buffer, name string, items []string) {
	b.WriteString("static const char *const " + name + "[] = {")
	for _, s := range items {
		writeQuote(b, s)
		b.WriteString(", ")
	}
	b.WriteString("nullptr};\n")
}

// printBufs holds the buffers File.String prints what follows the
// prelude into.
var printBufs sync.Pool

// writeQuote writes s as a C string literal; the emitter's strings are
// printable ASCII or UTF-8, so only quotes, backslashes and control bytes
// need escapes.
func writeQuote(b *buffer, s string) {
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c == '\n':
			b.WriteString(`\n`)
		case c < 0x20:
			fmt.Fprintf(b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

func printFunc(b *buffer, fn *Func) {
	if fn.Global {
		b.WriteString("__global__ ")
	}
	if fn.Device {
		b.WriteString("__device__ static ")
	}
	b.WriteString(fn.Result)
	b.WriteByte(' ')
	b.WriteString(fn.Name)
	b.WriteByte('(')
	for i, p := range fn.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		writeDecl(b, p.Type, p.Name)
	}
	b.WriteString(") {\n")
	printStmts(b, fn.Body, 1)
	b.WriteString("}\n")
}

// writeDecl writes "int64_t x" and "int64_t *p".
func writeDecl(b *buffer, typ, name string) {
	b.WriteString(typ)
	if !strings.HasSuffix(typ, "*") {
		b.WriteByte(' ')
	}
	b.WriteString(name)
}

func printStmts(b *buffer, ss []Stmt, depth int) {
	for _, s := range ss {
		printStmt(b, s, depth)
	}
}

// printStmt writes a statement at depth (its lines indented four spaces
// a level), its expressions written into b as ExprString prints them.
func printStmt(b *buffer, s Stmt, depth int) {
	indent(b, depth)
	switch s := s.(type) {
	case *Decl:
		writeDecl(b, s.Type, s.Name)
		if s.Init != nil {
			b.WriteString(" = ")
			writeExpr(b, s.Init)
		}
		b.WriteString(";\n")
	case *Assign:
		writeExpr(b, s.LHS)
		b.WriteString(" = ")
		writeExpr(b, s.RHS)
		b.WriteString(";\n")
	case *ExprStmt:
		writeExpr(b, s.X)
		b.WriteString(";\n")
	case *If:
		b.WriteString("if ")
		writeParen(b, s.Cond)
		b.WriteString(" {\n")
		printStmts(b, s.Then, depth+1)
		if len(s.Else) > 0 {
			indent(b, depth)
			b.WriteString("} else {\n")
			printStmts(b, s.Else, depth+1)
		}
		indent(b, depth)
		b.WriteString("}\n")
	case *For:
		b.WriteString("for (int64_t ")
		b.WriteString(s.Var)
		b.WriteString(" = ")
		writeExpr(b, s.From)
		b.WriteString("; ")
		b.WriteString(s.Var)
		b.WriteString(" <= ")
		writeExpr(b, s.Bound)
		b.WriteString("; ")
		b.WriteString(s.Var)
		b.WriteString("++) {\n")
		printStmts(b, s.Body, depth+1)
		indent(b, depth)
		b.WriteString("}\n")
	case *Shared:
		fmt.Fprintf(b, "__shared__ int64_t %s[%d];\n", s.Name, s.Size)
	case *Return:
		if s.Value == nil {
			b.WriteString("return;\n")
		} else {
			b.WriteString("return ")
			writeExpr(b, s.Value)
			b.WriteString(";\n")
		}
	case *Launch:
		name := "ARRAYSEM_LAUNCH"
		if s.Sync {
			name = "ARRAYSEM_LAUNCH_SYNC"
		}
		b.WriteString(name)
		b.WriteByte('(')
		b.WriteString(s.Kernel)
		b.WriteString(", ")
		writeExpr(b, s.Grid)
		b.WriteString(", ")
		writeExpr(b, s.Block)
		for _, a := range s.Args {
			b.WriteString(", ")
			writeExpr(b, a)
		}
		b.WriteString(");\n")
	case *Comment:
		b.WriteString("// ")
		b.WriteString(s.Text)
		b.WriteByte('\n')
	}
}

// indent writes the indentation of depth: four spaces a level.
func indent(b *buffer, depth int) {
	for range depth {
		b.WriteString("    ")
	}
}

// ExprString prints an expression; binary operators are parenthesised, so
// precedence never matters.
func ExprString(e Expr) string {
	var b buffer
	writeExpr(&b, e)
	return string(b)
}

// writeExpr writes e into b as ExprString prints it, without a string
// for each subexpression (the printer writes every statement's this way).
func writeExpr(b *buffer, e Expr) {
	switch e := e.(type) {
	case *Int:
		if e.V < 0 {
			if e.V == -1<<63 {
				b.WriteString("INT64_MIN")
				return
			}
			b.WriteString("(-")
			var num [20]byte
			b.Write(strconv.AppendInt(num[:0], -e.V, 10))
			b.WriteByte(')')
			return
		}
		var num [20]byte
		b.Write(strconv.AppendInt(num[:0], e.V, 10))
		if e.V > 1<<31-1 {
			b.WriteString("LL")
		}
	case *Float:
		// Go's shortest form reads back as the same double in C++.
		if math.Signbit(e.V) {
			b.WriteString("(-")
			b.WriteString(semantics.FormatFloat(-e.V))
			b.WriteByte(')')
			return
		}
		b.WriteString(semantics.FormatFloat(e.V))
	case *Ident:
		b.WriteString(e.Name)
	case *Str:
		writeQuote(b, e.S)
	case *Field:
		writeExpr(b, e.X)
		b.WriteByte('.')
		b.WriteString(e.Name)
	case *Index:
		writeExpr(b, e.X)
		b.WriteByte('[')
		writeExpr(b, e.I)
		b.WriteByte(']')
	case *Call:
		b.WriteString(e.Fun)
		b.WriteByte('(')
		for i, a := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte(')')
	case *Binary:
		b.WriteByte('(')
		writeExpr(b, e.L)
		b.WriteByte(' ')
		b.WriteString(e.Op)
		b.WriteByte(' ')
		writeExpr(b, e.R)
		b.WriteByte(')')
	case *Unary:
		b.WriteString(e.Op)
		writeExpr(b, e.X)
	case *Cast:
		b.WriteByte('(')
		b.WriteString(e.Type)
		b.WriteByte(')')
		writeExpr(b, e.X)
	case *Sizeof:
		b.WriteString("sizeof(")
		b.WriteString(e.Type)
		b.WriteByte(')')
	case *InitList:
		b.WriteByte('{')
		for i, a := range e.Elems {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, a)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "/* %T */", e)
	}
}

// writeParen writes a condition in one pair of parentheses.
func writeParen(b *buffer, e Expr) {
	if _, ok := e.(*Binary); ok {
		writeExpr(b, e)
		return
	}
	b.WriteByte('(')
	writeExpr(b, e)
	b.WriteByte(')')
}

// GraphicRanges are the code points unicode.IsGraphic holds graphic, as
// the table arraysem_graphic gives them to the prelude's printing of
// characters (semantics.QuoteChar and QuoteString): "LO-HI …" in hex,
// every range from 0x20 on.
func GraphicRanges() string {
	graphicOnce.Do(func() {
		var b strings.Builder
		in := false
		for r := rune(0x20); r <= unicode.MaxRune+1; r++ {
			g := r <= unicode.MaxRune && unicode.IsGraphic(r)
			switch {
			case g && !in:
				if b.Len() > 0 {
					b.WriteByte(' ')
				}
				fmt.Fprintf(&b, "%x-", r)
			case !g && in:
				fmt.Fprintf(&b, "%x", r-1)
			}
			in = g
		}
		graphicText = b.String()
	})
	return graphicText
}

var (
	graphicOnce sync.Once
	graphicText string
)
