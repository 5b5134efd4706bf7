package dynamic

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/arraysem/arraysem/remora"
	"github.com/arraysem/arraysem/semantics"
)

// Positions. The elaboration is text, which the typed parser reads; so
// that the typed terms are placed where the dialect's constructs are
// (a refusal below Elaborate, or a run-time error of a compiled level,
// names the line and column of the construct in the user's file, not of
// the text), each construct's term is preceded by an invisible mark
// naming the construct's span. parseMarked takes the marks out, parses
// the text, and gives every typed term the span of the innermost mark at
// its first character, or else of its parent.

const (
	markOpen  = '\x01'
	markClose = '\x02'
)

// span is a construct's extent in the dialect's source.
type span struct{ pos, end semantics.Pos }

// mark is the mark of a construct spanning [pos, end).
func (el *elaborator) mark(pos, end semantics.Pos) string {
	el.spans = append(el.spans, span{pos, end})
	return string(markOpen) + strconv.Itoa(len(el.spans)-1) + string(markClose)
}

// plain is the elaborated text without its marks (for messages and
// check --infer).
func plain(s string) string {
	if !strings.ContainsRune(s, markOpen) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == markOpen {
			i += strings.IndexByte(s[i:], markClose) + 1
			continue
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// parseMarked parses an elaborated term and places its terms at the
// dialect's spans; at is where a term with no mark around it goes.
func (el *elaborator) parseMarked(file, text string, at span) (remora.Expr, error) {
	var b strings.Builder
	marks := map[[2]int]int{}
	line, col := 1, 1
	for i := 0; i < len(text); {
		if text[i] == markOpen {
			j := i + strings.IndexByte(text[i:], markClose)
			n, _ := strconv.Atoi(text[i+1 : j])
			marks[[2]int{line, col}] = n // the innermost mark of a place comes last
			i = j + 1
			continue
		}
		r, w := utf8.DecodeRuneInString(text[i:])
		b.WriteString(text[i : i+w])
		i += w
		if r == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
	e, err := remora.ParseExpr(file, b.String())
	if err != nil {
		return nil, err
	}
	place(e, func(p semantics.Pos) (span, bool) {
		n, ok := marks[[2]int{p.Line, p.Col}]
		if !ok {
			return span{}, false
		}
		return el.spans[n], true
	}, at)
	return e, nil
}

// place gives e and its subterms the spans marked at their first
// characters, or their parents'.
func place(e remora.Expr, marked func(semantics.Pos) (span, bool), parent span) {
	if e == nil {
		return
	}
	sp, ok := marked(e.At())
	if !ok {
		sp = parent
	}
	rec := func(es ...remora.Expr) {
		for _, x := range es {
			place(x, marked, sp)
		}
	}
	switch e := e.(type) {
	case *remora.Var:
		e.Pos, e.EndPos = sp.pos, sp.end
	case *remora.Prim:
		e.Pos, e.EndPos = sp.pos, sp.end
	case *remora.Lit:
		e.Pos, e.EndPos = sp.pos, sp.end
	case *remora.Frame:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Elems...)
	case *remora.Lam:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Body)
	case *remora.TLam:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Body)
	case *remora.ILam:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Body)
	case *remora.App:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Fn)
		rec(e.Args...)
	case *remora.TApp:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Fn)
	case *remora.IApp:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Fn)
	case *remora.Pack:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Body)
	case *remora.Unpack:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Box, e.Body)
	case *remora.Let:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Val, e.Body)
	case *remora.LiftDim:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.N, e.Body)
	case *remora.Reify:
		e.Pos, e.EndPos = sp.pos, sp.end
	case *remora.Reshape:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.E)
	case *remora.Map:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.Args...)
		rec(e.Body)
	case *remora.Rep:
		e.Pos, e.EndPos = sp.pos, sp.end
		rec(e.E)
	}
}
