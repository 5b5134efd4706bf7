package examples

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestReadmeNamesEveryExample: examples/README.md, the tour, links every
// example file, each in its language's section; every file it links
// exists; each section says which files to read first and how many
// files it has.
func TestReadmeNamesEveryExample(t *testing.T) {
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(data)
	sections := map[string]string{} // directory → its section's text
	for _, part := range strings.Split(readme, "\n## ")[1:] {
		m := regexp.MustCompile("^[^\n]*: `([a-z-]+)/`\n").FindStringSubmatch(part)
		if m == nil {
			t.Fatalf("a section's heading does not end with its directory: %q", strings.SplitN(part, "\n", 2)[0])
		}
		sections[m[1]] = part
		if !strings.Contains(part, "\nRead these first:\n") {
			t.Errorf("the section of %s/ has no \"Read these first\"", m[1])
		}
	}
	dirs, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		section, ok := sections[d.Name()]
		if !ok {
			t.Errorf("README.md has no section for %s/", d.Name())
			continue
		}
		files, err := os.ReadDir(d.Name())
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, f := range files {
			if f.IsDir() {
				continue
			}
			n++
			if link := "](" + d.Name() + "/" + f.Name() + ")"; !strings.Contains(section, "\n| ["+f.Name()+link) {
				t.Errorf("README.md's section of %s/ has no row for %s", d.Name(), f.Name())
			}
		}
		if row := "| `" + d.Name() + "/` | " + fmt.Sprint(n) + " |"; !strings.Contains(readme, row) {
			t.Errorf("README.md's table of languages does not give %s/ its %d files (want %q)", d.Name(), n, row)
		}
	}
	for _, m := range regexp.MustCompile(`\]\(([^)#]+)\)`).FindAllStringSubmatch(readme, -1) {
		if _, err := os.Stat(filepath.FromSlash(m[1])); err != nil {
			t.Errorf("README.md links %s, which does not exist", m[1])
		}
	}
}
