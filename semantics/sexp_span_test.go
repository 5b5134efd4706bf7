package semantics_test

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/arraysem/arraysem/internal/spantest"
	"github.com/arraysem/arraysem/semantics"
)

// TestSExpEnd checks where the reader ends s-expressions of each kind: just
// after the closing bracket or brace, or the atom, string or character
// token; the atoms #A and #r forms read as span the whole form.
func TestSExpEnd(t *testing.T) {
	for _, c := range []struct {
		src  string
		want []string // line:col-line:col of each s-expression, depth first
	}{
		{"abc", []string{"1:1-1:4"}},
		{"  -1.5e3 ; c", []string{"1:3-1:9"}},
		{`"a\nβ" #\space #\λ`, []string{"1:1-1:7", "1:8-1:15", "1:16-1:19"}},
		{"(f [x 1]\n  y)", []string{"1:1-2:5", "1:2-1:3", "1:4-1:9", "1:5-1:6", "1:7-1:8", "2:3-2:4"}},
		{"λ{int | 3 [4]}", []string{"1:1-1:15", "1:1-1:2", "1:3-1:6", "1:9-1:10", "1:11-1:14", "1:12-1:13"}},
		{"(g #| c |# #;(x) ())", []string{"1:1-1:21", "1:2-1:3", "1:18-1:20"}},
		{"#A(2)(1 2)", []string{"1:1-1:11", "1:1-1:11", "1:3-1:6", "1:4-1:5", "1:7-1:8", "1:9-1:10"}},
		{"#r(0)+ x", []string{"1:1-1:7", "1:1-1:7", "1:3-1:6", "1:4-1:5", "1:6-1:7", "1:8-1:9"}},
		{"#lang remora\n[é]", []string{"2:1-2:4", "2:2-2:3"}},
	} {
		ss, _, err := semantics.ReadSExps("", c.src)
		if err != nil {
			t.Errorf("%q: %v", c.src, err)
			continue
		}
		var got []string
		var walk func(s *semantics.SExp)
		walk = func(s *semantics.SExp) {
			got = append(got, fmt.Sprintf("%d:%d-%d:%d", s.Pos.Line, s.Pos.Col, s.End.Line, s.End.Col))
			if s.Head != nil {
				walk(s.Head)
			}
			for _, xs := range [][]*semantics.SExp{s.List, s.Left, s.Right} {
				for _, x := range xs {
					walk(x)
				}
			}
		}
		for _, s := range ss {
			walk(s)
		}
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%q: spans %v, want %v", c.src, got, c.want)
		}
		if _, problems, _ := spantest.SExps(c.src, ss); len(problems) > 0 {
			t.Errorf("%q: %v", c.src, problems)
		}
	}
}

// TestSExpSpans checks the spans of every s-expression of the Remora
// examples of both dialects (spantest.SExps).
func TestSExpSpans(t *testing.T) {
	n := 0
	for _, dir := range []string{"remora", "remora-dynamic"} {
		for _, s := range spantest.SourcesOf(t, filepath.Join("..", "examples", dir, "*.remora"), nil, ";") {
			ss, _, err := semantics.ReadSExps(s.Name, s.Src)
			if err != nil {
				continue
			}
			_, problems, checked := spantest.SExps(s.Src, ss)
			n += checked
			for _, p := range problems {
				t.Errorf("%s: %s", s.Name, p)
			}
		}
	}
	if n < 1000 {
		t.Errorf("checked %d s-expressions: too few", n)
	}
}
