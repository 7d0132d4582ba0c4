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
	h, err := sim.Outcomes(ctx, spec, opt)
	if err != nil {
		return nil, err
	}
	c, err := Counts(spec, d, h, b)
	if err != nil {
		return nil, err
	}
	return c.Problems, nil
}

// Check is what the cross-check of one part found: Pearson's chi-square
// test of the simulated outcome counts against the exact distribution,
// and the problems that make the engines disagree (none: they agree).
type Check struct {
	engine.Agreement
	Problems []string
}

// Counts tests simulated outcome counts h of a part of a model (sim.Outcomes,
// or what sim.Options.OnOutcomes gives) against its exact outcome
// distribution d (exact.Outcome) as Spec does: the chi-square test of the
// whole outcome (p below b.MinP, or a trial the exact model calls
// impossible, is a problem) and every event whose exact probability lies
// outside its simulated Wilson interval widened by b.Widen widths.
func Counts(spec *mechanics.Spec, d engine.Dist, h sim.Hist, b Bounds) (Check, error) {
	var c Check
	if tot := d.Total(); math.Abs(tot-1) > 1e-9 {
		c.Problems = append(c.Problems, fmt.Sprintf("exact probabilities sum to %v", tot))
	}
	c.Agreement = engine.ChiSquare(h.Lo, h.Counts, d)
	if a := c.Agreement; a.Impossible > 0 || a.P < b.MinP {
		c.Problems = append(c.Problems, fmt.Sprintf("chi2 = %.1f, df = %d, p = %.3g, impossible = %d", a.Stat, a.DF, a.P, a.Impossible))
	}
	ex, sm := &engine.Result{}, &engine.Result{}
	if err := engine.Summarize(spec, d, ex); err != nil {
		return c, err
	}
	if err := sim.Summarize(spec, h, sm); err != nil {
		return c, err
	}
	for i, e := range sm.Events {
		p, w := ex.Events[i].P, e.CI[1]-e.CI[0]
		if p < e.CI[0]-b.Widen*w || p > e.CI[1]+b.Widen*w {
			c.Problems = append(c.Problems, fmt.Sprintf("event %s: exact %.5f outside simulated %v", e.Name, p, e.CI))
		}
	}
	return c, nil
}
