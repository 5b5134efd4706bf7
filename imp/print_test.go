package imp

import (
	"strings"
	"testing"
)

// TestStmtCount holds Print's count of statements (the room it makes) to
// WalkStmts's on every example, and its indentation to two blanks a level
// past the blanks it writes at once.
func TestStmtCount(t *testing.T) {
	for _, text := range exampleTexts(t) {
		p, err := ParseFile("count.imp", text)
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		WalkStmts(p.Body, func(Stmt) { n++ })
		if got := stmtCount(p.Body); got != n {
			t.Errorf("stmtCount = %d, WalkStmts visits %d statements of\n%s", got, n, text)
		}
	}
	for depth := range 40 {
		var b strings.Builder
		indent(&b, depth)
		if b.String() != strings.Repeat("  ", depth) {
			t.Errorf("indent(%d) = %q", depth, b.String())
		}
	}
}
