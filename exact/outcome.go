package exact

import (
	"context"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Outcome is the exact distribution of one part's encoded outcome (the
// codes the simulator counts, see sim.Hist): what a chi-square test of a
// simulation is against (package crosscheck). It runs within opt's memory
// budget and stops when ctx is done, as ComputeContext does; spec.Also is
// left alone (each part has an outcome of its own).
func Outcome(ctx context.Context, spec *mechanics.Spec, opt Options) (d engine.Dist, err error) {
	defer func() {
		if x := recover(); x != nil {
			// A fault of the model is an error; anything else panics again.
			err = mechanics.Recovered(x)
		}
	}()
	if spec.NoExact != "" {
		return engine.Dist{}, mechanics.Invalid("too large for the exact engine: %s", spec.NoExact)
	}
	b := opt.budget(ctx)
	if spec.Process == nil {
		d, _, err = evalChecked(b, spec.Outcome)
		return d, err
	}
	ch, err := solveProcess(b, spec.Process)
	if err != nil {
		return engine.Dist{}, err
	}
	if n := len(ch.codes); n > 0 {
		if err := b.Need(engine.MulBytes(engine.Span(ch.codes[0], ch.codes[n-1]), engine.FloatBytes), engine.AdviceProcess,
			"the outcome codes of the process, from %d to %d,", ch.codes[0], ch.codes[n-1]); err != nil {
			return engine.Dist{}, err
		}
	}
	return ch.dense(), nil
}
