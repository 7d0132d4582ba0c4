package benchmarks

import (
	"testing"

	"github.com/oddsmith/oddsmith/exact"
)

// BenchmarkExactProcess: chains solved by the exact engine as whole
// mechanics (model, propagation, the unlimited-horizon solve, every output)
// at their defaults and at the top of their ranges.
//
//	go test ./benchmarks -run '^$' -bench ExactProcess -benchmem
func BenchmarkExactProcess(b *testing.B) {
	for _, task := range []struct {
		name, id string
		sets     []string
	}{
		{"ag.chase_obstacle", "ag.chase_obstacle", nil},
		{"ag.chase_obstacle_rounds=200_skills=40", "ag.chase_obstacle", []string{"rounds=200", "quarry_skill=40", "pursuer_skill=40"}},
		{"grim.instability", "grim.instability", nil},
		{"grim.instability_uses=1000", "grim.instability", []string{"uses=1000"}},
		{"ag.wound_degeneration_boxes=12_hours=72", "ag.wound_degeneration", []string{"boxes=12", "hours=72"}},
		{"gm.ailment.chronic", "gm.ailment.chronic", nil},
	} {
		b.Run("task="+task.name, func(b *testing.B) {
			m, c := configured(b, task.id, task.sets...)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := exact.Run(m, c); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
