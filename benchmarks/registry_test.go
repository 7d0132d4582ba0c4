package benchmarks

import (
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	_ "github.com/oddsmith/oddsmith/mechanics/ag"
	_ "github.com/oddsmith/oddsmith/mechanics/d20w"
	_ "github.com/oddsmith/oddsmith/mechanics/grim"
	"github.com/oddsmith/oddsmith/sim"
)

// chunk is the number of trials one benchmark op simulates.
const chunk = 1 << 14

func samplerAtDefaults(tb testing.TB, m *mechanics.Mechanic) *sim.Sampler {
	spec, err := m.Model(m.DefaultConfig())
	if err != nil {
		tb.Fatal(err)
	}
	s, err := sim.NewSampler(spec)
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// BenchmarkSimMechanic simulates every registered mechanic at its defaults
// on one core: one op is a chunk of 2¹⁴ trials, reported as trials/s. The
// README lists the ten slowest.
//
//	go test ./benchmarks -run '^$' -bench SimMechanic -benchtime 300ms
func BenchmarkSimMechanic(b *testing.B) {
	for _, m := range mechanics.All() {
		b.Run("task="+m.ID, func(b *testing.B) {
			s := samplerAtDefaults(b, m)
			if err := s.RunChunk(1, 0, chunk); err != nil { // compile lazily built parts
				b.Fatal(err)
			}
			b.ReportAllocs()
			var c uint64
			for b.Loop() {
				c++
				if err := s.RunChunk(1, c, chunk); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*chunk/b.Elapsed().Seconds(), "trials/s")
		})
	}
}

// TestEveryMechanicSimulates runs one small chunk of every mechanic at its
// defaults, so a broken benchmark workload fails the ordinary tests.
func TestEveryMechanicSimulates(t *testing.T) {
	for _, m := range mechanics.All() {
		if err := samplerAtDefaults(t, m).RunChunk(1, 0, 1000); err != nil {
			t.Errorf("%s: %v", m.ID, err)
		}
	}
}
