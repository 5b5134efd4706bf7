package semantics

import (
	"strconv"
	"strings"
	"testing"
)

// TestScanRefusesDeepNesting: input nested past MaxDepth is refused at
// the first bracket too deep, as it is read (two million parentheses are
// not all scanned first), and nesting up to MaxDepth is left to the
// parsers.
func TestScanRefusesDeepNesting(t *testing.T) {
	const n = 2_000_000
	src := "let (x : int) = " + strings.Repeat("(", n) + "1" + strings.Repeat(")", n) + "\nin (x)"
	_, err := Scan("deep.fun", src, nil)
	col := len("let (x : int) = ") + MaxDepth + 1
	if err == nil || err.Error() != "deep.fun:1:"+strconv.Itoa(col)+": nesting deeper than 1000 levels" {
		t.Errorf("Scan of %d nested parentheses: %v", n, err)
	}
	ok := strings.Repeat("(", MaxDepth-1) + "1" + strings.Repeat(")", MaxDepth-1)
	if _, err := Scan("ok.fun", "let (x : int) = "+ok+" in (x)", nil); err != nil {
		t.Errorf("Scan of %d nested parentheses: %v", MaxDepth, err)
	}
	// Closing brackets never make the depth negative: a stray ) is the
	// parser's to report.
	if _, err := Scan("odd.fun", strings.Repeat(")", 5)+strings.Repeat("(", MaxDepth), nil); err != nil {
		t.Errorf("Scan of stray closing brackets: %v", err)
	}
}
