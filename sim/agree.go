package sim

import (
	"context"
	"fmt"
	"math"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Agreement is Pearson's chi-square test of simulated counts against an
// exact distribution.
type Agreement struct {
	Stat float64
	DF   int
	// P is the probability of a statistic at least this large if the
	// simulation follows the exact distribution.
	P float64
	// Impossible counts trials that landed where the exact distribution has
	// no mass; any such trial disproves the model outright (P is then 0).
	Impossible int64
}

// ChiSquare compares observed counts with an exact distribution. Values whose
// expected count is below 5 are pooled into one bin, as the test requires.
func ChiSquare(h Hist, d exact.Dist) Agreement {
	n := float64(h.Total())
	var obs, exp []float64
	var lowO, lowE float64
	var a Agreement
	lo, hi := min(h.Lo, d.Lo), max(h.Lo+len(h.Counts)-1, d.Hi())
	for v := lo; v <= hi; v++ {
		var o float64
		if i := v - h.Lo; i >= 0 && i < len(h.Counts) {
			o = float64(h.Counts[i])
		}
		e := d.Prob(v) * n
		if e == 0 {
			if o > 0 {
				a.Impossible += int64(o)
			}
			continue
		}
		if e < 5 {
			lowO, lowE = lowO+o, lowE+e
			continue
		}
		obs, exp = append(obs, o), append(exp, e)
	}
	if lowE > 0 {
		obs, exp = append(obs, lowO), append(exp, lowE)
	}
	if a.Impossible > 0 {
		return a
	}
	a.DF = len(obs) - 1
	if a.DF < 1 {
		a.P = 1
		return a
	}
	a.Stat = stat.ChiSquare(obs, exp)
	a.P = distuv.ChiSquared{K: float64(a.DF)}.Survival(a.Stat)
	return a
}

// CrossCheck computes a spec exactly and by simulation and reports where they
// disagree: a chi-square test of the whole outcome (p below minP, or a trial
// the exact model calls impossible) and every event whose exact probability
// lies outside its simulated Wilson interval widened by `widen` widths.
// An empty report means the engines agree.
//
// Every Also part of the model is checked the same way.
func CrossCheck(ctx context.Context, spec *mechanics.Spec, opt Options, minP, widen float64) ([]string, error) {
	var report []string
	for i, part := range spec.Parts() {
		po := opt
		po.Seed = PartSeed(opt.Seed, i)
		r, err := crossCheckPart(ctx, part, po, minP, widen)
		if err != nil {
			return nil, err
		}
		report = append(report, r...)
	}
	return report, nil
}

func crossCheckPart(ctx context.Context, spec *mechanics.Spec, opt Options, minP, widen float64) ([]string, error) {
	var d exact.Dist
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
	h, err := Outcomes(ctx, spec, opt)
	if err != nil {
		return nil, err
	}
	if a := ChiSquare(h, d); a.Impossible > 0 || a.P < minP {
		report = append(report, fmt.Sprintf("chi2 = %.1f, df = %d, p = %.3g, impossible = %d", a.Stat, a.DF, a.P, a.Impossible))
	}
	ex, sm := &mechanics.Result{}, &mechanics.Result{}
	if err := exact.Summarize(spec, d, ex); err != nil {
		return nil, err
	}
	if err := Summarize(spec, h, sm); err != nil {
		return nil, err
	}
	for i, e := range sm.Events {
		p, w := ex.Events[i].P, e.CI[1]-e.CI[0]
		if p < e.CI[0]-widen*w || p > e.CI[1]+widen*w {
			report = append(report, fmt.Sprintf("event %s: exact %.5f outside simulated %v", e.Name, p, e.CI))
		}
	}
	return report, nil
}
