package semantics

import "fmt"

// Plural counts a noun in English: "1 step", "2 steps".
func Plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
