package reports

import (
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// TestCaption: a caption says the engine, a one-liner's rule, the
// parameters (a sentinel in words, never its number) and a simulation's
// trials and seed, with nothing dangling when a part is empty.
func TestCaption(t *testing.T) {
	t.Parallel()
	ailment := &engine.Result{Mechanic: "gm.ailment.chronic", Engine: engine.Exact,
		Params: []mechanics.NamedValue{{Name: "R", Value: 12}, {Name: "s0", Value: -99, Means: "the preset's"}, {Name: "effect_dice", Value: -1, Means: "the preset's"},
			{Name: "effect_sides", Value: 0, Means: "the preset's"}, {Name: "horizon", Value: 100}},
		Options: []mechanics.NamedString{{Name: "gm.ailment.chronic.preset", Value: "food_poisoning"}}}
	simExpr := &engine.Result{Mechanic: "expr", Rule: "d20 + bonus >= tn", Engine: engine.Sim, Trials: 1000, Seed: 3,
		Params: []mechanics.NamedValue{{Name: "bonus", Value: 2}, {Name: "tn", Value: 12}}}
	for _, c := range []struct {
		r    *engine.Result
		want string
	}{
		{&engine.Result{Mechanic: "expr", Rule: "3d6", Engine: engine.Exact}, "exact · rule: 3d6"},
		{&engine.Result{Mechanic: "3d6", Rule: "3d6", Engine: engine.Exact}, "exact · rule: 3d6"},
		{&engine.Result{Mechanic: "house.roll", Rule: "rules/house.toml", Engine: engine.Exact}, "exact · rule from rules/house.toml"},
		{&engine.Result{Mechanic: "toy", Engine: engine.Exact}, "exact"},
		{simExpr, "sim · rule: d20 + bonus >= tn · bonus=2 tn=12 · n=1000 seed=3"},
		{ailment, "exact · R=12 horizon=100 · s0, effect_dice and effect_sides: the preset's\noptions: preset=food_poisoning"},
		{sample(engine.Exact), "exact · skill=2 tn=5\noptions: tie=band"},
	} {
		if got := Caption(c.r); got != c.want {
			t.Errorf("Caption(%s) = %q; want %q", c.r.Mechanic, got, c.want)
		}
	}
	// A sweep's caption holds what is fixed: with every parameter on the
	// axes, the engine alone.
	if got := FixedCaption(&engine.Result{Mechanic: "expr", Engine: engine.Exact, Params: []mechanics.NamedValue{{Name: "tn", Value: 3}}}, []string{"tn"}); got != "exact" {
		t.Errorf("FixedCaption with tn varied = %q; want \"exact\"", got)
	}
}

// TestSeriesCaption: a chart of several series names what tells each
// apart — its mechanic or rule, the settings in which it differs from the
// other series of its mechanic or from its defaults, its note — says what
// a mechanic's series share once, and that the rest is at the defaults.
func TestSeriesCaption(t *testing.T) {
	t.Parallel()
	skill := &mechanics.Mechanic{ID: "ag.skill_test",
		Params:  []mechanics.Param{{Name: "skill", Default: 2}, {Name: "attribute", Default: 2}, {Name: "tn", Default: 5}},
		Options: []mechanics.Option{{Name: "ag.core.opt.tie", Values: []string{"band", "success"}}}}
	res := func(skill, attr float64, tie string) *engine.Result {
		return &engine.Result{Mechanic: "ag.skill_test", Engine: engine.Exact,
			Params:  []mechanics.NamedValue{{Name: "skill", Value: skill}, {Name: "attribute", Value: attr}, {Name: "tn", Value: 5}},
			Options: []mechanics.NamedString{{Name: "ag.core.opt.tie", Value: tie}}}
	}
	oneLiner := &engine.Result{Mechanic: "expr", Rule: "3d6 + bonus >= tn", Engine: engine.Exact,
		Params: []mechanics.NamedValue{{Name: "bonus", Value: 3}, {Name: "tn", Value: 5}}}
	got := SeriesCaption([]CaptionSeries{
		{Label: "book", Mechanic: skill, Result: res(3, 2, "band"), Varied: []string{"tn"}},
		{Label: "house", Mechanic: skill, Result: res(3, 2, "success"), Varied: []string{"tn"}},
		{Label: "strong", Mechanic: skill, Result: res(3, 4, "band"), Varied: []string{"tn"}, Note: "tn drawn × 2"},
		{Label: "3d6 + bonus >= tn (bonus=3)", Result: oneLiner, Varied: []string{"tn"}},
	})
	want := strings.Join([]string{
		"every ag.skill_test series: skill=3",
		"book: ag.skill_test · attribute=2 tie=band",
		"house: ag.skill_test · attribute=2 tie=success",
		"strong: ag.skill_test · attribute=4 tie=band · tn drawn × 2",
		"rule 3d6 + bonus >= tn · bonus=3",
		"exact",
	}, "\n")
	if got != want {
		t.Errorf("SeriesCaption:\n%s\nwant\n%s", got, want)
	}
	// Series of different mechanics at their defaults: each names its
	// mechanic, nothing more.
	got = SeriesCaption([]CaptionSeries{
		{Label: "a", Mechanic: skill, Result: res(2, 2, "band"), Varied: []string{"tn"}},
		{Label: "b", Result: &engine.Result{Mechanic: "gm.core.roll", Engine: engine.Sim, Trials: 10, Seed: 1}},
	})
	if want := "a: ag.skill_test · exact\nb: gm.core.roll · sim n=10 seed=1\nevery other setting at its mechanic's default"; got != want {
		t.Errorf("SeriesCaption of two mechanics:\n%s\nwant\n%s", got, want)
	}
}
