package gm

import (
	"math"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

// The describe texts of gm.core.roll, gm.contest (and gm.chase) and
// gm.tracking, each claim computed.

// TestCoreRollDescribe: a minor contributor adds half its bonus rounded
// toward zero (−3 → −1, not ⌊−3/2⌋ = −2), and the naturals switch keeps P
// within 1/20 … 19/20.
func TestCoreRollDescribe(t *testing.T) {
	t.Parallel()
	for minor, want := range map[string]float64{"-3": 9.0 / 20, "3": 11.0 / 20, "-1": 10.0 / 20} {
		r := mechtest.MustExact(t, registry, "gm.core.roll", "minor="+minor)
		mechtest.Near(t, "P(success), minor "+minor, r.Event("success").P, want, 1e-15)
	}
	doc := docOf(t, "gm.core.roll")
	if strings.Contains(doc, "⌊minor/2⌋") || !strings.Contains(doc, "half of minor rounded toward zero (−3 → −1") ||
		!strings.Contains(doc, "clamp(S′/20, 1/20, 19/20)") {
		t.Errorf("gm.core.roll describe: the minor contributor is not said to be halved toward zero, or the naturals' clamp is missing:\n%s", doc)
	}
}

// TestContestWithinRounds: P(A wins) is a/(a + b) only over an unlimited
// horizon; the event is the mass absorbed within the rounds followed,
// a/(a + b)·(1 − (1 − a − b)^rounds), which describe says.
func TestContestWithinRounds(t *testing.T) {
	t.Parallel()
	// a = 1·(1 − 19/20) = 1/20, b = 0.
	r := mechtest.MustExact(t, registry, "gm.contest", "a_score=20", "b_score=19", "rounds=100")
	mechtest.Near(t, "P(a_wins within 100 rounds)", r.Event("a_wins").P, 1-math.Pow(0.95, 100), 1e-12)
	for _, id := range []string{"gm.contest", "gm.chase"} {
		if doc := docOf(t, id); !strings.Contains(doc, "a/(a + b)·(1 − (1 − a − b)^rounds) within the rounds followed") {
			t.Errorf("%s describe does not give P(A wins) within the rounds followed:\n%s", id, doc)
		}
	}
}

// TestTrackingDescribe: the group adds G = ⌊log₂ g⌋, not g, and the
// modifier counts with the perception.
func TestTrackingDescribe(t *testing.T) {
	t.Parallel()
	r := mechtest.MustExact(t, registry, "gm.tracking", "group=6", "modifier=-2", "days=1")
	mechtest.Near(t, "P(track), group 6 (G = 2), modifier −2, 1 day", r.Event("tracked").P, (10-2-1+2)/20.0, 1e-15)
	doc := docOf(t, "gm.tracking")
	if strings.Contains(doc, "p(P − days + g") || !strings.Contains(doc, "G = ⌊log₂ g⌋") || !strings.Contains(doc, "P the perception + modifier") {
		t.Errorf("gm.tracking describe: the formula adds g instead of ⌊log₂ g⌋, or leaves out the modifier:\n%s", doc)
	}
}
