// Package grim declares the mechanics of GRIMWIRE, a d20 system of combat
// and hazards: attributes (TOG, AGL, COR, MND, PER, RSN) run to at most 10
// and may be negative, and damage wears down a character's Condition (at 0
// or below the character is dying).
//
// The core roll: a natural N ~ d20 plus an attribute A and situational
// modifiers M, a total T = N + A + M, against a target number TN. A check
// succeeds when N ≠ 1 and T ≥ TN: a natural 1 always fails, and a natural
// 20 does not guarantee success (grim.core.check). An attack hits when
// N = 20, or when N > f and T ≥ TN: a natural 20 always hits and doubles
// the damage, and naturals up to f (1, or more for a heavy weapon wielded
// without the strength, or in frenzy) miss and may hit someone else
// (grim.core.attack, grim.friendly_fire). Opposed rolls compare two such
// totals (grim.pvp).
//
// Every mechanic declares its outcome as a record (the naturals rolled, or
// the counts an attack sequence produced) and its outputs as expressions
// over that record; the processes name their states by records too. The
// mechanics are listed in catalog.go (Mechanics) and reached through
// systems.Default; docs/mechanics.md documents each one.
package grim
