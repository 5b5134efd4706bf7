// Package docs holds the language references of arraysem (FUN, FUNMEM,
// IMP, Remora, the bibliography) as Markdown, embedded in the command so
// that it can print them; docs_test.go runs their examples.
package docs

import (
	"embed"
	"strings"
)

//go:embed *.md
var files embed.FS

// syntaxFiles maps a language's name, as on the command line, to its
// reference. remora-dynamic.md may be absent from a build: Syntax then
// reports false for "remora/dynamic".
var syntaxFiles = map[string]string{
	"fun":            "fun.md",
	"funmem":         "funmem.md",
	"imp":            "imp.md",
	"remora":         "remora.md",
	"remora/typed":   "remora.md",
	"remora/dynamic": "remora-dynamic.md",
	"remora-ir":      "remora-ir.md",
	"cuda":           "cuda.md",
	"papers":         "papers.md",
}

// Syntax returns the reference of a language ("fun", "funmem", "imp",
// "remora", "remora/dynamic", "remora-ir": the IR and the compile path
// from Remora, "cuda": the emitted subset and its
// toolchain; also "papers", the bibliography) and
// whether there is one.
func Syntax(lang string) (string, bool) {
	name, ok := syntaxFiles[strings.ToLower(strings.TrimSpace(lang))]
	if !ok {
		return "", false
	}
	b, err := files.ReadFile(name)
	if err != nil {
		return "", false
	}
	return string(b), true
}

// Languages lists the names Syntax knows whose reference is present in
// this build, sorted.
func Languages() []string {
	var out []string
	for _, l := range []string{"cuda", "fun", "funmem", "imp", "papers", "remora", "remora-ir", "remora/dynamic"} {
		if _, ok := Syntax(l); ok {
			out = append(out, l)
		}
	}
	return out
}
