package bd

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// bd.skirmish's sizes come from its chain, never typed: the size the
// model states (Spec.NoExact) is that of the chain built at the settings,
// and the reason's size at the largest settings (MCReason) is what the
// model states when built there. The old reason said "about 10⁵ states"
// while the chain at the defaults had 4201.
func TestSkirmishSizeIsTheChains(t *testing.T) {
	t.Parallel()
	m, err := registry.Lookup("bd.skirmish")
	if err != nil {
		t.Fatal(err)
	}
	largest := []string{}
	for _, p := range []mechanics.Param{pSkDurability, pSkHealth, pSkVigor, pSkAttacks, pSkRounds} {
		largest = append(largest, fmt.Sprintf("%s=%v", p.Name, p.Max))
	}
	for _, sets := range [][]string{nil, {"durability=3", "health=2", "vigor=7", "attacks=3", "rounds=4"}, largest} {
		c, err := m.Configure(sets)
		if err != nil {
			t.Fatal(err)
		}
		spec, err := m.Model(c)
		if err != nil {
			t.Fatal(err)
		}
		p := spec.Process
		outcomes := attackRecord(c.Int("durability") + c.Int("health")).Size()
		want := fmt.Sprintf("%d states, each step over up to %d outcomes of one attack, for up to %d steps", len(p.States), outcomes, p.Horizon)
		if spec.NoExact != want {
			t.Errorf("%v: the model states %q; the chain built is %q", sets, spec.NoExact, want)
		}
		if sets == nil && len(p.States) != 4201 {
			t.Errorf("the chain at the defaults has %d states; want 4201 (30 Durability × 21 Vigor × 2 × 2 + 20 Health × 21 × 2 × 2 + shock)", len(p.States))
		}
		if len(sets) == len(largest) && sets[0] == largest[0] && !strings.HasSuffix(m.MCReason, ": "+want) {
			t.Errorf("the reason %q does not end in the chain built at the largest settings, %q", m.MCReason, want)
		}
	}
}

// The economy's numbers in bd.skirmish's text are its constants.
func TestSkirmishTextUsesTheEconomysNumbers(t *testing.T) {
	t.Parallel()
	m, err := registry.Lookup("bd.skirmish")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{fmt.Sprintf("%d a reaction, %d after Defend", reactionCost, defendReactionCost), fmt.Sprintf("1 Vigor per %d Stamina", staminaPerVigor)} {
		if !strings.Contains(m.Doc, want) {
			t.Errorf("the doc lacks %q", want)
		}
	}
	e := economyOf(m.DefaultConfig(), 20, 0)
	if e.cost != reactionCost || e.recovery != 10/staminaPerVigor {
		t.Errorf("economy at the defaults: cost %d, recovery %d", e.cost, e.recovery)
	}
}
