package exact

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
)

// Eval computes the exact distribution of a model node, choosing the
// algorithm by the node's shape. truncated is the probability mass that
// depth-limited explosions could not follow.
func Eval(n mechanics.Node) (d Dist, truncated float64, err error) {
	if err := mechanics.Validate(n); err != nil {
		return Dist{}, 0, err
	}
	return evalNode(n)
}

func dieTable(d mechanics.Die) faceTable {
	return newFaceTable(d.Faces, d.Weight, d.TotalWeight())
}

func evalAll(ns []mechanics.Node) ([]Dist, float64, error) {
	out := make([]Dist, len(ns))
	tr := 0.0
	for i, c := range ns {
		d, t, err := evalNode(c)
		if err != nil {
			return nil, 0, err
		}
		out[i], tr = d, tr+t
	}
	return out, tr, nil
}

func evalNode(n mechanics.Node) (Dist, float64, error) {
	switch n := n.(type) {
	case mechanics.Die:
		return FromDie(n.Faces, n.Weight, n.TotalWeight()), 0, nil
	case mechanics.Const:
		return Point(n.V), 0, nil
	case mechanics.Sum:
		ds, tr, err := evalAll(n.Terms)
		if err != nil {
			return Dist{}, 0, err
		}
		acc := Point(0)
		for _, d := range ds {
			acc = Convolve(acc, d)
		}
		return acc, tr, nil
	case mechanics.Repeat:
		d, tr, err := evalNode(n.X)
		if err != nil {
			return Dist{}, 0, err
		}
		return SumN(d, n.N), tr * float64(n.N), nil
	case mechanics.Scale:
		d, tr, err := evalNode(n.X)
		if err != nil {
			return Dist{}, 0, err
		}
		if n.K == -1 {
			return Negate(d), tr, nil
		}
		k := n.K
		m, err := d.Map(func(x int) int { return k * x })
		return m, tr, err
	case mechanics.Clamp:
		d, tr, err := evalNode(n.X)
		if err != nil {
			return Dist{}, 0, err
		}
		lo, hi := n.Lo, n.Hi
		m, err := d.Map(func(x int) int { return min(max(x, lo), hi) })
		return m, tr, err
	case mechanics.Map:
		d, tr, err := evalNode(n.X)
		if err != nil {
			return Dist{}, 0, err
		}
		m, err := d.Map(n.F)
		if err != nil {
			return Dist{}, 0, fmt.Errorf("map %s: %w", n.Name, err)
		}
		return m, tr, nil
	case mechanics.Compare:
		d, tr, err := evalNode(n.X)
		if err != nil {
			return Dist{}, 0, err
		}
		op, t := n.Op, n.T
		m, err := d.Map(func(x int) int {
			if op.Holds(x, t) {
				return 1
			}
			return 0
		})
		return m, tr, err
	case mechanics.Combine:
		ds, tr, err := evalAll([]mechanics.Node{n.X, n.Y})
		if err != nil {
			return Dist{}, 0, err
		}
		out := map[int]float64{}
		x, y := ds[0], ds[1]
		for i, p := range x.P {
			if p == 0 {
				continue
			}
			for j, q := range y.P {
				if q != 0 {
					out[n.F(x.Lo+i, y.Lo+j)] += p * q
				}
			}
		}
		d, err := FromMap(out)
		return d, tr, err
	case mechanics.Max:
		ds, tr, err := evalAll(n.Terms)
		if err != nil {
			return Dist{}, 0, err
		}
		return MaxOf(ds...), tr, nil
	case mechanics.Min:
		ds, tr, err := evalAll(n.Terms)
		if err != nil {
			return Dist{}, 0, err
		}
		return MinOf(ds...), tr, nil
	case mechanics.Keep:
		return Keep(dieTable(n.Die), n.N, n.K, n.Highest), 0, nil
	case mechanics.Pool:
		return PoolDist(dieTable(n.Die), n.N, n.Eval), 0, nil
	case mechanics.Cond:
		ds, tr, err := evalAll([]mechanics.Node{n.If, n.Then, n.Else})
		if err != nil {
			return Dist{}, 0, err
		}
		pz := ds[0].Prob(0)
		return Mix([]float64{1 - pz, pz}, ds[1:]), tr, nil
	case mechanics.Mixture:
		ds, tr, err := evalAll(n.Of)
		if err != nil {
			return Dist{}, 0, err
		}
		var tot int64
		for _, w := range n.Weights {
			tot += w
		}
		ws := make([]float64, len(ds))
		for i, w := range n.Weights {
			ws[i] = float64(w) / float64(tot)
		}
		return Mix(ws, ds), tr, nil
	case mechanics.Explode:
		d, tr := Explode(dieTable(n.Die), n.Depth)
		return d, tr, nil
	default:
		return Dist{}, 0, fmt.Errorf("exact: unsupported node %T", n)
	}
}
