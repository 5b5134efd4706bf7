package fun

import "github.com/arraysem/arraysem/semantics"

// IsStringLit reports whether t is a string literal (assert's message, an
// extension), which semantics.Scan reads as one token of kind Str.
func IsStringLit(t semantics.Token) bool { return t.Kind == semantics.Str }

// StringLit is the text of a string literal token, unquoted.
func StringLit(t semantics.Token) string { return semantics.Unquote(t.Text) }

// QuoteString writes s as a string literal that the scanner reads back as s.
func QuoteString(s string) string { return semantics.Quote(s) }
