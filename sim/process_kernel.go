package sim

import (
	"fmt"
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
)

// compiledKernel is one kernel: its classes (distinct values) and how to
// draw one.
type compiledKernel struct {
	vals []int     // value of each class
	tcls []uint16  // table kernels: the class of each table index
	cb   *classBuf // table and pair kernels
	// newBuf makes another class buffer of the kernel whose classes are
	// mapped through ref.
	newBuf func(ref []uint16) *classBuf
	smp    sampler // other kernels: sampled, then Move called
}

// kernelForm runs a Process given by Kernel and Move.
type kernelForm struct {
	kernels map[int]*compiledKernel // by kernel key; read when a step is built
	scratch []int32

	// Homogeneous chains, and time-dependent ones whose steps all share one
	// kernel and whose Move does not depend on t (checked state by state).
	blk   *blockChain
	jmp   *jumpChain      // k steps a draw (process_jump.go): homogeneous, or periodic keys
	moves *compiledKernel // homogeneous without rows: Move every step

	// Time-dependent chains: the kernel keys in order of first use, the
	// key of each step and what each step reads.
	keyList []*keyRows
	keyOf   []int32
	hot     []kernelHot
	// runEnd[t] is the first step after t with another kernel key (at
	// most Horizon+1): a state that a one-valued kernel leaves in place
	// stays put until then, so the loop jumps there.
	runEnd []int32

	ready bool
}

// keyRows are the rows of one kernel key. A state's row is computed at the
// first step that needs it and checked at the key's other steps; where Move
// differs between them the row holds codeEscape and each step uses its own.
type keyRows struct {
	k     *compiledKernel // nil until the key's first step is built
	ts    []int           // the steps with this key
	rows  []int32         // S<<shift codes; nil: each step uses its own
	shift uint
}

// kernelHot is what a time-dependent step reads, in one array by step
// number.
type kernelHot struct {
	rows  []int32 // the key's rows, or the step's own; nil: call Move
	own   []int32 // the step's own rows, when needed
	cb    *classBuf
	shift uint
	key   *keyRows
	built bool
	// idle: the key's kernel has one value (a day without a roll) and the
	// step reads the key's shared rows, which hold a state only where Move
	// gives it at every step of the key.
	idle bool
}

func (kf *kernelForm) init(w *processWorker) {
	kf.kernels = map[int]*compiledKernel{}
	if !w.p.Homogeneous {
		kf.hot = make([]kernelHot, w.p.Horizon+1)
	}
}

// kernel is the compiled kernel of step t.
func (kf *kernelForm) kernel(w *processWorker, t int) (*compiledKernel, error) {
	key := w.p.KernelKeyOf(t)
	if k, ok := kf.kernels[key]; ok {
		return k, nil
	}
	if err := w.stop(); err != nil {
		return nil, err
	}
	s, err := compileChecked(w.p.Kernel(t))
	if err != nil {
		return nil, fmt.Errorf("step %d: %w", t, err)
	}
	k := &compiledKernel{}
	if tb, ok := asTable(s); ok {
		vals, cls := classes(tb.vals)
		k.vals, k.tcls, k.cb = vals, cls, newClassBuf(len(tb.vals), cls)
		k.newBuf = func(ref []uint16) *classBuf { return newClassBuf(len(cls), compose(cls, ref)) }
	} else if pt, ok := s.(*pairTable); ok && len(pt.x.vals) < 1<<16 && len(pt.y.vals) < 1<<16 {
		// Two tables combined over their distinct values (see fuse): draw
		// one index into each, as for a pair of tables below.
		clsX, clsY := toClasses(pt.x.vals), toClasses(pt.y.vals)
		vals, cls := classes(pt.joint)
		k.vals, k.cb = vals, newPairBuf(len(pt.x.vals), len(pt.y.vals), clsX, clsY, cls, pt.ny)
		k.newBuf = func(ref []uint16) *classBuf {
			return newPairBuf(len(pt.x.vals), len(pt.y.vals), clsX, clsY, compose(cls, ref), pt.ny)
		}
	} else if wt, ok := s.(*weighted); ok && len(wt.faces) < 1<<16 {
		// Exact counts past a table's size (a damage roll of bursting dice
		// capped at what a creature can lose, heavy dice): each step's
		// class is one draw by weight.
		vals, cls := classes(wt.faces)
		k.vals, k.cb = vals, newWeightedBuf(wt, cls)
		k.newBuf = func(ref []uint16) *classBuf { return newWeightedBuf(wt, compose(cls, ref)) }
	} else if ps, ok := s.(*pairSampler); ok {
		tx, okx := asTable(ps.x)
		ty, oky := asTable(ps.y)
		if okx && oky {
			dx, clsX := classes(tx.vals)
			dy, clsY := classes(ty.vals)
			if len(dx)*len(dy) <= tableMax {
				pv := make([]int, 0, len(dx)*len(dy))
				for _, a := range dx {
					for _, b := range dy {
						pv = append(pv, ps.f(a, b))
					}
				}
				vals, cls := classes(pv)
				k.vals, k.cb = vals, newPairBuf(len(tx.vals), len(ty.vals), clsX, clsY, cls, len(dy))
				k.newBuf = func(ref []uint16) *classBuf {
					return newPairBuf(len(tx.vals), len(ty.vals), clsX, clsY, compose(cls, ref), len(dy))
				}
			}
		}
	}
	if k.cb != nil {
		w.cbufs = append(w.cbufs, k.cb)
		// What the kernel keeps: its classes by index and value, and the
		// class buffer.
		w.reserve(int64(2*len(k.tcls)+8*len(k.vals)+2*len(k.cb.buf)+2*len(k.cb.cls)), "the process kernels of one worker")
	} else {
		k.smp = s
	}
	kf.kernels[key] = k
	return k, nil
}

