package exact

// Explode returns the distribution of a bursting die (K3): roll, and while
// the roll shows the highest face roll again and add, at most depth extra
// rolls. truncated is the probability that the last allowed roll showed the
// highest face too, i.e. the mass an unlimited chain would have carried on.
func Explode(ft faceTable, depth int) (d Dist, truncated float64) {
	top := len(ft.faces) - 1
	M := ft.faces[top]
	pm := ft.probs[top]
	parts := make(map[int]float64)
	reach := 1.0 // P(j explosions so far)
	for j := 0; j <= depth; j++ {
		for i, f := range ft.faces {
			if i == top && j < depth {
				continue // explodes again
			}
			parts[j*M+f] += reach * ft.probs[i]
		}
		reach *= pm
	}
	d, _ = FromMap(parts)
	return d, reach // reach = pm^(depth+1)
}
