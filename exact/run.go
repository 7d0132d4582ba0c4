package exact

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Run builds a mechanic's model and computes it exactly, within
// engine.DefaultMemory and without a deadline.
func Run(m *mechanics.Mechanic, c mechanics.Config) (*engine.Result, error) {
	return RunContext(context.Background(), m, c, Options{})
}

// RunContext builds a mechanic's model and computes it exactly. A model
// that would not fit opt's memory budget is refused with a
// *engine.MemoryError (wrapped as bad input, so a command exits with
// status 2) before anything that large is allocated; a cancelled or expired ctx stops the computation
// within a fraction of a second and returns ctx.Err().
func RunContext(ctx context.Context, m *mechanics.Mechanic, c mechanics.Config, opt Options) (*engine.Result, error) {
	if m.MCOnly {
		return nil, mechanics.Invalid("%s has no exact model (%s); use 'oddsmith sim'", m.ID, m.MCReason)
	}
	spec, err := m.Model(c)
	if err != nil {
		return nil, err
	}
	res := engine.NewResult(m, c, engine.Exact)
	if err := ComputeContext(ctx, spec, res, opt); err != nil {
		if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
			return nil, err
		}
		return nil, m.Blame(fmt.Errorf("%s: %w", m.ID, err))
	}
	return res, nil
}

// Compute fills res with the exact figures of a declared model and of its
// Also parts, within engine.DefaultMemory and without a deadline.
func Compute(spec *mechanics.Spec, res *engine.Result) error {
	return ComputeContext(context.Background(), spec, res, Options{})
}

// ComputeContext fills res with the exact figures of a declared model and
// of its Also parts. A fault of the model's own functions (a
// mechanics.Fault: a field set out of its declared range, say) comes back
// as an error, and any other panic, a bug, goes on; a model that would not
// fit opt's memory budget comes back as a *engine.MemoryError (bad input);
// a cancelled ctx as ctx.Err(). The budget applies to each part.
func ComputeContext(ctx context.Context, spec *mechanics.Spec, res *engine.Result, opt Options) error {
	for _, part := range spec.Parts() {
		if part.NoExact != "" {
			return mechanics.Invalid("too large for the exact engine: %s; simulate it instead (oddsmith sim)", part.NoExact)
		}
	}
	for i, part := range spec.Parts() {
		r := res
		if i > 0 {
			r = &engine.Result{}
		}
		if err := computePart(opt.budget(ctx), part, r); err != nil {
			return err
		}
		if i > 0 {
			res.Vars = append(res.Vars, r.Vars...)
			res.Events = append(res.Events, r.Events...)
			res.Bands = append(res.Bands, r.Bands...)
			res.Truncated = max(res.Truncated, r.Truncated) // each part is its own distribution
			for _, w := range r.Warnings {
				if !slices.Contains(res.Warnings, w) {
					res.Warnings = append(res.Warnings, w)
				}
			}
		}
	}
	return nil
}

func computePart(b *engine.Budget, spec *mechanics.Spec, res *engine.Result) (err error) {
	defer func() {
		if x := recover(); x != nil {
			// A fault of the model is an error; anything else panics again.
			err = fmt.Errorf("the model failed: %w", mechanics.Recovered(x))
		}
	}()
	if err := b.Alive(); err != nil {
		return err
	}
	var ch *Chain
	var d engine.Dist
	var codes []int // a process's outcome codes (d.P their masses)
	if spec.Process != nil {
		if ch, err = solveProcess(b, spec.Process); err != nil {
			return err
		}
		d, codes, res.Truncated = engine.Dist{P: ch.mass}, ch.codes, ch.Truncated
		res.Warnings = append(res.Warnings, ch.Warnings...)
		if ch.Truncated > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("bursting dice were followed until going on had probability at most 1e-12 each, at every step: a mass of %.3g is left out (see truncated_mass)", ch.Truncated))
		}
	} else {
		var tr float64
		if d, tr, err = evalChecked(b, spec.Outcome); err != nil {
			return err
		}
		res.Truncated = tr
		if tr > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("bursting dice were followed until going on had probability at most 1e-12 each: a mass of %.3g is left out (see truncated_mass)", tr))
		}
	}
	// What is missing of 1 beyond the mass reported as truncated is a
	// fault of the model (or rounding): say so.
	if tot := d.Total(); math.Abs(tot+res.Truncated-1) > 1e-9 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("probabilities sum to %.12g", tot))
	}
	if err := engine.SummarizeAt(b, spec, engine.Masses{Lo: d.Lo, Codes: codes, P: d.P}, res); err != nil {
		return err
	}
	if err := addRationals(b, spec, res); err != nil {
		return err
	}
	if ch != nil && ch.Unbounded && res.Process != nil {
		res.Process.Unbounded = true
		res.Process.MeanTimeUnbounded = ch.MeanTimeUnbounded
		res.Process.AbsorbedUnbounded = ch.AbsorbedUnbounded
		if ch.Truncated == 0 {
			// Absorption is certain (the fundamental matrix exists): the
			// probabilities share out 1, each summed from its smaller
			// side so that a certain state has exactly 1.
			engine.Probs(res.Process.AbsorbedUnbounded, 0)
		}
	}
	return nil
}
