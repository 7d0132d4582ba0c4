package ag

import (
	"fmt"
	"strings"

	"github.com/oddsmith/oddsmith/systems/kit"
)

// Tables of the rules as the describe texts give them, formatted from the
// values the models read (see kit.Num), so that a text cannot drift from
// the code.

// title writes a value's public name as a name in prose: "remote_viewing"
// is "Remote Viewing".
func title(name string) string {
	words := strings.Split(name, "_")
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + w[1:]
	}
	return strings.Join(words, " ")
}

// moveBonuses lists the movements' bonuses from the movement from on:
// "+1 walk, +2 run, +3 sprint".
func moveBonuses(from movement) string {
	var s []string
	for _, m := range movements[from:] {
		s = append(s, kit.Signed(m.bonus(moveBonusSeedReading))+" "+m.String())
	}
	return strings.Join(s, ", ")
}

// surfaceTNs lists the jump TN of every take-off surface: "standard 3,
// rough 6, …".
func surfaceTNs() string {
	var s []string
	for _, v := range jumpSurfaces {
		s = append(s, fmt.Sprintf("%s %d", v, v.tn()))
	}
	return strings.Join(s, ", ")
}

// spellTNs lists the fixed TN of each spell given: "Entropomancy 5,
// Shield 3, …", or with tnWord "remote_viewing: TN 5; scrying: TN 3".
func spellTNs(spells []spell, tnWord bool) string {
	var s []string
	for _, v := range spells {
		if tnWord {
			s = append(s, fmt.Sprintf("%s: TN %d", v, v.tn()))
		} else {
			s = append(s, fmt.Sprintf("%s %d", title(v.String()), v.tn()))
		}
	}
	if tnWord {
		return strings.Join(s, "; ")
	}
	return strings.Join(s, ", ")
}

// metres writes a distance in centimetres as metres: 75 is "0.75 m".
func metres(cm int) string { return fmt.Sprintf("%g m", float64(cm)/100) }
