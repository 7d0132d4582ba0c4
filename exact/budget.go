package exact

import (
	"context"

	"github.com/oddsmith/oddsmith/engine"
)

// Options control an exact computation.
type Options struct {
	// MemoryBytes bounds the memory one computation may take, in bytes;
	// 0 (or less) means engine.DefaultMemory. Before every allocation whose
	// size depends on the model the engine estimates its bytes, and a model
	// that would not fit is refused with a *engine.MemoryError (bad input)
	// before anything that large is allocated.
	MemoryBytes int64
}

// budget is the budget of one computation with these options.
func (o Options) budget(ctx context.Context) *engine.Budget {
	return engine.NewBudget(ctx, o.MemoryBytes)
}
