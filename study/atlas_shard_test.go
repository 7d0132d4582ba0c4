package study

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/systems"
)

// chartShardPlan is a small plan with every kind of chart panel and every
// option of a lines series (centre, diff, xmetric, xmechanic, xset, yscale,
// marks, a simulated series), pmf exact and simulated, and a validation
// panel with derived and given seeds, beside an analysis and an overlay
// whose points the charts share.
func chartShardPlan(t *testing.T) *Plan {
	t.Helper()
	const file = "testdata/charts_shard.toml"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePlan(systems.Default, file, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// recorder is a PointSource that computes each point with its engine and
// records what was asked for.
type recorder struct {
	mu   sync.Mutex
	keys map[string]bool
}

func (r *recorder) Result(ctx context.Context, e Engine, m *mechanics.Mechanic, c mechanics.Config) (*engine.Result, error) {
	r.mu.Lock()
	r.keys[Point{Engine: e, Mechanic: m, Config: c}.Key()] = true
	r.mu.Unlock()
	e.Source = nil
	return e.Run(ctx, m, c)
}

// TestChartShardPoints: a plan with charts lists its points for shards, no
// point twice, and they are exactly the points a run asks for (no point
// missing from the shards, none computed for nothing).
func TestChartShardPoints(t *testing.T) {
	t.Parallel()
	plans := map[string]*Plan{"charts_shard.toml": chartShardPlan(t)}
	atlas := atlasPlan(t)
	if _, err := atlas.ShardPoints(); err != nil {
		t.Fatalf("the atlas (charts only): %v", err)
	}
	if !testing.Short() {
		plans["atlas"] = atlas
	}
	for name, p := range plans {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			pts, err := p.ShardPoints()
			if err != nil {
				t.Fatal(err)
			}
			listed := map[string]bool{}
			for _, pt := range pts {
				k := pt.Key()
				if listed[k] {
					t.Errorf("point %s listed twice", k)
				}
				listed[k] = true
			}
			again, err := p.ShardPoints()
			if err != nil {
				t.Fatal(err)
			}
			if !slices.EqualFunc(pts, again, func(a, b Point) bool { return a.Key() == b.Key() }) {
				t.Errorf("the point list is not the same twice")
			}
			rec := &recorder{keys: map[string]bool{}}
			if _, err = RunPlan(context.Background(), p.withSource(rec), filepath.Join(t.TempDir(), "out"), nil); err != nil {
				t.Fatal(err)
			}
			for k := range rec.keys {
				if !listed[k] {
					t.Errorf("the run asks for %s, which the shards would not hold", k)
				}
			}
			for k := range listed {
				if !rec.keys[k] {
					t.Errorf("%s is listed for the shards but the run never asks for it", k)
				}
			}
		})
	}
}

// runSharded runs p's points as k shards (each encoded and read back as a
// shard file), merges them and writes the plan's bundle from the merged
// results into dir.
func runSharded(t *testing.T, p *Plan, k int, dir string) {
	t.Helper()
	pts, err := p.ShardPoints()
	if err != nil {
		t.Fatal(err)
	}
	var shards []*ShardFile
	var names []string
	for i := range k {
		sh := Shard{Index: i, Count: k}
		first, last := sh.Range(int64(len(pts)))
		sps, err := RunPoints(context.Background(), pts[first:last], nil)
		if err != nil {
			t.Fatal(err)
		}
		h := ShardHeader{Version: mechanics.Version, Kind: "run", Fingerprint: "test", What: "plan", Seed: uint64(p.Seed),
			Trials: p.Trials, ChunkSize: sim.ChunkSize, Unit: "points", Total: int64(len(pts)), Shard: i, Of: k, First: first, Last: last}
		name := fmt.Sprintf("s.%d-of-%d", i, k)
		f, err := ReadShard(name, encode(t, &ShardFile{Header: h, Points: sps}))
		if err != nil {
			t.Fatal(err)
		}
		shards, names = append(shards, f), append(names, name)
	}
	m, err := MergeShards(names, shards)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := RunPlan(context.Background(), p.withSource(m), dir, nil); err != nil {
		t.Fatalf("K=%d: %v", k, err)
	}
}

// withSource is a copy of p that takes its results from src: tests that
// share a plan run it side by side, each with its own source.
func (p *Plan) withSource(src PointSource) *Plan {
	q := *p
	q.Source = src
	return &q
}

// sameBundle fails unless two bundles hold the same files, byte for byte.
func sameBundle(t *testing.T, want, got string) {
	t.Helper()
	names := func(d string) []string {
		es, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var n []string
		for _, e := range es {
			n = append(n, e.Name())
		}
		return n
	}
	wn, gn := names(want), names(got)
	if !slices.Equal(wn, gn) {
		t.Fatalf("%s has files %v; %s %v", got, gn, want, wn)
	}
	for _, n := range wn {
		a, err := os.ReadFile(filepath.Join(want, n))
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(filepath.Join(got, n))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("%s differs between the single run and the merge (%s)", n, got)
		}
	}
}

// TestChartShardMerge: the shards of a plan with charts, merged, write the
// bytes of a single run (PNG, CSV, index.md) for K ∈ {1, 2, 3, 7}: the
// small plan with every panel kind, and the atlas in full mode.
func TestChartShardMerge(t *testing.T) {
	t.Parallel()
	plans := map[string]*Plan{"charts_shard": chartShardPlan(t)}
	if !testing.Short() {
		plans["atlas"] = atlasPlan(t)
	}
	for name, p := range plans {
		dir := t.TempDir()
		single := filepath.Join(dir, "single")
		if _, err := RunPlan(context.Background(), p, single, nil); err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{1, 2, 3, 7} {
			t.Run(fmt.Sprintf("%s/K=%d", name, k), func(t *testing.T) {
				t.Parallel()
				out := filepath.Join(dir, fmt.Sprintf("merged%d", k))
				runSharded(t, p, k, out)
				sameBundle(t, single, out)
			})
		}
	}
}
