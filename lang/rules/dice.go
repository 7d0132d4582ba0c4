package rules

import (
	"fmt"
	"maps"
	"math"
	"math/big"
	"slices"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// term is a dice term taken apart: how many dice, the die after rerolls,
// the explosion, and the modifiers that read the dice one by one.
type term struct {
	at      notation.Pos
	n       int
	die     mechanics.Die
	explode *mechanics.Explode
	// compound: the explosion was written !! (the rolls of one die add up
	// to one value); with ! a counted die's extra rolls count as dice.
	compound bool
	// each: the explosion was written !e (keep, drop and pools read
	// every roll as a die of its own).
	each bool
	// capped: the explosion has a cap on the extra rolls of the whole
	// term, total of them at most ({2 in all}, Foundry's x2>=8).
	capped  bool
	total   int
	kd      []notation.Mod   // keeps and drops, applied left to right
	success []*notation.Cond // cs conditions (nil entries: the highest face)
	fail    []*notation.Cond // cf conditions (nil: the lowest face)
	hasCS   bool
	hasCF   bool
	unique  *notation.Unique  // u, uo: repeats rerolled (at most one)
	matches *notation.Matches // mt: the term counts matched sets
	// count is a number of dice that is a roll ((1d4)d6; n is then its
	// most): see count.go.
	count *value
}

// baseDie is the die of a dice term before its modifiers.
func (c *compiler) baseDie(d *notation.Dice) (mechanics.Die, error) {
	switch d.Kind {
	case notation.Percent:
		return mechanics.D(100), nil
	case notation.Fudge:
		return mechanics.Die{Faces: []int{-1, 0, 1}}, nil
	case notation.Custom:
		faces := make([]int, len(d.Faces))
		for i, f := range d.Faces {
			if !f.Value.IsInt() || f.Value.N > math.MaxInt32 || f.Value.N < math.MinInt32 {
				return mechanics.Die{}, errAt(f.At, "a face must be a whole number (up to ±2³¹), got %s", f.Value)
			}
			faces[i] = int(f.Value.N)
		}
		if len(faces) == 0 {
			return mechanics.Die{}, errAt(d.At, "a custom die needs at least one face")
		}
		if len(faces) > MaxSides {
			return mechanics.Die{}, errAt(d.At, "a custom die may have at most %d faces", MaxSides)
		}
		return mechanics.Die{Faces: faces}, nil
	}
	s, err := c.intConst(d.Sides, "the number of sides", 1, MaxSides)
	if err != nil {
		return mechanics.Die{}, err
	}
	return mechanics.D(s), nil
}

// faceCond turns a dice condition into a test of a face; nil means the
// face given by dflt.
func (c *compiler) faceCond(cd *notation.Cond, dflt int) (func(int) bool, string, error) {
	if cd == nil {
		return func(f int) bool { return f == dflt }, fmt.Sprintf("= %d", dflt), nil
	}
	v, err := c.intConst(cd.Value, "a dice condition's value", math.MinInt32, math.MaxInt32)
	if err != nil {
		return nil, "", err
	}
	op := cmpOps[cd.Op]
	return func(f int) bool { return op.Holds(f, v) }, fmt.Sprintf("%s %d", op, v), nil
}

func dieRange(d mechanics.Die) (lo, hi int) {
	lo, hi = d.Faces[0], d.Faces[0]
	for _, f := range d.Faces {
		lo, hi = min(lo, f), max(hi, f)
	}
	return lo, hi
}

// takeApart reads a dice term's count, die and modifiers.
func (c *compiler) takeApart(d *notation.Dice) (*term, error) {
	t := &term{at: d.At, n: 1}
	if d.Count != nil {
		n, count, err := c.diceCount(d.Count)
		if err != nil {
			return nil, err
		}
		t.n, t.count = n, count
	}
	die, err := c.baseDie(d)
	if err != nil {
		return nil, err
	}
	// Rerolls, min and max first, in the order written: they change the
	// die itself, for every later modifier and every later roll of it.
	for _, m := range d.Mods {
		switch m := m.(type) {
		case *notation.Reroll:
			lo, _ := dieRange(die)
			test, desc, err := c.faceCond(m.Cond, lo)
			if err != nil {
				return nil, err
			}
			if die, err = reroll(die, test, m.Once); err != nil {
				return nil, errAt(m.At, "reroll %s: %v", desc, err)
			}
		case *notation.FaceBound:
			what := "a die's minimum (min)"
			if m.Max {
				what = "a die's maximum (max)"
			}
			v, err := c.intConst(m.Value, what, math.MinInt32, math.MaxInt32)
			if err != nil {
				return nil, err
			}
			die = bounded(die, v, m.Max)
		}
	}
	t.die = die
	for _, m := range d.Mods {
		switch m := m.(type) {
		case *notation.Reroll, *notation.FaceBound:
		case *notation.Unique:
			if t.unique != nil {
				return nil, errAt(m.At, "the dice are already unique: one u or uo per dice term")
			}
			t.unique = m
		case *notation.Matches:
			if t.matches != nil {
				return nil, errAt(m.At, "the matches are already counted: one mt per dice term")
			}
			t.matches = m
		case *notation.Explode:
			e := mechanics.Explode{Die: die, Penetrate: m.Penetrate}
			_, top := dieRange(die)
			never := fmt.Sprintf("%d", top)
			if m.Cond != nil {
				v, err := c.intConst(m.Cond.Value, "an explosion's value", math.MinInt32, math.MaxInt32)
				if err != nil {
					return nil, err
				}
				switch op := m.Cond.Op; {
				case op == notation.Ge:
					e.ByThreshold, e.Threshold, never = true, v, fmt.Sprintf("%d or more", v)
				case op == notation.Gt && v < math.MaxInt32:
					e.ByThreshold, e.Threshold, never = true, v+1, fmt.Sprintf("%d or more", v+1)
				case op == notation.Eq && v == top:
				default:
					// Any other faces: the ones the condition holds for.
					holds := cmpOps[op]
					for _, f := range die.Faces {
						if holds.Holds(f, v) && !slices.Contains(e.On, f) {
							e.On = append(e.On, f)
						}
					}
					slices.Sort(e.On)
					never = map[notation.CmpOp]string{notation.Eq: "%d", notation.Lt: "less than %d", notation.Le: "%d or less", notation.Gt: "more than %d"}[op]
					never = fmt.Sprintf(never, v)
					if len(e.On) == 0 {
						return nil, errAt(m.At, "the die never shows %s, so it never explodes", never)
					}
				}
			}
			if m.Limit != nil {
				l, err := c.intConst(m.Limit, "an explosion's limit", 1, MaxExplodeLimit)
				if err != nil {
					return nil, err
				}
				e.Limit = l
			}
			if e.TopProbability() == 0 {
				return nil, errAt(m.At, "the die never shows %s, so it never explodes", never)
			}
			if m.Total != nil {
				if t.total, err = c.intConst(m.Total, "an explosion's cap on the whole term", 0, MaxExplodeLimit); err != nil {
					return nil, err
				}
				t.capped = true
			}
			if e.Limit == 0 && e.TopProbability() >= 1 && !t.capped {
				advice := "explode on fewer faces"
				if e.ByThreshold && len(e.On) == 0 {
					advice = "a higher threshold"
				}
				return nil, errAt(m.At, "every face explodes (%s), so the die never stops: give a limit (!{3}) or %s", e.BurstFaces(), advice)
			}
			t.explode, t.compound, t.each = &e, m.Compound, m.Each
		case *notation.Keep, *notation.Drop:
			t.kd = append(t.kd, m)
		case *notation.CountSuccess:
			t.success, t.hasCS = append(t.success, m.Cond), true
		case *notation.CountFail:
			t.fail, t.hasCF = append(t.fail, m.Cond), true
		}
	}
	return t, nil
}

// bounded is the die with every face below v shown as v (min), or every
// face above v (max); faces that become equal are merged.
func bounded(d mechanics.Die, v int, isMax bool) mechanics.Die {
	w := map[int]int64{}
	for i, f := range d.Faces {
		if isMax {
			f = min(f, v)
		} else {
			f = max(f, v)
		}
		w[f] += d.Weight(i)
	}
	out := mechanics.Die{Faces: slices.Sorted(maps.Keys(w))}
	out.Weights = make([]int64, len(out.Faces))
	uniform := true
	for i, f := range out.Faces {
		out.Weights[i] = w[f]
		uniform = uniform && w[f] == w[out.Faces[0]]
	}
	if uniform && out.Weights[0] == 1 {
		out.Weights = nil
	}
	return out
}

// reroll is the die after rerolling faces that pass test: repeatedly (the
// die restricted to the other faces, same odds between them) or once (a
// face that passes is replaced by a fresh roll: P'(f) = P(f)·(1[f fails
// the test] + P(rerolled))).
func reroll(d mechanics.Die, test func(int) bool, once bool) (mechanics.Die, error) {
	W := d.TotalWeight()
	var WR int64
	for i, f := range d.Faces {
		if test(f) {
			WR += d.Weight(i)
		}
	}
	if WR == 0 {
		return d, nil // nothing to reroll
	}
	if !once {
		if WR == W {
			return mechanics.Die{}, fmt.Errorf("every face is rerolled, so the die never stops")
		}
		out := mechanics.Die{}
		for i, f := range d.Faces {
			if !test(f) {
				out.Faces = append(out.Faces, f)
				out.Weights = append(out.Weights, d.Weight(i))
			}
		}
		return out, nil
	}
	if W > 1<<31 {
		return mechanics.Die{}, fmt.Errorf("the die's weights are too large to reroll exactly")
	}
	out := mechanics.Die{Faces: append([]int(nil), d.Faces...), Weights: make([]int64, len(d.Faces))}
	for i, f := range d.Faces {
		w := d.Weight(i) * WR
		if !test(f) {
			w += d.Weight(i) * W
		}
		out.Weights[i] = w
	}
	return out, nil
}

// burstRange is the least and the most an exploding die can show (one
// exploding without limit rolls on up to MaxBursts times in the
// simulator).
func burstRange(e mechanics.Explode) (lo, hi int) {
	dlo, dhi := dieRange(e.Die)
	n := e.Limit
	if n == 0 {
		n = mechanics.MaxBursts
	}
	// Up to n rolls that burst, each adding BurstAdds of its face (one
	// less when penetrating), then any face: the least a bursting roll
	// adds lowers the total if it is negative, the most raises it if
	// positive.
	bursts := e.Burster()
	low, high := dhi, dlo
	for _, f := range e.Die.Faces {
		if bursts(f) {
			low, high = min(low, e.BurstAdds(f)), max(high, e.BurstAdds(f))
		}
	}
	return dlo + n*min(0, low), dhi + n*max(0, high)
}

// finiteDie is an explosion as one die with integer weights (every
// sequence of rolls of the die, each extra roll taken only after a roll
// that bursts), for keep, drop and pools, which read dice one by
// one. A limited explosion is exact. An unlimited one is followed while
// the odds fit in 62 bits and until what is left, over the n dice of the
// term, has probability at most 10⁻¹²: the chains going further are the
// die's Missing weight, which the exact engine reports as truncated mass.
func finiteDie(e mechanics.Explode, at notation.Pos, n int) (mechanics.Die, error) {
	W := big.NewInt(e.Die.TotalWeight())
	limit, unlimited := e.Limit, e.Limit == 0
	if unlimited {
		bits := math.Log2(float64(e.Die.TotalWeight()))
		most := int(62/bits) - 1 // W^(limit+1) within 62 bits
		p := e.TopProbability()
		need := int(math.Ceil(math.Log(mechanics.DefaultTolerance/float64(max(n, 1))) / math.Log(p)))
		limit = max(1, min(need-1, most))
		if most < 1 {
			return mechanics.Die{}, errAt(at, "the exploding die's odds need more than 62 bits (%d faces): give it a limit (!{n}) or use fewer faces", len(e.Die.Faces))
		}
	}
	total := new(big.Int).Exp(W, big.NewInt(int64(limit+1)), nil)
	if total.BitLen() > 62 {
		return mechanics.Die{}, errAt(at, "the exploding die's odds need more than 62 bits (%d faces, limit %d): lower the limit", len(e.Die.Faces), limit)
	}
	bursts := e.Burster()
	weights := map[int]*big.Int{}
	missing := new(big.Int)
	// cur: the sum of the rolls so far → weight (over W^j), for chains still going.
	cur := map[int]*big.Int{0: big.NewInt(1)}
	for j := 0; j <= limit; j++ {
		next := map[int]*big.Int{}
		scale := new(big.Int).Exp(W, big.NewInt(int64(limit-j)), nil)
		for s, w := range cur {
			for i, f := range e.Die.Faces {
				q := new(big.Int).Mul(w, big.NewInt(e.Die.Weight(i)))
				if bursts(f) && j < limit {
					v := s + e.BurstAdds(f)
					if next[v] == nil {
						next[v] = new(big.Int)
					}
					next[v].Add(next[v], q)
					continue
				}
				if bursts(f) && unlimited {
					missing.Add(missing, q) // it would burst again: left out
					continue
				}
				if weights[s+f] == nil {
					weights[s+f] = new(big.Int)
				}
				weights[s+f].Add(weights[s+f], new(big.Int).Mul(q, scale))
			}
		}
		cur = next
		if len(weights)+len(cur) > maxFiniteBurst {
			return mechanics.Die{}, errAt(at, "the exploding die has more than %d values: lower the limit", maxFiniteBurst)
		}
	}
	out := mechanics.Die{Faces: slices.Sorted(maps.Keys(weights)), Missing: missing.Int64()}
	out.Weights = make([]int64, len(out.Faces))
	for i, v := range out.Faces {
		out.Weights[i] = weights[v].Int64()
	}
	return out, nil
}

// dice compiles a dice term to a fresh random value.
func (c *compiler) dice(d *notation.Dice) (value, error) {
	t, err := c.takeApart(d)
	if err != nil {
		return value{}, err
	}
	if t.count != nil {
		return c.randomCount(t, d)
	}
	if t.n == 0 {
		return rndV(mechanics.Const{V: 0}, 0, 0), nil
	}
	if t.capped {
		return c.cappedTerm(t)
	}
	if t.unique != nil || t.matches != nil {
		return c.uniqueOrMatches(t)
	}
	one := mechanics.Node(t.die)
	lo, hi := dieRange(t.die)
	if t.explode != nil {
		one = *t.explode
		lo, hi = burstRange(*t.explode)
	}
	switch {
	case len(t.kd) > 0 && t.each && t.explode != nil:
		return c.eachRolls(t)
	case len(t.kd) > 0:
		if t.n > MaxPoolDice {
			return value{}, errAt(t.at, "keep and drop read the dice one by one: at most %d dice", MaxPoolDice)
		}
		die := t.die
		if t.explode != nil {
			if die, err = finiteDie(*t.explode, t.at, t.n); err != nil {
				return value{}, err
			}
		}
		a, b, err := c.window(t.kd, t.n)
		if err != nil {
			return value{}, err
		}
		k, highest := b-a, a > 0
		if a > 0 && b < t.n {
			// A window in the middle (4d6dl1kh2): the dice ranked a..b-1
			// from the lowest.
			dlo, dhi := dieRange(die)
			if t.hasCS || t.hasCF {
				score, err := c.scorer(t)
				if err != nil {
					return value{}, err
				}
				return rndV(mechanics.Pool{Die: die, N: t.n, Eval: windowScore(t.n, a, b, -1, score)}, -k, k), nil
			}
			return rndV(mechanics.Pool{Die: die, N: t.n, Eval: windowScore(t.n, a, b, dlo, func(f int) int { return f })}, k*dlo, k*dhi), nil
		}
		dlo, dhi := dieRange(die)
		if k == 0 {
			return rndV(mechanics.Const{V: 0}, 0, 0), nil
		}
		if t.hasCS || t.hasCF {
			// Successes counted among the kept dice only (3d6kh2cs>=5).
			score, err := c.scorer(t)
			if err != nil {
				return value{}, err
			}
			return rndV(mechanics.Pool{Die: die, N: t.n, Eval: keptScore(t.n, k, highest, score)}, -k, k), nil
		}
		return rndV(mechanics.Keep{Die: die, N: t.n, K: k, Highest: highest}, k*dlo, k*dhi), nil
	case t.hasCS || t.hasCF:
		score, err := c.scorer(t)
		if err != nil {
			return value{}, err
		}
		slo, shi := 0, 0
		if t.hasCF {
			slo = -t.n
		}
		if t.hasCS {
			shi = t.n
		}
		if t.explode != nil && !t.compound {
			// Roll20 and Foundry count every roll of an exploding die
			// as a die of its own.
			per, plo, phi, err := chainCount(*t.explode, score, t.at)
			if err != nil {
				return value{}, err
			}
			return rndV(sumOf(per, t.n), t.n*plo, t.n*phi), nil
		}
		m := mechanics.Map{X: one, F: score, Name: "successes"}
		return rndV(sumOf(m, t.n), slo, shi), nil
	}
	return rndV(sumOf(one, t.n), t.n*lo, t.n*hi), nil
}

// window is what a term's keeps and drops leave, applied left to right
// each to the dice still kept (Roll20's and Foundry's reading: 4d6dl1kh2
// drops the lowest, then keeps the highest two of the other three): the
// dice ranked a..b-1 from the lowest. Keeping more dice than are left
// keeps them all, dropping more drops them all.
func (c *compiler) window(kd []notation.Mod, n int) (a, b int, err error) {
	ops, err := c.windowOps(kd)
	if err != nil {
		return 0, 0, err
	}
	a, b = applyWindow(ops, n)
	return a, b, nil
}

// winOp is one keep or drop: n dice, kept or dropped, from the top or the
// bottom.
type winOp struct {
	n         int
	keep, top bool
}

// windowOps reads a term's keeps and drops.
func (c *compiler) windowOps(kd []notation.Mod) ([]winOp, error) {
	var ops []winOp
	for _, m := range kd {
		var count notation.Expr
		what, op := "the number of dice kept", winOp{}
		switch m := m.(type) {
		case *notation.Keep:
			count, op.keep, op.top = m.Count, true, m.End == notation.High
		case *notation.Drop:
			count, op.top, what = m.Count, m.End == notation.High, "the number of dice dropped"
		}
		op.n = 1
		if count != nil {
			var err error
			if op.n, err = c.intConst(count, what, 0, MaxDice); err != nil {
				return nil, err
			}
		}
		ops = append(ops, op)
	}
	return ops, nil
}

// applyWindow is what keeps and drops leave of n dice: the dice ranked
// a..b-1 from the lowest.
func applyWindow(ops []winOp, n int) (a, b int) {
	a, b = 0, n
	for _, op := range ops {
		k := min(op.n, b-a)
		switch {
		case op.keep && op.top:
			a = b - k
		case op.keep:
			b = a + k
		case op.top:
			b -= k
		default:
			a += k
		}
	}
	return a, b
}

// windowScore sums score over the dice ranked a..b-1 from the lowest of n
// (the evaluator sees the faces in ascending order); every score is at
// least lo, so that the state stays non-negative.
func windowScore(n, a, b, lo int, score func(int) int) mechanics.Evaluator {
	off := -min(lo, 0) * n
	return mechanics.EvalFunc{
		StartF: func() uint64 { return uint64(off) << 16 },
		NextF: func(s uint64, face, c int) uint64 {
			m, sc := int(s&0xffff), int(s>>16)
			sc += max(0, min(m+c, b)-max(m, a)) * score(face)
			return uint64(sc)<<16 | uint64(m+c)
		},
		FinalF: func(s uint64) int { return int(s>>16) - off },
	}
}

// scorer is a face's score under a term's counting: +1 for a success
// (cs, #), −1 for a failure (cf), 0 otherwise.
func (c *compiler) scorer(t *term) (func(int) int, error) {
	bottom, top := dieRange(t.die)
	var tests []func(int) bool
	var fails []func(int) bool
	for _, cd := range t.success {
		f, _, err := c.faceCond(cd, top)
		if err != nil {
			return nil, err
		}
		tests = append(tests, f)
	}
	for _, cd := range t.fail {
		f, _, err := c.faceCond(cd, bottom)
		if err != nil {
			return nil, err
		}
		fails = append(fails, f)
	}
	score := func(v int) int {
		s := 0
		for _, f := range tests {
			if f(v) {
				s++
				break
			}
		}
		for _, f := range fails {
			if f(v) {
				s--
				break
			}
		}
		return s
	}
	return score, nil
}

// keptScore is the evaluator of successes counted among the k highest (or
// lowest) of n dice: faces come in ascending order, so the dice placed so
// far tell which of a face's copies are kept. The state packs the dice
// placed (low 16 bits) and the count plus n (above).
func keptScore(n, k int, highest bool, score func(int) int) mechanics.Evaluator {
	return mechanics.EvalFunc{
		StartF: func() uint64 { return uint64(n) << 16 },
		NextF: func(s uint64, face, c int) uint64 {
			m, sc := int(s&0xffff), int(s>>16)
			sc += mechanics.KeptCount(n, k, m, c, highest) * score(face)
			return uint64(sc)<<16 | uint64(m+c)
		},
		FinalF: func(s uint64) int { return int(s>>16) - n },
	}
}

// chainCount is the successes (less failures) counted over every roll of
// one exploding die, each extra roll counted as a die of its own. Every
// face that explodes must score the same a; a roll is then written as its
// score (−1, 0 or 1) if it stops the chain and as 3 if it explodes, so the
// chain's sum x = 3·G + X (G exploding rolls, X the last roll's score)
// decodes exactly, and the count is a·G + X. The exact engine follows the
// chain until what is left has probability ≤ 10⁻¹² (reported as truncated
// mass), the simulator as far as the dice go. A penetrating die's extra
// rolls count one less, and are scored so (as Roll20 does): see
// penetratingCount.
func chainCount(e mechanics.Explode, score func(int) int, at notation.Pos) (mechanics.Node, int, int, error) {
	if e.Penetrate {
		return penetratingCount(e, score, at)
	}
	bursts := e.Burster()
	a, first, seen := 0, 0, false
	enc := mechanics.Die{Weights: make([]int64, len(e.Die.Faces))}
	for i, f := range e.Die.Faces {
		enc.Weights[i] = e.Die.Weight(i)
		if !bursts(f) {
			enc.Faces = append(enc.Faces, score(f))
			continue
		}
		if seen && score(f) != a {
			return nil, 0, 0, errAt(at, "counting the rolls of an exploding die needs every exploding face to count the same (%d counts %d, %d counts %d): explode on fewer faces, or write !! to count each die's total once", first, a, f, score(f))
		}
		a, first, seen = score(f), f, true
		enc.Faces = append(enc.Faces, 3)
	}
	ex := mechanics.Explode{Die: enc, Limit: e.Limit, Tolerance: e.Tolerance, ByThreshold: true, Threshold: 2}
	decode := func(x int) int {
		g := floorDiv(x+1, 3)
		return a*g + x - 3*g
	}
	n := e.Limit
	if n == 0 {
		n = mechanics.MaxBursts
	}
	lo, hi := min(0, a)*n-1, max(0, a)*n+1
	return mechanics.Map{X: ex, F: decode, Name: "successes over the exploded rolls"}, lo, hi, nil
}

// penetratingCount is chainCount for a penetrating die: its first roll is
// scored on its face, every extra roll on its face less one (Roll20 counts
// the values the dice add up to), while whether a roll explodes is judged
// on the face. The count is the first roll's score, plus, when it
// explodes, the count over the extra rolls: a chain of its own, one
// explosion shorter, scored on the faces less one (a single roll when the
// limit allowed one).
func penetratingCount(e mechanics.Explode, score func(int) int, at notation.Pos) (mechanics.Node, int, int, error) {
	less := func(f int) int { return score(f - 1) }
	var rest mechanics.Node
	rlo, rhi := -1, 1
	if e.Limit == 1 {
		rest = mechanics.Map{X: e.Die, F: less, Name: "successes"}
	} else {
		bursts, a, first, seen := e.Burster(), 0, 0, false
		for _, f := range e.Die.Faces {
			switch {
			case !bursts(f):
			case !seen:
				a, first, seen = less(f), f, true
			case less(f) != a:
				return nil, 0, 0, errAt(at, "counting the rolls of a penetrating die needs every exploding face to count the same as an extra roll, read one less (an extra %d counts as %d: %d, an extra %d as %d: %d): explode on fewer faces, or write !!p to count each die's total once",
					first, first-1, a, f, f-1, less(f))
			}
		}
		r := e
		r.Penetrate = false
		if r.Limit > 0 {
			r.Limit--
		}
		var err error
		if rest, rlo, rhi, err = chainCount(r, less, at); err != nil {
			return nil, 0, 0, err
		}
	}
	// The first roll: its score, or 10 more when it explodes.
	bursts := e.Burster()
	first := mechanics.Die{Faces: make([]int, len(e.Die.Faces)), Weights: make([]int64, len(e.Die.Faces))}
	for i, f := range e.Die.Faces {
		first.Faces[i], first.Weights[i] = score(f), e.Die.Weight(i)
		if bursts(f) {
			first.Faces[i] += 10
		}
	}
	count := func(x, y int) int {
		if x < 5 {
			return x
		}
		return x - 10 + y
	}
	return mechanics.Combine{X: first, Y: rest, F: count, Name: "successes over the penetrating rolls"}, rlo - 1, rhi + 1, nil
}

// sumOf is n independent copies of x added: listed term by term for a few
// (the simulator draws bursting dice of one kind together), else repeated.
func sumOf(x mechanics.Node, n int) mechanics.Node {
	if n == 1 {
		return x
	}
	if n <= 32 {
		terms := make([]mechanics.Node, n)
		for i := range terms {
			terms[i] = x
		}
		return mechanics.Sum{Terms: terms}
	}
	return mechanics.Repeat{X: x, N: n}
}

// poolDie is the die and count of a dice term read as a pool.
func (c *compiler) poolDie(d *notation.Dice) (mechanics.Die, int, error) {
	t, err := c.takeApart(d)
	if err != nil {
		return mechanics.Die{}, 0, err
	}
	if err := t.fixedCount(d, "a pool"); err != nil {
		return mechanics.Die{}, 0, err
	}
	if len(t.kd) > 0 || t.hasCS || t.hasCF || t.matches != nil {
		return mechanics.Die{}, 0, errAt(d.At, "a pool is read by its evaluator: write its dice without keep, drop or counting (%s)", d)
	}
	if t.capped {
		return mechanics.Die{}, 0, errAt(d.At, "%s", cappedPool(d))
	}
	if t.unique != nil {
		return mechanics.Die{}, 0, errAt(t.unique.At, "a pool's dice are rolled independently: unique dice (u, uo) are a dice term of their own (%s, %skh2), not a pool", d, d)
	}
	if t.each {
		return mechanics.Die{}, 0, errAt(d.At, "a pool bound to a name is read die by die, and the rolls of !e as dice of their own are read only in place: write the dice in the call (highest(%s, 2))", d)
	}
	if t.n > MaxPoolDice {
		return mechanics.Die{}, 0, errAt(d.At, "a pool has at most %d dice", MaxPoolDice)
	}
	die := t.die
	if t.explode != nil {
		if die, err = finiteDie(*t.explode, d.At, t.n); err != nil {
			return mechanics.Die{}, 0, err
		}
		if k := len(kit.DistinctFaces(die)); k > 64 {
			advice := fmt.Sprintf("give the explosion a limit (%s with !{2}, say)", d)
			if t.explode.Limit > 0 {
				advice = "lower the explosion's limit or use a smaller die"
			}
			return mechanics.Die{}, 0, errAt(d.At, "a pool's die may have at most 64 different faces, and this exploding die has %d: %s", k, advice)
		}
	}
	return die, t.n, nil
}

// statOf reads which statistic a pool call asks for; pool is the call's
// pool argument.
func (c *compiler) statOf(e *notation.Call) (kit.PoolStat, notation.Expr, error) {
	arg := e.Args[0]
	switch e.Name {
	case "highest", "lowest":
		k := 1
		if len(e.Args) > 1 {
			var err error
			if k, err = c.intConst(e.Args[1], "the number of dice "+e.Name+" reads", 1, MaxPoolDice); err != nil {
				return nil, nil, err
			}
		}
		if e.Name == "highest" {
			return kit.PoolHighest{K: k}, arg, nil
		}
		return kit.PoolLowest{K: k}, arg, nil
	case "sum":
		return kit.PoolSum{}, arg, nil
	case "distinct":
		return kit.PoolDistinct{}, arg, nil
	case "largest_set":
		return kit.PoolLargestSet{}, arg, nil
	case "straight":
		return kit.PoolStraight{}, arg, nil
	case "count", "all", "any":
		f, ok := arg.(*notation.Filter)
		if !ok {
			return nil, nil, errAt(arg.Pos(), "%s needs a comparison of the pool: %s(pool >= 5)", e.Name, e.Name)
		}
		op := cmpOps[f.Op]
		if call, ok := ownExtreme(f); ok {
			if e.Name != "count" || f.Op != notation.Eq {
				return nil, nil, errAt(f.OpAt, "against the pool's own %s only count(pool == %s(pool)) is supported", call.Name, call.Name)
			}
			if call.Name == "highest" {
				return kit.PoolCountHighest{}, f.Pool, nil
			}
			return kit.PoolCountLowest{}, f.Pool, nil
		}
		v, err := c.intConst(f.Value, "the value a pool is compared with", math.MinInt32, math.MaxInt32)
		if err != nil {
			return nil, nil, err
		}
		switch e.Name {
		case "count":
			return kit.PoolCount{Op: op, T: v}, f.Pool, nil
		case "all":
			return kit.PoolAll{Op: op, T: v}, f.Pool, nil
		}
		return kit.PoolAny{Op: op, T: v}, f.Pool, nil
	}
	return nil, nil, errAt(e.At, "unknown pool function %q", e.Name)
}

// reduceAllAny reads all(pool … v) and any(pool … v) of a named pool
// through its highest or lowest die where the faces that pass form the
// top or the bottom of the die's faces (sorted, distinct): all dice ≥ a is
// lowest ≥ a, any die ≥ a is highest ≥ a, all ones is highest ≤ 1. The
// pool then tracks one statistic fewer when it reads highest or lowest
// anyway (all(pool == 1) beside highest(pool)). wrap turns the field of the
// statistic returned into the value; other statistics come back as they
// are.
func reduceAllAny(st kit.PoolStat, faces []int) (kit.PoolStat, func(expr.Expr) expr.Expr) {
	same := func(e expr.Expr) expr.Expr { return e }
	var op mechanics.CmpOp
	var t int
	var isAll bool
	switch s := st.(type) {
	case kit.PoolAll:
		op, t, isAll = s.Op, s.T, true
	case kit.PoolAny:
		op, t = s.Op, s.T
	default:
		return st, same
	}
	if len(faces) == 0 {
		return st, same
	}
	first, last := -1, -1 // the faces that pass: faces[first..last]
	for i, f := range faces {
		if op.Holds(f, t) {
			if first < 0 {
				first = i
			} else if last != i-1 {
				return st, same // not one run
			}
			last = i
		}
	}
	top, bottom := first >= 0 && last == len(faces)-1, first == 0
	switch {
	case first < 0:
		return st, same
	case isAll && top: // every die at faces[first] or above
		a := faces[first]
		return kit.PoolLowest{K: 1}, func(e expr.Expr) expr.Expr { return expr.Ge(e, expr.K(int64(a))) }
	case isAll && bottom:
		b := faces[last]
		return kit.PoolHighest{K: 1}, func(e expr.Expr) expr.Expr { return expr.Le(e, expr.K(int64(b))) }
	case !isAll && top: // some die at faces[first] or above
		a := faces[first]
		return kit.PoolHighest{K: 1}, func(e expr.Expr) expr.Expr { return expr.Ge(e, expr.K(int64(a))) }
	case !isAll && bottom:
		b := faces[last]
		return kit.PoolLowest{K: 1}, func(e expr.Expr) expr.Expr { return expr.Le(e, expr.K(int64(b))) }
	}
	return st, same
}

// ownExtreme is the call when a pool is compared with its own highest or
// lowest die (count(pool == highest(pool))).
func ownExtreme(f *notation.Filter) (*notation.Call, bool) {
	call, ok := f.Value.(*notation.Call)
	return call, ok && (call.Name == "highest" || call.Name == "lowest") && len(call.Args) == 1 && samePool(call.Args[0], f.Pool)
}

// samePool reports two pool arguments that name the same roll: the same
// name, or the same dice written in one call.
func samePool(a, b notation.Expr) bool {
	return notation.String(a) == notation.String(b)
}

// poolCall compiles an evaluator: on a named pool it reads that pool's
// field for the statistic; on dice written in place it is a fresh roll.
func (c *compiler) poolCall(e *notation.Call) (value, error) {
	st, pool, err := c.statOf(e)
	if err != nil {
		return value{}, err
	}
	switch p := pool.(type) {
	case *notation.Name:
		pb, ok := c.pools[p.Name]
		if !ok {
			if _, bound := c.binds[p.Name]; bound {
				return value{}, errAt(p.At, "%q is not a pool: bind it to dice alone (%s = 5d6) to read it die by die", p.Name, p.Name)
			}
			if _, param := c.params[p.Name]; param {
				return value{}, errAt(p.At, "%q is a parameter, not a pool: %s reads dice (%s(5d6), or a rule file's binding pool = 5d6)", p.Name, e.Name, e.Name)
			}
			return c.name(p) // unknown name: its error
		}
		st, wrap := reduceAllAny(st, pb.faces)
		f, ok := pb.field[statKey(st)]
		if !ok {
			return value{}, errAt(e.At, "internal: statistic %s of pool %s was not collected", st.Name(), p.Name)
		}
		v := detV(wrap(expr.F(f)))
		v.event = e.Name == "all" || e.Name == "any"
		return v, nil
	case *notation.Dice:
		if explodesEach(p) {
			return c.poolRolls(e, p, st)
		}
		die, n, err := c.poolDie(p)
		if err != nil {
			return value{}, err
		}
		node, err := kit.PoolOf(die, n, st)
		if err != nil {
			return value{}, errAt(p.At, "%v", err)
		}
		faces := kit.DistinctFaces(die)
		f := st.Fold(n, faces)
		v := rndV(node, f.Lo, f.Hi)
		if n == 0 {
			// No dice: the statistic of an empty pool (all of none
			// passes, any of none does not, the sum is 0).
			z := f.Final(f.Start)
			v = rndV(mechanics.Const{V: z}, z, z)
		}
		v.event = e.Name == "all" || e.Name == "any"
		return v, nil
	}
	return value{}, errAt(pool.Pos(), "a pool is a dice term (5d6) or a name bound to one")
}

// uniqueOrMatches compiles a term with unique dice (u, uo) or matched sets
// (mt): a mechanics.Unique read by the term's evaluator (its sum, its
// keeps and drops, its successes or its matched sets), or for mt alone a
// mechanics.Pool.
func (c *compiler) uniqueOrMatches(t *term) (value, error) {
	if t.explode != nil {
		what := "u rerolls repeated faces of single rolls"
		if t.unique == nil {
			what = "mt counts the faces of single rolls"
		}
		return value{}, errAt(t.at, "%s: it does not combine with ! or !! on one term", what)
	}
	if t.n > MaxPoolDice {
		return value{}, errAt(t.at, "unique dice and matches read the dice one by one: at most %d dice", MaxPoolDice)
	}
	dlo, dhi := dieRange(t.die)
	var ev mechanics.Evaluator
	var lo, hi int
	switch {
	case t.matches != nil:
		if len(t.kd) > 0 || t.hasCS || t.hasCF {
			return value{}, errAt(t.matches.At, "mt makes the term the number of matched sets: it does not combine with keep, drop, cs or cf on one term")
		}
		size := 2
		if t.matches.Size != nil {
			var err error
			if size, err = c.intConst(t.matches.Size, "the size of a matched set", 1, MaxPoolDice); err != nil {
				return value{}, err
			}
		}
		test := func(int) bool { return true }
		if t.matches.Cond != nil {
			var err error
			if test, _, err = c.faceCond(t.matches.Cond, 0); err != nil {
				return value{}, err
			}
		}
		ev = matchEval(size, test)
		lo, hi = 0, t.n/size
	case len(t.kd) > 0:
		a, b, err := c.window(t.kd, t.n)
		if err != nil {
			return value{}, err
		}
		k := b - a
		if t.hasCS || t.hasCF {
			score, err := c.scorer(t)
			if err != nil {
				return value{}, err
			}
			ev, lo, hi = windowScore(t.n, a, b, -1, score), -k, k
		} else {
			ev, lo, hi = windowScore(t.n, a, b, dlo, func(f int) int { return f }), k*dlo, k*dhi
		}
	case t.hasCS || t.hasCF:
		score, err := c.scorer(t)
		if err != nil {
			return value{}, err
		}
		ev, lo, hi = windowScore(t.n, 0, t.n, -1, score), -t.n, t.n
	default:
		ev, lo, hi = windowScore(t.n, 0, t.n, dlo, func(f int) int { return f }), t.n*dlo, t.n*dhi
	}
	if t.unique == nil {
		return rndV(mechanics.Pool{Die: t.die, N: t.n, Eval: ev}, lo, hi), nil
	}
	u := mechanics.Unique{Die: t.die, N: t.n, Once: t.unique.Once, Eval: ev}
	if t.unique.Cond != nil {
		test, _, err := c.faceCond(t.unique.Cond, 0)
		if err != nil {
			return value{}, err
		}
		u.Only = test
	}
	if err := mechanics.Validate(u); err != nil {
		return value{}, errAt(t.unique.At, "%v (uo rerolls once; u>N rerolls only some faces)", err)
	}
	return rndV(u, lo, hi), nil
}

// matchEval counts the faces (that pass test) shown by at least size
// dice: Roll20's matched sets (mt).
func matchEval(size int, test func(int) bool) mechanics.Evaluator {
	return mechanics.EvalFunc{
		StartF: func() uint64 { return 0 },
		NextF: func(s uint64, face, c int) uint64 {
			if c >= size && test(face) {
				s++
			}
			return s
		},
		FinalF: func(s uint64) int { return int(s) },
	}
}
