package d20w

import (
	"testing"

	"github.com/oddsmith/oddsmith/sim"
)

// BenchmarkSim simulates every d20w mechanic at its defaults on one core,
// as benchmarks.BenchmarkSimMechanic does for the whole registry (the goal
// is at least 20 million trials per second):
//
//	go test ./systems/d20w -run '^$' -bench Sim -benchtime 300ms
func BenchmarkSim(b *testing.B) {
	const chunk = 1 << 14
	for _, m := range registry.System("d20w") {
		b.Run(m.ID, func(b *testing.B) {
			spec, err := m.Model(m.DefaultConfig())
			if err != nil {
				b.Fatal(err)
			}
			var ss []*sim.Sampler
			for _, part := range spec.Parts() {
				s, err := sim.NewSampler(part)
				if err != nil {
					b.Fatal(err)
				}
				ss = append(ss, s)
			}
			run := func(c uint64) {
				for i, s := range ss {
					if err := s.RunChunk(sim.PartSeed(1, i), c, chunk); err != nil {
						b.Fatal(err)
					}
				}
			}
			run(0)
			var c uint64
			for b.Loop() {
				c++
				run(c)
			}
			b.ReportMetric(float64(b.N)*chunk/b.Elapsed().Seconds(), "trials/s")
		})
	}
}
