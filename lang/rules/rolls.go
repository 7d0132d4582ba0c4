package rules

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Exploding dice written !e: keep, drop and pools read every roll, each
// extra roll a die of its own (Roll20's and Foundry's reading of 5d10!k2),
// through mechanics.ExplodeRolls. A plain sum, or successes counted over
// every die, are the same as with ! (and compile as !).

// explodesEach reports dice written with !e.
func explodesEach(d *notation.Dice) bool {
	return slices.ContainsFunc(d.Mods, func(m notation.Mod) bool {
		x, ok := m.(*notation.Explode)
		return ok && x.Each
	})
}

// rollFaces is the distinct faces of an exploding term's die, ascending.
func rollFaces(t *term) []int {
	fs := slices.Clone(t.die.Faces)
	slices.Sort(fs)
	return slices.Compact(fs)
}

// eachRolls compiles keep and drop over the rolls of a term written !e:
// the sum (or, with cs and cf, the count) of the rolls its keeps and drops
// leave, applied left to right as for plain dice.
func (c *compiler) eachRolls(t *term) (value, error) {
	if err := eachSplits(t); err != nil {
		return value{}, err
	}
	if t.n > MaxPoolDice {
		return value{}, errAt(t.at, "keep and drop read the dice one by one: at most %d dice", MaxPoolDice)
	}
	ops, err := c.windowOps(t.kd)
	if err != nil {
		return value{}, err
	}
	score := func(f int) int { return f }
	if t.hasCS || t.hasCF {
		if score, err = c.scorer(t); err != nil {
			return value{}, err
		}
	}
	node := mechanics.ExplodeRolls{Explode: *t.explode, N: t.n}
	faces := rollFaces(t)
	ev, err := windowEval(ops, faces, score, node.MaxRolls())
	if err != nil {
		return value{}, errAt(t.at, "%v", err)
	}
	node.Eval, node.States = ev, windowStates(ops, len(faces), score, faces)
	// The dice kept grow with the rolls (never fewer than of the N first).
	smin, smax := 0, 0
	for i, f := range faces {
		if i == 0 || score(f) < smin {
			smin = score(f)
		}
		if i == 0 || score(f) > smax {
			smax = score(f)
		}
	}
	a, b := applyWindow(ops, t.n)
	kmin := b - a
	a, b = applyWindow(ops, node.MaxRolls())
	kmax := b - a
	lo := min(kmin*smin, kmax*smin, 0)
	hi := max(kmin*smax, kmax*smax, 0)
	if kmin > 0 && smin > 0 {
		lo = kmin * smin
	}
	return rndV(node, lo, hi), nil
}

// poolRolls compiles a pool function over the rolls of dice written !e
// (highest(5d10!e, 2), count(5d10!e >= 8)).
func (c *compiler) poolRolls(e *notation.Call, d *notation.Dice, st kit.PoolStat) (value, error) {
	t, err := c.takeApart(d)
	if err != nil {
		return value{}, err
	}
	if err := t.fixedCount(d, "a pool"); err != nil {
		return value{}, err
	}
	if len(t.kd) > 0 || t.hasCS || t.hasCF {
		return value{}, errAt(d.At, "a pool is read by its evaluator: write its dice without keep, drop or counting (%s)", d)
	}
	if t.capped {
		return value{}, errAt(d.At, "%s", cappedPool(d))
	}
	if t.n > MaxPoolDice {
		return value{}, errAt(d.At, "a pool has at most %d dice", MaxPoolDice)
	}
	if _, ok := st.(kit.PoolSum); ok {
		// Every roll summed: the exploding dice summed, as 5d10! is.
		lo, hi := burstRange(*t.explode)
		return rndV(sumOf(*t.explode, t.n), t.n*lo, t.n*hi), nil
	}
	if err := eachSplits(t); err != nil {
		return value{}, err
	}
	faces := rollFaces(t)
	if len(faces) > 64 {
		return value{}, errAt(d.At, "a pool's die may have at most 64 different faces, and this one has %d", len(faces))
	}
	node := mechanics.ExplodeRolls{Explode: *t.explode, N: t.n}
	ev, f, err := kit.StatEvaluator(st, node.MaxRolls(), faces)
	if err != nil {
		return value{}, errAt(d.At, "%v", err)
	}
	node.Eval = ev
	v := rndV(node, f.Lo, f.Hi)
	if t.n == 0 {
		z := f.Final(f.Start)
		v = rndV(mechanics.Const{V: z}, z, z)
	}
	v.event = e.Name == "all" || e.Name == "any"
	return v, nil
}

