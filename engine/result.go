package engine

import (
	"math"
	"sort"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// Result is what either engine returns; reports never care which one made it.
type Result struct {
	Mechanic string
	// Rule says where a designer's rule comes from: the expression of a
	// one-liner, or the file of a rule file ("" for built-in mechanics).
	Rule    string
	Engine  Kind
	Version string
	Params  []mechanics.NamedValue // in declaration order
	Options []mechanics.NamedString
	// Fingerprint identifies the model (see Fingerprint); results with
	// different fingerprints must never be merged.
	Fingerprint string
	// Simulation metadata (Engine == "sim").
	Seed    uint64
	Trials  int64
	Workers int

	Vars    []VarResult
	Events  []EventResult
	Bands   []BandResult
	Process *ProcessResult
	// Truncated is the probability mass the exact engine could not place
	// (the tail of bursting dice), the most any one output misses (a
	// model in parts computes each part on its own); 0 when the result is
	// complete.
	Truncated float64
	Warnings  []string
}

// VarResult is the distribution of one variable: P[i] is the probability
// of the value (Lo+i)/Den. Den is 1 for integer variables; a variable on
// halves has Den 2, and so on.
type VarResult struct {
	Name   string
	Doc    string
	Unit   string
	Lo     int
	Den    int
	P      []float64
	Counts []int64 // simulator only
	// Exact holds the probabilities as exact fractions ("5/36") when the
	// exact engine could afford rational arithmetic; nil otherwise.
	Exact []string
	// Xs, when not nil, are the variable's values, ascending and exact,
	// and P[i] (Counts[i], Exact[i]) is the probability of Xs[i]: a
	// variable whose few values lie far apart on their lattice (d20/d20
	// takes 250 values on a lattice of 1/232792560) is held by its
	// values, not by every point of the lattice. Lo is then 0, and Den
	// is still the lattice's denominator (every Xs[i]·Den is whole).
	Xs []expr.Rat
	// Undefined is the probability that the variable is not defined (see
	// Var.When), described by UndefinedLabel; P then sums to 1 − Undefined
	// and Stats are those given that it is defined.
	Undefined      float64
	UndefinedCount int64 // simulator only
	UndefinedLabel string
	// Missing is the mass the exact engine left out of the variable's
	// part of the model (Result.Truncated is the most over the parts):
	// Tails counts it, like Undefined, above every value.
	Missing float64
	// Given names the condition of a conditional variable (Var.Given),
	// "" for the others; P and Undefined are then the probabilities given
	// it, and GivenP (GivenCount) is its probability (simulated count).
	Given      string
	GivenP     float64
	GivenCount int64 // simulator only
	Stats      Stats
}

// Value is the variable's i-th support point: (Lo+i)/Den, or Xs[i].
func (v *VarResult) Value(i int) float64 {
	if v.Xs != nil {
		return v.Xs[i].Float()
	}
	if v.Den > 1 {
		return float64(v.Lo+i) / float64(v.Den)
	}
	return float64(v.Lo + i)
}

// Rat is the variable's i-th support point, exactly.
func (v *VarResult) Rat(i int) expr.Rat {
	if v.Xs != nil {
		return v.Xs[i]
	}
	return expr.Frac(int64(v.Lo+i), int64(max(v.Den, 1)))
}

// Index is the index of the support point x, and false when x is not
// one (off the lattice or outside the range, or not among Xs).
func (v *VarResult) Index(x expr.Rat) (int, bool) {
	if v.Xs != nil {
		i := sort.Search(len(v.Xs), func(i int) bool { return v.Xs[i].Cmp(x) >= 0 })
		return i, i < len(v.Xs) && v.Xs[i].Cmp(x) == 0
	}
	den, d := int64(max(v.Den, 1)), max(x.D, 1)
	if den%d != 0 {
		return 0, false
	}
	m := den / d
	if x.N > math.MaxInt64/m || x.N < math.MinInt64/m {
		return 0, false
	}
	i := x.N*m - int64(v.Lo)
	return int(i), i >= 0 && i < int64(len(v.P))
}

// Stats summarises a distribution; the percentiles are values of the
// variable (whole numbers unless the variable has Den > 1).
type Stats struct {
	Mean float64 `json:"mean"`
	SD   float64 `json:"sd"`
	Min  float64 `json:"min"`
	Max  float64 `json:"max"`
	P5   float64 `json:"p5"`
	P25  float64 `json:"p25"`
	P50  float64 `json:"p50"`
	P75  float64 `json:"p75"`
	P95  float64 `json:"p95"`
}

// EventResult is the probability of a named event; CI is the Wilson 95%
// interval of a simulated estimate (zero for exact results).
type EventResult struct {
	Name  string
	Doc   string
	P     float64
	Count int64
	CI    [2]float64
	// Exact is P as an exact fraction ("3/8") when the exact engine could
	// afford rational arithmetic (as VarResult.Exact); "" otherwise.
	Exact string
}

// BandResult is a categorical distribution.
type BandResult struct {
	Name   string
	Doc    string
	Labels []string
	P      []float64
	Counts []int64 // simulator only
	CI     [][2]float64
	// Exact holds P as exact fractions, label by label, when the exact
	// engine could afford rational arithmetic (as VarResult.Exact); nil
	// otherwise.
	Exact []string
}

// ProcessResult adds what a Process reports beyond the time variable.
type ProcessResult struct {
	TimeUnit string `json:"time_unit"`
	Horizon  int    `json:"horizon"`
	// Absorbed[i] is P(absorbed in AbsorbingStates[i] within the horizon).
	AbsorbingStates []string  `json:"absorbing_states"`
	Absorbed        []float64 `json:"absorbed"`
	// Undecided is P(not absorbed within the horizon).
	Undecided float64 `json:"not_absorbed"`
	// Survival[t] = P(T > t) for t = 0..Horizon.
	Survival []float64 `json:"survival"`
	// Exact engine, homogeneous chains only: values for an unlimited
	// horizon from the fundamental matrix N = (I − Q)⁻¹.
	Unbounded         bool      `json:"unbounded"`
	MeanTimeUnbounded float64   `json:"mean_time_unbounded,omitempty"`
	AbsorbedUnbounded []float64 `json:"absorbed_unbounded,omitempty"`
}

// Var returns the named variable result, or nil.
func (r *Result) Var(name string) *VarResult {
	for i := range r.Vars {
		if r.Vars[i].Name == name {
			return &r.Vars[i]
		}
	}
	return nil
}

// Event returns the named event result, or nil.
func (r *Result) Event(name string) *EventResult {
	for i := range r.Events {
		if r.Events[i].Name == name {
			return &r.Events[i]
		}
	}
	return nil
}

// NewResult starts a result for a mechanic at a configuration: its
// metadata and fingerprint, no figures yet.
func NewResult(m *mechanics.Mechanic, c mechanics.Config, kind Kind) *Result {
	r := &Result{Mechanic: m.ID, Rule: m.RuleSource, Engine: kind, Version: mechanics.Version, Fingerprint: m.Fingerprint(c)}
	r.Params, r.Options = m.Settings(c)
	return r
}
