package reports

import (
	"strings"
	"testing"
)

func TestLineFindingWording(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		name, met string
		xy        []XY
		want      string
	}{
		// A value of exactly one half is reached, not crossed.
		{"reaches half", "event:success", []XY{{X: 12, Y: 0.6}, {X: 13, Y: 0.55}, {X: 14, Y: 0.5}, {X: 15, Y: 0.45}},
			"Finding: P(success) reaches 50% at target number = 14."},
		{"crosses half", "event:success", []XY{{X: 7, Y: 0.5416666667}, {X: 8, Y: 0.1481481481}},
			"Finding: P(success) crosses 50% between target number = 7 (0.542) and 8 (0.148)."},
		// No float noise in the x values.
		{"no float noise", "event:hit", []XY{{X: 0.1, Y: 0.9}, {X: 0.1 + 0.2, Y: 0.2}},
			"Finding: P(hit) crosses 50% between target number = 0.1 (0.900) and 0.3 (0.200)."},
		{"range", "event:hit", []XY{{X: 1, Y: 0.9}, {X: 2, Y: 0.7}},
			"Finding: P(hit) ranges from 0.700 (target number = 2) to 0.900 (target number = 1)."},
		{"mean", "mean:damage", []XY{{X: 0, Y: 0}, {X: 3, Y: 92.2222222}},
			"Finding: mean damage ranges from 0.000 (target number = 0) to 92.222 (target number = 3)."},
		{"flat", "event:hit", []XY{{X: 1, Y: 1}, {X: 2, Y: 1}},
			"Finding: P(hit) is 1.000 throughout (target number = 1 … 2)."},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := LineFinding(c.met, "target number", c.xy); got != c.want {
				t.Errorf("LineFinding(%s, %v)\n got %q\nwant %q", c.met, c.xy, got, c.want)
			}
		})
	}
}

func TestHeatFindingWording(t *testing.T) {
	t.Parallel()
	names := []string{"skill", "tn"}
	axes := [][]float64{{0, 1, 2}, {4, 5, 6}}
	z := [][]float64{{0.7, 0.8, 0.9}, {0.3, 0.5, 0.7}, {0.1, 0.2, 0.4}}
	got := heatFinding("event:success", names, axes, z)
	want := "Finding: at tn = 5, P(success) reaches 50% at skill = 1; P(success) ranges from 0.100 to 0.900 over the grid."
	if got != want {
		t.Errorf("heatFinding\n got %q\nwant %q", got, want)
	}
	z[1] = []float64{0.3, 0.45, 0.7}
	if got := heatFinding("event:success", names, axes, z); !strings.Contains(got, "crosses 50% between skill = 1 (0.450) and 2 (0.700)") {
		t.Errorf("heatFinding: %q", got)
	}
}

// TestHalfwayWholeSettings: over a setting of whole numbers a crossing
// of 50% names the settings either side, never a setting between them
// (the atlas said "reaches 50% at x ≈ 3.875" for a TN and "≈ 1.476" for
// a number of people); over real values it may interpolate, and says so.
// A probability too small for three decimals is not printed as 0.000.
func TestHalfwayWholeSettings(t *testing.T) {
	t.Parallel()
	xy := []XY{{X: 2, Y: 0.8}, {X: 3, Y: 0.694}, {X: 4, Y: 0.472}}
	for _, c := range []struct {
		xy          []XY
		interpolate bool
		want        string
	}{
		{xy, false, "crosses 50% between x = 3 (0.694) and 4 (0.472)"},
		{xy, true, "reaches 50% at x ≈ 3.874 (interpolated between 3 and 4)"},
		{[]XY{{X: 3, Y: 0.0001}, {X: 4, Y: 0.729}}, false, "crosses 50% between x = 3 (<0.001) and 4 (0.729)"},
		{[]XY{{X: 3, Y: 0.2}, {X: 4, Y: 0.5}, {X: 5, Y: 0.5}, {X: 6, Y: 0.7}}, true, "reaches 50% at x = 4"},
		{[]XY{{X: 3, Y: 0.2}, {X: 4, Y: 0.3}}, false, ""},
	} {
		if got := Halfway("x", c.xy, c.interpolate); got != c.want {
			t.Errorf("Halfway(%v, %v) = %q, want %q", c.xy, c.interpolate, got, c.want)
		}
	}
}