// windowEval is the evaluator of keeps and drops over a random number of
// rolls (at most maxRolls) whose faces come in ascending order: the sum of
// score over the rolls the window leaves. Which rolls it leaves depends on
// how many there are, known only at the end, so the last h = T+1 faces
// seen wait in a buffer (T the dice all the keeps and drops name): a roll
// with h rolls above it is far enough from the top that whether it is
// kept depends only on its rank from the bottom, and is settled when it
// leaves the buffer. The count of rolls saturates at 2T+2, past which no
// decision changes (a roll more than T from both ends is kept exactly
// when no keep names it). The state packs the count, the buffer (face
// indices) and the settled sum.
func windowEval(ops []winOp, faces []int, score func(int) int, maxRolls int) (mechanics.Evaluator, error) {
	T := 0
	limited := false // a keep bounds the dice kept
	bound := maxRolls
	for _, op := range ops {
		T += op.n
		if op.keep {
			limited = true
			bound = min(bound, op.n)
		}
	}
	h, most := T+1, 2*T+2
	maxAbs := 0
	for _, f := range faces {
		maxAbs = max(maxAbs, score(f), -score(f))
	}
	wb := uint(max(1, bits.Len(uint(len(faces)-1))))
	cb := uint(bits.Len(uint(most)))
	if !limited {
		bound = maxRolls
	}
	sb := uint(bits.Len64(uint64(bound)*uint64(maxAbs))) + 1
	if total := cb + wb*uint(h) + sb; total > 64 || h > 64 {
		return nil, fmt.Errorf("keeping and dropping the rolls of exploding dice one by one needs more than 64 bits of state here (%d dice named by the keeps and drops, %d faces): keep or drop fewer dice", T, len(faces))
	}
	fs := mechanics.BitFields(cb, wb*uint(h), sb)
	cnt, buf, set := fs[0], fs[1], fs[2]
	off := 1 << (sb - 1)
	index := map[int]int{}
	for i, f := range faces {
		index[f] = i
	}
	// fate[r]: whether a roll ranked r from the bottom with h rolls above
	// it is kept; win[m]: the window of m rolls.
	fate := make([]bool, most-h+1)
	for r := range fate {
		a, b := applyWindow(ops, r+h+1)
		fate[r] = a <= r && r < b
	}
	type span struct{ a, b int }
	win := make([]span, most+1)
	for m := range win {
		a, b := applyWindow(ops, m)
		win[m] = span{a, b}
	}
	mask := uint64(1)<<(wb*uint(h)) - 1
	if wb*uint(h) == 64 {
		mask = ^uint64(0)
	}
	slot := uint64(1)<<wb - 1
	return mechanics.EvalFunc{
		StartF: func() uint64 { return set.Set(0, off) },
		NextF: func(s uint64, face, c int) uint64 {
			m, b, sum := cnt.Get(s), buf.GetU(s), set.Get(s)
			i := uint64(index[face])
			for range c {
				if m >= h {
					// The oldest roll in the buffer leaves, settled.
					if r := m - h; fate[r] {
						sum += score(faces[b>>(wb*uint(h-1))&slot])
					}
				}
				b = (b<<wb | i) & mask
				m = min(m+1, most)
			}
			return set.Set(buf.SetU(cnt.Set(s, m), b), sum)
		},
		FinalF: func(s uint64) int {
			m, b, sum := cnt.Get(s), buf.GetU(s), set.Get(s)-off
			w := win[m]
			for j := range min(m, h) {
				if r := m - 1 - j; w.a <= r && r < w.b {
					sum += score(faces[b>>(wb*uint(j))&slot])
				}
			}
			return sum
		},
	}, nil
}

// windowStates bounds the states of windowEval reading at most rolls rolls:
// the counts, the buffers (multisets of at most h faces) and the settled
// sums (none where no roll leaving the buffer is kept).
func windowStates(ops []winOp, nf int, score func(int) int, faces []int) func(rolls int) float64 {
	T := 0
	for _, op := range ops {
		T += op.n
	}
	h, most := T+1, 2*T+2
	kept, always := 0, false
	for r := 0; r <= most-h; r++ {
		a, b := applyWindow(ops, r+h+1)
		if a <= r && r < b {
			kept++
			always = r == most-h
		}
	}
	maxAbs := 0
	for _, f := range faces {
		maxAbs = max(maxAbs, score(f), -score(f))
	}
	buffers := 1.0 // C(nf+h, h)
	for i := 1; i <= h; i++ {
		buffers = buffers * float64(nf+i) / float64(i)
	}
	return func(rolls int) float64 {
		settled := kept
		if always {
			settled = rolls
		}
		return float64(most+1) * buffers * float64(2*settled*maxAbs+1)
	}
}

// eachSplits refuses the explosions whose rolls the engines cannot read
// one by one: the faces that explode must all lie above those that do not
// (!, !>=N, !>N), and a penetrating roll (!pe) is not a die's face.
func eachSplits(t *term) error {
	e := t.explode
	if e.Penetrate {
		return errAt(t.at, "!pe is not supported: a penetrating extra roll counts one less than its face, and keep, drop and pools read the rolls of !e by their faces — write !p without e (each die with its extra rolls as one), or !e without p")
	}
	if f, ok := e.StillAbove(); ok {
		return errAt(t.at, "!e reads every roll as a die only for dice that explode on their highest faces (!, !>=N, !>N): this one explodes on %s but not on %d", e.BurstFaces(), f)
	}
	return nil
}
