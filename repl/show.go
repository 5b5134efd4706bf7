package repl

import (
	"fmt"
	"io"
	"strings"

	"github.com/arraysem/arraysem/internal/table"
	"github.com/arraysem/arraysem/lang"
	"github.com/arraysem/arraysem/semantics"
)

// showStep prints a step: the rule, the configuration after it with the
// contractum marked, and the redex it replaced with where it stands in the
// program's text, as the language's machine reports them (lang.Focus): no
// comparing of printed configurations.
func (s *Session) showStep(rec *stepRec) {
	config := rec.config
	width := lang.RuleWidth(s.loaded.Language())
	f := rec.focus
	whole := false // the step rewrote the whole configuration: nothing to mark
	if f != nil {
		rs := []rune(f.Text)
		whole = f.Lo == 0 && f.Hi == len(rs)
		if f.Lo >= 0 && f.Lo < f.Hi && f.Hi <= len(rs) && !whole {
			config = string(rs[:f.Lo]) + s.mark(string(rs[f.Lo:f.Hi])) + string(rs[f.Hi:])
		}
	}
	fmt.Fprintf(s.out, "%-*s %s\n", width, rec.rule, config)
	if f != nil && f.Redex != "" && !whole {
		at := ""
		if f.From.IsValid() { // where the redex stands in the program's text
			at = fmt.Sprintf("   (line %d:%d)", f.From.Line, f.From.Col)
		}
		fmt.Fprintf(s.out, "%-*s redex: %s%s\n", width, "", f.Redex, at)
	}
}

// mark marks the contractum: underlined on a terminal, ⟦ ⟧ otherwise.
func (s *Session) mark(text string) string {
	if s.opts.Terminal {
		return "\x1b[4m" + text + "\x1b[24m"
	}
	return "⟦" + text + "⟧"
}

// heapCells is how many cells of a block :heap shows.
const heapCells = 48

// showHeap prints the heap's blocks as a table: the label, the size and
// the cells as offset:value, those the last step read or wrote marked r,
// w or rw.
func showHeap(w io.Writer, h *semantics.Heap, acc []semantics.Access) {
	if h.Blocks() == 0 {
		fmt.Fprintln(w, "the heap is empty")
		return
	}
	marks := map[semantics.Loc]string{}
	for _, a := range acc {
		m := "r"
		if a.Write {
			m = "w"
		}
		if old := marks[a.Loc]; old != "" && old != m {
			m = "rw"
		}
		marks[a.Loc] = m
	}
	rows := [][]string{{"block", "size", "cells (offset: value)"}}
	for l := 1; l <= h.Blocks(); l++ {
		b := h.Block(semantics.Label(l))
		var cells []string
		for off, v := range b {
			if off == heapCells {
				cells = append(cells, fmt.Sprintf("… %d more", len(b)-heapCells))
				break
			}
			c := fmt.Sprintf("%d:%d", off, v)
			if m := marks[semantics.Loc{Block: semantics.Label(l), Offset: int64(off)}]; m != "" {
				c += "(" + m + ")"
			}
			cells = append(cells, c)
		}
		rows = append(rows, []string{semantics.Label(l).String(), fmt.Sprint(len(b)), strings.Join(cells, " ")})
	}
	table.Print(w, rows)
	if len(acc) > 0 {
		fmt.Fprintf(w, "the last step read or wrote %s\n", semantics.Plural(len(acc), "cell"))
	}
}
