package sim

import (
	"fmt"
	"math/bits"

	"github.com/oddsmith/oddsmith/mechanics"
)

// The process worker runs a mechanics.Process trial by trial. What a step
// needs is compiled lazily, per worker, into dense slices indexed by state
// and by step number, so the per-step path reads no map, looks nothing up by
// name and allocates nothing once the states a run visits are compiled.
// Nothing here samples an exact result: every table is built by rolling
// every dice combination of the step's node through the model's own
// functions (compile) and by calling the model's Move or Step; a step draws
// one uniform index into such a table.
//
// Kernel form (process_kernel.go, process_block.go). A kernel is compiled
// once per kernel key. When it is a table (or two independent tables
// combined by a function, such as two opposed rolls too large to table
// whole, or a weighted table: exact counts past a table's size) it is
// reduced to classes, its distinct values, and its draws come from a class
// buffer: table indices drawn several per 64-bit word without bias (faces
// drawn by weight) and mapped to classes ahead of use. Each state gets a row of next
// states by class, filled the first time the state is met by calling Move
// once per class, so a step is one buffered class and one load.
//
//   - A homogeneous chain, or a time-dependent one whose steps all share one
//     kernel key, runs on the block engine (process_block.go): classes that
//     Move sends to the same state from every state are merged, and kb steps
//     are taken per lookup. For a time-dependent chain, only states whose
//     Move is checked to be the same at every step ("t-free") are stepped
//     there; the trial goes on step by step from any other.
//   - A homogeneous chain whose kernel is any of these, and a
//     time-dependent one whose kernel keys repeat with a period from the
//     first step, may run on the jump engine instead (process_jump.go): one
//     exact draw for k steps (a period) through rows that count every
//     sequence of table indices (index pairs, units of weight), two trials
//     at a time where a trial's end is hard to predict.
//   - Other time-dependent chains keep rows per kernel key: a state's row is
//     computed at the first step that needs it and checked against Move at
//     the key's other steps; where Move differs, each step gets its own row.
//   - Past the worker's budget (procBudget, or a sixteenth of the run's
//     memory budget if less; see memory.go) a step calls Move instead.
//     Outside the block and jump engines a step draws the same class
//     whether it has a row or calls Move, so the budget changes speed, not
//     counts; whether those engines run, and their block sizes, depend on
//     the model's sizes and on that budget only, never on what a worker has
//     met.
//
// Step form (process_step.go). Each (step, state) gets a row: the compiled
// step's table mapped to next states, drawn with one uniform index from the
// buffer of its radix. A row whose table holds a single state needs no draw;
// one that can only stay where it is ends the trial's stepping at once in a
// homogeneous chain (the state can never change again) and, in a
// time-dependent one, jumps to the next step number at which that state's
// step can move (found by compiling the following rows: no randomness is
// involved). Rows live in a slice per step number while steps × states fit
// the budget and in a direct-mapped cache otherwise (a miss recompiles).
//
// Each draw is the next from the chunk's stream, and every buffer is
// emptied at the start of a chunk, so a chunk's counts depend only on its
// stream, never on the worker that ran it or on the chunks it ran before.

// Next-state codes in rows: a transient state is itself (block rows: its
// offset in the rows, see process_block.go); an absorbing state s is
// codeAbsorbed−s.
const (
	codeUnset    = -1 // row not computed yet
	codeEscape   = -2 // see keyRows
	codeAbsorbed = -3
)

// procBudget bounds, in bytes, what one worker precomputes for a process:
// kernel rows, and the step rows' headers in dense mode. Tests lower it
// (tuning.tables) to exercise the fallbacks.
const procBudget = 64 << 20

// radixBuf holds indices in [0, radix) drawn several per word.
type radixBuf struct {
	b   batch
	buf []uint64
	pos int
}

func newRadixBuf(radix uint64) *radixBuf {
	r := &radixBuf{b: newLeanBatch(radix)}
	r.buf = make([]uint64, 4*r.b.k)
	r.pos = len(r.buf)
	return r
}

func (r *radixBuf) refill(src *source) {
	fillIndices(&r.b, src, r.buf)
	r.pos = 0
}

// fillIndices fills out (4·b.k long) with indices; radix 1 draws nothing.
func fillIndices(b *batch, src *source, out []uint64) {
	if b.radix == 1 {
		clear(out)
		return
	}
	b.fillWide(src, out)
}

// radixPool gives each radix one buffer per worker.
type radixPool struct{ bufs []*radixBuf }

func (p *radixPool) get(radix uint64) *radixBuf {
	for _, b := range p.bufs {
		if b.b.radix == radix {
			return b
		}
	}
	b := newRadixBuf(radix)
	p.bufs = append(p.bufs, b)
	return b
}

