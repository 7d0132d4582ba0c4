package sim

import (
	"context"
	"sync/atomic"

	"github.com/oddsmith/oddsmith/engine"
)

// The simulator's memory budget (Options.MemoryBytes, engine.DefaultMemory
// when unset) covers what a run sizes by the model:
//
//   - each worker's histogram, dense over the span of outcome codes it has
//     seen, reserved from the run's pool as it grows, and the merged
//     histogram and the summaries built from it;
//   - the process tables a worker precomputes (kernel rows, block rows,
//     step rows in dense mode): each worker may take at most
//     min(procBudget, budget/16) — a bound that depends on the budget only,
//     never on the number of workers, so the loop a worker picks (and so the
//     draws) are the same for any worker count — and what it takes is
//     reserved from the run's pool too. When the pool runs dry there the run
//     fails with an engine.MemoryError rather than fall back: a run either gives
//     the counts any other run with the same seed gives, or an error.
//
// A refusal is a *engine.MemoryError wrapped as bad input.

// tableShare is the part of the budget one worker's process tables may
// take at most (besides procBudget).
const tableShare = 16

// memPool is the memory budget of one run, shared by its workers.
type memPool struct {
	limit int64
	used  atomic.Int64
}

func newMemPool(memory int64) *memPool {
	return &memPool{limit: engine.Memory(memory)}
}

// reserve takes n bytes, or reports false (taking nothing) when they do not
// fit.
func (p *memPool) reserve(n int64) bool {
	for {
		u := p.used.Load()
		if n > p.limit-u {
			return false
		}
		if p.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// release gives n bytes back.
func (p *memPool) release(n int64) { p.used.Add(-n) }

// refusal is the error for n bytes of what that did not fit.
func (p *memPool) refusal(n int64, advice, what string) error {
	return engine.NewMemoryError(&engine.MemoryError{What: what, Need: n, Held: p.used.Load(), Budget: p.limit, Advice: advice})
}

// workerEnv is what the workers of one run share.
type workerEnv struct {
	ctx  context.Context
	pool *memPool
	// tables is the most one worker may precompute for a process, in bytes.
	tables int
	tune   tuning
}

// tuning is what tests change of how a process worker runs, to reach
// each of its loops; the zero value is what every run uses.
type tuning struct {
	// tables, when positive, replaces procBudget as the most one worker
	// may precompute for a process (a tiny one leaves every table out).
	tables int
	// noJump leaves the jump engine out: the block engine or the per-step
	// loop runs instead.
	noJump bool
	// lanes decides whether the jump engine runs two trials at a time.
	lanes lanesMode
}

// lanesMode says whether the jump engine runs two trials at a time
// (runLanes).
type lanesMode int8

const (
	lanesByCost lanesMode = iota // where its cost estimate says so
	lanesAlways
	lanesNever
)

func newWorkerEnv(ctx context.Context, memory int64, tune tuning) *workerEnv {
	if ctx == nil {
		ctx = context.Background()
	}
	pool := newMemPool(memory)
	tables := procBudget
	if tune.tables > 0 {
		tables = tune.tables
	}
	return &workerEnv{ctx: ctx, pool: pool, tables: int(min(int64(tables), pool.limit/tableShare)), tune: tune}
}

// defaultEnv is the environment of a worker made outside a run (tests,
// Sampler): no deadline, the default budget.
func defaultEnv() *workerEnv { return newWorkerEnv(context.Background(), 0, tuning{}) }

// adviceCodes is the advice when outcome counts do not fit.
const adviceCodes = "make the model's outcome codes span a narrower range or use fewer workers"

// ctxEvery is how many trials a sampled (not tabled) model runs between
// two looks at the context.
const ctxEvery = 256

// ctxSteps bounds the steps a process worker takes between two looks at the
// context: it runs a chunk in batches of ctxSteps/(horizon+1) trials (at
// least one), so a batch takes at most a few milliseconds on the fast paths
// and some tens where every step calls the model's Move. Compiling a step,
// the slow part of a time-dependent chain, looks at it every time.
const ctxSteps = 1 << 18
