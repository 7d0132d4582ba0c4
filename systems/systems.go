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

// System names one built-in game system: its id prefix, its name and a
// sentence on what it is (what a browser of the mechanics shows).
type System struct {
	ID, Name, Doc string
}

// Catalog lists the five systems in the order of Names.
var Catalog = []System{
	{"ag", "Autonomous Garden", "A role-playing game whose every test is one roll of a pool of six-sided dice: keep the highest, repeated faces add criticals, ones fumble."},
	{"bd", "Bursting bonus dice", "A d20 action die plus bonus dice that burst without limit, against a victory sum or a Guard, with a damage track of Durability, Health and shock."},
	{"d20w", "The d20 wiki", "A d20 plus modifiers against a Difficulty Class or an opposing total; non-player characters take 10."},
	{"gm", "Gods & Monsters", "A roll-under d20 game: contests that go on until one side succeeds, ailments that recur, falls, jumps and suffocation."},
	{"grim", "GRIMWIRE", "A d20 system of combat and hazards: d20 + attribute + modifiers against a target number, damage that wears down Condition."},
}