// toClasses converts value indices (below 2¹⁶) to classes.
func toClasses(idx []int) []uint16 {
	out := make([]uint16, len(idx))
	for i, v := range idx {
		out[i] = uint16(v)
	}
	return out
}

// compose maps each class of cls through ref.
func compose(cls, ref []uint16) []uint16 {
	out := make([]uint16, len(cls))
	for i, c := range cls {
		out[i] = ref[c]
	}
	return out
}

// classes returns the distinct values of vals, ascending, and the class of
// each entry.
func classes(vals []int) ([]int, []uint16) {
	if len(vals) > 0 {
		// Values in a range not much wider than the table (the usual
		// case): classes by their offset in the range, without sorting.
		lo, hi := slices.Min(vals), slices.Max(vals)
		if span := uint64(hi) - uint64(lo); span < uint64(4*len(vals)+64) {
			at := make([]int32, span+1)
			for _, v := range vals {
				at[v-lo] = 1
			}
			var distinct []int
			for i, seen := range at {
				if seen != 0 {
					at[i] = int32(len(distinct))
					distinct = append(distinct, lo+i)
				}
			}
			cls := make([]uint16, len(vals))
			for i, v := range vals {
				cls[i] = uint16(at[v-lo])
			}
			return distinct, cls
		}
	}
	distinct := slices.Compact(slices.Sorted(slices.Values(vals)))
	cls := make([]uint16, len(vals))
	for i, v := range vals {
		c, _ := slices.BinarySearch(distinct, v)
		cls[i] = uint16(c)
	}
	return distinct, cls
}

// draw is one value of kernel k (slow paths).
func (k *compiledKernel) draw(src *source) int {
	if k.cb != nil {
		return k.vals[k.cb.next(src)]
	}
	return k.smp.sample(src)
}

// moveRow puts into kf.scratch the codes of Move(t, s, ·) by class.
func (kf *kernelForm) moveRow(w *processWorker, k *compiledKernel, t, s int) ([]int32, error) {
	kf.scratch = slices.Grow(kf.scratch[:0], len(k.vals))[:len(k.vals)]
	for x, v := range k.vals {
		c, err := w.code(t, w.p.Move(t, s, v))
		if err != nil {
			return nil, err
		}
		kf.scratch[x] = c
	}
	return kf.scratch, nil
}

func (kf *kernelForm) run(w *processWorker, src *source, n int) error {
	if !kf.ready {
		if err := kf.prepare(w); err != nil {
			return err
		}
		kf.ready = true
	}
	switch {
	case kf.jmp != nil:
		return kf.jmp.run(w, src, n)
	case kf.blk != nil:
		if kf.blk.bb == nil {
			kf.blk.draws(w)
		}
		return kf.blk.run(w, kf, src, n)
	case kf.moves != nil:
		return kf.runMoves(w, src, n)
	}
	return kf.runTimedTrials(w, src, n)
}

