package benchmarks

import (
	"context"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/study"
	"github.com/oddsmith/oddsmith/systems"
)

// tableRule is a table mechanic: a d20 picks a row of a table, and the
// row's roll is checked against a target number that runs over a million
// settings.
const tableRule = `
[[rule]]
id = "bench.table"
summary = "a d20 picks a row of a table; its roll must reach tn"
[rule.params]
tn = { default = 1000, min = 0, max = 1000000 }
[rule.let]
row = "lookup(d20, {1: 0, 2..10: 1, 11..19: 2, 20: 3})"
roll = "20 * row + d20"
[rule.events]
success = "12500 * roll >= tn"
`

// BenchmarkSolve: goal seeking. table_1e6 solves one integer parameter of
// a table mechanic over 10⁶ settings (goal: under 50 ms); frontier_40x40
// is every setting of a 40 × 40 grid of ag.skill_test, exact, with the
// frontier of a range target (goal: under 1 s on 2 cores). Each reports
// its evaluations.
//
//	go test ./benchmarks -run '^$' -bench Solve -benchtime 10x
func BenchmarkSolve(b *testing.B) {
	rs, err := rules.Parse("bench.toml", []byte(tableRule))
	if err != nil {
		b.Fatal(err)
	}
	table := rs[0].Mechanic()
	skill, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		b.Fatal(err)
	}
	tasks := []struct {
		name string
		s    study.Solve
	}{
		{"table_1e6", study.Solve{Mechanic: table, Base: table.DefaultConfig(), Vary: []string{"tn=0..1000000"}, Targets: []string{"event:success=0.3"}}},
		{"table_1e6_range", study.Solve{Mechanic: table, Base: table.DefaultConfig(), Vary: []string{"tn=0..1000000"}, Targets: []string{"0.25<=event:success<=0.5"}}},
		{"frontier_40x40", study.Solve{Mechanic: skill, Base: skill.DefaultConfig(), Vary: []string{"skill=1..40", "tn=1..40"},
			Targets: []string{"0.55<=event:success<=0.65"}, Maximize: "event:crit"}},
	}
	for _, task := range tasks {
		b.Run("task="+task.name, func(b *testing.B) {
			b.ReportAllocs()
			evals := 0
			for b.Loop() {
				s := task.s
				s.Engine = study.Engine{Kind: engine.Exact}
				r, err := s.Run(context.Background(), nil)
				if err != nil {
					b.Fatal(err)
				}
				evals = r.Evaluations
			}
			b.ReportMetric(float64(evals), "evaluations")
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*evals), "ns/evaluation")
		})
	}
}
