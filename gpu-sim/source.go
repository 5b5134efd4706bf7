package gpusim

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/arraysem/arraysem/cuda"
	"github.com/arraysem/arraysem/semantics"
)

// The source program's positions. An emitted file's sites table
// (arraysem_sites) holds, for every place the program can get stuck, the
// message the interpreter gives there: "file:line:col: RULE: format"
// (cuda/emit.go, site). A stuck state names its site, so its error is
// that message. What gpu-sim itself catches (a race, an out-of-bounds
// access, a read of unwritten memory, a divergent barrier) happens at a
// position of the .cu file; the emitter translates an IMP statement's
// checks before the statement itself (the bounds check of a load or a
// store is just before it), so the site of the last check before that
// position, in the same function, names the IMP statement, and so the
// source program's position.

// siteText is a site's message taken apart: its source position (only the
// file when the statement had none; none when the site gives neither), its
// rule, and the rest, a format of two numbers (formatSite). ok is false
// for a text not of the emitter's form (a hand-written table): then the
// whole text is the format.
type siteText struct {
	pos    semantics.Pos
	rule   string
	format string
	ok     bool
}

// parseSite takes apart a site's text, as cuda's emitter writes it: the
// position and rule, with % doubled, then ": " and the format.
func parseSite(text string) siteText {
	at, rest, ok1 := strings.Cut(text, ": ")
	rule, format, ok2 := strings.Cut(rest, ": ")
	if !ok1 || !ok2 || rule == "" || strings.ContainsAny(rule, " \t") || at == "" {
		return siteText{format: text}
	}
	at = strings.ReplaceAll(at, "%%", "%")
	rule = strings.ReplaceAll(rule, "%%", "%")
	s := siteText{rule: rule, format: format, ok: true}
	switch {
	case at == "-": // no position at all
	default:
		s.pos = semantics.Pos{File: at}
		// file:line:col, the file itself perhaps holding colons.
		if i := strings.LastIndexByte(at, ':'); i > 0 {
			if j := strings.LastIndexByte(at[:i], ':'); j > 0 {
				line, err1 := strconv.Atoi(at[j+1 : i])
				col, err2 := strconv.Atoi(at[i+1:])
				if err1 == nil && err2 == nil && line > 0 && col > 0 {
					s.pos = semantics.Pos{File: at[:j], Line: line, Col: col}
				}
			}
		}
	}
	return s
}

// siteAt is a call that names a site (arraysem_trap, arraysem_fail,
// arraysem_reserve, arraysem_count) at a position of the .cu file.
type siteAt struct {
	pos  cuda.Pos
	site int
}

// siteArg is, for each call that names a site, the argument that does
// (arraysem_reserve and arraysem_count name two, the first for a
// negative size).
var siteArg = map[string]int{"arraysem_trap": 1, "arraysem_fail": 0, "arraysem_reserve": 1, "arraysem_count": 0}

// sitesIn collects the calls of ss that name a site, in the order of the
// text.
func sitesIn(ss []cuda.Stmt, out []siteAt) []siteAt {
	for _, s := range ss {
		var x cuda.Expr
		switch s := s.(type) {
		case *cuda.ExprStmt:
			x = s.X
		case *cuda.Decl:
			x = s.Init
		case *cuda.Assign:
			x = s.RHS
		case *cuda.If:
			out = sitesIn(s.Else, sitesIn(s.Then, out))
		case *cuda.For:
			out = sitesIn(s.Body, out)
		}
		if c, ok := x.(*cuda.Call); ok {
			if k, ok := siteArg[c.Fun]; ok && k < len(c.Args) {
				if n, ok := c.Args[k].(*cuda.Int); ok {
					out = append(out, siteAt{c.Pos, int(n.V)})
				}
			}
		}
	}
	return out
}

func before(a, b cuda.Pos) bool { return a.Line < b.Line || a.Line == b.Line && a.Col < b.Col }

// sourceOf is the source program's position of what runs at pos of the
// .cu file: that of the last site named before it in its function, when
// the site has one.
func (p *Program) sourceOf(pos cuda.Pos) (semantics.Pos, bool) {
	if pos.Line == 0 || len(p.File.Sites) == 0 {
		return semantics.Pos{}, false
	}
	var fn *cuda.Func
	for _, f := range p.File.Funcs {
		if !before(pos, f.Pos) && (fn == nil || before(fn.Pos, f.Pos)) {
			fn = f
		}
	}
	if fn == nil {
		return semantics.Pos{}, false
	}
	sites := sitesIn(fn.Body, nil)
	i := sort.Search(len(sites), func(i int) bool { return !before(sites[i].pos, pos) })
	if i == 0 || sites[i-1].site < 0 || sites[i-1].site >= len(p.File.Sites) {
		return semantics.Pos{}, false
	}
	s := parseSite(p.File.Sites[sites[i-1].site])
	return s.pos, s.pos.IsValid()
}

// place gives an error of a run the position its message names: in an
// emitted file (one with a sites table), the source program's, where the
// sites give it. Where they do not, the .cu position stays when the file
// is the .cu one runs; under another name (the source file's, as
// side-by-side runs the CUDA level), the message names the file only and
// says the line of the emitted CUDA. A stuck state (stuck) is placed
// already; bad input has no position in the file.
func (p *Program) place(e *Error) {
	if e.Source.File != "" || e.Kind == "unsupported" {
		return
	}
	if e.Kind == "input" {
		e.Source = semantics.Pos{File: e.File}
		return
	}
	if len(p.File.Sites) == 0 {
		return
	}
	if src, ok := p.sourceOf(e.Pos); ok {
		e.Source = src
		return
	}
	if !p.namesFile() {
		e.Source = semantics.Pos{File: e.File}
		if e.Pos.Line != 0 {
			e.Msg += " (at " + p.placeOf(e.Pos) + ")"
		}
	}
}

// namesFile reports whether the program's name is a .cu file, so that
// its lines mean something under it; side-by-side runs the CUDA level
// under the source file's name.
func (p *Program) namesFile() bool { return strings.HasSuffix(p.Name, ".cu") }

// placeOf names a position of the file in a message: the source
// program's, when the sites give it, else the line ("line 12", or "line
// 12 of the emitted CUDA" when the program is not named after it).
func (p *Program) placeOf(pos cuda.Pos) string {
	if src, ok := p.sourceOf(pos); ok {
		return src.String()
	}
	if len(p.File.Sites) > 0 && !p.namesFile() {
		return fmt.Sprintf("line %d of the emitted CUDA", pos.Line)
	}
	return fmt.Sprintf("line %d", pos.Line)
}
