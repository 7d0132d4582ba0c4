package gm

import "github.com/oddsmith/oddsmith/mechanics"

// registry holds the system's mechanics for its tests.
var registry = mechanics.NewRegistry(Mechanics()...)
