package ag

import (
	"fmt"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
	"github.com/oddsmith/oddsmith/systems/kit"
)

// Wound thresholds (of attacks, harming spells and hazards): damage is
// compared with the Flesh, Deep and Critical thresholds; head shots and
// fumbled falls halve them, and a halved threshold is compared exactly (a
// damage of 2.5 reaches 5/2).

// Wound categories of damage against thresholds (band indices).
const (
	catNone = iota
	catFlesh
	catDeep
	catCritical
)

var categoryLabels = []string{"none (scrapes)", "flesh", "deep", "critical"}

// woundThresholds decodes the flesh/deep/critical parameters (inclusive:
// damage ≥ threshold) into kit thresholds labelled with categoryLabels.
func woundThresholds(c mechanics.Config) kit.Thresholds {
	return kit.Ints(false, categoryLabels, c.Int("flesh"), c.Int("deep"), c.Int("critical"))
}

// halfThresholds is ½ as a threshold multiplier.
var halfThresholds = expr.Frac(1, 2)

func thresholdParams(fl, dp, cr float64) []mechanics.Param {
	return []mechanics.Param{
		ip("flesh", fl, 1, 1000, "Flesh wound threshold [placeholder 5; sweep 2–10]"),
		ip("deep", dp, 1, 1000, "Deep wound threshold [placeholder 10 = 2·Flesh]"),
		ip("critical", cr, 1, 1000, "Critical threshold [placeholder 20 = 4·Flesh]"),
	}
}

func checkThresholds(c mechanics.Config) error {
	if !(c.Int("flesh") <= c.Int("deep") && c.Int("deep") <= c.Int("critical")) {
		return fmt.Errorf("thresholds must satisfy flesh ≤ deep ≤ critical, got %d / %d / %d", c.Int("flesh"), c.Int("deep"), c.Int("critical"))
	}
	return nil
}

// roundingOpt declares a mechanic's rounding switch over kit.Rounding:
// floor, round_half_up or exact_fraction (keep the unrounded damage; the
// thresholds compare it exactly).
func roundingOpt(id, doc string) mechanics.OptionOf[kit.Rounding] {
	return mechanics.SwitchOf(id, "rounding", doc, kit.Floor, kit.RoundHalfUp, kit.ExactFraction)
}
