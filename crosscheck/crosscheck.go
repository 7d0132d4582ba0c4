package crosscheck

import (
	"context"
	"fmt"
	"math"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// Bounds say when the engines disagree: a chi-square p-value below MinP,
// or an exact event probability outside its simulated Wilson interval
// widened by Widen widths on each side.
type Bounds struct {
	MinP, Widen float64
}

// Standard is what the tests require: p > 1e-6 and intervals widened by
// 1.25 widths. With a fixed seed the check is deterministic, and a wrong
// model (another crit rule, a changed face) fails it.
var Standard = Bounds{MinP: 1e-6, Widen: 1.25}

// Spec computes a declared model exactly and by simulation and reports
// where they disagree: a chi-square test of the whole outcome (p below
// b.MinP, or a trial the exact model calls impossible) and every event
// whose exact probability lies outside its simulated Wilson interval
// widened by b.Widen widths. An empty report means the engines agree.
//
// Every Also part of the model is checked the same way.
func Spec(ctx context.Context, spec *mechanics.Spec, opt sim.Options, b Bounds) ([]string, error) {
	var report []string
	for i, part := range spec.Parts() {
		po := opt
		po.Seed = sim.PartSeed(opt.Seed, i)
		r, err := part1(ctx, part, po, b)
		if err != nil {
			return nil, err
		}
		report = append(report, r...)
	}
	return report, nil
}

func part1(ctx context.Context, spec *mechanics.Spec, opt sim.Options, b Bounds) ([]string, error) {
	var d engine.Dist
	if spec.Process != nil {
		ch, err := exact.SolveProcess(spec.Process)
		if err != nil {
			return nil, err
		}
		d = ch.Outcome
	} else {
		var err error
		if d, _, err = exact.Eval(spec.Outcome); err != nil {
			return nil, err
		}
	}
	var report []string
	if tot := d.Total(); math.Abs(tot-1) > 1e-9 {
		report = append(report, fmt.Sprintf("exact probabilities sum to %v", tot))
	}
	h, err := sim.Outcomes(ctx, spec, opt)
	if err != nil {
		return nil, err
	}
	if a := engine.ChiSquare(h.Lo, h.Counts, d); a.Impossible > 0 || a.P < b.MinP {
		report = append(report, fmt.Sprintf("chi2 = %.1f, df = %d, p = %.3g, impossible = %d", a.Stat, a.DF, a.P, a.Impossible))
	}
	ex, sm := &engine.Result{}, &engine.Result{}
	if err := engine.Summarize(spec, d, ex); err != nil {
		return nil, err
	}
	if err := sim.Summarize(spec, h, sm); err != nil {
		return nil, err
	}
	for i, e := range sm.Events {
		p, w := ex.Events[i].P, e.CI[1]-e.CI[0]
		if p < e.CI[0]-b.Widen*w || p > e.CI[1]+b.Widen*w {
			report = append(report, fmt.Sprintf("event %s: exact %.5f outside simulated %v", e.Name, p, e.CI))
		}
	}
	return report, nil
}
