package gm

import (
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
)

// Mechanics returns every mechanic of the system, newly made, for a
// registry (package systems gathers the five systems into one).
func Mechanics() []*mechanics.Mechanic {
	return slices.Concat(
		ailmentMechanics(),
		contestMechanics(),
		coreMechanics(),
		hazardsMechanics(),
		reactionMechanics(),
		travelMechanics(),
	)
}
