package exact

import (
	"fmt"
	"slices"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Eval computes the exact distribution of a model node, choosing the
// algorithm by the node's shape. truncated is the probability mass that
// depth-limited explosions could not follow.
//
// Eval runs within engine.DefaultMemory: a node whose distribution would not fit
// comes back as a *engine.MemoryError (bad input).
func Eval(n mechanics.Node) (d engine.Dist, truncated float64, err error) {
	return evalChecked(engine.DefaultBudget(), n)
}

func evalChecked(b *engine.Budget, n mechanics.Node) (engine.Dist, float64, error) {
	if err := mechanics.Validate(n); err != nil {
		return engine.Dist{}, 0, err
	}
	if err := planModel(b, n); err != nil {
		return engine.Dist{}, 0, err
	}
	return evalNode(b, n)
}

func dieTable(d mechanics.Die) faceTable {
	ft := newFaceTable(d.Faces, d.Weight, d.TotalWeight())
	ft.missing = float64(d.Missing) / float64(d.TotalWeight())
	return ft
}

// lost is the mass a result of dice with a Missing weight leaves out.
func lost(d mechanics.Die, res engine.Dist) float64 {
	if d.Missing == 0 {
		return 0
	}
	return max(0, 1-res.Total())
}

func evalAll(b *engine.Budget, ns []mechanics.Node) ([]engine.Dist, float64, error) {
	out := make([]engine.Dist, len(ns))
	tr := 0.0
	for i, c := range ns {
		d, t, err := evalNode(b, c)
		if err != nil {
			return nil, 0, err
		}
		out[i], tr = d, tr+t
	}
	return out, tr, nil
}

// evalNode picks the technique by the node's shape.
func evalNode(b *engine.Budget, n mechanics.Node) (engine.Dist, float64, error) {
	if err := b.Alive(); err != nil {
		return engine.Dist{}, 0, err
	}
	switch n := n.(type) {
	case mechanics.Die:
		d, err := fromDie(b, n.Faces, n.Weight, n.TotalWeight())
		return d, float64(n.Missing) / float64(n.TotalWeight()), err
	case mechanics.Const:
		return engine.Point(n.V), 0, nil
	case mechanics.Sum:
		return evalSum(b, n.Terms)
	case mechanics.Repeat:
		d, tr, err := evalNode(b, n.X)
		if err != nil {
			return engine.Dist{}, 0, err
		}
		d, err = sumN(b, d, n.N)
		return d, tr * float64(n.N), err
	case mechanics.RandomCount:
		return evalRandomCount(b, n)
	case mechanics.Scale, mechanics.Clamp, mechanics.Map, mechanics.Compare:
		return evalMapped(b, n)
	case mechanics.Combine:
		ds, tr, err := evalAll(b, []mechanics.Node{n.X, n.Y})
		if err != nil {
			return engine.Dist{}, 0, err
		}
		d, err := combine(b, ds[0], ds[1], n.F, n.Name)
		return d, tr, err
	case mechanics.Max:
		return evalOrder(b, n.Terms, true)
	case mechanics.Min:
		return evalOrder(b, n.Terms, false)
	case mechanics.KeepOf:
		return evalKeepOf(b, n)
	case mechanics.Keep:
		d, err := keepDist(b, n)
		return d, lost(n.Die, d), err
	case mechanics.Pool:
		d, err := poolDist(b, dieTable(n.Die), n.N, n.Eval)
		return d, lost(n.Die, d), err
	case mechanics.Unique:
		d, err := uniqueFloat(b, n)
		return d, 0, err
	case mechanics.ExplodeRolls:
		return rollsDist(b, n)
	case mechanics.CappedExplode:
		d, err := cappedFloat(b, n)
		return d, 0, err
	case mechanics.Cond:
		ds, tr, err := evalAll(b, []mechanics.Node{n.If, n.Then, n.Else})
		if err != nil {
			return engine.Dist{}, 0, err
		}
		pz := ds[0].Prob(0)
		d, err := mix(b, []float64{1 - pz, pz}, ds[1:])
		return d, tr, err
	case mechanics.Mixture:
		return evalMixture(b, n)
	case mechanics.Explode:
		if n.Limit == 0 && n.TopProbability() >= 1 {
			return engine.Dist{}, 0, fmt.Errorf("a die that bursts on every roll (%s) never stops", n.BurstFaces())
		}
		return explode(b, dieTable(n.Die), n, n.ExactDepth(), n.Limit > 0)
	default:
		return engine.Dist{}, 0, fmt.Errorf("exact: unsupported node %T", n)
	}
}

// evalSum is the sum of independent terms by convolution, a run of equal
// wide uniform terms (8d77728 listed die by die) as one k-fold sum of
// moving windows.
func evalSum(b *engine.Budget, terms []mechanics.Node) (engine.Dist, float64, error) {
	ds, tr, err := evalAll(b, terms)
	if err != nil {
		return engine.Dist{}, 0, err
	}
	acc := engine.Point(0)
	for i := 0; i < len(ds); {
		j := i + 1
		for wide := wideUniform(ds[i]); wide && j < len(ds) && ds[j].Lo == ds[i].Lo && slices.Equal(ds[j].P, ds[i].P); {
			j++
		}
		d := ds[i]
		if j-i > 1 {
			if d, err = sumN(b, d, j-i); err != nil {
				return engine.Dist{}, 0, err
			}
		}
		if acc, err = convolve(b, acc, d); err != nil {
			return engine.Dist{}, 0, err
		}
		i = j
	}
	return acc, tr, nil
}

// evalMapped is a node whose values are a function of another node's:
// Scale, Clamp, Map or Compare.
func evalMapped(b *engine.Budget, n mechanics.Node) (engine.Dist, float64, error) {
	var x mechanics.Node
	var f func(int) int
	var what string
	switch n := n.(type) {
	case mechanics.Scale:
		x, what = n.X, fmt.Sprintf("a value times %d", n.K)
		k := n.K
		f = func(v int) int { return k * v }
	case mechanics.Clamp:
		x, what = n.X, "a clamped value"
		lo, hi := n.Lo, n.Hi
		f = func(v int) int { return min(max(v, lo), hi) }
	case mechanics.Map:
		x, f, what = n.X, n.F, "map "+n.Name
	case mechanics.Compare:
		x, what = n.X, "a comparison"
		op, t := n.Op, n.T
		f = func(v int) int {
			if op.Holds(v, t) {
				return 1
			}
			return 0
		}
	}
	d, tr, err := evalNode(b, x)
	if err != nil {
		return engine.Dist{}, 0, err
	}
	if s, ok := n.(mechanics.Scale); ok && s.K == -1 {
		return negate(d), tr, nil
	}
	m, err := mapDist(b, d, f, what)
	if mp, ok := n.(mechanics.Map); ok && err != nil && !engine.Stopped(err) {
		return engine.Dist{}, 0, fmt.Errorf("map %s: %w", mp.Name, err)
	}
	return m, tr, err
}

// evalOrder is the largest (isMax) or the smallest of independent terms.
func evalOrder(b *engine.Budget, terms []mechanics.Node, isMax bool) (engine.Dist, float64, error) {
	ds, tr, err := evalAll(b, terms)
	if err != nil {
		return engine.Dist{}, 0, err
	}
	d, err := orderStat(b, ds, isMax)
	return d, tr, err
}

// evalMixture is one of the mixture's nodes, drawn by weight.
func evalMixture(b *engine.Budget, n mechanics.Mixture) (engine.Dist, float64, error) {
	ds, tr, err := evalAll(b, n.Of)
	if err != nil {
		return engine.Dist{}, 0, err
	}
	var tot int64
	for _, w := range n.Weights {
		tot += w
	}
	ws := make([]float64, len(ds))
	for i, w := range n.Weights {
		ws[i] = float64(w) / float64(tot)
	}
	d, err := mix(b, ws, ds)
	return d, tr, err
}

// combine is the joint of two independent variables through f (Combine).
// The values f gives are gathered in a map, whose growth is checked
// against the budget row by row.
func combine(b *engine.Budget, x, y engine.Dist, f func(a, b int) int, name string) (engine.Dist, error) {
	out := map[int]float64{}
	nnz := y.NonZero()
	if err := b.Plan(float64(x.NonZero()) * float64(nnz) * 30); err != nil { // a map update per pair
		return engine.Dist{}, err
	}
	for i, p := range x.P {
		if p == 0 {
			continue
		}
		if err := b.Tick(nnz * 8); err != nil {
			return engine.Dist{}, err
		}
		if err := b.Need(engine.MulBytes(int64(len(out)+nnz), engine.MapEntryBytes), engine.AdviceValues, "the values of combine %s", name); err != nil {
			return engine.Dist{}, err
		}
		for j, q := range y.P {
			if q != 0 {
				out[f(x.Lo+i, y.Lo+j)] += p * q
			}
		}
	}
	return fromMap(b, out, "combine "+name)
}