// classBuf holds a kernel's classes drawn ahead: table indices mapped
// through cls (nil: the class is the index), or for a pair kernel one index
// of each table mapped through the classes of the pair, or for a weighted
// kernel a face drawn by weight mapped through cls, or (block draws) kb
// classes of another buffer as one number.
type classBuf struct {
	buf []uint16
	pos int
	cls []uint16 // class by index, or by class pair cx·ny+cy
	b   batch
	// pair kernels
	pb         *pairBatch
	clsX, clsY []uint16
	ny         int
	// block draws: kb draws of in as one number in base C
	in    *classBuf
	C, kb int
	// weighted kernels: the face drawn by weight, mapped through cls
	wt *weighted
}

// newClassBuf draws indices in [0, radix) mapped through cls.
func newClassBuf(radix int, cls []uint16) *classBuf {
	identity := true
	for i, c := range cls {
		identity = identity && int(c) == i
	}
	if identity {
		cls = nil
	}
	b := newLeanBatch(uint64(radix))
	c := &classBuf{cls: cls, b: b, buf: make([]uint16, 4*b.k)}
	c.pos = len(c.buf)
	return c
}

// newWeightedBuf draws faces of wt by weight, mapped through cls: U below
// the total weight, several a word when the total fits 16 bits (as table
// indices), then the face through wt's guide.
func newWeightedBuf(wt *weighted, cls []uint16) *classBuf {
	c := &classBuf{wt: wt, cls: cls, buf: make([]uint16, 64)}
	if wt.total <= 1<<16 {
		c.b = newLeanBatch(wt.total)
		c.buf = make([]uint16, 4*c.b.k)
	}
	c.pos = len(c.buf)
	return c
}

// newPairBuf draws an index of each of two tables (of nx and ny entries,
// classes clsX and clsY) and maps the pair through cls.
func newPairBuf(nx, ny int, clsX, clsY, cls []uint16, classesY int) *classBuf {
	pb := newPairBatch(uint64(nx), uint64(ny))
	c := &classBuf{pb: &pb, cls: cls, clsX: clsX, clsY: clsY, ny: classesY,
		buf: make([]uint16, 4*pb.m*max(1, 4/pb.m))}
	c.pos = len(c.buf)
	return c
}

func (c *classBuf) refill(src *source) {
	switch {
	case c.in != nil:
		in := c.in
		in.refill(src)
		copy(c.buf, in.buf)
		for range c.kb - 1 {
			in.refill(src)
			for i, x := range in.buf[:len(c.buf)] {
				c.buf[i] = c.buf[i]*uint16(c.C) + x
			}
		}
	case c.pb != nil:
		c.pb.fillClasses(src, c.clsX, c.clsY, c.cls, c.ny, c.buf)
	case c.wt != nil && c.b.radix != 0:
		wt, cls := c.wt, c.cls
		c.b.fillClasses(src, nil, c.buf)
		for i, u := range c.buf {
			c.buf[i] = cls[wt.at(uint64(u))]
		}
	case c.wt != nil:
		wt, cls := c.wt, c.cls
		for i := range c.buf {
			c.buf[i] = cls[wt.at(src.Index(wt.total))]
		}
	default:
		c.b.fillClasses(src, c.cls, c.buf)
	}
	c.pos = 0
}

// next returns the next class (slow paths; the loops inline it).
func (c *classBuf) next(src *source) int {
	if c.pos >= len(c.buf) {
		c.refill(src)
	}
	x := c.buf[c.pos]
	c.pos++
	return int(x)
}

type processWorker struct {
	p      *mechanics.Process
	S      int
	budget int // bytes left for precomputed tables
	env    *workerEnv
	// err is a memory refusal met while taking from the budget, returned
	// at the end of the chunk (see take).
	err   error
	radix radixPool
	cbufs []*classBuf
	// Outcome counts over [lo, lo+len(cnt)), with room to grow.
	lo  int
	cnt []int64

	kern kernelForm
	step stepForm
}

func newProcessWorker(p *mechanics.Process) *processWorker {
	return newProcessWorkerWith(p, defaultEnv())
}

func newProcessWorkerWith(p *mechanics.Process, env *workerEnv) *processWorker {
	w := &processWorker{p: p, S: len(p.States), budget: env.tables, env: env}
	if p.Kernel != nil {
		w.kern.init(w)
	} else {
		w.step.init(w)
	}
	return w
}

func compileChecked(n mechanics.Node) (sampler, error) {
	if err := mechanics.Validate(n); err != nil {
		return nil, err
	}
	return compile(n)
}

// state checks a state the model's step leads to.
func (w *processWorker) state(t, v int) (int, error) {
	if v < 0 || v >= w.S {
		return 0, fmt.Errorf("step %d leads to state %d outside the %d states", t, v, w.S)
	}
	return v, nil
}

// code is the next-state code of state v (transient states as themselves).
func (w *processWorker) code(t, v int) (int32, error) {
	v, err := w.state(t, v)
	if err != nil {
		return 0, err
	}
	if w.p.Absorbing[v] {
		return int32(codeAbsorbed - v), nil
	}
	return int32(v), nil
}

