package bd

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/systems/kit"
)

// Numbers of the rules as the describe texts give them, formatted from the
// constants and tables the models read (see kit.Num), so that a text
// cannot drift from the code.

// ordinary is the rung of ordinary quality (d8), one below heroic.
const ordinary = heroic - 1

// rungNames name the quality of the rungs from ordinary up.
var rungNames = [len(ladder)]string{ordinary: "ordinary", heroic: "heroic", heroic + 1: "epic", top: "legendary"}

// ladderSizes lists the die sizes of the ladder: "4, 6, 8, 10, 12 or 20".
func ladderSizes() string {
	s := make([]string, len(ladder))
	for i, sides := range ladder {
		s[i] = kit.Num(sides)
	}
	return strings.Join(s[:top], ", ") + " or " + s[top]
}

// qualities lists the rungs from one on with their quality names: "10
// heroic, 12 epic, 20 legendary".
func qualities(from int) string {
	var s []string
	for r := from; r <= top; r++ {
		s = append(s, fmt.Sprintf("%d %s", ladder[r], rungNames[r]))
	}
	return strings.Join(s, ", ")
}

// belowOrdinary lists the sizes below ordinary: "4, 6".
func belowOrdinary() string {
	s := make([]string, ordinary)
	for i := range s {
		s[i] = kit.Num(ladder[i])
	}
	return strings.Join(s, ", ")
}

// coverGuards lists the covers' Guard bonuses: "light +10 Guard, partial
// +3, full +5" (with unit after the first).
func coverGuards(unit string) string {
	var s []string
	for c := coverLight; c <= coverFull; c++ {
		s = append(s, c.String()+" "+kit.Signed(c.guard()))
	}
	if unit != "" {
		s[0] += " " + unit
	}
	return strings.Join(s, ", ")
}

// visibilityPenalties lists the visibilities' VS increases: "normal +0,
// reduced +5, low +10, zero +15"; bare lists those above normal as
// numbers: "5, 10 and 15".
func visibilityPenalties(bare bool) string {
	var s []string
	for v := visNormal; v <= visZero; v++ {
		if bare {
			if v != visNormal {
				s = append(s, kit.Num(v.penalty()))
			}
			continue
		}
		s = append(s, v.String()+" "+kit.Signed(v.penalty()))
	}
	if bare {
		return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
	}
	return strings.Join(s, ", ")
}

// reactionPrice is what a reaction costs: "5 Vigor, 3 after Defend" (with
// after "a Defend action" or "Defend").
func reactionPrice(after string) string {
	return fmt.Sprintf("%d Vigor, %d after %s", reactionCost, defendReactionCost, after)
}

// windedFlag is the doc of the winded flag of the Vigor chains.
func windedFlag() string {
	return fmt.Sprintf("winded: no actions until Vigor is back to %d", windedUntil)
}

// expectedBurst is E[dS!] = S(S+1)/(2(S−1)), the mean the burst doc
// gives as an example.
func expectedBurst(s int) float64 { S := float64(s); return S * (S + 1) / (2 * (S - 1)) }
