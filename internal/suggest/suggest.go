package suggest

import "strings"

// Closest returns the candidate closest to a misspelled name ("hihgest" →
// "highest"), or "" when none is close: case is ignored, a swap of two
// neighbouring letters counts as one edit, and the allowed number of edits
// grows with the length of the name (1 up to five letters, 2 up to eight,
// then 3) but is always less than that length. Ties go to the earlier
// candidate; a candidate equal to name is never suggested.
func Closest(name string, candidates []string) string {
	if name == "" || len(name) > 64 {
		return ""
	}
	limit := min(max(len(name)/3, 1), 3)
	if limit >= len(name) {
		limit = len(name) - 1
	}
	lower := strings.ToLower(name)
	best, bestD := "", limit+1
	for _, c := range candidates {
		if c == name || len(c) > 64 || abs(len(c)-len(name)) > limit {
			continue
		}
		if d := editDistance(lower, strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// editDistance is the optimal string alignment distance between a and b:
// insertions, deletions, substitutions and swaps of neighbouring bytes.
func editDistance(a, b string) int {
	// Three rows of the dynamic programme: i-2, i-1, i.
	prev2 := make([]int, len(b)+1)
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			d := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				d = min(d, prev2[j-2]+1)
			}
			cur[j] = d
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}
