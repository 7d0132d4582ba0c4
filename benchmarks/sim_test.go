package benchmarks

import (
	"context"
	"testing"

	"github.com/oddsmith/oddsmith/systems"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

func agSpec(b *testing.B, sets ...string) *mechanics.Spec {
	m, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		b.Fatal(err)
	}
	c, err := m.Configure(sets)
	if err != nil {
		b.Fatal(err)
	}
	spec, err := m.Build(c)
	if err != nil {
		b.Fatal(err)
	}
	return spec
}

// BenchmarkSimTrial measures the per-trial hot path on one core: one op is
// one chunk of sim.ChunkSize trials; it must not allocate.
func BenchmarkSimTrial(b *testing.B) {
	for _, task := range []struct{ name, skill string }{
		{"ag_5d6_skill_test", "skill=5"},   // one table lookup per trial
		{"ag_7d6_skill_test", "skill=7"},   // one larger table of every roll
		{"ag_9d6_skill_test", "skill=9"},   // dice rolled in groups, the multiset ranked
		{"ag_12d6_skill_test", "skill=12"}, //
		{"ag_20d6_skill_test", "skill=20"}, //
		{"ag_40d6_skill_test", "skill=40"}, //
	} {
		b.Run("task="+task.name, func(b *testing.B) {
			s, err := sim.NewSampler(agSpec(b, task.skill, "attribute=2", "tn=7"))
			if err != nil {
				b.Fatal(err)
			}
			s.RunChunk(1, 0, sim.ChunkSize) // size the histogram
			b.ReportAllocs()
			var c uint64
			for b.Loop() {
				c++
				s.RunChunk(1, c, sim.ChunkSize)
			}
			b.ReportMetric(float64(b.N)*sim.ChunkSize/b.Elapsed().Seconds(), "tests/s")
		})
	}
}

// BenchmarkSimRun measures a whole run (workers, chunk scheduling, merging)
// at 1 and 2 workers, for a table-driven model (5d6, one lookup per trial)
// and a pool rolled die by die (12d6): the ratio of their tests/s is the
// parallel speed-up.
func BenchmarkSimRun(b *testing.B) {
	for _, task := range []struct{ name, skill string }{
		{"ag_5d6_skill_test", "skill=5"},
		{"ag_12d6_skill_test", "skill=12"},
	} {
		spec := agSpec(b, task.skill, "attribute=2", "tn=7")
		const trials = 1 << 24
		for _, w := range []struct {
			name string
			n    int
		}{{"workers=1", 1}, {"workers=2", 2}} {
			b.Run("task="+task.name+"/"+w.name, func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if _, err := sim.Outcomes(context.Background(), spec, sim.Options{Trials: trials, Seed: 1, Workers: w.n}); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.N)*trials/b.Elapsed().Seconds(), "tests/s")
			})
		}
	}
}