// prepare picks the loop, at the first chunk (the start state is transient).
func (kf *kernelForm) prepare(w *processWorker) error {
	p := w.p
	if p.Homogeneous {
		k, err := kf.kernel(w, 1)
		if err != nil {
			return err
		}
		if kf.blk = newBlockChain(w, k, false); kf.blk == nil {
			kf.moves = k
		} else {
			kf.jmp = newJumpChain(w, kf.blk)
		}
		return nil
	}
	index := map[int]int32{}
	kf.keyOf = make([]int32, p.Horizon+1)
	for t := 1; t <= p.Horizon; t++ {
		key := p.KernelKeyOf(t)
		i, ok := index[key]
		if !ok {
			i = int32(len(kf.keyList))
			index[key] = i
			kf.keyList = append(kf.keyList, &keyRows{})
		}
		kf.keyOf[t] = i
		kf.keyList[i].ts = append(kf.keyList[i].ts, t)
	}
	kf.runEnd = make([]int32, p.Horizon+2)
	for t := p.Horizon; t >= 1; t-- {
		kf.runEnd[t] = int32(t + 1)
		if t < p.Horizon && kf.keyOf[t+1] == kf.keyOf[t] {
			kf.runEnd[t] = kf.runEnd[t+1]
		}
	}
	if len(kf.keyList) > 1 {
		kf.jmp = newPeriodicJump(w, kf)
		return nil
	}
	// One kernel for every step: the block engine, if the start state's
	// Move does not depend on t.
	k, err := kf.kernel(w, 1)
	if err != nil || k.cb == nil || p.Horizon*len(k.vals) > tfreeMax {
		return err
	}
	budget := w.budget
	b := newBlockChain(w, k, true)
	if b != nil && b.tfree(w, p.Start) {
		kf.blk = b
	} else {
		w.budget = budget
	}
	return nil
}

// runMoves is the loop of a homogeneous chain without rows (over budget,
// or a kernel that is not a table): Move is called every step.
func (kf *kernelForm) runMoves(w *processWorker, src *source, n int) error {
	p := w.p
	S, H, k := w.S, p.Horizon, kf.moves
	for ; n > 0; n-- {
		s, t := p.Start, 1
		for ; t <= H; t++ {
			ns, err := w.state(t, p.Move(1, s, k.draw(src)))
			if err != nil {
				return err
			}
			s = ns
			if p.Absorbing[s] {
				break
			}
		}
		if err := w.count(t*S + s); err != nil {
			return err
		}
	}
	return nil
}

// context builds step t of a time-dependent chain.
func (kf *kernelForm) context(w *processWorker, t int) (*kernelHot, error) {
	h := &kf.hot[t]
	if h.built {
		return h, nil
	}
	kr := kf.keyList[kf.keyOf[t]]
	if kr.k == nil {
		k, err := kf.kernel(w, t)
		if err != nil {
			return nil, err
		}
		kr.k = k
		if k.cb != nil {
			kr.shift = strideShift(len(k.vals))
			if size := w.S << kr.shift; size < 1<<31 && len(kr.ts)*len(k.vals) <= tfreeMax && w.take(4*size) {
				kr.rows = unsetRows(size)
			}
		}
	}
	*h = kernelHot{built: true, key: kr, cb: kr.k.cb, shift: kr.shift, rows: kr.rows,
		idle: kr.rows != nil && len(kr.k.vals) == 1}
	if kr.k.cb != nil && kr.rows == nil {
		h.rows = kf.ownRows(w, h)
	}
	return h, nil
}

// ownRows allocates the rows of one step, or returns nil over budget.
func (kf *kernelForm) ownRows(w *processWorker, h *kernelHot) []int32 {
	if size := w.S << h.shift; size < 1<<31 && w.take(4*size) {
		h.own = unsetRows(size)
	}
	return h.own
}

// resolve is the code of the step from state s at step t by class x when
// the fast path found no usable code in h.rows: it computes the state's row
// (the key's, checked at the key's other steps, or the step's own), or calls
// Move when the step's own rows do not fit the budget.
func (kf *kernelForm) resolve(w *processWorker, h *kernelHot, t, s, x int) (int32, error) {
	at := s<<h.shift + x
	keyed := h.key.rows != nil
	if keyed && h.rows[at] == codeUnset {
		if err := kf.keyRow(w, h.key, t, s); err != nil {
			return 0, err
		}
	}
	if v := h.rows[at]; v != codeUnset && v != codeEscape {
		return v, nil
	}
	own := h.own
	if own == nil && keyed {
		own = kf.ownRows(w, h)
	}
	if own == nil {
		return w.code(t, w.p.Move(t, s, h.key.k.vals[x]))
	}
	if own[at] == codeUnset {
		codes, err := kf.moveRow(w, h.key.k, t, s)
		if err != nil {
			return 0, err
		}
		copy(own[s<<h.shift:], codes)
	}
	return own[at], nil
}

