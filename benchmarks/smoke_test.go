package benchmarks

import (
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/exact"
)

// TestTasksAreSound runs every benchmark workload once, so a broken task
// fails the ordinary test run instead of only the benchmark run.
func TestTasksAreSound(t *testing.T) {
	for _, task := range exactTasks() {
		d, _, err := exact.Eval(task.node)
		if err != nil {
			t.Fatalf("%s: %v", task.name, err)
		}
		if math.Abs(d.Total()-1) > 1e-9 {
			t.Errorf("%s: probabilities sum to %v", task.name, d.Total())
		}
	}
}
