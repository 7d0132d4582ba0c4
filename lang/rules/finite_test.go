package rules

import (
	"testing"

	"github.com/oddsmith/oddsmith/lang/notation"
	"github.com/oddsmith/oddsmith/mechanics"
)

// TestFiniteDieLarge: a limited explosion of a large die made one die has
// its values ascending and every chain's weight (W^(limit+1) in all), and
// tens of thousands of values are put in order quickly.
func TestFiniteDieLarge(t *testing.T) {
	t.Parallel()
	e := mechanics.Explode{Die: mechanics.D(20000), Limit: 2}
	d, err := finiteDie(e, notation.Pos{}, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Faces) != 59998 || d.Missing != 0 {
		t.Fatalf("%d values, missing %d", len(d.Faces), d.Missing)
	}
	for i := 1; i < len(d.Faces); i++ {
		if d.Faces[i] <= d.Faces[i-1] {
			t.Fatalf("values out of order at %d: %d after %d", i, d.Faces[i], d.Faces[i-1])
		}
	}
	if w := d.TotalWeight(); w != 20000*20000*20000 {
		t.Errorf("total weight %d", w)
	}
	// 1..19999 once each (weight W²), then 20000 + 1..19999 (weight W).
	if d.Faces[0] != 1 || d.Weights[0] != 20000*20000 || d.Faces[19999] != 20001 || d.Weights[19999] != 20000 {
		t.Errorf("first values %v %v, at 19999: %d %d", d.Faces[:2], d.Weights[:2], d.Faces[19999], d.Weights[19999])
	}
}
