package sim

import (
	"context"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// TestExplodeOnFacesAndPenetrating runs both engines on explosions that
// burst on a set of faces (On) or penetrate, through every sampler that
// rolls bursting dice: one die (burstDice), heavy weights one face at a
// time (explodeSampler), a sum of one kind (firstRolls), of two kinds
// (sumSampler), and a comparison of a sum (saturating); chi-square at p >
// 1e-6 with a fixed seed.
func TestExplodeOnFacesAndPenetrating(t *testing.T) {
	d6, dF := mechanics.D(6), mechanics.Die{Faces: []int{-1, 0, 1}}
	heavy := mechanics.Die{Faces: []int{1, 2, 3}, Weights: []int64{1 << 20, 3 << 20, 5 << 20}}
	five := mechanics.Explode{Die: d6, On: []int{5}}
	low := mechanics.Explode{Die: d6, On: []int{1, 2}, Limit: 3}
	pen := mechanics.Explode{Die: d6, Penetrate: true}
	penLimit1 := mechanics.Explode{Die: d6, Penetrate: true, Limit: 1}
	penSet := mechanics.Explode{Die: d6, On: []int{1, 6}, Penetrate: true, Limit: 2}
	down := mechanics.Explode{Die: dF, On: []int{-1}}
	downPen := mechanics.Explode{Die: dF, On: []int{-1, 1}, Penetrate: true, Limit: 3}
	nodes := map[string]mechanics.Node{
		"d6!=5":               five,
		"d6!<=2{3}":           low,
		"d6!p":                pen,
		"dF!=-1":              down,
		"dF!p{-1,1}{3}":       downPen,
		"heavy!=1 p":          mechanics.Explode{Die: heavy, On: []int{1, 3}, Penetrate: true},
		"heavy!p{2}":          mechanics.Explode{Die: heavy, Penetrate: true, Limit: 2},
		"3d6!p + d4":          mechanics.Sum{Terms: []mechanics.Node{pen, pen, pen, mechanics.D(4)}},
		"2d6!p{1}":            mechanics.Sum{Terms: []mechanics.Node{penLimit1, penLimit1}},
		"3d6!=5":              mechanics.Sum{Terms: []mechanics.Node{five, five, five}},
		"2dF!=-1 + 2d6!p{..}": mechanics.Sum{Terms: []mechanics.Node{down, down, penSet, penSet}},
		"d6!=5 + d6!p":        mechanics.Sum{Terms: []mechanics.Node{five, pen, mechanics.D(8)}},
		"3d6!p >= 14":         mechanics.Compare{X: mechanics.Sum{Terms: []mechanics.Node{pen, pen, pen}}, Op: mechanics.GE, T: 14},
		"2d6!<=2{3} >= 9":     mechanics.Compare{X: mechanics.Sum{Terms: []mechanics.Node{low, low}}, Op: mechanics.GE, T: 9},
	}
	for name, n := range nodes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			d, _, err := exact.Eval(n)
			if err != nil {
				t.Fatal(err)
			}
			h, err := Outcomes(context.Background(), &mechanics.Spec{Outcome: n}, Options{Trials: trials(200_000, 1_000_000), Seed: 17})
			if err != nil {
				t.Fatal(err)
			}
			requireAgreement(t, name, h, d)
		})
	}
}