// keyRow fills the row of state s in the rows of key kr: Move at step t,
// where the chain is, if Move gives the same at every step with this key,
// else codeEscape (a fault of the model in Move at a step where the chain
// may never be counts as a difference).
func (kf *kernelForm) keyRow(w *processWorker, kr *keyRows, t, s int) error {
	codes, err := kf.moveRow(w, kr.k, t, s)
	if err != nil {
		return err
	}
	row := kr.rows[s<<kr.shift:][:len(codes)]
	copy(row, codes)
	if !kf.sameAt(w, kr, t, s) {
		for x := range row {
			row[x] = codeEscape
		}
	}
	return nil
}

// sameAt reports whether Move from state s gives at every step of key kr
// what it gives at step t.
func (kf *kernelForm) sameAt(w *processWorker, kr *keyRows, t, s int) (same bool) {
	defer func() {
		if x := recover(); x != nil {
			if !mechanics.IsFault(x) {
				panic(x) // a bug, not the model's
			}
			same = false
		}
	}()
	p := w.p
	for _, v := range kr.k.vals {
		at := p.Move(t, s, v)
		for _, u := range kr.ts {
			if u != t && p.Move(u, s, v) != at {
				return false
			}
		}
	}
	return true
}

// runTimed is the loop of a time-dependent chain, from state s at step t
// (a whole trial from the start, or the rest of one the block engine
// handed over); it returns the trial's outcome. A step is a buffered class
// and one load once the state's row is known. Every step draws its class
// before looking anything up, so rows, budget and sharing never change
// what is drawn.
func (kf *kernelForm) runTimed(w *processWorker, src *source, t, s int) (int, error) {
	S, H := w.S, w.p.Horizon
	hot := kf.hot
	for ; t <= H; t++ {
		h := &hot[t]
		if !h.built {
			var err error
			if h, err = kf.context(w, t); err != nil {
				return 0, err
			}
		}
		var v int32
		if cb := h.cb; cb != nil {
			if cb.pos >= len(cb.buf) {
				cb.refill(src)
			}
			x := int(cb.buf[cb.pos])
			cb.pos++
			var err error
			if h.rows == nil {
				v, err = w.code(t, w.p.Move(t, s, h.key.k.vals[x]))
			} else if v = h.rows[s<<h.shift+x]; v == codeUnset || v == codeEscape {
				v, err = kf.resolve(w, h, t, s, x)
			}
			if err != nil {
				return 0, err
			}
		} else {
			var err error
			if v, err = w.code(t, w.p.Move(t, s, h.key.k.smp.sample(src))); err != nil {
				return 0, err
			}
		}
		if v < 0 {
			return t*S + int(codeAbsorbed-v), nil
		}
		s = int(v)
	}
	return (H+1)*S + s, nil
}

// runTimedTrials runs whole trials as runTimed does, holding the class
// buffer of the current kernel in locals while consecutive steps share it.
func (kf *kernelForm) runTimedTrials(w *processWorker, src *source, n int) error {
	p := w.p
	S, H := w.S, p.Horizon
	hot := kf.hot
	var cb *classBuf
	var buf []uint16
	pos := 0
	defer func() {
		if cb != nil {
			cb.pos = pos
		}
	}()
	for ; n > 0; n-- {
		s, t, out := p.Start, 1, -1
		for ; t <= H; t++ {
			h := &hot[t]
			if h.rows == nil { // not built yet, or no rows: the slow loop
				if cb != nil {
					cb.pos = pos
					cb = nil
				}
				var err error
				if out, err = kf.runTimed(w, src, t, s); err != nil {
					return err
				}
				break
			}
			if h.idle && int(h.rows[s<<h.shift]) == s {
				t = int(kf.runEnd[t]) - 1 // nothing happens until the key changes
				continue
			}
			if h.cb != cb {
				if cb != nil {
					cb.pos = pos
				}
				cb, buf, pos = h.cb, h.cb.buf, h.cb.pos
			}
			if pos >= len(buf) {
				cb.refill(src)
				pos = 0
			}
			x := int(buf[pos])
			pos++
			v := h.rows[s<<h.shift+x]
			if v >= 0 {
				s = int(v)
				continue
			}
			if v == codeUnset || v == codeEscape {
				var err error
				if v, err = kf.resolve(w, h, t, s, x); err != nil {
					return err
				}
				if v >= 0 {
					s = int(v)
					continue
				}
			}
			out = t*S + int(codeAbsorbed-v)
			break
		}
		if out < 0 {
			out = (H+1)*S + s
		}
		if j := out - w.lo; j >= 0 && j < len(w.cnt) {
			w.cnt[j]++
		} else if err := w.count(out); err != nil {
			return err
		}
	}
	return nil
}
