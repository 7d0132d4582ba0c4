package benchmarks

import (
	"testing"

	"github.com/oddsmith/oddsmith/systems"

	"github.com/oddsmith/oddsmith/sim"
)

// processTasks are the mechanics whose model is a Process, slowest first
// when the process loop was last reworked.
var processTasks = []string{
	"ag.radiation", "grim.instability", "ag.wound_degeneration", "ag.acting_fast",
	"ag.chase_obstacle", "ag.magic.dispel", "ag.accumulated", "ag.suffocation",
	"ag.chase", "grim.burnout", "grim.drowning",
}

// BenchmarkSimProcess measures the process loop on one core at each
// mechanic's defaults: one op is one chunk of sim.ChunkSize trials (the
// worker compiled and warmed on chunk 0 first); it must not allocate.
func BenchmarkSimProcess(b *testing.B) {
	for _, id := range processTasks {
		b.Run("task="+id, func(b *testing.B) {
			m, err := systems.Default.Lookup(id)
			if err != nil {
				b.Skip(err)
			}
			spec, err := m.Build(m.DefaultConfig())
			if err != nil {
				b.Skip(err)
			}
			if spec.Process == nil {
				b.Fatalf("%s is not a process", id)
			}
			s, err := sim.NewSampler(spec)
			if err != nil {
				b.Fatal(err)
			}
			if err := s.RunChunk(1, 0, sim.ChunkSize); err != nil {
				b.Fatal(err)
			}
			b.ReportAllocs()
			var c uint64
			for b.Loop() {
				c++
				if err := s.RunChunk(1, c, sim.ChunkSize); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.N)*sim.ChunkSize/b.Elapsed().Seconds(), "trials/s")
		})
	}
}
