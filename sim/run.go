package sim

import (
	"context"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// ChunkSize is the number of trials of one chunk (one RNG stream).
const ChunkSize = 1 << 16

// Options control a run.
type Options struct {
	Trials  int64
	Seed    uint64
	Workers int // ≤ 0 means runtime.GOMAXPROCS(0)
	// OnProgress, when set, is called (from one goroutine, about four times
	// a second, starting after about two seconds) with the trials done so
	// far; a command line can drive a progress bar library with it.
	OnProgress func(done, total int64)
	// ProgressAfter is how long a run goes before OnProgress is first
	// called (0: two seconds, so that a short run shows no progress).
	ProgressAfter time.Duration
	// OnOutcomes, when set, is given the outcome counts of each part of
	// the model (part 0 the main one, see mechanics.Spec.Also) once they
	// are complete, before they are summarized: a caller can test them
	// against the exact distribution (package crosscheck) without a
	// second simulation. It must not change them.
	OnOutcomes func(part int, h Hist)
	// MemoryBytes bounds what a run allocates by the model's sizes (the
	// workers' histograms, their process tables, the summaries), in bytes;
	// 0 (or less) means engine.DefaultMemory. A run that would not fit fails
	// with a *engine.MemoryError (bad input). See memory.go.
	MemoryBytes int64
	// tune is what tests change of how process workers run.
	tune tuning
}

// Hist counts outcomes over [Lo, Lo+len(Counts)).
type Hist struct {
	Lo     int
	Counts []int64
}

func (h *Hist) add(v int, c int64) {
	if len(h.Counts) == 0 {
		h.Lo, h.Counts = v, padded[int64](1)[:1:1]
	}
	if v < h.Lo {
		grow := make([]int64, h.Lo-v+len(h.Counts))
		copy(grow[h.Lo-v:], h.Counts)
		h.Lo, h.Counts = v, grow
	}
	for v-h.Lo >= len(h.Counts) {
		h.Counts = append(h.Counts, 0)
	}
	h.Counts[v-h.Lo] += c
}

// Merge adds o's counts into h. Like adding them one by one, it widens h
// only as far as o's nonzero counts reach, but it does so at most once.
func (h *Hist) Merge(o Hist) {
	a, b := 0, len(o.Counts)
	for a < b && o.Counts[a] == 0 {
		a++
	}
	for b > a && o.Counts[b-1] == 0 {
		b--
	}
	if a == b {
		return
	}
	lo, hi := o.Lo+a, o.Lo+b
	switch {
	case len(h.Counts) == 0:
		h.Lo, h.Counts = lo, make([]int64, hi-lo)
	case lo < h.Lo || hi > h.Lo+len(h.Counts):
		nlo, nhi := min(h.Lo, lo), max(h.Lo+len(h.Counts), hi)
		c := make([]int64, nhi-nlo)
		copy(c[h.Lo-nlo:], h.Counts)
		h.Lo, h.Counts = nlo, c
	}
	for i, c := range o.Counts[a:b] {
		h.Counts[lo-h.Lo+i] += c
	}
}

// Total is the number of trials counted.
func (h Hist) Total() int64 {
	var t int64
	for _, c := range h.Counts {
		t += c
	}
	return t
}

// worker runs chunks of trials into its own histogram.
type worker interface {
	run(src *source, n int) error
	hist() Hist
}

// Outcomes samples a spec's outcome Trials times.
func Outcomes(ctx context.Context, spec *mechanics.Spec, opt Options) (Hist, error) {
	return outcomesChunks(ctx, spec, opt, chunkRange{0, Chunks(opt.Trials)})
}

// Chunks is the number of chunks of a run of the given trials.
func Chunks(trials int64) int64 { return (trials + ChunkSize - 1) / ChunkSize }

// outcomesChunks samples only the chunks of r of a run of opt.Trials
// trials: the counts of a shard. The counts of disjoint ranges covering
// [0, Chunks(opt.Trials)), merged with Hist.Merge, equal Outcomes' exactly.
// OnProgress then counts the trials of the range.
func outcomesChunks(ctx context.Context, spec *mechanics.Spec, opt Options, r chunkRange) (Hist, error) {
	if opt.Trials < 1 {
		return Hist{}, mechanics.Invalid("trials must be at least 1, got %d", opt.Trials)
	}
	env := newWorkerEnv(ctx, opt.MemoryBytes, opt.tune)
	newWorker, err := workerFactoryWith(spec, env)
	if err != nil {
		return Hist{}, err
	}
	r = chunkRange{max(r.first, 0), min(r.last, Chunks(opt.Trials))}
	if r.first >= r.last {
		return Hist{}, nil
	}
	workers := opt.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	cw := &chunkWorkers{ctx: ctx, opt: opt, r: r, newWorker: newWorker, ws: make([]worker, min(int64(workers), r.last-r.first))}
	if err := cw.run(); err != nil {
		return Hist{}, err
	}
	return merged(env, cw.ws)
}

// chunkRange is chunks [first, last) of a run.
type chunkRange struct{ first, last int64 }

// chunkWorkers run the chunks of a range in parallel, each worker taking
// the next chunk not taken and counting into its own histogram.
type chunkWorkers struct {
	ctx       context.Context
	opt       Options
	r         chunkRange
	newWorker func() (worker, error)
	ws        []worker
	// next counts the chunks taken, done the trials run.
	next, done atomic.Int64
	// err is the first error, bug the first panic that is not a fault of
	// the model.
	err              error
	bug              any
	errOnce, bugOnce sync.Once
}

// run runs the range and reports the first error; a bug met by a worker is
// raised again here, on the calling goroutine (a panic cannot be
// recovered across goroutines).
func (cw *chunkWorkers) run() error {
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for i := range cw.ws {
		wg.Go(func() { cw.work(i) })
	}
	progressDone := make(chan struct{})
	rangeTrials := min(cw.r.last*ChunkSize, cw.opt.Trials) - cw.r.first*ChunkSize
	go progress(Options{Trials: rangeTrials, OnProgress: cw.opt.OnProgress, ProgressAfter: cw.opt.ProgressAfter}, &cw.done, stop, progressDone)
	wg.Wait()
	close(stop)
	<-progressDone
	if cw.bug != nil {
		panic(cw.bug)
	}
	if cw.err != nil {
		return cw.err
	}
	return cw.ctx.Err()
}

// work is worker i: it compiles its own samplers (they own scratch
// buffers), in parallel with the others, then runs chunks until none is
// left, the context is done or a worker fails. A fault of the model ends
// the run with an error; any other panic is a bug, carried to run.
func (cw *chunkWorkers) work(i int) {
	defer func() {
		if x := recover(); x != nil {
			if !mechanics.IsFault(x) {
				cw.crash(x)
				return
			}
			cw.fail(fmt.Errorf("the model failed: %w", mechanics.Recovered(x)))
		}
	}()
	w, err := cw.newWorker()
	if err != nil {
		cw.fail(err)
		return
	}
	cw.ws[i] = w
	var src source
	for {
		c := cw.r.first + cw.next.Add(1) - 1
		if c >= cw.r.last || cw.ctx.Err() != nil {
			return
		}
		n := min(ChunkSize, cw.opt.Trials-c*ChunkSize)
		src.Seed(cw.opt.Seed, uint64(c))
		if err := w.run(&src, int(n)); err != nil {
			cw.fail(err)
			return
		}
		cw.done.Add(n)
	}
}

// fail ends the run with err, unless it has failed already.
func (cw *chunkWorkers) fail(err error) {
	cw.errOnce.Do(func() { cw.err = err })
	cw.next.Store(cw.r.last - cw.r.first)
}

// crash ends the run with the panic x, a bug, unless one came first.
func (cw *chunkWorkers) crash(x any) {
	cw.bugOnce.Do(func() { cw.bug = x })
	cw.next.Store(cw.r.last - cw.r.first)
}

// merged adds the workers' histograms (nil for a worker that never
// started) into one, whose counters are reserved from the run's budget
// first: it spans what all the workers' spans do.
func merged(env *workerEnv, ws []worker) (Hist, error) {
	lo, hi := math.MaxInt, math.MinInt
	for _, w := range ws {
		if w != nil {
			if wh := trimmed(w.hist()); len(wh.Counts) > 0 {
				lo, hi = min(lo, wh.Lo), max(hi, wh.Lo+len(wh.Counts)-1)
			}
		}
	}
	if lo <= hi {
		if n := countBytes(lo, hi); !env.pool.reserve(n) {
			return Hist{}, env.pool.refusal(n, adviceCodes, fmt.Sprintf("the merged outcome counts, over the codes from %d to %d,", lo, hi))
		}
	}
	var h Hist
	for _, w := range ws {
		if w != nil {
			h.Merge(w.hist())
		}
	}
	return h, nil
}

// trimmed drops the zero counts at both ends.
func trimmed(h Hist) Hist {
	a, b := 0, len(h.Counts)
	for a < b && h.Counts[a] == 0 {
		a++
	}
	for b > a && h.Counts[b-1] == 0 {
		b--
	}
	return Hist{Lo: h.Lo + a, Counts: h.Counts[a:b]}
}

// countBytes is the size of dense counts over [lo, hi], saturating.
func countBytes(lo, hi int) int64 {
	d := uint64(hi) - uint64(lo)
	if d >= math.MaxInt64/8 {
		return math.MaxInt64
	}
	return int64(d+1) * 8
}

// progress calls opt.OnProgress about four times a second once a run has
// lasted opt.ProgressAfter (two seconds unless set), and once more at the
// end if it did: that last call comes after every worker has stopped.
func progress(opt Options, done *atomic.Int64, stop <-chan struct{}, finished chan<- struct{}) {
	defer close(finished)
	if opt.OnProgress == nil {
		return
	}
	start, after := time.Now(), opt.ProgressAfter
	if after <= 0 {
		after = 2 * time.Second
	}
	tick := time.NewTicker(min(250*time.Millisecond, after))
	defer tick.Stop()
	reported := false
	for {
		select {
		case <-stop:
			if reported {
				opt.OnProgress(opt.Trials, opt.Trials)
			}
			return
		case <-tick.C:
			if time.Since(start) >= after {
				reported = true
				opt.OnProgress(done.Load(), opt.Trials)
			}
		}
	}
}

func workerFactory(spec *mechanics.Spec) (func() (worker, error), error) {
	return workerFactoryWith(spec, defaultEnv())
}

// workerFactoryWith makes the workers of one run, which share env.
func workerFactoryWith(spec *mechanics.Spec, env *workerEnv) (func() (worker, error), error) {
	if p := spec.Process; p != nil {
		if err := p.Validate(); err != nil {
			return nil, err
		}
		return func() (worker, error) { return newProcessWorkerWith(p, env), nil }, nil
	}
	if err := mechanics.Validate(spec.Outcome); err != nil {
		return nil, err
	}
	return func() (worker, error) {
		s, err := compile(spec.Outcome)
		if err != nil {
			return nil, err
		}
		if t, ok := asTable(s); ok {
			return newTableWorker(t, env)
		}
		return &nodeWorker{s: s, env: env}, nil
	}, nil
}

// tableWorker is the hot path: the whole model is one table, indices are
// drawn several per 64-bit word and counted straight into a dense histogram.
type tableWorker struct {
	lo     int
	slot   []uint32
	counts []int64
	b      batch
	buf    []uint64
}

func newTableWorker(t *table, env *workerEnv) (*tableWorker, error) {
	lo, hi := t.vals[0], t.vals[0]
	for _, v := range t.vals {
		lo, hi = min(lo, v), max(hi, v)
	}
	// A table of at most tableMax entries can still spread its values far
	// apart (packed outcome codes): its counts are dense over the span.
	if n := countBytes(lo, hi); !env.pool.reserve(n) {
		return nil, env.pool.refusal(n, adviceCodes, fmt.Sprintf("the outcome counts of one worker, over the codes from %d to %d,", lo, hi))
	}
	w := &tableWorker{lo: lo, slot: make([]uint32, len(t.vals)), counts: padded[int64](hi - lo + 1)}
	for i, v := range t.vals {
		w.slot[i] = uint32(v - lo)
	}
	w.b = newBatch(uint64(len(t.vals)))
	w.buf = padded[uint64](w.b.k)
	return w, nil
}

func (w *tableWorker) run(src *source, n int) error {
	counts, slot, buf := w.counts, w.slot, w.buf[:w.b.k]
	for ; n >= len(buf); n -= len(buf) {
		w.b.fill(src, buf)
		for _, u := range buf {
			counts[slot[u]]++
		}
	}
	for ; n > 0; n-- {
		counts[slot[src.Index(w.b.radix)]]++
	}
	return nil
}

func (w *tableWorker) hist() Hist { return Hist{Lo: w.lo, Counts: w.counts} }

// padded allocates n counters with a cache line of padding on both sides, so
// two workers' histograms never share a cache line (false sharing halved the
// two-worker speed-up before).
func padded[T int | int64 | uint64](n int) []T {
	const pad = 16 // at least 128 bytes on each side
	return make([]T, n+2*pad)[pad : pad+n : pad+n]
}

// nodeWorker samples a compiled node tree per trial.
type nodeWorker struct {
	s   sampler
	h   Hist
	env *workerEnv
	// cap is the number of counters reserved from the budget.
	cap int64
}

func (w *nodeWorker) run(src *source, n int) error {
	for i := 0; i < n; i++ {
		if i%ctxEvery == ctxEvery-1 {
			if err := w.env.ctx.Err(); err != nil {
				return err
			}
		}
		v := w.s.sample(src)
		if j := v - w.h.Lo; j < 0 || j >= len(w.h.Counts) {
			if err := w.widen(v); err != nil {
				return err
			}
		}
		w.h.Counts[v-w.h.Lo]++
	}
	return nil
}

// widen grows the histogram to cover v, with half as much room again on
// the side it grows, reserving the new counters from the budget first.
func (w *nodeWorker) widen(v int) error {
	h := &w.h
	if len(h.Counts) == 0 {
		if !w.env.pool.reserve(16 * 8) {
			return w.env.pool.refusal(16*8, adviceCodes, "the outcome counts of one worker")
		}
		w.cap = 16
		h.Lo, h.Counts = v, make([]int64, 16)
		return nil
	}
	lo, hi := min(h.Lo, v), max(h.Lo+len(h.Counts)-1, v)
	n := countBytes(lo, hi)
	if n < math.MaxInt64/2 {
		n += n / 2
	}
	if !w.env.pool.reserve(n) {
		return w.env.pool.refusal(n, adviceCodes, fmt.Sprintf("the outcome counts of one worker, over the codes from %d to %d,", lo, hi))
	}
	size := int(n / 8)
	if v < h.Lo {
		lo = hi - size + 1
	}
	c := make([]int64, size)
	copy(c[h.Lo-lo:], h.Counts)
	w.env.pool.used.Add(-8 * w.cap) // the old counters are garbage now
	w.cap = int64(size)
	h.Lo, h.Counts = lo, c
	return nil
}

func (w *nodeWorker) hist() Hist { return w.h }

// Run builds a mechanic's model and simulates it.
func Run(ctx context.Context, m *mechanics.Mechanic, c mechanics.Config, opt Options) (*engine.Result, error) {
	spec, err := m.Model(c)
	if err != nil {
		return nil, err
	}
	res := engine.NewResult(m, c, engine.Sim)
	if err := simulate(ctx, spec, opt, res); err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) || (mechanics.IsInput(err) && !engine.IsMemory(err)) {
			return nil, err
		}
		return nil, m.Blame(fmt.Errorf("%s: %w", m.ID, err))
	}
	return res, nil
}

