package benchmarks

import (
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
	_ "github.com/oddsmith/oddsmith/mechanics/grim"
	"github.com/oddsmith/oddsmith/sim"
)

func TestTP(t *testing.T) {
	type r struct{ id string; rate float64 }
	var rs []r
	for _, m := range mechanics.All() {
		spec, err := m.Build(m.DefaultConfig())
		if err != nil { t.Fatal(err) }
		s, err := sim.NewSampler(spec)
		if err != nil { t.Fatal(err) }
		s.RunChunk(1, 0, 1<<12)
		start := time.Now(); n := 0
		for c := uint64(1); time.Since(start) < 200*time.Millisecond; c++ { s.RunChunk(1, c, 1<<14); n += 1 << 14 }
		rs = append(rs, r{m.ID, float64(n) / time.Since(start).Seconds()})
	}
	sort.Slice(rs, func(i, j int) bool { return rs[i].rate < rs[j].rate })
	for _, x := range rs { fmt.Printf("%-28s %8.2f M/s\n", x.id, x.rate/1e6) }
}
