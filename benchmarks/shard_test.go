package benchmarks

import (
	"context"
	"fmt"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/study"
	"github.com/oddsmith/oddsmith/systems"
)

// BenchmarkShards compares one 2-worker simulation of n trials of
// ag.skill_test with 4 shards of n/4 (one after another, 2 workers each:
// the "4 shards of 10⁹ merged vs one run of 4·10⁹", scaled down),
// each shard encoded to its file's bytes and read back, merged and
// summarized. The two must be within 10% (trials/s).
func BenchmarkShards(b *testing.B) {
	notInQuickSet(b)
	const n = 400_000_000
	m, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		b.Fatal(err)
	}
	c, err := m.Configure([]string{"skill=2", "attribute=2", "tn=5"})
	if err != nil {
		b.Fatal(err)
	}
	e := study.Engine{Kind: "sim", Trials: n, Seed: 1, Workers: 2}
	ctx := context.Background()
	b.Run("mode=single", func(b *testing.B) {
		for b.Loop() {
			if _, err := e.Run(ctx, m, c); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "trials/s")
	})
	b.Run("mode=shards4", func(b *testing.B) {
		for b.Loop() {
			var files []*study.ShardFile
			var names []string
			for i := range 4 {
				sh := study.Shard{Index: i, Count: 4}
				total := sim.Chunks(n)
				f, l := sh.Range(total)
				p, err := study.SimShard(ctx, e, m, c, f, l)
				if err != nil {
					b.Fatal(err)
				}
				h := study.ShardHeader{Version: mechanics.Version, Kind: "sim", Seed: 1, Trials: n, ChunkSize: sim.ChunkSize,
					Unit: "chunks", Total: total, Shard: i, Of: 4, First: f, Last: l}
				h.Fingerprint = study.RunFingerprint(h, []string{p.Key})
				data, err := (&study.ShardFile{Header: h, Points: []study.ShardPoint{p}}).Encode()
				if err != nil {
					b.Fatal(err)
				}
				name := fmt.Sprint("s", i)
				sf, err := study.ReadShard(name, data)
				if err != nil {
					b.Fatal(err)
				}
				files, names = append(files, sf), append(names, name)
			}
			merged, err := study.MergeShards(names, files)
			if err != nil {
				b.Fatal(err)
			}
			if _, err := merged.Result(ctx, e, m, c); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "trials/s")
	})
}
