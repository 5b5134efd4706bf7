package semantics

import (
	"slices"
	"strings"
)

// Suggest is the candidate closest to name, for a "did you mean" in a
// message about an unknown name (a command, a flag, a variable): the one
// at the smallest edit distance, if that is at most one edit for every
// three letters of the name beyond the first (at least one; for a name
// of three letters or fewer, an edit that does not replace a letter:
// dot is not taken for not, but rnu is for run); or else a candidate the
// name is a prefix of; or else one the name extends by a hyphenated word
// (to-level for to). Ties go to the first candidate; "" when none is
// close.
func Suggest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	n := len([]rune(name))
	limit := max(1, (n-1)/3)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if n <= 3 && d == 1 && len([]rune(c)) == n && !sameLetters(name, c) {
			continue // one letter replaced in a short name: a guess
		}
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best
	}
	for _, c := range candidates {
		if c != name && n >= 2 && strings.HasPrefix(c, name) {
			return c
		}
	}
	for _, c := range candidates {
		if len(c) >= 2 && strings.HasPrefix(name, c+"-") {
			return c
		}
	}
	return ""
}

// sameLetters reports whether a and b are made of the same letters.
func sameLetters(a, b string) bool {
	x, y := []rune(strings.ToLower(a)), []rune(strings.ToLower(b))
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}

// editDistance is the optimal string alignment distance of a and b
// (Levenshtein's insertions, deletions and substitutions, plus the
// transposition of two adjacent letters, the commonest typo), in runes.
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	// d[i][j]: the distance of x[:i] and y[:j]; three rows suffice.
	prev2 := make([]int, len(y)+1)
	prev := make([]int, len(y)+1)
	cur := make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], prev2[j-2]+1)
			}
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(y)]
}

// DidYouMean is " (did you mean X?)" for the candidate Suggest finds
// for name, to end a message with; "" when none is close.
func DidYouMean(name string, candidates []string) string {
	if s := Suggest(name, candidates); s != "" {
		return " (did you mean " + s + "?)"
	}
	return ""
}
