package ag

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/internal/mechtest"
)

func TestAttackDamageGolden(t *testing.T) {
	t.Parallel()
	// The golden values of the system: 3 dice + 2 vs 2 dice + 2, DV 3.
	r := mechtest.MustExact(t, registry, "ag.attack_damage", "skill=3", "attribute=2", "defence_skill=2", "defence_attribute=2", "dv=3")
	d := r.Var("damage")
	for i, want := range []float64{.4509, .2149, .1587, .1019, .0498, .0195, .0044} {
		mechtest.Near(t, "P(D = 3i)", d.P[3*i-d.Lo], want, 5e-5)
	}
	// The attack alone is the opposed golden.
	mechtest.Near(t, "P(hit)", mechtest.MustExact(t, registry, "ag.attack", "skill=3", "defence_skill=2").Event("hit").P, 0.5491, 5e-5)
	// Bigger guns incapacitate sooner.
	a := mechtest.MustExact(t, registry, "ag.attack_damage", "report=until_incapacitated", "dv=2").Process.MeanTimeUnbounded
	b := mechtest.MustExact(t, registry, "ag.attack_damage", "report=until_incapacitated", "dv=6").Process.MeanTimeUnbounded
	if !(b < a) {
		t.Errorf("mean attacks to incapacitate: DV 6 %v, DV 2 %v", b, a)
	}
}

// TestAttackDamageHeadShot: a head shot compares the damage with the halved
// thresholds 2.5 / 5 / 10 exactly (DV 5: damage 5 is deep at least, flesh
// with greater_than; 10 is critical or deep).
func TestAttackDamageHeadShot(t *testing.T) {
	t.Parallel()
	body := mechtest.MustExact(t, registry, "ag.attack_damage", "dv=5").Var("damage")
	for _, strict := range []bool{false, true} {
		t.Run(fmt.Sprintf("strict=%v", strict), func(t *testing.T) {
			want := make([]float64, 4)
			for i, p := range body.P {
				d, cat := float64(body.Lo+i), 0
				for _, cut := range []float64{2.5, 5, 10} {
					if d > cut || (!strict && d == cut) {
						cat++
					}
				}
				want[cat] += p
			}
			sets := []string{"dv=5", "location=head"}
			if strict {
				sets = append(sets, "opt.threshold_compare=greater_than")
			}
			got := band(t, mechtest.MustExact(t, registry, "ag.attack_damage", sets...), "category")
			for k := range want {
				mechtest.Near(t, fmt.Sprintf("P(%s)", got.Labels[k]), got.P[k], want[k], 1e-12)
			}
		})
	}
}
