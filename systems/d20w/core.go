package d20w

import (
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

//go:generate go tool stringer -type=naturalsRule -linecomment -output=core_string.go

// naturalsRule is d20w.core.opt.naturals: where natural 20s and 1s decide.
type naturalsRule int

// Values of d20w.core.opt.naturals.
const (
	naturalsManoeuvresOnly naturalsRule = iota // manoeuvres_only
	naturalsAllRolls                           // all_rolls
	naturalsNone                               // none
)

var optNaturals = mechanics.SwitchOf("d20w.core", "naturals",
	"manoeuvres_only: natural 20/1 decide only combat manoeuvres (the page gives the rule there alone), so a check has none; "+
		"all_rolls: checks, saves, attacks and opposed rolls get the rule too, a natural 20 always succeeds and a natural 1 always "+
		"fails, read off the acting side's die when it rolls, else off the opposing PC's die mirrored (its 20 always resists, its "+
		"1 never does); manoeuvres are as under manoeuvres_only; none: no natural rule anywhere",
	naturalsManoeuvresOnly, naturalsAllRolls, naturalsNone)

// checkRecord is the outcome of one check: the natural d20.
var checkRecord = mechanics.NewRecord(kit.Natural("natural", 20))

// check is d20w.core.check: T = N + mod, success on a match or a beat of
// the DC (T ≥ DC), with natural rules where the option asks for them.
func check(c mechanics.Config) (*mechanics.Spec, error) {
	ch := kit.Check{Field: "natural", Sides: 20, Bonus: c.Int("mod"), Target: c.Int("dc"), Cmp: mechanics.GE, AutoSucceed: 21}
	if optNaturals.Of(c) == naturalsAllRolls {
		ch.AutoFail, ch.AutoSucceed = 1, 20
	}
	spec := &mechanics.Spec{
		Record:  checkRecord,
		Outcome: kit.Encode(checkRecord, checkRecord.Slot("natural"), mechanics.D(20)),
	}
	spec.Var("margin", "T − DC: how far the check beat (≥ 0) or missed (< 0) the DC", ch.Margin()).
		Var("total", "T = N + mod", ch.Total()).
		Event("success", "T ≥ DC (match or beat), or per the naturals option", ch.Success()).
		Event("natural_20", "the die shows 20", expr.Eq(expr.F("natural"), expr.K(20))).
		Event("natural_1", "the die shows 1", expr.Eq(expr.F("natural"), expr.K(1)))
	return spec, nil
}

// coreMechanics are the mechanics declared in core.go.
func coreMechanics() []*mechanics.Mechanic {
	return []*mechanics.Mechanic{
		{
			ID:      "d20w.core.check",
			Summary: "unopposed check: d20 + modifiers, match or beat the DC",
			Doc: "N ~ d20, T = N + mod (ability modifier + skill ranks or combat bonus + situational terms); success ⇔ T ≥ DC, " +
				"so P = clamp((21 − DC + mod)/20, 0, 1) without natural rules (the default); with opt.naturals=all_rolls a natural " +
				"20 succeeds and a 1 fails, so P = clamp((21 − DC + mod)/20, 1/20, 19/20). This check is always rolled: the Easy " +
				"task that is not rolled unless conditions are Extreme is d20w.modtrack with task=easy.",
			Params: []mechanics.Param{
				mechanics.IntParam("mod", 0, -20, 40, "total modifier: ability modifier + skill ranks or combat bonus + other modifiers"),
				mechanics.IntParam("dc", 15, -20, 60, "Difficulty Class"),
			},
			Options: mechanics.Options(optNaturals),
			Build:   check,
		},
	}
}
