// Package bd declares the mechanics of the bursting-bonus-dice system: a
// d20 action die plus bonus dice that burst, against a victory sum or a
// Guard, with a damage track of Durability, Health and shock.
//
// The core roll: T = N20 + X₁ + … + X_k, an action die N20 (a d20, never
// changed) plus k bonus dice that burst: a die that shows its maximum adds
// another roll of the same die, without limit, so one dS! is X = S·J + R
// with J ≥ 0 maxima and a last roll R in 1…S−1 (bd.core.burst). The bonus
// dice's size is a rung of the rank ladder d4, d6, d8 (ordinary), d10
// (heroic, where bonus dice start), d12, d20: each charge on the roll
// steps every bonus die one rung up, each challenge one down, and being
// wounded one down, clamped to d4…d20 (the switches bd.core.opt.above_d20
// and bd.core.opt.wounded_cancellable say what happens past d20 and
// whether a charge cancels the wound). A check succeeds when T reaches a
// victory sum VS (bd.core.check); an attack hits when T beats the target's
// Guard strictly (bd.attack), and a defender may counter-roll, ties going
// to the attacker (bd.defense). Damage comes off Durability, then Health,
// then the creature is in shock (bd.track).
//
// The ladder lives in one place (ladderRules), a function of the typed
// switches, and every mechanic takes its bonus dice from it. Bursting dice
// are mechanics.Explode without a limit, as the rules say: the exact
// engine follows them until going on has probability ≤ 1e-12 per die and
// reports the dropped mass; the simulator follows every burst that can
// change the outcome (a comparison or a cap of bursting dice is not followed
// past the point where it is settled: see sim/saturate.go). Record
// fields that hold a bursting total are declared up to what the simulator
// can roll (mechanics.MaxBursts bursts in a row), and each record holds at
// most one such field, declared last, so that its codes stay dense.
//
// The mechanics are listed in catalog.go (Mechanics) and reached through
// systems.Default; docs/mechanics.md documents each one.
package bd
