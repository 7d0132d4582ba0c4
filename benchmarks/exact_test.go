package benchmarks

import (
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems/ag"
)

var sink engine.Dist

// exactTasks are the exact-engine workloads, named after the task.
func exactTasks() []struct {
	name string
	node mechanics.Node
} {
	d6 := mechanics.D(6)
	tasks := []struct {
		name string
		node mechanics.Node
	}{
		{"sum_100d6", mechanics.Repeat{X: d6, N: 100}},
		{"sum_1000d6", mechanics.Repeat{X: d6, N: 1000}},
		{"kh3_4d6", mechanics.Keep{Die: d6, N: 4, K: 3, Highest: true}},
		{"kh10_100d6", mechanics.Keep{Die: d6, N: 100, K: 10, Highest: true}},
		{"max_10d6", mechanics.Max{Terms: []mechanics.Node{d6, d6, d6, d6, d6, d6, d6, d6, d6, d6}}},
		{"explode_d10", mechanics.Explode{Die: mechanics.D(10)}},
	}
	opts := ag.CoreOptions{CritCount: ag.CritExtraCopies, FumbleCrit: ag.FumbleSuppress, UnskilledCrit: ag.UnskilledApply, Tie: ag.TieBand}
	for n := 1; n <= 20; n++ {
		tasks = append(tasks, struct {
			name string
			node mechanics.Node
		}{fmt.Sprintf("ag_pool_%d", n), ag.Pool(n, opts)})
	}
	return tasks
}

func BenchmarkExact(b *testing.B) {
	for _, task := range exactTasks() {
		b.Run("task="+task.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				d, _, err := exact.Eval(task.node)
				if err != nil {
					b.Fatal(err)
				}
				sink = d
			}
		})
	}
}
