// Package systems gathers the five built-in game systems into one registry:
// ag (Autonomous Garden), bd (bursting bonus dice), d20w (the d20 wiki), gm
// (Gods & Monsters) and grim (GRIMWIRE). Every entry point (the command
// line, the benchmarks, the tests of other packages) gets its mechanics
// from here; package kit holds the blocks the systems share.
package systems
