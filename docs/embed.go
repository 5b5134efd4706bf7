// Package docs holds the language references of arraysem (FUN, FUNMEM,
// IMP, Remora, the bibliography) as Markdown, embedded in the command so
// that it can print them; docs_test.go runs their examples. Which page is
// a language's reference is a fact of the language (lang.Language's
// Page).
package docs

import (
	"embed"
	"io/fs"
)

//go:embed *.md
var files embed.FS

// Bibliography is the page of the papers arraysem implements.
const Bibliography = "papers.md"

// DataFormat is the page of the format of data files (--data FILE,
// --arg NAME=@FILE, arraysem dataset).
const DataFormat = "data.md"

// Page returns a page of the docs by its file name ("fun.md") and
// whether there is one in this build.
func Page(name string) (string, bool) {
	b, err := fs.ReadFile(files, name)
	if err != nil {
		return "", false
	}
	return string(b), true
}