// simulate fills res with the simulated figures of a declared model.
//
// Each Also part of the model is simulated on its own, with the same trial
// count and a seed derived from the seed and the part's index (PartSeed).
func simulate(ctx context.Context, spec *mechanics.Spec, opt Options, res *engine.Result) error {
	res.Seed, res.Trials = opt.Seed, opt.Trials
	res.Workers = opt.Workers
	if res.Workers <= 0 {
		res.Workers = runtime.GOMAXPROCS(0)
	}
	for i, part := range spec.Parts() {
		po := opt
		po.Seed = PartSeed(opt.Seed, i)
		h, err := Outcomes(ctx, part, po)
		if err != nil {
			return err
		}
		if opt.OnOutcomes != nil {
			opt.OnOutcomes(i, h)
		}
		if err := addPart(ctx, i, part, h, res, po); err != nil {
			return err
		}
	}
	return nil
}

// addPart summarizes the counts of part i into res.
func addPart(ctx context.Context, i int, part *mechanics.Spec, h Hist, res *engine.Result, po Options) error {
	r := res
	if i > 0 {
		r = &engine.Result{}
	}
	if err := summarize(ctx, part, h, r, po); err != nil {
		return err
	}
	if i > 0 {
		res.Vars = append(res.Vars, r.Vars...)
		res.Events = append(res.Events, r.Events...)
		res.Bands = append(res.Bands, r.Bands...)
	}
	return nil
}

