package sim

import (
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/oddsmith/oddsmith/exact"
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

// ChiSquare compares observed counts with an exact distribution. Values whose
// expected count is below 5 are pooled into one bin, as the test requires.
func ChiSquare(h Hist, d exact.Dist) Agreement {
	n := float64(h.Total())
	var obs, exp []float64
	var lowO, lowE float64
	var a Agreement
	lo, hi := min(h.Lo, d.Lo), max(h.Lo+len(h.Counts)-1, d.Hi())
	for v := lo; v <= hi; v++ {
		var o float64
		if i := v - h.Lo; i >= 0 && i < len(h.Counts) {
			o = float64(h.Counts[i])
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
