package benchmarks

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/systems"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
)

// chunk is the number of trials one benchmark op simulates.
const chunk = 1 << 14

// simSpec simulates a single-part model on one core, chunk trials an op
// (one warm-up chunk first), and reports trials per second.
func simSpec(b *testing.B, spec *mechanics.Spec) {
	s, err := sim.NewSampler(spec)
	if err != nil {
		b.Fatal(err)
	}
	if err := s.RunChunk(1, 0, chunk); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	var n uint64
	for b.Loop() {
		n++
		if err := s.RunChunk(1, n, chunk); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)*chunk/b.Elapsed().Seconds(), "trials/s")
}

// samplers compiles every part of a mechanic's model at its defaults (one
// trial of the mechanic is one trial of each part).
func samplers(tb testing.TB, m *mechanics.Mechanic) []*sim.Sampler {
	ss, err := samplersAt(m, m.DefaultConfig())
	if err != nil {
		tb.Fatal(err)
	}
	return ss
}

// samplersAt compiles every part of a mechanic's model at c and runs one
// small chunk of each.
func samplersAt(m *mechanics.Mechanic, c mechanics.Config) ([]*sim.Sampler, error) {
	spec, err := m.Model(c)
	if err != nil {
		return nil, err
	}
	var out []*sim.Sampler
	for i, part := range spec.Parts() {
		s, err := sim.NewSampler(part)
		if err != nil {
			return nil, err
		}
		if err := s.RunChunk(sim.PartSeed(1, i), 0, 64); err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
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
// docs/performance.md lists the ten slowest.
//
//	go test ./benchmarks -run '^$' -bench SimMechanic -benchtime 300ms
func BenchmarkSimMechanic(b *testing.B) {
	notInQuickSet(b)
	for _, m := range systems.Default.All() {
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

// topConfig is the mechanic's defaults with every parameter moved to the top
// of its range, one after another, keeping each move whose model still
// builds and simulates (a few tops together exceed a limit or a budget).
func topConfig(tb testing.TB, m *mechanics.Mechanic) (mechanics.Config, []string) {
	c := m.DefaultConfig()
	var set []string
	for _, p := range m.Params {
		if p.Max == p.Default {
			continue
		}
		kv := fmt.Sprintf("%s=%g", p.Name, p.Max)
		try, err := m.Configure(append(append([]string(nil), set...), kv))
		if err != nil {
			continue
		}
		if _, err := samplersAt(m, try); err != nil {
			continue
		}
		c, set = try, append(set, kv)
	}
	return c, set
}

// BenchmarkSimMechanicTop simulates every registered mechanic with its
// parameters at the top of their ranges (see topConfig; the sub-benchmark
// logs the settings), on one core, as trials/s.
//
//	go test ./benchmarks -run '^$' -bench SimMechanicTop -benchtime 300ms -v
func BenchmarkSimMechanicTop(b *testing.B) {
	notInQuickSet(b)
	for _, m := range systems.Default.All() {
		b.Run("task="+m.ID, func(b *testing.B) {
			c, set := topConfig(b, m)
			b.Log(strings.Join(set, " "))
			ss, err := samplersAt(m, c)
			if err != nil {
				b.Fatal(err)
			}
			runChunk(b, ss, 0, chunk)
			b.ReportAllocs()
			var n uint64
			for b.Loop() {
				n++
				runChunk(b, ss, n, chunk)
			}
			b.ReportMetric(float64(b.N)*chunk/b.Elapsed().Seconds(), "trials/s")
		})
	}
}

// TestEveryMechanicSimulates runs one small chunk of every mechanic at its
// defaults, so a broken benchmark workload fails the ordinary tests.
func TestEveryMechanicSimulates(t *testing.T) {
	for _, m := range systems.Default.All() {
		runChunk(t, samplers(t, m), 0, 1000)
	}
}