// PartSeed is the seed of part i of a model: the seed itself for the main
// part, and for the others a value no other part of the same run uses.
func PartSeed(seed uint64, i int) uint64 { return seed + uint64(i)*0x9e3779b97f4a7c15 }

// Summarize fills a result from simulated counts: observed distributions,
// event and band frequencies with Wilson 95% intervals.
func Summarize(spec *mechanics.Spec, h Hist, res *engine.Result) error {
	return summarize(context.Background(), spec, h, res, Options{})
}

func summarize(ctx context.Context, spec *mechanics.Spec, h Hist, res *engine.Result, opt Options) error {
	if err := engine.SummarizeCounts(ctx, spec, h.Lo, h.Counts, res, opt.MemoryBytes); err != nil {
		return err
	}
	n := h.Total()
	for i := range res.Events {
		res.Events[i].CI = wilson(res.Events[i].Count, n)
	}
	for i := range res.Bands {
		br := &res.Bands[i]
		br.CI = make([][2]float64, len(br.Counts))
		for j, k := range br.Counts {
			br.CI[j] = wilson(k, n)
		}
	}
	return nil
}

// wilson returns the Wilson score 95% interval for k successes in n trials.
func wilson(k, n int64) [2]float64 { return engine.Wilson(k, n) }

// Sampler runs trials of one spec on the calling goroutine without
// allocating per trial; Outcomes uses one per worker. It is exported for
// benchmarks and for callers that schedule chunks themselves (shards).
type Sampler struct {
	w   worker
	src source
}

// NewSampler compiles a spec for one goroutine.
func NewSampler(spec *mechanics.Spec) (*Sampler, error) {
	f, err := workerFactory(spec)
	if err != nil {
		return nil, err
	}
	w, err := f()
	if err != nil {
		return nil, err
	}
	return &Sampler{w: w}, nil
}

// RunChunk adds n trials drawn from the stream of chunk c of the given seed.
func (s *Sampler) RunChunk(seed, c uint64, n int) error {
	s.src.Seed(seed, c)
	return s.w.run(&s.src, n)
}

// Hist returns the counts so far (shared with the sampler, not a copy).
func (s *Sampler) Hist() Hist { return s.w.hist() }
