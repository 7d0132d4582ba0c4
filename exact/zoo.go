package exact

import "github.com/oddsmith/oddsmith/mechanics"

// NodeZoo returns one small model of every node kind, for tests that must run
// both engines over every kind (a new kind fails them until both engines
// support it).
func NodeZoo() map[string]mechanics.Node {
	d6, d4 := mechanics.D(6), mechanics.D(4)
	w := mechanics.Die{Faces: []int{-2, 0, 5}, Weights: []int64{3, 1, 2}}
	return map[string]mechanics.Node{
		"Die":     w,
		"Const":   mechanics.Const{V: 7},
		"Sum":     mechanics.Sum{Terms: []mechanics.Node{d6, w, mechanics.Const{V: 2}}},
		"Repeat":  mechanics.Repeat{X: d4, N: 5},
		"Scale":   mechanics.Scale{X: d6, K: -3},
		"Clamp":   mechanics.Clamp{X: mechanics.Sum{Terms: []mechanics.Node{d6, d6}}, Lo: 4, Hi: 9},
		"Map":     mechanics.Map{X: d6, F: func(x int) int { return x * x % 5 }, Name: "sq mod 5"},
		"Combine": mechanics.Combine{X: d6, Y: d4, F: func(x, y int) int { return 10*x + y }, Name: "pack"},
		"Max":     mechanics.Max{Terms: []mechanics.Node{d6, d4, w}},
		"Min":     mechanics.Min{Terms: []mechanics.Node{d6, d4, w}},
		"Keep":    mechanics.Keep{Die: d6, N: 4, K: 3, Highest: true},
		"KeepLow": mechanics.Keep{Die: d6, N: 3, K: 2},
		"Pool":    mechanics.Pool{Die: d6, N: 3, Eval: mechanics.SumEval{}},
		"Compare": mechanics.Compare{X: mechanics.Sum{Terms: []mechanics.Node{d6, d6}}, Op: mechanics.GE, T: 8},
		"Cond":    mechanics.Cond{If: mechanics.Compare{X: d6, Op: mechanics.EQ, T: 6}, Then: d4, Else: mechanics.Const{V: -1}},
		"Mixture": mechanics.Mixture{Weights: []int64{1, 3}, Of: []mechanics.Node{d6, d4}},
		"Explode": mechanics.Explode{Die: d4, Depth: 3},
	}
}

// GamblersRuin is the chain on 0..n that steps +1 with weight up and −1 with
// weight down, starting at start, absorbed at 0 ("ruin") and n ("goal").
func GamblersRuin(n, start int, up, down int64) *mechanics.Process {
	p := &mechanics.Process{Start: start, Homogeneous: true, Horizon: 2000, TimeUnit: "bet"}
	for s := 0; s <= n; s++ {
		p.States = append(p.States, map[bool]string{true: "ruin", false: "goal"}[s == 0])
		p.Absorbing = append(p.Absorbing, s == 0 || s == n)
	}
	for s := 1; s < n; s++ {
		p.States[s] = "bankroll"
	}
	p.Step = func(_, s int) mechanics.Node {
		return mechanics.Die{Faces: []int{s + 1, s - 1}, Weights: []int64{up, down}}
	}
	return p
}
