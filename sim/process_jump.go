package sim

import (
	"cmp"
	"errors"
	"math/bits"
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The jump engine runs a homogeneous chain whose kernel is a table of R
// entries (or a pair of tables, R the product of their sizes: an index
// pair a step) k steps at a time with one draw: a uniform integer U in
// [0, Rᵏ) stands for k table indices at once (k digits in base R), and a state's
// k-step row orders those Rᵏ index sequences by where they lead, so that
// the sequences with the same result are one interval of U. The row holds
// the exact number of sequences of each result, an integer out of Rᵏ (built
// from the block engine's one-step rows, Move once per class and state), as
// cumulative bounds: the result is the first whose bound exceeds U. A
// result is "absorbed in state a at the block's step i" or "in transient
// state s' after the k steps". Rᵏ fits 64 bits, so nothing is rounded: the
// chain moves exactly as k single steps would, with one random word (rarely
// more, see source.Index) for k steps instead of one buffered class a step.
//
// The result is found through a guide: U's top bits index a table of the
// row; where all of that bucket's U have one result the entry is the result
// itself, else where to start comparing U with the bounds. An entry of a
// transient result carries the next state's row (where its guide starts,
// its shift), so a block is one draw and one load in the common case.
//
// Rows are built at the first chunk for every state the chain can be in at
// a block's start (those reachable from the start in multiples of k steps),
// with rows of H mod k steps for the last, shorter block. When they would
// take more than jumpBytes, when Move fails on one of them (a fault of the
// model: a trial may never meet it), or when the rows say that the block
// engine takes fewer lookups per trial than this one takes draws times
// jumpCost, the block engine runs instead.
// So whether this engine runs depends on the model and the worker's budget
// only, never on what a worker has met.
//
// Where a trial's end is hard to predict (runLanes), two trials run
// interleaved and a trial's end is a select, not a branch. A time-dependent
// chain whose kernels repeat with a period runs here too, a period a draw
// (see newPeriodicJump below).

// jumpBytes bounds the rows of the jump engine.
const jumpBytes = 1 << 20

// pairDrawCost is what the block engine's draw of one step's class from a
// pair kernel's buffer costs, in block lookups (see newJumpChain).
const pairDrawCost = 0.5

// jumpReject bounds the share of random words source.Index rejects for
// the bound Rᵏ: k is the largest step count whose Rᵏ fits 64 bits with at
// most 1/jumpReject of words rejected.
const jumpReject = 32

// jumpCost is what one draw of this engine costs in lookups of the block
// engine: measured, the engine was slower at 1.0–1.2 lookups a draw
// (grim.drowning, grim.terror, grim.dying) and faster from 1.8 on
// (grim.burnout, ag.accumulated, ag.magic.dispel, ag.chase).
const jumpCost = 1.5

// jumpGuide: a row of m results has a guide of 2^jumpGuide times the
// power of two ≥ m entries.
const jumpGuide = 1

// Guide entries and results, packed in a uint64. Bit 0 set: an impure
// bucket, the rest the index of the first bound to compare with. Else a
// result: bit 1 set, absorbed, the rest (i−1)·S + a; else transient, with
// the fields below.
const (
	jeImpure   = 1
	jeAbsorbed = 2
	jeOne      = 4 // the row has a single result: no draw
	jeStuck    = 8 // the state can never change again
	jeShShift  = 4 // 6 bits: the row's guide shift
	jeStShift  = 10
	jeStBits   = 25 // the state
	jeGShift   = 35 // the start of the row's guide
	jeGMax     = 1 << (64 - jeGShift)
)

type jumpChain struct {
	S, H       int
	k          int
	N          uint64 // R^k
	start      uint64 // the start state's entry
	guide      []jumpBucket
	cum        []uint64
	res        []uint64
	rem        *jumpRows // the last block's rows, when k does not divide H
	remEntry   []uint64  // by state, its entry in rem
	remSteps   int
	remN       uint64
	drawsPer   float64 // expected draws per trial
	lookupsPer float64
	lanes      bool // run two trials at a time (runLanes)
}

// jumpRows are rows under construction, then the rows of the last block.
type jumpRows struct {
	steps int
	N     uint64
	guide []jumpBucket
	cum   []uint64
	res   []uint64
	// the guide's entries and the results of the rows built
	nGuide, nRes int
	// per state: where its guide starts, its shift, and the row's results
	// while the rows are built (transient states by number).
	g     []int32
	sh    []uint8
	one   []bool
	stuck []bool // the state can never change again
	rows  map[int][]jumpResult
}

// jumpBucket is a guide entry: the result of U in its bucket is a when U <
// thr, else b; b is an impure entry when the bucket holds more than one
// bound.
type jumpBucket struct{ thr, a, b uint64 }

type jumpResult struct {
	code int32 // a transient state, or −1 − ((i−1)·S + a)
	wt   uint64
}

// newJumpChain sets up the engine over the one-step rows of b, or returns
// nil.
func newJumpChain(w *processWorker, b *blockChain) (j *jumpChain) {
	k := b.k
	p := w.p
	if w.env.tune.noJump || b.timed || p.Absorbing[p.Start] || w.S >= 1<<jeStBits {
		return nil
	}
	// A table, or a pair of tables (d20 + 2d10! against Guard twice a
	// round): U stands for k index sequences of either.
	R, kc := kernelCounts(k)
	if R < 2 {
		return nil
	}
	H := p.Horizon
	steps, N := 0, uint64(1)
	for steps < H {
		hi, lo := bits.Mul64(N, R)
		if hi != 0 || (-lo%lo) > ^uint64(0)/jumpReject {
			break
		}
		steps, N = steps+1, lo
	}
	// The block engine takes one lookup a block and, for a table kernel,
	// one draw (an index into the table to the power of the block). A pair
	// kernel has no such tables: the block engine draws every step's class
	// from the pair buffer, about half a lookup each (measured on bd.vigor:
	// blocks of 5 steps at 15.5 M trials/s, this engine at 2 steps a draw
	// 28 M/s), so there the jump engine can pay with fewer steps a draw
	// than a block has.
	perLookup := 1.0
	if k.tcls == nil {
		perLookup += float64(b.kb) * pairDrawCost
	}
	if steps < 2 || (k.tcls != nil && steps <= b.kb) {
		return nil
	}
	bd := newJumpBuilder(w, b, min(jumpBytes, w.budget), R, kc)
	defer func() {
		if x := recover(); x != nil {
			if !mechanics.IsFault(x) {
				panic(x) // a bug, not the model's
			}
			// Move failed on a state a trial may never reach: the block
			// engine runs, and meets the fault if a trial does.
			b.rows1 = unsetRows(len(b.rows1))
			j = nil
		}
	}()
	return bd.chain(steps, b.kb, perLookup)
}

// chain builds the rows of blocks of the given number of steps (and of the
// last, shorter block) for every state a block can start from, and sets
// the engine up if they fit and it pays (kb: the block engine's steps per
// lookup it is weighed against, perLookup what one of its lookups costs
// with the draws it takes, in lookups).
func (bd *jumpBuilder) chain(steps, kb int, perLookup float64) *jumpChain {
	w, p := bd.w, bd.w.p
	H := p.Horizon
	full := bd.rows(steps)
	var rem *jumpRows
	if r := H % steps; r > 0 {
		rem = bd.rows(r)
	}
	seen := make([]bool, w.S)
	seen[p.Start] = true
	queue := []int{p.Start}
	for i := 0; i < len(queue); i++ {
		s := queue[i]
		if !bd.build(full, s) {
			return nil
		}
		for _, r := range full.rows[s] {
			if c := int(r.code); c >= 0 && !seen[c] {
				seen[c] = true
				queue = append(queue, c)
			}
		}
		if rem != nil && !bd.build(rem, s) {
			return nil
		}
	}
	for _, rs := range []*jumpRows{full, rem} {
		if rs == nil {
			continue
		}
		if rs.nGuide >= jeGMax {
			return nil
		}
		rs.alloc()
		for _, s := range queue {
			bd.pack(rs, full, s)
		}
	}
	j := &jumpChain{S: w.S, H: H, k: steps, N: full.N, guide: full.guide, cum: full.cum, res: full.res, start: full.entry(p.Start)}
	if rem != nil {
		j.rem, j.remSteps, j.remN = rem, rem.steps, rem.N
		j.remEntry = make([]uint64, w.S)
		for _, s := range queue {
			j.remEntry[s] = rem.entry(s)
		}
	}
	var mispredicts, slow float64
	j.drawsPer, j.lookupsPer, mispredicts, slow = bd.cost(full, kb, p.Start, H)
	switch w.env.tune.lanes {
	case lanesByCost:
		j.lanes = mispredicts >= jumpLanesMispredicts && slow <= jumpLanesSlow
	case lanesAlways:
		j.lanes = true
	}
	full.rows = nil
	if rem != nil {
		rem.rows = nil
	}
	if j.drawsPer*jumpCost >= j.lookupsPer*perLookup || !w.take(min(jumpBytes, w.budget)-bd.budget+8*w.S) {
		return nil
	}
	return j
}

type jumpBuilder struct {
	w *processWorker
	// The block's steps repeat with period len(R): step i of a block draws
	// an index into a table of R[i%P] entries, whose classes have cnt[i%P]
	// entries each, and goes from transient state u by class c to
	// move(i%P, u, c): a transient state, or −1−a when absorbed in a.
	R    []uint64
	cnt  [][]uint64
	move func(i, u, c int) int
	// stuck reports whether transient state s can never change again.
	stuck  func(s int) bool
	wt     []uint64 // by state: the weight of the paths there
	budget int
	abs    []uint64 // by (i−1)·S + a: the weight of absorption in a at step i
	cur    []int
	nxt    []int
	ws     []uint64
}

// newJumpBuilder is a builder over the one-step rows of the block engine
// (its merged classes; Move once per class and state).
func newJumpBuilder(w *processWorker, b *blockChain, budget int, R uint64, kc []uint64) *jumpBuilder {
	cnt := make([]uint64, b.C)
	for c, n := range kc {
		cnt[b.ref[c]] += n
	}
	return &jumpBuilder{w: w, R: []uint64{R}, cnt: [][]uint64{cnt}, wt: make([]uint64, w.S), budget: budget,
		move: func(_, u, c int) int {
			v, err := b.step1(w, u, c)
			if err != nil {
				panic(mechanics.Fault{Err: err})
			}
			if v >= 0 {
				return int(v) >> b.sh1
			}
			switch kind, st := splitCode(v, 2); kind {
			case 0:
				return -1 - st
			case 1:
				return u
			}
			panic("jump: a state that is not t-free")
		},
		stuck: func(s int) bool {
			v, _ := b.step1(w, s, 0)
			kind, _ := splitCode(v, 2)
			return v < 0 && kind == 1
		},
	}
}

// span is the number of index sequences of steps i to j−1 of a block.
func (bd *jumpBuilder) span(i, j int) uint64 {
	n := uint64(1)
	for ; i < j; i++ {
		n *= bd.R[i%len(bd.R)]
	}
	return n
}

// rows starts the rows of blocks of the given number of steps.
func (bd *jumpBuilder) rows(steps int) *jumpRows {
	S := bd.w.S
	rs := &jumpRows{steps: steps, N: 1, g: make([]int32, S), sh: make([]uint8, S), one: make([]bool, S),
		stuck: make([]bool, S), rows: map[int][]jumpResult{}}
	rs.N = bd.span(0, steps)
	return rs
}

// build computes the row of transient state s in rs; false when the rows
// outgrow the budget (Move failing panics with a mechanics.Fault).
func (bd *jumpBuilder) build(rs *jumpRows, s int) bool {
	S, P := bd.w.S, len(bd.R)
	suf := make([]uint64, rs.steps+1) // suf[i]: the sequences of steps i to the block's end
	for i := range suf {
		suf[i] = bd.span(i, rs.steps)
	}
	if len(bd.abs) < rs.steps*S {
		bd.abs = make([]uint64, rs.steps*S)
	}
	var absorbed []int // where abs is set
	cur := append(bd.cur[:0], s)
	bd.wt[s] = 1
	for i := 1; i <= rs.steps; i++ {
		nxt := bd.nxt[:0]
		add := func(st int, x uint64) { // x > 0
			if bd.wt[st] == 0 {
				nxt = append(nxt, st)
			}
			bd.wt[st] += x
		}
		ws := bd.ws[:0]
		for _, u := range cur {
			ws = append(ws, bd.wt[u])
			bd.wt[u] = 0
		}
		bd.ws = ws
		for q, u := range cur {
			for c, n := range bd.cnt[(i-1)%P] {
				if n == 0 {
					continue
				}
				v := bd.move((i-1)%P, u, c)
				x := ws[q] * n
				if v >= 0 {
					add(v, x)
					continue
				}
				at := (i-1)*S + (-1 - v)
				if bd.abs[at] == 0 {
					absorbed = append(absorbed, at)
				}
				bd.abs[at] += x * suf[i]
			}
		}
		bd.cur, bd.nxt = nxt, cur
		cur = nxt
	}
	res := make([]jumpResult, 0, len(cur)+len(absorbed))
	for _, u := range cur {
		res = append(res, jumpResult{int32(u), bd.wt[u]})
		bd.wt[u] = 0
	}
	for _, at := range absorbed {
		res = append(res, jumpResult{int32(-1 - at), bd.abs[at]})
		bd.abs[at] = 0
	}
	slices.SortFunc(res, func(a, b jumpResult) int {
		if c := cmp.Compare(b.wt, a.wt); c != 0 {
			return c
		}
		return cmp.Compare(a.code, b.code)
	})
	G := 1 << bits.Len(uint(len(res)-1)) << jumpGuide
	if bd.budget -= 16*len(res) + 24*G + 8; bd.budget < 0 {
		return false
	}
	var sum uint64
	for _, r := range res {
		sum += r.wt
	}
	if sum != rs.N {
		panic("jump: weights do not add up")
	}
	rs.rows[s] = res
	rs.g[s] = int32(rs.nGuide)
	rs.sh[s] = uint8(max(0, bits.Len64(rs.N-1)-bits.Len(uint(G-1))))
	rs.one[s] = len(res) == 1
	rs.stuck[s] = bd.stuck(s)
	rs.nGuide += G
	rs.nRes += len(res)
	return true
}

// alloc makes room for the guides, bounds and results of the rows built,
// which pack fills.
func (rs *jumpRows) alloc() {
	rs.guide = make([]jumpBucket, rs.nGuide)
	rs.cum, rs.res = make([]uint64, 0, rs.nRes), make([]uint64, 0, rs.nRes)
}

// entry is state s's packed entry (its row in rs).
func (rs *jumpRows) entry(s int) uint64 {
	e := uint64(s)<<jeStShift | uint64(rs.g[s])<<jeGShift | uint64(rs.sh[s])<<jeShShift
	if rs.one[s] {
		e |= jeOne
	}
	if rs.stuck[s] {
		e |= jeStuck | jeOne
	}
	return e
}

// pack writes the bounds, results and guide of state s's row in rs, whose
// transient results lead to rows in full.
func (bd *jumpBuilder) pack(rs, full *jumpRows, s int) {
	res := rs.rows[s]
	base := len(rs.cum)
	var sum uint64
	for _, r := range res {
		sum += r.wt
		rs.cum = append(rs.cum, sum)
		var e uint64
		if r.code < 0 {
			e = uint64(-1-r.code)<<2 | jeAbsorbed
		} else if rs == full {
			e = full.entry(int(r.code))
		} else {
			e = uint64(r.code) << jeStShift
		}
		rs.res = append(rs.res, e)
	}
	g, sh := int(rs.g[s]), rs.sh[s]
	G := 1 << bits.Len(uint(len(res)-1)) << jumpGuide
	x, end := base, base+len(res)
	for q := range G {
		lo := uint64(q) << sh
		hi := lo + (uint64(1)<<sh - 1) // the bucket's largest U
		for x+1 < end && rs.cum[x] <= lo {
			x++
		}
		switch {
		case x+1 == end || rs.cum[x] > hi: // every U of the bucket below N has result x
			rs.guide[g+q] = jumpBucket{b: rs.res[x]}
		case x+2 == end || rs.cum[x+1] > hi: // one bound
			rs.guide[g+q] = jumpBucket{thr: rs.cum[x], a: rs.res[x], b: rs.res[x+1]}
		default:
			rs.guide[g+q] = jumpBucket{b: uint64(x)<<1 | jeImpure}
		}
	}
}

// cost is the expected number of draws a trial takes in the jump engine
// and of lookups it would take in the block engine (blocks of kb steps;
// each jump block counted as the block lookups its steps take, a block
// that is absorbed after i steps as ⌈i/kb⌉). It also estimates, per trial,
// how often the one-trial loop mispredicts its exit (a draw whose block
// is absorbed with probability h counted as min(h, 1−h)) and how many
// trials leave the lanes of runLanes by a branch: those that reach the
// last, shorter block or the horizon, or a state with a single result.
func (bd *jumpBuilder) cost(full *jumpRows, kb, start, H int) (draws, lookups, mispredicts, slow float64) {
	S, k := bd.w.S, full.steps
	dist, next := make([]float64, S), make([]float64, S)
	dist[start] = 1
	N := float64(full.N)
	for t := 1; t+k-1 <= H; t += k {
		clear(next)
		var reach, absorbed float64
		for s, ps := range dist {
			if ps == 0 {
				continue
			}
			if full.one[s] || full.stuck[s] {
				slow += ps
				if full.stuck[s] {
					continue // stuck: neither engine draws any more
				}
			}
			draws += ps
			reach += ps
			for _, r := range full.rows[s] {
				q := ps * float64(r.wt) / N
				if r.code >= 0 {
					lookups += q * float64((k+kb-1)/kb)
					next[int(r.code)] += q
				} else {
					i := int(-1-r.code)/S + 1
					lookups += q * float64((i+kb-1)/kb)
					absorbed += q
				}
			}
		}
		mispredicts += min(absorbed, reach-absorbed)
		dist, next = next, dist
	}
	for _, ps := range dist {
		slow += ps
	}
	return draws, lookups, mispredicts, slow
}

func (j *jumpChain) run(w *processWorker, src *source, n int) error {
	if j.lanes && n >= jumpLanesMin && j.start&jeOne == 0 {
		return j.runLanes(w, src, n)
	}
	// The loop is trial's, written out here: calling trial per trial was
	// 0.78× as fast on chains whose trials end at their first draws
	// (grim.burnout, ag.accumulated; measured).
	S, H := j.S, j.H
	guide, cum, res, N, k := j.guide, j.cum, j.res, j.N, j.k
	thresh := -N % N
	last := H - k + 1 // the last step at which a whole block fits
	for ; n > 0; n-- {
		e, t := j.start, 1
		out := -1
		for t <= last {
			if e&jeOne == 0 {
				// U := src.Index(N), the same draws with the bound's
				// rejection threshold computed once.
				U, lo := bits.Mul64(src.pcg.Uint64(), N)
				for lo < thresh {
					U, lo = bits.Mul64(src.pcg.Uint64(), N)
				}
				gb := &guide[e>>jeGShift+U>>(e>>jeShShift&63)]
				_, below := bits.Sub64(U, gb.thr, 0)
				e = gb.b ^ (gb.a^gb.b)&-below
				if e&jeImpure != 0 {
					x := e >> 1
					for cum[x] <= U {
						x++
					}
					e = res[x]
				}
			} else if e&jeStuck != 0 {
				t = H + 1
				break
			} else {
				e = guide[e>>jeGShift].b
			}
			if e&jeAbsorbed != 0 {
				out = t*S + int(e>>2)
				break
			}
			t += k
		}
		if out < 0 {
			s := int(e >> jeStShift & (1<<jeStBits - 1))
			if t <= H {
				out = j.last(src, t, s)
			} else {
				out = (H+1)*S + s
			}
		}
		if i := out - w.lo; i >= 0 && i < len(w.cnt) {
			w.cnt[i]++
		} else if err := w.count(out); err != nil {
			return err
		}
	}
	return nil
}

// trial runs a trial on from entry e at step t (a block's start) and
// returns its outcome.
func (j *jumpChain) trial(src *source, e uint64, t int) int {
	S, H := j.S, j.H
	guide, cum, res, N, k := j.guide, j.cum, j.res, j.N, j.k
	thresh := -N % N
	last := H - k + 1 // the last step at which a whole block fits
	for t <= last {
		if e&jeOne == 0 {
			// U := src.Index(N), the same draws with the bound's
			// rejection threshold computed once.
			U, lo := bits.Mul64(src.pcg.Uint64(), N)
			for lo < thresh {
				U, lo = bits.Mul64(src.pcg.Uint64(), N)
			}
			gb := &guide[e>>jeGShift+U>>(e>>jeShShift&63)]
			_, below := bits.Sub64(U, gb.thr, 0)
			e = gb.b ^ (gb.a^gb.b)&-below
			if e&jeImpure != 0 {
				x := e >> 1
				for cum[x] <= U {
					x++
				}
				e = res[x]
			}
		} else if e&jeStuck != 0 {
			return (H+1)*S + int(e>>jeStShift&(1<<jeStBits-1))
		} else {
			e = guide[e>>jeGShift].b
		}
		if e&jeAbsorbed != 0 {
			return t*S + int(e>>2)
		}
		t += k
	}
	s := int(e >> jeStShift & (1<<jeStBits - 1))
	if t <= H {
		return j.last(src, t, s)
	}
	return (H+1)*S + s
}

// runLanes runs a chain whose one-trial loop is estimated to mispredict
// its exit at least jumpLanesMispredicts times a trial, and whose trials
// leave the lanes by a branch at most jumpLanesSlow of the time (see
// cost). Measured: 0.52–0.86 of the time of the one-trial loop for
// ag.wound_degeneration, grim.instability, ag.magic.dispel and
// ag.acting_fast; 1.06–1.43 for ag.accumulated and grim.burnout (every
// trial absorbed at its first draw), grim.burning and ag.chase (most
// trials reach the horizon).
const (
	jumpLanesMispredicts = 0.1
	jumpLanesSlow        = 0.05
)

// jumpLanesMin is the least batch runLanes takes.
const jumpLanesMin = 16

// jumpOuts is the length of runLanes' buffer of outcomes.
const jumpOuts = 256

// runLanes runs n trials two at a time, interleaved (lanes A and B), so
// that the two trials' chains of draw, guide load and next row overlap and
// the end of a trial is no branch: each lane draws in turn, a lane whose
// block is absorbed writes its outcome to a buffer and starts the next
// trial, selected without a branch. Rare cases branch: a rejected word,
// an impure bucket, a state with a single result, a lane past the last
// whole block. The last trials of the batch run one by one.
func (j *jumpChain) runLanes(w *processWorker, src *source, n int) error {
	S := j.S
	guide, cum, res, N, k, start := j.guide, j.cum, j.res, j.N, j.k, j.start
	thresh := -N % N
	last := j.H - k + 1
	var outs [jumpOuts]int
	pos, done := 0, 0 // outcomes buffered; trials counted
	eA, tA := start, 1
	eB, tB := start, 1
	for done+pos+6 <= n { // the two lanes' trials and up to four more
		if pos > jumpOuts-4 {
			if err := w.countAll(outs[:pos]); err != nil {
				return err
			}
			done, pos = done+pos, 0
		}
		// Lane A.
		if eA&jeOne != 0 {
			outs[pos] = j.trial(src, eA, tA)
			pos++
			eA, tA = start, 1
		}
		U, lo := bits.Mul64(src.pcg.Uint64(), N)
		for lo < thresh {
			U, lo = bits.Mul64(src.pcg.Uint64(), N)
		}
		gb := &guide[eA>>jeGShift+U>>(eA>>jeShShift&63)]
		_, below := bits.Sub64(U, gb.thr, 0)
		r := gb.b ^ (gb.a^gb.b)&-below
		if r&jeImpure != 0 {
			x := r >> 1
			for cum[x] <= U {
				x++
			}
			r = res[x]
		}
		abs := r >> 1 & 1
		m := -abs
		outs[pos] = tA*S + int(r>>2)
		pos += int(abs)
		eA = r&^m | start&m
		tA = (tA+k)&^int(m) | 1&int(m)
		if tA > last {
			outs[pos] = j.trial(src, eA, tA)
			pos++
			eA, tA = start, 1
		}
		// Lane B.
		if eB&jeOne != 0 {
			outs[pos] = j.trial(src, eB, tB)
			pos++
			eB, tB = start, 1
		}
		U, lo = bits.Mul64(src.pcg.Uint64(), N)
		for lo < thresh {
			U, lo = bits.Mul64(src.pcg.Uint64(), N)
		}
		gb = &guide[eB>>jeGShift+U>>(eB>>jeShShift&63)]
		_, below = bits.Sub64(U, gb.thr, 0)
		r = gb.b ^ (gb.a^gb.b)&-below
		if r&jeImpure != 0 {
			x := r >> 1
			for cum[x] <= U {
				x++
			}
			r = res[x]
		}
		abs = r >> 1 & 1
		m = -abs
		outs[pos] = tB*S + int(r>>2)
		pos += int(abs)
		eB = r&^m | start&m
		tB = (tB+k)&^int(m) | 1&int(m)
		if tB > last {
			outs[pos] = j.trial(src, eB, tB)
			pos++
			eB, tB = start, 1
		}
	}
	if err := w.countAll(outs[:pos]); err != nil {
		return err
	}
	if err := w.count1(j.trial(src, eA, tA)); err != nil {
		return err
	}
	if err := w.count1(j.trial(src, eB, tB)); err != nil {
		return err
	}
	for n -= done + pos + 2; n > 0; n-- {
		if err := w.count1(j.trial(src, start, 1)); err != nil {
			return err
		}
	}
	return nil
}

// last draws the last, shorter block from state s at step t.
func (j *jumpChain) last(src *source, t, s int) int {
	rs := j.rem
	S, H := len(j.remEntry), t+j.remSteps-1
	e := j.remEntry[s]
	if e&jeOne == 0 {
		U := src.Index(j.remN)
		gb := &rs.guide[e>>jeGShift+U>>(e>>jeShShift&63)]
		_, below := bits.Sub64(U, gb.thr, 0)
		e = gb.b ^ (gb.a^gb.b)&-below
		if e&jeImpure != 0 {
			x := e >> 1
			for rs.cum[x] <= U {
				x++
			}
			e = rs.res[x]
		}
	} else {
		e = rs.guide[e>>jeGShift].b
	}
	if e&jeAbsorbed != 0 {
		return t*S + int(e>>2)
	}
	return (H+1)*S + int(e>>jeStShift&(1<<jeStBits-1))
}

// The jump engine also runs a time-dependent chain whose kernel keys repeat
// with a period P ≥ 2 from the first step (an obstacle every third round):
// a block is one period, P steps that draw from the period's kernels in
// turn, and U in [0, N) stands for one index into each kernel's table (N
// the product of the tables' sizes). Step i of a block uses Move at step
// i+1; the rows hold only where Move from each state the rows meet gives
// the same at every step i+1+m·P of the horizon, checked for every class,
// else (or when Move fails, a table is not a table, or N does not fit)
// the per-step loop runs. The last, shorter block holds the first H mod P
// steps of a period.

// periodicMoves bounds the Move calls spent checking that a chain's steps
// repeat with its kernels' period (S × classes × blocks).
const periodicMoves = 1 << 18

// errNotPeriodic is the panic by which the builder of a periodic chain's
// rows gives up where Move does not repeat a step (newPeriodicJump
// recovers it).
var errNotPeriodic = errors.New("jump: Move differs between the steps of one position in the period")

// newPeriodicJump sets the jump engine up for a time-dependent chain, or
// returns nil. The kernels are compiled (kf.kernel) for the first period.
func newPeriodicJump(w *processWorker, kf *kernelForm) (j *jumpChain) {
	bd := newPeriodicBuilder(w, kf)
	if bd == nil {
		return nil
	}
	defer func() {
		if x := recover(); x != nil {
			if x != any(errNotPeriodic) && !mechanics.IsFault(x) {
				panic(x) // a bug, not the model's
			}
			j = nil // the per-step loop runs, and meets a fault if a trial does
		}
	}()
	return bd.chain(len(bd.R), 1, 1)
}

// newPeriodicBuilder is the builder of the rows of a time-dependent chain
// whose kernel keys repeat with a period, blocks of one period (its moves
// check that Move repeats with it), or nil where the keys do not repeat or
// the kernels do not fit the engine.
func newPeriodicBuilder(w *processWorker, kf *kernelForm) *jumpBuilder {
	p := w.p
	H, S := p.Horizon, w.S
	if w.env.tune.noJump || p.Absorbing[p.Start] || S >= 1<<jeStBits {
		return nil
	}
	P := keyPeriod(kf.keyOf[1 : H+1])
	if P < 2 || H < 2*P {
		return nil
	}
	ks := make([]*compiledKernel, P)
	R := make([]uint64, P)
	cnt := make([][]uint64, P)
	N, C := uint64(1), 0
	for i := range P {
		k, err := kf.kernel(w, i+1)
		if err != nil || k.cb == nil {
			return nil
		}
		ks[i], C = k, C+len(k.vals)
		if R[i], cnt[i] = kernelCounts(k); R[i] == 0 {
			return nil
		}
		hi, lo := bits.Mul64(N, R[i])
		if hi != 0 {
			return nil
		}
		N = lo
	}
	if N < 2 || -N%N > ^uint64(0)/jumpReject || S*C*((H+P-1)/P) > periodicMoves {
		return nil
	}
	rows := map[int][]int32{} // by step of the period and state (i·S + s): codes by class
	bd := &jumpBuilder{w: w, R: R, cnt: cnt, wt: make([]uint64, S), budget: min(jumpBytes, w.budget)}
	bd.move = func(i, u, c int) int {
		row := rows[i*S+u]
		if row == nil {
			row = make([]int32, len(ks[i].vals))
			for x, v := range ks[i].vals {
				next := p.Move(i+1, u, v)
				for t := i + 1 + P; t <= H; t += P {
					if p.Move(t, u, v) != next {
						panic(errNotPeriodic)
					}
				}
				code, err := w.code(i+1, next)
				if err != nil {
					panic(mechanics.Fault{Err: err})
				}
				row[x] = int32(next)
				if code < 0 {
					row[x] = int32(-1 - next)
				}
			}
			rows[i*S+u] = row
		}
		return int(row[c])
	}
	bd.stuck = func(s int) bool {
		for i := range P {
			for c := range ks[i].vals {
				if bd.move(i, s, c) != s {
					return false
				}
			}
		}
		return true
	}
	return bd
}

// keyPeriod is the smallest P such that keys[t] = keys[t−P] for every t ≥ P.
func keyPeriod(keys []int32) int {
	for P := 1; P < len(keys); P++ {
		if slices.Equal(keys[P:], keys[:len(keys)-P]) {
			return P
		}
	}
	return len(keys)
}

// kernelCounts is the size of kernel k's table (for a pair kernel, the
// product of its two tables'; for a weighted kernel, its total weight) and
// the number of its entries (index pairs, weight) in each class; 0 when k
// is none of these.
func kernelCounts(k *compiledKernel) (uint64, []uint64) {
	cnt := make([]uint64, len(k.vals))
	if k.tcls != nil {
		for _, c := range k.tcls {
			cnt[c]++
		}
		return uint64(len(k.tcls)), cnt
	}
	cb := k.cb
	if cb != nil && cb.wt != nil {
		faces, ws := cb.wt.counts()
		for i := range faces {
			cnt[cb.cls[i]] += ws[i]
		}
		return cb.wt.total, cnt
	}
	if cb == nil || cb.pb == nil {
		return 0, nil
	}
	cx, cy := make([]uint64, 1+int(slices.Max(cb.clsX))), make([]uint64, cb.ny)
	for _, c := range cb.clsX {
		cx[c]++
	}
	for _, c := range cb.clsY {
		cy[c]++
	}
	for a, na := range cx {
		for b, nb := range cy {
			if na != 0 && nb != 0 {
				cnt[cb.cls[a*cb.ny+b]] += na * nb
			}
		}
	}
	return cb.pb.rx * cb.pb.ry, cnt
}
