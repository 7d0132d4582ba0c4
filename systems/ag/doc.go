// Package ag declares the mechanics of Autonomous Garden, a role-playing
// game whose every test is one roll of a pool of six-sided dice.
//
// # The core roll
//
// A skill test rolls n d6, n the skill level, and keeps the highest die.
// Every die beyond the first that repeats a face already shown adds +1 (a
// critical: n − the number of distinct faces; ag.core.opt.crit_count counts
// repeated faces or copies of the kept face instead). Every die showing 1
// is a fumble, scoring 1 without the critical bonus
// (ag.core.opt.fumble_crit=stack keeps it). An unskilled character
// (skill 0) rolls two dice and keeps the lowest, a double still adding +1
// (ag.core.opt.unskilled_crit=none drops it); a pool that deception takes
// below zero dice rolls the same way, or fails outright with
// ag.core.opt.negative_pool=auto_fail. Attribute tests (Body, Psyche…)
// roll exactly two dice keeping the highest: R₂, the higher die, +1 on a
// double, 1 for double ones.
//
// The pool result R plus the attribute A and the situational modifiers M,
// clamped at 0, is the total T = max(0, R + A + M). Against a target
// number TN the margin of success is MoS = T − TN: a success at MoS ≥ 1,
// and MoS 0 the "maybe, at a cost" band (ag.core.opt.tie reads it as a
// success, a failure, or a success with a downside). The MoS falls into
// seven bands, from no_complication (MoS ≤ −3) to yes_advantage
// (MoS ≥ 3). In an opposed test each side rolls its own total and the
// actor's MoS is T_actor − T_opponent. Everything else — damage (DV × MoS
// against wound thresholds), progress, chases, hazards and injury over
// time — is built from these rolls.
//
// The mechanics are listed in catalog.go (Mechanics); package systems
// gathers them, with the other game systems, into systems.Default.
package ag
