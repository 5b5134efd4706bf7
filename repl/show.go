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
// contractum marked, and the redex it replaced. Both are found by
// comparing the configurations before and after: what lies between their
// common prefix and suffix, widened to whole tokens, changed.
func (s *Session) showStep(prev string, rec *stepRec) {
	config := rec.config
	redex := ""
	if prev != "" {
		lo, hiOld, hiNew := changed([]rune(prev), []rune(config))
		lo, hiOld, hiNew = trimSpaces([]rune(prev), []rune(config), lo, hiOld, hiNew)
		if lo < hiNew && !(lo == 0 && hiNew == len([]rune(config))) {
			rs := []rune(config)
			config = string(rs[:lo]) + s.mark(string(rs[lo:hiNew])) + string(rs[hiNew:])
		}
		if old := []rune(prev); lo < hiOld && !(lo == 0 && hiOld == len(old)) {
			redex = string(old[lo:hiOld])
		}
	}
	width := lang.RuleWidth(s.loaded.Language())
	fmt.Fprintf(s.out, "%-*s %s\n", width, rec.rule, config)
	if redex != "" {
		fmt.Fprintf(s.out, "%-*s redex: %s\n", width, "", redex)
	}
}

// trimSpaces narrows the changed regions to leave out blanks at their
// ends.
func trimSpaces(old, new []rune, lo, hiOld, hiNew int) (int, int, int) {
	for hiOld > lo && old[hiOld-1] == ' ' {
		hiOld--
	}
	for hiNew > lo && new[hiNew-1] == ' ' {
		hiNew--
	}
	for lo < hiOld && lo < hiNew && old[lo] == ' ' && new[lo] == ' ' {
		lo++
	}
	return lo, hiOld, hiNew
}

// mark marks the contractum: underlined on a terminal, ⟦ ⟧ otherwise.
func (s *Session) mark(text string) string {
	if s.opts.Terminal {
		return "\x1b[4m" + text + "\x1b[24m"
	}
	return "⟦" + text + "⟧"
}

// changed finds the region where two texts differ: old[lo:hiOld] became
// new[lo:hiNew]. The region is widened to whole tokens and, where a
// bracket opens in it, to the bracket's match, so that it reads as a term.
func changed(old, new []rune) (lo, hiOld, hiNew int) {
	for lo < len(old) && lo < len(new) && old[lo] == new[lo] {
		lo++
	}
	// Widen to whole tokens where a boundary splits one: the start first,
	// so that the common suffix is taken from a token's start.
	for lo > 0 && (splits(old, lo) || splits(new, lo)) {
		lo--
	}
	so, sn := len(old), len(new)
	for so > lo && sn > lo && old[so-1] == new[sn-1] {
		so--
		sn--
	}
	for so < len(old) && sn < len(new) && (splits(old, so) || splits(new, sn)) {
		so++
		sn++
	}
	lo, so, sn = balance(old, new, lo, so, sn)
	// A change in an application's function position (β replacing
	// ((λ …) v) by its body, lift replicating the function) is a step of
	// the whole application.
	if lo > 0 && old[lo-1] == '(' {
		lo--
		so, sn = closerAfter(old, lo), closerAfter(new, lo)
	}
	return lo, so, sn
}

// closerAfter is the position just past the bracket that matches the one
// at lo.
func closerAfter(rs []rune, lo int) int {
	d := 0
	for i := lo; i < len(rs); i++ {
		switch rs[i] {
		case '(', '[', '{':
			d++
		case ')', ']', '}':
			d--
			if d == 0 {
				return i + 1
			}
		}
	}
	return len(rs)
}

// splits reports whether position i of rs is inside a token.
func splits(rs []rune, i int) bool {
	return i > 0 && i < len(rs) && !isDelim(rs[i-1]) && !isDelim(rs[i])
}

func isDelim(r rune) bool {
	return r == ' ' || r == '(' || r == ')' || r == '[' || r == ']' || r == '{' || r == '}' || r == ',' || r == ';'
}

// balance widens both regions, sharing their prefix and suffix, until
// each has as many opening as closing brackets.
func balance(old, new []rune, lo, so, sn int) (int, int, int) {
	for i := 0; i < 64; i++ {
		a, b := depth(old[lo:so]), depth(new[lo:sn])
		switch {
		case a.open == 0 && a.close == 0 && b.open == 0 && b.close == 0:
			return lo, so, sn
		case (a.close > 0 || b.close > 0) && lo > 0:
			lo = openerBefore(old, lo)
		case (a.open > 0 || b.open > 0) && so < len(old) && sn < len(new):
			so++
			sn++
		default:
			return lo, so, sn
		}
	}
	return lo, so, sn
}

type unbalanced struct{ open, close int }

// depth counts a text's unmatched opening and closing brackets.
func depth(rs []rune) unbalanced {
	var u unbalanced
	for _, r := range rs {
		switch r {
		case '(', '[', '{':
			u.open++
		case ')', ']', '}':
			if u.open > 0 {
				u.open--
			} else {
				u.close++
			}
		}
	}
	return u
}

// openerBefore moves lo back to the bracket that opens just before it.
func openerBefore(rs []rune, lo int) int {
	d := 0
	for i := lo - 1; i >= 0; i-- {
		switch rs[i] {
		case ')', ']', '}':
			d++
		case '(', '[', '{':
			if d == 0 {
				return i
			}
			d--
		}
	}
	return 0
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
