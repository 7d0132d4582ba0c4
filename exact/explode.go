package exact

import "fmt"

// Explode returns the distribution of a bursting die (K3): roll, and while
// the roll shows the highest face roll again and add, at most depth extra
// rolls. truncated is the probability that the last allowed roll showed the
// highest face too, i.e. the mass an unlimited chain would have carried on.
func Explode(ft faceTable, depth int) (d Dist, truncated float64) {
	d, truncated, _ = explode(defaultBudget(), ft, depth)
	return d, truncated
}

func explode(b *budget, ft faceTable, depth int) (d Dist, truncated float64, err error) {
	entries := mulBytes(int64(depth)+1, int64(len(ft.faces)))
	if err := b.need(mulBytes(entries, mapEntryBytes), "lower the explosion depth", "a die exploding up to %d times", depth); err != nil {
		return Dist{}, 0, err
	}
	top := len(ft.faces) - 1
	M := ft.faces[top]
	pm := ft.probs[top]
	parts := make(map[int]float64)
	reach := 1.0 // P(j explosions so far)
	for j := 0; j <= depth; j++ {
		if err := b.tick(len(ft.faces)); err != nil {
			return Dist{}, 0, err
		}
		for i, f := range ft.faces {
			if i == top && j < depth {
				continue // explodes again
			}
			parts[j*M+f] += reach * ft.probs[i]
		}
		reach *= pm
	}
	d, err = fromMap(b, parts, fmt.Sprintf("a die exploding up to %d times", depth))
	return d, reach, err // reach = pm^(depth+1)
}
