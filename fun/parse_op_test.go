package fun

import (
	"testing"

	"github.com/arraysem/arraysem/semantics"
)

// TestBinOpSpellings: every binary operator reads back from the spelling
// it prints with (String), and no other text reads as an operator.
func TestBinOpSpellings(t *testing.T) {
	for op := semantics.Op(0); op <= semantics.DivChecked; op++ {
		if op == semantics.Neg {
			continue // unary only
		}
		if got, ok := binOp(op.String()); !ok || got != op {
			t.Errorf("binOp(%q) = %v, %v; want %v", op.String(), got, ok, op)
		}
	}
	for _, s := range []string{"", "(", "!", "=", "<<", "+!!", "neg", "int"} {
		if op, ok := binOp(s); ok {
			t.Errorf("binOp(%q) = %v, want none", s, op)
		}
	}
}
