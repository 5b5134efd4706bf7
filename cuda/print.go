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
	var b strings.Builder
	fmt.Fprintf(&b, "// %s in CUDA, emitted by arraysem from IMP (one thread per iteration of a\n", f.Source)
	b.WriteString("// top-level kernel; nested kernels are loops of the thread). Inputs are\n")
	b.WriteString("// NAME=VALUE arguments, as `arraysem run --arg` takes them; the results print\n")
	b.WriteString("// as `arraysem run` prints them; a stuck state exits with status 1.\n")
	b.WriteString(Prelude)
	b.WriteString("\n")
	b.WriteString("static const char *const arraysem_sites[] = {\n")
	for i, s := range f.Sites {
		fmt.Fprintf(&b, "    /* %d */ %s,\n", i, quote(s))
	}
	b.WriteString("    nullptr,\n};\n")
	table(&b, "arraysem_inputs", f.Inputs)
	table(&b, "arraysem_defaults", f.Defaults)
	if f.Format != nil {
		table(&b, "arraysem_format", []string{f.Format.String()})
		var graphic []string
		if f.Format.HasChars() {
			graphic = []string{GraphicRanges()}
		}
		table(&b, "arraysem_graphic", graphic)
	}
	for _, fn := range f.Funcs {
		b.WriteString("\n")
		printFunc(&b, fn)
	}
	return b.String()
}

func table(b *strings.Builder, name string, items []string) {
	b.WriteString("static const char *const " + name + "[] = {")
	for _, s := range items {
		b.WriteString(quote(s) + ", ")
	}
	b.WriteString("nullptr};\n")
}

// quote writes a C string literal; the emitter's strings are printable
// ASCII or UTF-8, so only quotes, backslashes and control bytes need escapes.
func quote(s string) string {
	var b strings.Builder
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
			fmt.Fprintf(&b, `\%03o`, c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func printFunc(b *strings.Builder, fn *Func) {
	if fn.Global {
		b.WriteString("__global__ ")
	}
	if fn.Device {
		b.WriteString("__device__ static ")
	}
	b.WriteString(fn.Result + " " + fn.Name + "(")
	for i, p := range fn.Params {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(decl(p.Type, p.Name))
	}
	b.WriteString(") {\n")
	printStmts(b, fn.Body, 1)
	b.WriteString("}\n")
}

// decl writes "int64_t x" and "int64_t *p".
func decl(typ, name string) string {
	if strings.HasSuffix(typ, "*") {
		return typ + name
	}
	return typ + " " + name
}

func printStmts(b *strings.Builder, ss []Stmt, depth int) {
	for _, s := range ss {
		printStmt(b, s, depth)
	}
}

func printStmt(b *strings.Builder, s Stmt, depth int) {
	ind := strings.Repeat("    ", depth)
	b.WriteString(ind)
	switch s := s.(type) {
	case *Decl:
		b.WriteString(decl(s.Type, s.Name))
		if s.Init != nil {
			b.WriteString(" = " + ExprString(s.Init))
		}
		b.WriteString(";\n")
	case *Assign:
		b.WriteString(ExprString(s.LHS) + " = " + ExprString(s.RHS) + ";\n")
	case *ExprStmt:
		b.WriteString(ExprString(s.X) + ";\n")
	case *If:
		b.WriteString("if " + paren(s.Cond) + " {\n")
		printStmts(b, s.Then, depth+1)
		if len(s.Else) > 0 {
			b.WriteString(ind + "} else {\n")
			printStmts(b, s.Else, depth+1)
		}
		b.WriteString(ind + "}\n")
	case *For:
		fmt.Fprintf(b, "for (int64_t %s = %s; %s <= %s; %s++) {\n", s.Var, ExprString(s.From), s.Var, ExprString(s.Bound), s.Var)
		printStmts(b, s.Body, depth+1)
		b.WriteString(ind + "}\n")
	case *Shared:
		fmt.Fprintf(b, "__shared__ int64_t %s[%d];\n", s.Name, s.Size)
	case *Return:
		if s.Value == nil {
			b.WriteString("return;\n")
		} else {
			b.WriteString("return " + ExprString(s.Value) + ";\n")
		}
	case *Launch:
		name := "ARRAYSEM_LAUNCH"
		if s.Sync {
			name = "ARRAYSEM_LAUNCH_SYNC"
		}
		args := []string{s.Kernel, ExprString(s.Grid), ExprString(s.Block)}
		for _, a := range s.Args {
			args = append(args, ExprString(a))
		}
		b.WriteString(name + "(" + strings.Join(args, ", ") + ");\n")
	case *Comment:
		b.WriteString("// " + s.Text + "\n")
	}
}

// ExprString prints an expression; binary operators are parenthesised, so
// precedence never matters.
func ExprString(e Expr) string {
	switch e := e.(type) {
	case *Int:
		if e.V < 0 {
			if e.V == -1<<63 {
				return "INT64_MIN"
			}
			return "(-" + strconv.FormatInt(-e.V, 10) + ")"
		}
		if e.V > 1<<31-1 {
			return strconv.FormatInt(e.V, 10) + "LL"
		}
		return strconv.FormatInt(e.V, 10)
	case *Float:
		// Go's shortest form reads back as the same double in C++.
		if math.Signbit(e.V) {
			return "(-" + semantics.FormatFloat(-e.V) + ")"
		}
		return semantics.FormatFloat(e.V)
	case *Ident:
		return e.Name
	case *Str:
		return quote(e.S)
	case *Field:
		return ExprString(e.X) + "." + e.Name
	case *Index:
		return ExprString(e.X) + "[" + ExprString(e.I) + "]"
	case *Call:
		args := make([]string, len(e.Args))
		for i, a := range e.Args {
			args[i] = ExprString(a)
		}
		return e.Fun + "(" + strings.Join(args, ", ") + ")"
	case *Binary:
		return "(" + ExprString(e.L) + " " + e.Op + " " + ExprString(e.R) + ")"
	case *Unary:
		return e.Op + ExprString(e.X)
	case *Cast:
		return "(" + e.Type + ")" + ExprString(e.X)
	case *Sizeof:
		return "sizeof(" + e.Type + ")"
	case *InitList:
		parts := make([]string, len(e.Elems))
		for i, a := range e.Elems {
			parts[i] = ExprString(a)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	}
	return fmt.Sprintf("/* %T */", e)
}

// paren prints a condition in one pair of parentheses.
func paren(e Expr) string {
	if _, ok := e.(*Binary); ok {
		return ExprString(e)
	}
	return "(" + ExprString(e) + ")"
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
