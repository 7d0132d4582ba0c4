package engine

import (
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Agreement is Pearson's chi-square test of simulated counts against an
// exact distribution.
type Agreement struct {
	Stat float64
	DF   int
	// P is the probability of a statistic at least this large if the
	// simulation follows the exact distribution.
	P float64
	// Impossible counts trials that landed where the exact distribution has
	// no mass; any such trial disproves the model outright (P is then 0).
	Impossible int64
}

// ChiSquare compares observed counts over [lo, lo+len(counts)) with an
// exact distribution. Values whose
// expected count is below 5 are pooled into one bin, as the test requires.
func ChiSquare(lo int, counts []int64, d Dist) Agreement {
	var total int64
	for _, c := range counts {
		total += c
	}
	n := float64(total)
	var obs, exp []float64
	var lowO, lowE float64
	var a Agreement
	first, last := min(lo, d.Lo), max(lo+len(counts)-1, d.Hi())
	for v := first; v <= last; v++ {
		var o float64
		if i := v - lo; i >= 0 && i < len(counts) {
			o = float64(counts[i])
		}
		e := d.Prob(v) * n
		if e == 0 {
			if o > 0 {
				a.Impossible += int64(o)
			}
			continue
		}
		if e < 5 {
			lowO, lowE = lowO+o, lowE+e
			continue
		}
		obs, exp = append(obs, o), append(exp, e)
	}
	if lowE > 0 {
		obs, exp = append(obs, lowO), append(exp, lowE)
	}
	if a.Impossible > 0 {
		return a
	}
	a.DF = len(obs) - 1
	if a.DF < 1 {
		a.P = 1
		return a
	}
	a.Stat = stat.ChiSquare(obs, exp)
	a.P = distuv.ChiSquared{K: float64(a.DF)}.Survival(a.Stat)
	return a
}
