package benchmarks

import (
	"testing"

	"github.com/oddsmith/oddsmith/systems"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
)

// configured looks a mechanic up and applies settings to its defaults.
func configured(tb testing.TB, id string, sets ...string) (*mechanics.Mechanic, mechanics.Config) {
	m, err := systems.Default.Lookup(id)
	if err != nil {
		tb.Fatal(err)
	}
	c, err := m.Configure(sets)
	if err != nil {
		tb.Fatal(err)
	}
	return m, c
}

// BenchmarkBDExact: the bursting-dice workloads of the exact engine, each a
// whole mechanic (model, distributions with truncation, every output) —
// d20 + 5d20! against a VS (goal ≤ 1 ms) and the damage track of a creature
// with Durability 60 and Health 40 (goal ≤ 1 s).
//
//	go test ./benchmarks -run '^$' -bench BDExact
func BenchmarkBDExact(b *testing.B) {
	for _, task := range []struct {
		name, id string
		sets     []string
	}{
		{"d20+5d20!_vs_60", "bd.core.check", []string{"k=5", "rank=20", "vs=60"}},
		{"d20+2d10!_attack", "bd.attack", nil},
		{"defense_2d10!_vs_2d10!", "bd.defense", nil},
		{"track_60x40", "bd.track", []string{"durability=60", "health=40"}},
		{"track_200x200", "bd.track", []string{"durability=200", "health=200", "rounds=100"}},
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

// BenchmarkBDSim: bd.attack simulated on one core (goal ≥ 50 M trials/s),
// with more and larger bursting dice beside it.
//
//	go test ./benchmarks -run '^$' -bench BDSim
func BenchmarkBDSim(b *testing.B) {
	for _, task := range []struct {
		name, id string
		sets     []string
	}{
		{"attack_d20+2d10!", "bd.attack", nil},
		{"attack_d20+5d20!", "bd.attack", []string{"k=5", "rank=20"}},
		{"check_d20+2d10!", "bd.check", nil},
		{"damage_d8+3d10!", "bd.damage", []string{"k_b=3"}},
	} {
		b.Run("task="+task.name, func(b *testing.B) {
			m, c := configured(b, task.id, task.sets...)
			spec, err := m.Model(c)
			if err != nil {
				b.Fatal(err)
			}
			simSpec(b, spec)
		})
	}
}
