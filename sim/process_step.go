package sim

import (
	"fmt"
	"unsafe"
)

// stepRow is the compiled step from one state at one step number.
type stepRow struct {
	next []int32 // next-state code by table index (rowTable), or next[0] (rowFixed)
	rb   *radixBuf
	smp  sampler
	jump int32 // rowStay, time-dependent: the next step number that can move (0: unknown)
	kind uint8
}

const (
	rowUnset uint8 = iota
	rowTable
	rowFixed
	rowStay
	rowSampler
)

// stepRowBytes is about the size of a stepRow, for the budget.
const stepRowBytes = 56

// stepCacheSize is the number of slots of the direct-mapped row cache used
// when steps × states are too many for dense rows.
const stepCacheSize = 1 << 16

// cacheSlot is one slot of the direct-mapped row cache.
type cacheSlot struct {
	t, s int32
	row  stepRow
}

// stepForm runs a Process given by Step.
type stepForm struct {
	rows  [][]stepRow // by step number (index 0: homogeneous), dense mode
	cache []cacheSlot // direct-mapped (t, s) → row, when dense rows do not fit
}

func (sf *stepForm) init(w *processWorker) {
	ctxs := 1
	if !w.p.Homogeneous {
		ctxs = w.p.Horizon + 1
	}
	if int64(ctxs)*int64(w.S)*stepRowBytes <= int64(w.budget) {
		w.take(ctxs * w.S * stepRowBytes)
		sf.rows = make([][]stepRow, ctxs)
		return
	}
	w.reserve(stepCacheSize*int64(unsafe.Sizeof(cacheSlot{})), "the step cache of one worker")
	sf.cache = make([]cacheSlot, stepCacheSize)
	for i := range sf.cache {
		sf.cache[i].t = -1
	}
}

// compileRow compiles the step from state s at step t into r.
func (sf *stepForm) compileRow(w *processWorker, r *stepRow, t, s int) error {
	// Compiling is slow beside a step: a trial of a long time-dependent
	// chain may compile rows for seconds, so look at the context here.
	if err := w.stop(); err != nil {
		return err
	}
	smp, err := compileChecked(w.p.Step(t, s))
	if err != nil {
		return fmt.Errorf("step %d from state %q: %w", t, w.p.States[s], err)
	}
	*r = stepRow{}
	tb, ok := asTable(smp)
	if !ok {
		r.smp, r.kind = smp, rowSampler
		return nil
	}
	r.next = make([]int32, len(tb.vals))
	fixed := true
	for i, v := range tb.vals {
		if r.next[i], err = w.code(t, v); err != nil {
			return err
		}
		fixed = fixed && v == tb.vals[0]
	}
	switch {
	case fixed && tb.vals[0] == s:
		r.next, r.kind = nil, rowStay
	case fixed:
		r.next, r.kind = []int32{r.next[0]}, rowFixed
	default:
		r.rb, r.kind = w.radix.get(uint64(len(r.next))), rowTable
	}
	// The row's codes count against the run's budget (a cached row's are
	// given back when its slot is taken over).
	w.reserve(4*int64(cap(r.next)), "the step rows of one worker")
	return nil
}

// row returns the compiled row of state s at step t.
func (sf *stepForm) row(w *processWorker, t, s int) (*stepRow, error) {
	if w.p.Homogeneous {
		t = 1
	}
	var r *stepRow
	if sf.rows != nil {
		c := 0
		if !w.p.Homogeneous {
			c = t
		}
		rs := sf.rows[c]
		if rs == nil {
			rs = make([]stepRow, w.S)
			sf.rows[c] = rs
		}
		r = &rs[s]
	} else {
		sl := &sf.cache[uint64(t*w.S+s)*0x9e3779b97f4a7c15>>48&(stepCacheSize-1)]
		if int(sl.t) != t || int(sl.s) != s {
			w.env.pool.release(4 * int64(cap(sl.row.next)))
			sl.t, sl.s, sl.row = int32(t), int32(s), stepRow{}
		}
		r = &sl.row
	}
	if r.kind == rowUnset {
		if err := sf.compileRow(w, r, t, s); err != nil {
			return nil, err
		}
	}
	return r, nil
}

// stayUntil is the first step after t at which state s can move, or H+1,
// in a time-dependent chain whose row of s at t stays put; it is kept in
// that row's jump.
func (sf *stepForm) stayUntil(w *processWorker, t, s int) (int, error) {
	r, err := sf.row(w, t, s)
	if err != nil || r.jump != 0 {
		return int(r.jump), err
	}
	H := w.p.Horizon
	u := t + 1
	for ; u <= H; u++ {
		q, err := sf.row(w, u, s)
		if err != nil {
			return 0, err
		}
		if q.kind != rowStay {
			break
		}
		if q.jump != 0 {
			u = int(q.jump)
			break
		}
	}
	// The walk may have evicted the row of s at t from the cache.
	if r, err = sf.row(w, t, s); err != nil {
		return 0, err
	}
	r.jump = int32(u)
	return u, nil
}

func (sf *stepForm) run(w *processWorker, src *source, n int) error {
	p := w.p
	S, H := w.S, p.Horizon
	hom, dense := p.Homogeneous, sf.rows != nil
	// The buffer of the last radix drawn, held in locals.
	var rb *radixBuf
	var buf []uint64
	pos := 0
	defer func() {
		if rb != nil {
			rb.pos = pos
		}
	}()
	for ; n > 0; n-- {
		s, t := p.Start, 1
		for ; t <= H; t++ {
			var r *stepRow
			if dense {
				c := t
				if hom {
					c = 0
				}
				if rs := sf.rows[c]; rs != nil {
					r = &rs[s]
				}
			}
			if r == nil || r.kind == rowUnset {
				var err error
				if r, err = sf.row(w, t, s); err != nil {
					return err
				}
			}
			var v int32
			if r.kind == rowTable {
				if r.rb != rb {
					if rb != nil {
						rb.pos = pos
					}
					rb, buf, pos = r.rb, r.rb.buf, r.rb.pos
				}
				if pos >= len(buf) {
					rb.refill(src)
					pos = 0
				}
				v = r.next[buf[pos]]
				pos++
			} else {
				switch r.kind {
				case rowFixed:
					v = r.next[0]
				case rowStay:
					if hom {
						t = H
						continue
					}
					u, err := sf.stayUntil(w, t, s)
					if err != nil {
						return err
					}
					t = u - 1
					continue
				default:
					var err error
					if v, err = w.code(t, r.smp.sample(src)); err != nil {
						return err
					}
				}
			}
			if v >= 0 {
				s = int(v)
				continue
			}
			s = int(codeAbsorbed - v)
			break
		}
		if j := t*S + s - w.lo; j >= 0 && j < len(w.cnt) {
			w.cnt[j]++
		} else if err := w.count(t*S + s); err != nil {
			return err
		}
	}
	return nil
}
