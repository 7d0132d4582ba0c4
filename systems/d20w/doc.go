// Package d20w declares the mechanics of the d20 wiki system.
//
// The core roll: a character rolls N ~ d20 and adds its modifiers,
// T = N + mod. An unopposed check succeeds when T matches or beats the
// Difficulty Class (T ≥ DC). In a contest (an opposed check, an attack
// against Defence, a combat manoeuvre's CMA against CMD) the acting side
// succeeds when its total matches or beats the opposing total (T_a ≥ T_o).
// Player characters roll; non-player characters take 10 instead on
// attacks, Defence, opposed checks and manoeuvres (T = 10 + mod), so when
// an NPC acts against a PC the PC resists only by strictly beating the
// NPC's total (whether an NPC also takes 10 on its saving throws is
// d20w.core.opt.npc_saves). By default natural 20s and 1s decide only
// combat manoeuvres (d20w.core.opt.naturals). contest.go holds this
// success inequality for the mechanics built on it, and docs/mechanics.md
// states each mechanic's rule under its id.
//
// The mechanics are listed by Mechanics (catalog.go); commands reach them
// through systems.Default.
package d20w
