package check

import (
	"os"
	"strings"
	"testing"

	"github.com/arraysem/arraysem/fun"
	"github.com/arraysem/arraysem/imp"
	"github.com/arraysem/arraysem/lang"
)

// withPass is the arraysem registry with the transformation p appended
// to its level's pipelines: one registration (lang.Registry.Append).
func withPass(p lang.Pass) *lang.Registry {
	reg := NewRegistry()
	reg.Append(p)
	return reg
}

func loadFile(t *testing.T, file string) lang.Program {
	t.Helper()
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Load(NewRegistry(), file, string(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestIdentityPassIsOneRegistration: a pass registered, and nothing else
// edited, shows in the compile path's stages and as a level of
// side-by-side (the acceptance test for the registry).
func TestIdentityPassIsOneRegistration(t *testing.T) {
	identity := lang.Pass{Name: "Identity", From: "fun", To: "fun", Doc: "changes nothing",
		Label: func(lang.Options) string { return "identity" },
		Run:   func(p any, _ lang.Options) (any, []string, error) { return p, nil, nil }}
	reg := withPass(identity)
	{
		p := loadFile(t, "../examples/fun/fig2.fun")
		st, err := reg.Compile(p, "imp", lang.Options{}.With("no-fuse").With("no-slice").With("no-interchange"))
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range st {
			names = append(names, s.Name())
		}
		if got, want := strings.Join(names, " "), "source Identity TransformProgram Simplify FunMemToImp Simplify"; got != want {
			t.Errorf("stages %s, want %s", got, want)
		}
		rows, err := SideBySide(reg, p, map[string]string{"xsize": "2", "ysize": "3", "zcond": "1"})
		if err != nil {
			t.Fatal(err)
		}
		var levels []string
		for _, r := range rows {
			if len(levels) == 0 || levels[len(levels)-1] != r.Level {
				levels = append(levels, r.Level)
			}
		}
		if got := strings.Join(levels, ", "); !strings.Contains(got, "FUN identity") {
			t.Errorf("side-by-side levels %s: no FUN identity", got)
		}
	}
}

// TestBrokenPassIsNamed: a pass that changes a program's meaning makes
// side-by-side disagree, and the verdict names the pass.
func TestBrokenPassIsNamed(t *testing.T) {
	broken := lang.Pass{Name: "OffByOne", From: "fun", To: "fun", Doc: "adds one, wrongly",
		Label: func(lang.Options) string { return "off by one" },
		Run: func(any, lang.Options) (any, []string, error) {
			p, err := fun.ParseFile("t.fun", "input (n : int)\nlet (m : int) = n + 2\nin (m)\n")
			return p, nil, err
		}}
	reg := withPass(broken)
	{
		p, err := Load(reg, "t.fun", "input (n : int)\nlet (m : int) = n + 1\nin (m)\n", Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, verdict := SideBySide(reg, p, map[string]string{"n": "1"})
		if verdict == nil || !strings.Contains(verdict.Error(), "OffByOne (fun → fun)") {
			t.Errorf("verdict %v: does not name the pass", verdict)
		}
	}
}

// TestPassRejectedByChecker: a pass whose output the target's checker
// refuses is named, with the rejected program.
func TestPassRejectedByChecker(t *testing.T) {
	bad := lang.Pass{Name: "Unscoped", From: "fun", To: "fun",
		Run: func(any, lang.Options) (any, []string, error) {
			p, err := fun.ParseFile("t.fun", "let (m : int) = q + 1\nin (m)\n")
			return p, nil, err
		}}
	reg := withPass(bad)
	{
		p, err := Load(reg, "t.fun", "let (m : int) = 1\nin (m)\n", Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = reg.Compile(p, "imp", lang.Options{})
		if err == nil || !strings.HasPrefix(err.Error(), "Unscoped produced a fun program that its checker rejects") {
			t.Errorf("got %v", err)
		}
	}
}

// TestPassWrongTree: a pass that hands a language another language's
// tree (registered with the wrong target) is named, and so are both types.
func TestPassWrongTree(t *testing.T) {
	bad := lang.Pass{Name: "Mislabelled", From: "fun", To: "fun",
		Run: func(any, lang.Options) (any, []string, error) {
			p, err := imp.ParseFile("t.imp", "var x : int;\nx <- 1;\nreturn x\n")
			return p, nil, err
		}}
	reg := withPass(bad)
	{
		p, err := Load(reg, "t.fun", "let (m : int) = 1\nin (m)\n", Options{})
		if err != nil {
			t.Fatal(err)
		}
		_, err = reg.Compile(p, "imp", lang.Options{})
		if err == nil || !strings.Contains(err.Error(), "Mislabelled") || !strings.Contains(err.Error(), "FUN was given a *imp.Program, not one of its syntax trees (*fun.Program)") {
			t.Errorf("got %v", err)
		}
	}
}

// TestPaths: shortest paths, where a level compiles to, and the levels'
// names in side-by-side's order.
func TestPaths(t *testing.T) {
	for _, tc := range []struct{ from, to, want string }{
		{"fun", "imp", "TransformProgram FunMemToImp"},
		{"funmem", "imp", "FunMemToImp"},
		{"fun", "fun", ""},
		{"imp", "fun", "error: cannot compile imp to fun (imp compiles to imp, cuda)"},
		{"fun", "cuda", "TransformProgram FunMemToImp EmitCUDA"},
		{"fun", "bogus", `error: unknown level "bogus"`},
	} {
		path, err := NewRegistry().Path(tc.from, tc.to)
		var got string
		if err != nil {
			got = "error: " + err.Error()
		} else {
			var names []string
			for _, p := range path {
				names = append(names, p.Name)
			}
			got = strings.Join(names, " ")
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s → %s: %s, want %s", tc.from, tc.to, got, tc.want)
		}
	}
	levels, err := NewRegistry().Levels(loadFile(t, "../examples/fun/fig2.fun"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range levels {
		names = append(names, l.Name)
	}
	// Size slicing computes Fig 2's existential size ahead of the if
	// (FUN after Slice); nothing fuses.
	want := "FUN source, FUN after Slice, FUNMEM after Simplify, IMP after Simplify, CUDA after EmitCUDA, FUNMEM expanded (gpu) after Simplify, IMP expanded (gpu) after Simplify, CUDA expanded (gpu) after EmitCUDA, FUNMEM expanded (cpu) after Simplify, IMP expanded (cpu) after Simplify, CUDA expanded (cpu) after EmitCUDA"
	if got := strings.Join(names, ", "); got != want {
		t.Errorf("levels %s, want %s", got, want)
	}
}

// TestPick: the language of a file, by extension, #lang line, --lang and
// --dialect.
func TestPick(t *testing.T) {
	for _, tc := range []struct{ file, src, lang, dialect, want string }{
		{"a.fun", "", "", "", "fun"},
		{"a.remora", "(+ 1 2)", "", "", "remora"},
		{"a.remora", "#lang remora/dynamic\n(+ 1 2)", "", "", "remora/dynamic"},
		{"a.remora", ";; a comment\n#lang remora/dynamic\n", "", "", "remora/dynamic"},
		{"a.remora", "#lang remora/dynamic\n", "", "typed", "remora"},
		{"a.remora", "", "", "dynamic", "remora/dynamic"},
		{"a.txt", "", "imp", "", "imp"},
		{"a.remora", "#lang racket\n", "", "", "error: a.remora: #lang racket: arraysem reads #lang remora (Remora)"},
		{"a.txt", "", "", "", "error: a.txt: cannot tell the language"},
		{"a.fun", "", "", "dynamic", "error: a.fun: --dialect picks a dialect"},
		{"a.remora", "", "", "lazy", `error: unknown remora dialect "lazy" (typed or dynamic)`},
	} {
		l, err := NewRegistry().Pick(tc.file, tc.src, tc.lang, tc.dialect)
		got := ""
		if err != nil {
			got = "error: " + err.Error()
		} else {
			got = l.Name()
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("Pick(%q, %q, %q, %q) = %s, want %s", tc.file, tc.src, tc.lang, tc.dialect, got, tc.want)
		}
	}
}
