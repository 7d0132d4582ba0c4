package benchmarks

import (
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	_ "github.com/oddsmith/oddsmith/mechanics/ag"
	_ "github.com/oddsmith/oddsmith/mechanics/bd"
	_ "github.com/oddsmith/oddsmith/mechanics/d20w"
	_ "github.com/oddsmith/oddsmith/mechanics/gm"
	_ "github.com/oddsmith/oddsmith/mechanics/grim"
	"github.com/oddsmith/oddsmith/sim"
)

// chunk is the number of trials one benchmark op simulates.
const chunk = 1 << 14

// samplers compiles every part of a mechanic's model at its defaults (one
// trial of the mechanic is one trial of each part).
func samplers(tb testing.TB, m *mechanics.Mechanic) []*sim.Sampler {
	spec, err := m.Model(m.DefaultConfig())
	if err != nil {
		tb.Fatal(err)
	}
	var out []*sim.Sampler
	for _, part := range spec.Parts() {
		s, err := sim.NewSampler(part)
		if err != nil {
			tb.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

func runChunk(tb testing.TB, ss []*sim.Sampler, c uint64, n int) {
	for i, s := range ss {
		if err := s.RunChunk(sim.PartSeed(1, i), c, n); err != nil {
			tb.Fatal(err)
		}
	}
}

// BenchmarkSimMechanic simulates every registered mechanic at its defaults
// on one core: one op is a chunk of 2¹⁴ trials, reported as trials/s. The
// README lists the ten slowest.
//
//	go test ./benchmarks -run '^$' -bench SimMechanic -benchtime 300ms
func BenchmarkSimMechanic(b *testing.B) {
	for _, m := range mechanics.All() {
		b.Run("task="+m.ID, func(b *testing.B) {
			ss := samplers(b, m)
			runChunk(b, ss, 0, chunk) // compile what is built lazily
			b.ReportAllocs()
			var c uint64
			for b.Loop() {
				c++
				runChunk(b, ss, c, chunk)
			}
			b.ReportMetric(float64(b.N)*chunk/b.Elapsed().Seconds(), "trials/s")
		})
	}
}

// TestEveryMechanicSimulates runs one small chunk of every mechanic at its
// defaults, so a broken benchmark workload fails the ordinary tests.
func TestEveryMechanicSimulates(t *testing.T) {
	for _, m := range mechanics.All() {
		runChunk(t, samplers(t, m), 0, 1000)
	}
}
