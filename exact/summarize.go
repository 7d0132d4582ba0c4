package exact

import (
	"fmt"
	"math"

	"github.com/oddsmith/oddsmith/mechanics"
)

// Summarize turns the distribution of a spec's outcome into the variables,
// events and bands the spec asks for. Both engines call it: the exact engine
// with exact probabilities, the simulator with observed frequencies.
func Summarize(spec *mechanics.Spec, outcome Dist, res *mechanics.Result) error {
	for _, v := range spec.Vars {
		d, err := outcome.Map(v.Of)
		if err != nil {
			return fmt.Errorf("variable %s: %w", v.Name, err)
		}
		res.Vars = append(res.Vars, mechanics.VarResult{Name: v.Name, Lo: d.Lo, P: d.P, Stats: StatsOf(d)})
	}
	for _, e := range spec.Events {
		p := 0.0
		for i, q := range outcome.P {
			if q != 0 && e.Of(outcome.Lo+i) {
				p += q
			}
		}
		res.Events = append(res.Events, mechanics.EventResult{Name: e.Name, P: math.Min(p, 1)})
	}
	for _, b := range spec.Bands {
		ps := make([]float64, len(b.Labels))
		for i, q := range outcome.P {
			if q == 0 {
				continue
			}
			k := b.Of(outcome.Lo + i)
			if k < 0 || k >= len(ps) {
				return fmt.Errorf("band %s: outcome %d maps to category %d of %d", b.Name, outcome.Lo+i, k, len(ps))
			}
			ps[k] += q
		}
		res.Bands = append(res.Bands, mechanics.BandResult{Name: b.Name, Labels: b.Labels, P: ps})
	}
	if p := spec.Process; p != nil {
		res.Process = processResult(p, outcome)
	}
	return nil
}

func processResult(p *mechanics.Process, outcome Dist) *mechanics.ProcessResult {
	abs := p.AbsorbingStates()
	pr := &mechanics.ProcessResult{
		TimeUnit: p.TimeUnit, Horizon: p.Horizon,
		Absorbed: make([]float64, len(abs)),
		Survival: make([]float64, p.Horizon+1),
	}
	k := map[int]int{}
	for i, s := range abs {
		pr.AbsorbingStates = append(pr.AbsorbingStates, p.States[s])
		k[s] = i
	}
	byTime := make([]float64, p.Horizon+2)
	for i, q := range outcome.P {
		if q == 0 {
			continue
		}
		t, s := p.SplitOutcome(outcome.Lo + i)
		if t > p.Horizon {
			pr.Undecided += q
		} else {
			pr.Absorbed[k[s]] += q
		}
		byTime[min(t, p.Horizon+1)] += q
	}
	s := 0.0
	for t := p.Horizon; t >= 0; t-- {
		s += byTime[t+1]
		pr.Survival[t] = math.Min(s, 1)
	}
	return pr
}

// StatsOf summarises a distribution: mean, SD, support and percentiles.
func StatsOf(d Dist) mechanics.Stats {
	if d.Total() == 0 {
		return mechanics.Stats{Mean: math.NaN(), SD: math.NaN()}
	}
	return mechanics.Stats{
		Mean: d.Mean(), SD: d.StdDev(), Min: d.Min(), Max: d.Max(),
		P5: d.Quantile(0.05), P25: d.Quantile(0.25), P50: d.Quantile(0.5),
		P75: d.Quantile(0.75), P95: d.Quantile(0.95),
	}
}

// Metadata fills the result's description of what was computed.
func Metadata(m *mechanics.Mechanic, c mechanics.Config, engine string) *mechanics.Result {
	r := &mechanics.Result{Mechanic: m.ID, Engine: engine, Version: mechanics.Version}
	for _, p := range m.Params {
		r.Params = append(r.Params, mechanics.NamedValue{Name: p.Name, Value: c.Params[p.Name]})
	}
	for _, o := range m.Options {
		r.Options = append(r.Options, mechanics.NamedString{Name: o.Name, Value: c.Options[o.Name]})
	}
	return r
}

// Run builds a mechanic's model and computes it exactly.
func Run(m *mechanics.Mechanic, c mechanics.Config) (*mechanics.Result, error) {
	if m.MCOnly {
		return nil, fmt.Errorf("%s has no exact model (%s); use 'oddsmith sim'", m.ID, m.MCReason)
	}
	spec, err := m.Build(c)
	if err != nil {
		return nil, err
	}
	res := Metadata(m, c, "exact")
	var ch *Chain
	var d Dist
	if spec.Process != nil {
		if ch, err = SolveProcess(spec.Process); err != nil {
			return nil, fmt.Errorf("%s: %w", m.ID, err)
		}
		d, res.Truncated = ch.Outcome, ch.Truncated
	} else {
		var tr float64
		if d, tr, err = Eval(spec.Outcome); err != nil {
			return nil, fmt.Errorf("%s: %w", m.ID, err)
		}
		res.Truncated = tr
		if tr > 0 {
			res.Warnings = append(res.Warnings, fmt.Sprintf("explosion depth limit reached with probability at most %.3g", tr))
		}
	}
	if tot := d.Total(); math.Abs(tot-1) > 1e-9 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("probabilities sum to %.12g", tot))
	}
	if err := Summarize(spec, d, res); err != nil {
		return nil, fmt.Errorf("%s: %w", m.ID, err)
	}
	addRationals(spec, res)
	if ch != nil && ch.Unbounded && res.Process != nil {
		res.Process.Unbounded = true
		res.Process.MeanTimeUnbounded = ch.MeanTimeUnbounded
		res.Process.AbsorbedUnbounded = ch.AbsorbedUnbounded
	}
	return res, nil
}

// RunSettings looks a mechanic up, applies "name=value" settings to its
// defaults and computes it exactly.
func RunSettings(id string, settings ...string) (*mechanics.Result, error) {
	m, err := mechanics.Lookup(id)
	if err != nil {
		return nil, err
	}
	c, err := m.Configure(settings)
	if err != nil {
		return nil, err
	}
	return Run(m, c)
}
