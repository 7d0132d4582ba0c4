package sim

import (
	"math/bits"
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The block engine runs a Kernel-form chain whose step does not depend on
// t: a homogeneous chain, or a time-dependent one whose steps all share one
// kernel key and whose Move is checked, state by state, to give the same
// next state at every step number ("t-free" states).
//
// Its classes are the kernel's classes merged where Move sends them to the
// same state from every transient state (a d20 that only matters as 1, 2, 3
// or more has four). It takes kb steps per lookup: the block row of state s
// holds, for every combination of kb classes, where kb steps from s lead,
// built from the one-step rows (Move once per class and state). A block's
// classes are drawn as one number in base C: g classes at a time as one
// index into the kernel's table to the power g (g independent indices into
// the table), mapped through a table of their classes, kb/g such draws
// combined. A block whose path is absorbed, gets stuck, or (time-dependent
// chains) reaches a state that is not t-free says so in its code, and the
// trial ends or goes on step by step from there. Near the horizon, where
// fewer than kb steps remain, it steps one at a time.

// blockMax bounds a block's class combinations, C^kb.
const blockMax = 256

// blockBytes bounds the block rows table: larger blocks fall out of the
// nearer caches and cost more than they save (measured).
const blockBytes = 128 << 10

// tfreeMax bounds H × C, the Move calls spent checking one state of a
// time-dependent chain for t-freeness.
const tfreeMax = 1 << 14

// subMax bounds the tables of the draws blocks are made of (one draw per
// block when the table to the power kb fits: 20⁴ for a d20 kernel in
// blocks of 4; tables past subSmall are taken from the worker's budget).
const subMax = 1 << 18

// subSmall is the largest draw table not counted against the budget.
const subSmall = 4096

// refineMax bounds S × C, the Move calls spent merging kernel classes that
// lead everywhere to the same state.
const refineMax = 1 << 16

type blockChain struct {
	k *compiledKernel
	// The engine's classes merge kernel classes that Move sends to the same
	// state from every transient state: ref maps a kernel class to its
	// merged class, reps is a kernel value of each merged class.
	ref   []uint16
	reps  []int
	C, kb int
	rows1 []int32 // one-step rows, S<<sh1; codes s'<<sh1 or negative (kinds of one step)
	sh1   uint
	rowsB []int32 // block rows, S<<shB (rows1 when kb = 1)
	shB   uint
	nk    uint      // bits of the kind in negative block codes (kinds 0..2·kb)
	bb    *classBuf // block draws, merged classes (made at the first run, see draws)
	g     int       // the classes of one draw of bb's table
	timed bool
	free  []uint8 // timed: per state, 0 unknown, 1 t-free, 2 not
}

// Negative codes (other than codeUnset) pack a kind and a state, the kind
// in the low nk bits: for a block of kb steps, kind j < kb is "absorbed at
// the block's step j", kb is "stuck: the state can never change again" and
// kb+1+j is "after j+1 steps the chain is in a state that is not t-free".
// One-step codes have nk = 2.
func negCode(kind, state int, nk uint) int32 { return int32(-2 - (kind | state<<nk)) }

func splitCode(v int32, nk uint) (kind, state int) {
	x := int(-2 - v)
	return x & (1<<nk - 1), x >> nk
}

// newBlockChain sets up the engine, or returns nil when the kernel is not
// a table or its rows do not fit the budget.
func newBlockChain(w *processWorker, k *compiledKernel, timed bool) *blockChain {
	S, H := w.S, w.p.Horizon
	if k.cb == nil || S >= 1<<25 {
		return nil
	}
	b := &blockChain{k: k, kb: 1, timed: timed}
	b.ref, b.reps = refine(w, k)
	C := len(b.reps)
	b.C, b.sh1 = C, strideShift(C)
	if S<<b.sh1 >= 1<<31 || !w.take(4*(S<<b.sh1)) {
		return nil
	}
	b.rows1 = unsetRows(S << b.sh1)
	// The block size: the largest within the limits that divides the
	// horizon (no steps left over), else the largest if the horizon is long
	// enough that trials seldom reach the single steps after the last block.
	var fit []int
	for kb := 2; kb <= H && C > 1; kb++ {
		entries := pow(C, kb)
		if sh := strideShift(entries); entries > blockMax || 4*(S<<sh) > blockBytes || 4*(S<<sh) > w.budget {
			break
		}
		fit = append(fit, kb)
	}
	for _, kb := range fit {
		if H%kb == 0 || (kb == fit[len(fit)-1] && H >= 8*kb && b.kb == 1) {
			b.kb = kb
		}
	}
	// A block's classes come from g-class draws, g the largest divisor of kb
	// whose table combinations fit subMax: one index into the table to the
	// power g (g indices into the table, as one number) mapped to its g
	// merged classes as a number in base C; kb/g of them are combined.
	g := 1
	for d := b.kb; d > 1 && k.tcls != nil; d-- {
		if n := pow(len(k.tcls), d); b.kb%d == 0 && n <= subMax && (n <= subSmall || w.take(2*n)) {
			g = d
			break
		}
	}
	b.g = g
	if b.kb > 1 {
		b.shB = strideShift(pow(C, b.kb))
		w.take(4 * (S << b.shB))
	} else {
		b.shB = b.sh1
	}
	b.nk = uint(bits.Len(uint(2 * b.kb)))
	if timed {
		b.free = make([]uint8, S)
	}
	return b
}

// refine merges the classes of kernel k that Move(1, s, ·) sends to the same
// state from every transient state s. It merges nothing when that would
// take more than refineMax calls, or when Move raises a fault of the model
// (mechanics.Fault) on some state, which the chain may never reach.
func refine(w *processWorker, k *compiledKernel) (ref []uint16, reps []int) {
	p, C := w.p, len(k.vals)
	ref = make([]uint16, C)
	for x := range ref {
		ref[x] = uint16(x)
	}
	reps = k.vals
	if w.S*C > refineMax {
		return ref, reps
	}
	defer func() {
		if x := recover(); x != nil {
			if !mechanics.IsFault(x) {
				panic(x) // a bug, not the model's
			}
			for x := range ref {
				ref[x] = uint16(x)
			}
			reps = k.vals
		}
	}()
	cols := make([][]int, C)
	for x, v := range k.vals {
		for s := range w.S {
			if !p.Absorbing[s] {
				cols[x] = append(cols[x], p.Move(1, s, v))
			}
		}
	}
	var firsts []int // the first kernel class of each merged class
	byHash := map[uint64][]int{}
	for x, col := range cols {
		h := uint64(14695981039346656037)
		for _, v := range col {
			h = (h ^ uint64(v)) * 1099511628211
		}
		merged := -1
		for _, c := range byHash[h] {
			if slices.Equal(cols[firsts[c]], col) {
				merged = c
				break
			}
		}
		if merged < 0 {
			merged = len(firsts)
			firsts = append(firsts, x)
			byHash[h] = append(byHash[h], merged)
		}
		ref[x] = uint16(merged)
	}
	reps = make([]int, len(firsts))
	for c, x := range firsts {
		reps[c] = k.vals[x]
	}
	return ref, reps
}

// subBlockBuf draws g merged classes at a time as one number in base C:
// one index into a table of R = len(tcls) entries to the power g, whose
// digits in base R are g indices into the kernel's table.
func subBlockBuf(tcls, ref []uint16, C, g int) *classBuf {
	R := len(tcls)
	cls := make([]uint16, pow(R, g))
	for u := range cls {
		X := 0
		for j, r := 0, u; j < g; j++ {
			X = X*C + int(ref[tcls[r%R]])
			r /= R
		}
		cls[u] = uint16(X)
	}
	return newClassBuf(len(cls), cls)
}

// pow is a^n for a ≥ 1, saturating at 2⁴⁰.
func pow(a, n int) int {
	p := 1
	for range n {
		if p *= a; p > 1<<40 {
			return 1 << 40
		}
	}
	return p
}

func unsetRows(n int) []int32 {
	r := make([]int32, n)
	for i := range r {
		r[i] = codeUnset
	}
	return r
}

// tfree reports whether Move from transient state s gives the same next
// state at every step number (always, in a homogeneous chain). A fault of
// the model in Move at a step the chain may never reach counts as "not
// t-free".
func (b *blockChain) tfree(w *processWorker, s int) (ok bool) {
	if !b.timed {
		return true
	}
	if b.free[s] != 0 {
		return b.free[s] == 1
	}
	b.free[s] = 2
	defer func() {
		if x := recover(); x != nil {
			if !mechanics.IsFault(x) {
				panic(x) // a bug, not the model's
			}
			ok = false
		}
	}()
	p := w.p
	for _, v := range b.k.vals {
		first := p.Move(1, s, v)
		for t := 2; t <= p.Horizon; t++ {
			if p.Move(t, s, v) != first {
				return false
			}
		}
	}
	b.free[s] = 1
	return true
}

// row1 fills the one-step row of t-free transient state s.
func (b *blockChain) row1(w *processWorker, s int) error {
	p := w.p
	row := b.rows1[s<<b.sh1:]
	stay := true
	for x, v := range b.reps {
		ns, err := w.state(1, p.Move(1, s, v))
		if err != nil {
			return err
		}
		stay = stay && ns == s
		switch {
		case p.Absorbing[ns]:
			row[x] = negCode(0, ns, 2)
		case !b.tfree(w, ns):
			row[x] = negCode(2, ns, 2)
		default:
			row[x] = int32(ns << b.sh1)
		}
	}
	if stay {
		for x := range b.reps {
			row[x] = negCode(1, s, 2)
		}
	}
	return nil
}

// step1 is the one-step code from state s by class x.
func (b *blockChain) step1(w *processWorker, s, x int) (int32, error) {
	v := b.rows1[s<<b.sh1+x]
	if v == codeUnset {
		if err := b.row1(w, s); err != nil {
			return 0, err
		}
		v = b.rows1[s<<b.sh1+x]
	}
	return v, nil
}

// rowB fills the block row of t-free transient state s.
func (b *blockChain) rowB(w *processWorker, s int) error {
	return b.fillBlocks(w, b.rowsB[s<<b.shB:][:pow(b.C, b.kb)], s, 0)
}

// fillBlocks writes into row the codes of the blocks whose first j steps
// led to state cur, ordered by their remaining classes (the first one most
// significant).
func (b *blockChain) fillBlocks(w *processWorker, row []int32, cur, j int) error {
	span := len(row) / b.C
	for x := range b.C {
		part := row[x*span : (x+1)*span]
		v, err := b.step1(w, cur, x)
		if err != nil {
			return err
		}
		if v >= 0 {
			next := int(v) >> b.sh1
			if j+1 == b.kb {
				part[0] = int32(next << b.shB)
			} else if err := b.fillBlocks(w, part, next, j+1); err != nil {
				return err
			}
			continue
		}
		kind, st := splitCode(v, 2)
		code := negCode([3]int{j, b.kb, b.kb + 1 + j}[kind], st, b.nk)
		for i := range part {
			part[i] = code
		}
	}
	return nil
}

// draws makes the block draws' buffer and the block rows, at the engine's
// first run: the jump engine, when it takes over, needs neither (a d20 in
// blocks of 4 draws from a table of 20⁴ entries). Its budget was taken
// when the engine was set up, so that what runs does not depend on it; a
// buffer made in the middle of a chunk starts empty, as one emptied at the
// chunk's start.
func (b *blockChain) draws(w *processWorker) {
	k, C, g := b.k, b.C, b.g
	if g > 1 {
		b.bb = subBlockBuf(k.tcls, b.ref, C, g)
	} else {
		b.bb = k.newBuf(b.ref)
	}
	w.cbufs = append(w.cbufs, b.bb)
	if b.kb > 1 {
		b.rowsB = unsetRows(w.S << b.shB)
		if g < b.kb {
			b.bb = &classBuf{in: b.bb, C: pow(C, g), kb: b.kb / g, buf: make([]uint16, len(b.bb.buf))}
			b.bb.pos = len(b.bb.buf)
			w.cbufs = append(w.cbufs, b.bb)
		}
	} else {
		b.rowsB = b.rows1
	}
}

// run runs n trials; draws must have been called.
func (b *blockChain) run(w *processWorker, kf *kernelForm, src *source, n int) error {
	p := w.p
	S, H, kb, shB, nk := w.S, p.Horizon, b.kb, b.shB, b.nk
	rows, cb := b.rowsB, b.bb
	buf, pos := cb.buf, cb.pos
	start := p.Start << shB
	last := H - kb + 1 // the last step at which a whole block fits
	for ; n > 0; n-- {
		off, t, out := start, 1, -1
		for t <= last {
			if pos >= len(buf) {
				cb.refill(src)
				pos = 0
			}
			X := int(buf[pos])
			pos++
			v := rows[off+X]
			if v >= 0 {
				off, t = int(v), t+kb
				continue
			}
			if v == codeUnset {
				if err := b.rowB(w, off>>shB); err != nil {
					return err
				}
				if v = rows[off+X]; v >= 0 {
					off, t = int(v), t+kb
					continue
				}
			}
			kind, st := splitCode(v, nk)
			switch {
			case kind < kb:
				out = (t+kind)*S + st
			case kind == kb:
				out = (H+1)*S + st
			default: // a state that is not t-free: go on step by step
				cb.pos = pos
				var err error
				if out, err = kf.runTimed(w, src, t+kind-kb, st); err != nil {
					return err
				}
				pos = cb.pos
			}
			break
		}
		if out < 0 {
			cb.pos = pos
			var err error
			if out, err = b.tail(w, kf, src, t, off>>shB); err != nil {
				return err
			}
			pos = cb.pos
		}
		if j := out - w.lo; j >= 0 && j < len(w.cnt) {
			w.cnt[j]++
		} else if err := w.count(out); err != nil {
			cb.pos = pos
			return err
		}
	}
	cb.pos = pos
	return nil
}

// tail steps one at a time from state s at step t to the horizon.
func (b *blockChain) tail(w *processWorker, kf *kernelForm, src *source, t, s int) (int, error) {
	S, H := w.S, w.p.Horizon
	for ; t <= H; t++ {
		v, err := b.step1(w, s, int(b.ref[b.k.cb.next(src)]))
		if err != nil {
			return 0, err
		}
		if v >= 0 {
			s = int(v) >> b.sh1
			continue
		}
		switch kind, st := splitCode(v, 2); kind {
		case 0:
			return t*S + st, nil
		case 1:
			return (H+1)*S + st, nil
		default:
			return kf.runTimed(w, src, t+1, st)
		}
	}
	return (H+1)*S + s, nil
}
