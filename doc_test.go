package main

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestPackageDocsNameTheirFiles: a package's doc.go that names its files
// (fuse.go, slice_if.go) names files the package has, and names every
// file it has (its tests aside); a doc that names none says what the
// package does instead. So the docs stay true of their packages as files
// come and go.
func TestPackageDocsNameTheirFiles(t *testing.T) {
	// A name with a directory (check/registry.go, fun/eval_ext.go) is
	// another package's file, even where this package has one of the
	// same name.
	fileRe := regexp.MustCompile(`(?:[A-Za-z0-9_.-]+/)*\b[a-z][a-z0-9_]*\.(go|cu)\b`)
	err := filepath.WalkDir(".", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || d.Name() != "doc.go" {
			return nil
		}
		dir := filepath.Dir(path)
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		doc, _, _ := strings.Cut(string(src), "\npackage ")
		named := map[string]bool{}
		for _, m := range fileRe.FindAllString(doc, -1) {
			if !strings.Contains(m, "/") {
				named[m] = true
			}
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			return err
		}
		var have []string
		for _, e := range entries {
			n := e.Name()
			if !e.IsDir() && (strings.HasSuffix(n, ".go") && !strings.HasSuffix(n, "_test.go") || strings.HasSuffix(n, ".cu")) {
				have = append(have, n)
			}
		}
		local := 0
		for n := range named {
			if slices.Contains(have, n) {
				local++
			}
		}
		if local == 0 {
			return nil // the doc names no file of its own
		}
		for _, n := range have {
			if n != "doc.go" && !named[n] {
				t.Errorf("%s: names some of the package's files, but not %s", path, n)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
