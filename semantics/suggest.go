package semantics

import "strings"

// Suggest is the candidate closest to name, for a "did you mean" in a
// message about an unknown name (a command, a flag, a variable): the one
// at the smallest edit distance, if that distance is small for the
// name's length (at most 1 for names of up to 3 letters, 2 up to 6,
// else 3), or else a candidate the name is a prefix of, or else one the
// name extends by a hyphenated word. Ties go to the first
// candidate; "" when none is close.
func Suggest(name string, candidates []string) string {
	if name == "" {
		return ""
	}
	limit := 3
	switch n := len([]rune(name)); {
	case n <= 3:
		limit = 1
	case n <= 6:
		limit = 2
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == name {
			continue
		}
		d := editDistance(strings.ToLower(name), strings.ToLower(c))
		if d < bestD {
			best, bestD = c, d
		}
	}
	if best != "" {
		return best
	}
	for _, c := range candidates {
		if c != name && len(name) >= 2 && strings.HasPrefix(c, name) {
			return c
		}
	}
	// A name that adds a word to a candidate's (to-level for to).
	for _, c := range candidates {
		if len(c) >= 2 && strings.HasPrefix(name, c+"-") {
			return c
		}
	}
	return ""
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
