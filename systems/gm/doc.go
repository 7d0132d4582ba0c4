// Package gm declares the mechanics of Gods & Monsters (Jerry Stratton), a
// roll-under d20 game: contests that go on until exactly one side
// succeeds, ailments that recur over time, falls, jumps, suffocation,
// pushing on without rest, and smaller rules (concentration,
// semi-consciousness, disbelieving illusions, item reactions, tracking).
//
// # The core roll
//
// A roll is a natural N ~ d20 against an effective target S′ = S + B: S is
// a score (an ability, 3–18, or a reaction: evasion, fortitude, health,
// perception, reason, willpower) and B the net of bonuses (+) and
// penalties (−). The roll succeeds when N ≤ S′, so P(success) =
// clamp(S′/20, 0, 1), and its margin is M = S′ − N (≥ 0: succeeded by M;
// below 0: failed by −M). A health roll is a roll on the health reaction,
// an evasion roll one on evasion, and so on; an ability roll is a roll
// under the ability. The mechanic gm.core.roll is this roll alone.
//
// The bonuses: a contributing ability adds its bonus in full as a major
// contributor and half of it (toward zero) as a minor one; a group acting
// together rolls with its median score and a bonus of ⌊log₂ g⌋ (1 → 0,
// 2 → 1, 4 → 2, 8 → 3); moving costs a reaction penalty (dash −1, walk −2,
// jog −4, run −8, sprint −16; outdoors the walking speeds a row lower).
//
// Two switches belong to every roll: gm.core.opt.naturals (none in the
// sources; 1_succeeds_20_fails keeps every roll within 5–95%) and
// gm.core.opt.injury_penalty (on: every roll is at a penalty of the
// current injuries, as the author's Q&A says, which turns the chains of
// injuries into feedback chains).
//
// The mechanics are listed in catalog.go (Mechanics) and reached through
// systems.Default; docs/mechanics.md documents each one (its anchor is
// the id with dashes for dots, as in docs/mechanics.md#gm-ailment-chronic).
package gm
