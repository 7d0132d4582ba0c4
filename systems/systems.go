package systems

import (
	"slices"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems/ag"
	"github.com/oddsmith/oddsmith/systems/bd"
	"github.com/oddsmith/oddsmith/systems/d20w"
	"github.com/oddsmith/oddsmith/systems/gm"
	"github.com/oddsmith/oddsmith/systems/grim"
)

// Default holds every built-in mechanic. A registry never changes, so it is
// shared by every caller; designers' rules are overlays on it
// (mechanics.Registry.Overlay).
var Default = mechanics.NewRegistry(All()...)

// All returns every built-in mechanic, system by system.
func All() []*mechanics.Mechanic {
	return slices.Concat(ag.Mechanics(), bd.Mechanics(), d20w.Mechanics(), gm.Mechanics(), grim.Mechanics())
}

// Names are the systems' id prefixes, in the order All gives them.
var Names = []string{"ag", "bd", "d20w", "gm", "grim"}