// take reserves n bytes of the worker's budget. Whether it does depends on
// the model and that budget only (the loops and draws must not depend on
// the other workers); the bytes are reserved from the run's pool as well,
// and when that fails the chunk ends with a memory error.
func (w *processWorker) take(n int) bool {
	if n < 0 || n > w.budget {
		return false
	}
	w.budget -= n
	w.reserve(int64(n), "the process tables of one worker")
	return true
}

// reserve takes n bytes from the run's pool, or notes the refusal in w.err.
func (w *processWorker) reserve(n int64, what string) {
	if w.err == nil && !w.env.pool.reserve(n) {
		w.err = w.env.pool.refusal(n, "make the process smaller (fewer states) or use fewer workers", what)
	}
}

func (w *processWorker) run(src *source, n int) error {
	if err := w.runChunk(src, n); err != nil {
		return err
	}
	return w.err
}

// stop looks at the context.
func (w *processWorker) stop() error { return w.env.ctx.Err() }

func (w *processWorker) runChunk(src *source, n int) error {
	if w.err != nil {
		return w.err
	}
	for _, b := range w.radix.bufs {
		b.pos = len(b.buf)
	}
	for _, c := range w.cbufs {
		c.pos = len(c.buf)
	}
	if w.p.Absorbing[w.p.Start] {
		out := w.p.Outcome(0, w.p.Start)
		if i := out - w.lo; i < 0 || i >= len(w.cnt) {
			if err := w.grow(out); err != nil {
				return err
			}
		}
		w.cnt[out-w.lo] += int64(n)
		return nil
	}
	// The trials of a chunk run in batches, with a look at the context
	// between two, so that a chunk of a slow process does not hold a
	// cancellation up. The loops keep their buffers' positions between
	// calls, so batches draw what one call would.
	batch := max(1, ctxSteps/(w.p.Horizon+1))
	for n > 0 {
		m := min(n, batch)
		var err error
		if w.p.Kernel != nil {
			err = w.kern.run(w, src, m)
		} else {
			err = w.step.run(w, src, m)
		}
		if err != nil {
			return err
		}
		if n -= m; n > 0 {
			if err := w.stop(); err != nil {
				return err
			}
		}
	}
	return nil
}

// count adds one trial's outcome.
func (w *processWorker) count(out int) error {
	if i := out - w.lo; i < 0 || i >= len(w.cnt) {
		if err := w.grow(out); err != nil {
			return err
		}
	}
	w.cnt[out-w.lo]++
	return nil
}

// count1 adds one trial's outcome, inline where it fits the counts.
func (w *processWorker) count1(out int) error {
	if i := out - w.lo; i >= 0 && i < len(w.cnt) {
		w.cnt[i]++
		return nil
	}
	return w.count(out)
}

// countAll adds the outcomes of several trials.
func (w *processWorker) countAll(outs []int) error {
	for _, out := range outs {
		if i := out - w.lo; i >= 0 && i < len(w.cnt) {
			w.cnt[i]++
		} else if err := w.count(out); err != nil {
			return err
		}
	}
	return nil
}

// grow widens the counts to cover out, with half as much room again on the
// side it grows (outcomes are ≥ 0), so growing costs amortised constant
// time. The new counters are reserved from the run's budget first.
func (w *processWorker) grow(out int) error {
	if len(w.cnt) == 0 {
		if !w.env.pool.reserve(16 * 8) {
			return w.env.pool.refusal(16*8, adviceCodes, "the outcome counts of one worker")
		}
		w.lo, w.cnt = out, padded[int64](16)
		return nil
	}
	lo, hi := min(w.lo, out), max(w.lo+len(w.cnt), out+1)
	if out < w.lo {
		lo = max(0, lo-len(w.cnt)/2)
	} else {
		hi += len(w.cnt) / 2
	}
	if n := int64(hi-lo) * 8; !w.env.pool.reserve(n) {
		return w.env.pool.refusal(n, adviceCodes+" (or a shorter horizon)",
			fmt.Sprintf("the outcome counts of one worker, over the codes from %d to %d (%d steps × %d states),", lo, hi-1, hi/w.S-lo/w.S+1, w.S))
	}
	w.env.pool.used.Add(-8 * int64(len(w.cnt))) // the old counters are garbage now
	cnt := padded[int64](hi - lo)
	copy(cnt[w.lo-lo:], w.cnt)
	w.lo, w.cnt = lo, cnt
	return nil
}

// hist is the counts without the room grow left.
func (w *processWorker) hist() Hist {
	a, b := 0, len(w.cnt)
	for a < b && w.cnt[a] == 0 {
		a++
	}
	for b > a && w.cnt[b-1] == 0 {
		b--
	}
	if a == b {
		return Hist{}
	}
	return Hist{Lo: w.lo + a, Counts: w.cnt[a:b]}
}

// strideShift is the shift of the smallest power of two ≥ c.
func strideShift(c int) uint { return uint(bits.Len(uint(c - 1))) }
