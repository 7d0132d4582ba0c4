package study

import (
	"context"
	"time"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// Engine names how a result is computed.
type Engine struct {
	Kind engine.Kind
	// Simulation settings (Kind engine.Sim).
	Trials  int64
	Seed    uint64
	Workers int
	// OnProgress is passed to the simulator (see sim.Options).
	OnProgress func(done, total int64)
	// ProgressAfter and OnOutcomes are passed to the simulator too (see
	// sim.Options).
	ProgressAfter time.Duration
	OnOutcomes    func(part int, h sim.Hist)
	// MemoryBytes is the memory budget of one computation (0: the
	// default, engine.DefaultMemory). A model that needs more is refused
	// before it allocates, as bad input.
	MemoryBytes int64
	// Source, when set, gives the results in place of the engines: merge
	// replays a command with the results of its shards (see Merged).
	Source PointSource
}

// MaxTrials bounds the trials of one simulation: beyond it a run would take
// days on a workstation and a count could overflow.
const MaxTrials = int64(1) << 50

// Validate reports an engine that cannot compute m, as bad input.
func (e Engine) Validate(m *mechanics.Mechanic) error {
	switch e.Kind {
	case engine.Exact:
		if m.MCOnly {
			return mechanics.Invalid("%s has no exact model (%s); use the simulator", m.ID, m.MCReason)
		}
	case engine.Sim:
		if e.Trials < 1 || e.Trials > MaxTrials {
			return mechanics.Invalid("trials must be between 1 and %d, got %d", MaxTrials, e.Trials)
		}
		if e.Workers < 0 {
			return mechanics.Invalid("workers must be at least 1, got %d", e.Workers)
		}
	default:
		return mechanics.Invalid("unknown engine %q (want exact or sim)", e.Kind)
	}
	return nil
}

// Run computes m at c with the engine. It returns as soon as ctx is done,
// even while a model is still being built (builders do not watch the
// context); the abandoned computation then ends on its own.
func (e Engine) Run(ctx context.Context, m *mechanics.Mechanic, c mechanics.Config) (*engine.Result, error) {
	if err := e.Validate(m); err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if e.Source != nil {
		return e.Source.Result(ctx, e, m, c)
	}
	type outcome struct {
		r   *engine.Result
		err error
		bug any // a panic: the engines return the model's faults as errors
	}
	done := make(chan outcome, 1)
	go func() {
		// A panic cannot be recovered across goroutines: it is carried to
		// the caller's and raised there, to reach the command's handler.
		defer func() {
			if x := recover(); x != nil {
				done <- outcome{bug: x}
			}
		}()
		var o outcome
		if e.Kind == engine.Exact {
			o.r, o.err = exact.RunContext(ctx, m, c, exact.Options{MemoryBytes: e.MemoryBytes})
		} else {
			o.r, o.err = sim.Run(ctx, m, c, sim.Options{Trials: e.Trials, Seed: e.Seed, Workers: e.Workers,
				OnProgress: e.OnProgress, ProgressAfter: e.ProgressAfter, OnOutcomes: e.OnOutcomes, MemoryBytes: e.MemoryBytes})
		}
		done <- o
	}()
	select {
	case o := <-done:
		if o.bug != nil {
			panic(o.bug)
		}
		return o.r, o.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}
