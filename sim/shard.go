package sim

import (
	"context"
	"runtime"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// SimulateChunks runs chunks [first, last) of every part of a model: one
// histogram per part, each part with its own seed (PartSeed), as Run draws
// them. It is the work of one shard; FromCounts turns the merged counts of
// all the shards into the result Run gives.
func SimulateChunks(ctx context.Context, spec *mechanics.Spec, opt Options, first, last int64) ([]Hist, error) {
	parts := spec.Parts()
	hs := make([]Hist, len(parts))
	for i, part := range parts {
		po := opt
		po.Seed = PartSeed(opt.Seed, i)
		h, err := outcomesChunks(ctx, part, po, chunkRange{first, last})
		if err != nil {
			return nil, err
		}
		hs[i] = trimmed(h)
	}
	return hs, nil
}

// FromCounts fills res from the counts of every part of a model over all
// of a run's chunks, exactly as Run does from the counts it draws:
// merged shard counts give the bytes of a single run.
func FromCounts(ctx context.Context, spec *mechanics.Spec, opt Options, hists []Hist, res *engine.Result) error {
	parts := spec.Parts()
	if len(hists) != len(parts) {
		return mechanics.Invalid("the counts cover %d parts of the model, it has %d", len(hists), len(parts))
	}
	res.Seed, res.Trials = opt.Seed, opt.Trials
	res.Workers = opt.Workers
	if res.Workers <= 0 {
		res.Workers = runtime.GOMAXPROCS(0)
	}
	for i, part := range parts {
		if t := hists[i].Total(); t != opt.Trials {
			return mechanics.Invalid("part %d of the model has %d trials counted, want %d", i, t, opt.Trials)
		}
		po := opt
		po.Seed = PartSeed(opt.Seed, i)
		if err := addPart(ctx, i, part, hists[i], res, po); err != nil {
			return err
		}
	}
	return nil
}
