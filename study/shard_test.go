package study

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/systems"
)

func TestParseShard(t *testing.T) {
	t.Parallel()
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	for _, c := range []struct {
		s    string
		env  func(string) string
		want Shard
		err  string
	}{
		{s: "0/1", want: Shard{0, 1, ""}},
		{s: "6/7", want: Shard{6, 7, ""}},
		{s: "auto/4", env: env("SLURM_ARRAY_TASK_ID", "3"), want: Shard{3, 4, "SLURM_ARRAY_TASK_ID"}},
		{s: "auto/4", env: env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_MIN", "1"), want: Shard{3, 4, "SLURM_ARRAY_TASK_ID − SLURM_ARRAY_TASK_MIN"}},
		// Slurm first: a job array inside a Kubernetes pod is Slurm's.
		{s: "auto/4", env: env("JOB_COMPLETION_INDEX", "1", "SLURM_ARRAY_TASK_ID", "2"), want: Shard{2, 4, "SLURM_ARRAY_TASK_ID"}},
		{s: "auto/4", env: env("JOB_COMPLETION_INDEX", "1"), want: Shard{1, 4, "JOB_COMPLETION_INDEX"}},
		{s: "auto/4", env: env("AWS_BATCH_JOB_ARRAY_INDEX", "2"), want: Shard{2, 4, "AWS_BATCH_JOB_ARRAY_INDEX"}},
		// Issue 27: a variable with spaces, a sign or another base is
		// damaged, not an index to guess at.
		{s: "auto/4", env: env("AWS_BATCH_JOB_ARRAY_INDEX", " 2 "), err: `AWS_BATCH_JOB_ARRAY_INDEX=" 2 " is not a whole number`},
		{s: "auto/4", env: env("SLURM_ARRAY_TASK_ID", " 1"), err: `SLURM_ARRAY_TASK_ID=" 1" is not a whole number`},
		{s: "auto/4", env: env("SLURM_ARRAY_TASK_ID", "+1"), err: `SLURM_ARRAY_TASK_ID="+1" is not a whole number`},
		{s: "auto/4", env: env("SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_MIN", "0x1"), err: `SLURM_ARRAY_TASK_MIN="0x1" is not a whole number`},
		{s: "auto/4", env: env("SLURM_ARRAY_TASK_ID", "0", "SLURM_ARRAY_TASK_MIN", "1"), err: "gives index -1, outside 0..3"},
		{s: "auto/4", env: env("BATCH_TASK_INDEX", "0"), want: Shard{0, 4, "BATCH_TASK_INDEX"}},
		{s: "auto/4", env: env(), err: "no array index in the environment"},
		{s: "auto/4", env: env("BATCH_TASK_INDEX", "-1"), err: `BATCH_TASK_INDEX="-1" is not a whole number`},
		{s: "auto/4", env: env("BATCH_TASK_INDEX", "one"), err: `BATCH_TASK_INDEX="one" is not a whole number`},
		{s: "4/4", err: "i must be a whole number from 0 to 3"},
		{s: "-1/4", err: "i must be a whole number from 0 to 3"},
		{s: "1/0", err: "K must be a whole number from 1"},
		{s: "1/x", err: "K must be a whole number from 1"},
		{s: "3", err: "want i/K"},
	} {
		t.Run(c.s, func(t *testing.T) {
			t.Parallel()
			getenv := c.env
			if getenv == nil {
				getenv = env()
			}
			got, err := ParseShard(c.s, getenv)
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) || !mechanics.IsInput(err) {
					t.Errorf("ParseShard(%q) = %v, %v; want bad input %q", c.s, got, err, c.err)
				}
				return
			}
			if err != nil || got != c.want {
				t.Errorf("ParseShard(%q) = %+v, %v; want %+v", c.s, got, err, c.want)
			}
		})
	}
}

// TestShardRange: the K ranges are contiguous, disjoint and cover 0..total,
// sizes within one of each other.
func TestShardRange(t *testing.T) {
	t.Parallel()
	for total := int64(0); total < 40; total++ {
		for k := 1; k <= 9; k++ {
			next := int64(0)
			for i := range k {
				f, l := Shard{Index: i, Count: k}.Range(total)
				if f != next || l < f || l-f < total/int64(k) || l-f > total/int64(k)+1 {
					t.Fatalf("total %d, shard %d/%d: range %d..%d after %d", total, i, k, f, l, next)
				}
				next = l
			}
			if next != total {
				t.Fatalf("total %d, K %d: ranges end at %d", total, k, next)
			}
		}
	}
}

// TestSimulateChunks: the counts of disjoint chunk ranges, merged, are the
// counts of one run, for every part of a model.
func TestSimulateChunks(t *testing.T) {
	t.Parallel()
	m, c, err := systems.Default.Configure("grim.instability", nil)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := m.Model(c)
	if err != nil {
		t.Fatal(err)
	}
	opt := sim.Options{Trials: 3*sim.ChunkSize + 5, Seed: 11, Workers: 2}
	if testing.Short() {
		opt.Trials = sim.ChunkSize + 5 // 2 chunks
	}
	want := make([]sim.Hist, len(spec.Parts()))
	for i, part := range spec.Parts() {
		po := opt
		po.Seed = sim.PartSeed(opt.Seed, i)
		if want[i], err = sim.Outcomes(context.Background(), part, po); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprintf("K=%d", k), func(t *testing.T) {
			t.Parallel()
			got := make([]sim.Hist, len(want))
			for i := range k {
				f, l := Shard{Index: i, Count: k}.Range(sim.Chunks(opt.Trials))
				hs, err := sim.SimulateChunks(context.Background(), spec, sim.Options{Trials: opt.Trials, Seed: opt.Seed, Workers: 1}, f, l)
				if err != nil {
					t.Fatal(err)
				}
				for j := range hs {
					got[j].Merge(hs[j])
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("merged counts %v; one run %v", got, want)
			}
		})
	}
}

// testShards makes the shards of a small simulation.
func testShards(t testing.TB, k int, seed uint64) []*ShardFile {
	m, c, err := systems.Default.Configure("ag.skill_test", []string{"skill=2"})
	if err != nil {
		t.Fatal(err)
	}
	e := Engine{Kind: engine.Sim, Trials: 4*sim.ChunkSize + 3, Seed: seed, Workers: 1}
	total := sim.Chunks(e.Trials)
	var out []*ShardFile
	for i := range k {
		sh := Shard{Index: i, Count: k}
		f, l := sh.Range(total)
		p, err := SimShard(context.Background(), e, m, c, f, l)
		if err != nil {
			t.Fatal(err)
		}
		h := ShardHeader{Version: mechanics.Version, Kind: "sim", Args: []string{"ag.skill_test", "--set=skill=2"}, What: m.ID,
			Seed: seed, Trials: e.Trials, ChunkSize: sim.ChunkSize, Unit: "chunks", Total: total, Shard: i, Of: k, First: f, Last: l}
		h.Fingerprint = RunFingerprint(h, []string{p.Key})
		out = append(out, &ShardFile{Header: h, Points: []ShardPoint{p}})
	}
	return out
}

func encode(t testing.TB, f *ShardFile) []byte {
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestShardFileRoundTrip(t *testing.T) {
	t.Parallel()
	for _, f := range testShards(t, 3, 1) {
		b := encode(t, f)
		if !bytes.Equal(b, encode(t, f)) {
			t.Fatal("encoding a shard twice gave different bytes")
		}
		got, err := ReadShard("s", b)
		if err != nil {
			t.Fatal(err)
		}
		want := *f
		want.Header.Format, want.Header.PayloadBytes = ShardFormat, got.Header.PayloadBytes
		if !reflect.DeepEqual(got.Header, want.Header) || !reflect.DeepEqual(got.Points[0].Counts, f.Points[0].Counts) {
			t.Errorf("round trip: %+v; want %+v", got, want)
		}
		// Every truncation and every flipped bit is refused as bad input.
		for n := range len(b) {
			if _, err := ReadShard("s", b[:n]); err == nil || !mechanics.IsInput(err) {
				t.Fatalf("truncated to %d bytes: %v", n, err)
			}
		}
		for i := 0; i < len(b); i += 7 {
			c := bytes.Clone(b)
			c[i] ^= 0x10
			if _, err := ReadShard("s", c); err == nil || !mechanics.IsInput(err) {
				t.Fatalf("byte %d flipped: %v", i, err)
			}
		}
	}
}

func TestMergeShards(t *testing.T) {
	t.Parallel()
	k3 := testShards(t, 3, 1)
	names := []string{"a", "b", "c"}
	m, err := MergeShards(names, k3)
	if err != nil {
		t.Fatal(err)
	}
	if m.Trials() != 4*sim.ChunkSize+3 {
		t.Errorf("merged %d trials", m.Trials())
	}
	k2 := testShards(t, 2, 1)
	for _, c := range []struct {
		names  []string
		shards []*ShardFile
		want   string
	}{
		{nil, nil, "merge needs the shard files"},
		{[]string{"a", "b"}, []*ShardFile{k3[0], testShards(t, 3, 2)[1]}, "a and b are shards of different runs (seed 1 and seed 2"},
		{[]string{"a", "b", "c", "d"}, []*ShardFile{k3[0], k3[1], k3[2], k3[1]}, "shard 1/3 is given twice (b and d)"},
		{[]string{"a", "b", "c"}, []*ShardFile{k3[0], k2[0], k3[2]}, "b (chunks 0–1) overlaps a"},
		{[]string{"x", "y"}, []*ShardFile{k2[0], k3[2]}, "missing shards: no shard holds chunk 2"},
		{[]string{"a", "c"}, []*ShardFile{k3[0], k3[2]}, "missing shard 1/3 (chunks 1–2)"},
	} {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			_, err := MergeShards(c.names, c.shards)
			if err == nil || !strings.Contains(err.Error(), c.want) || !mechanics.IsInput(err) {
				t.Errorf("%v: %v; want bad input %q", c.names, err, c.want)
			}
		})
	}
}

// withChecksum wraps a body in a shard file's first line and checksum, so
// that the fuzzer reaches the header and payload decoders.
func withChecksum(body []byte) []byte {
	b := append([]byte(fmt.Sprintf("%s%d\n", ShardMagic, ShardFormat)), body...)
	sum := sha256.Sum256(b)
	return append(b, "sha256:"+hex.EncodeToString(sum[:])+"\n"...)
}

// FuzzReadShard: no bytes make the reader panic; a file it accepts
// encodes again to a file it accepts with the same contents.
func FuzzReadShard(f *testing.F) {
	for _, s := range testShards(f, 2, 1) {
		b := encode(f, s)
		f.Add(b)
		f.Add(b[len(ShardMagic)+2 : len(b)-trailerLen])
	}
	f.Add([]byte{})
	f.Add([]byte(ShardMagic + "1\n{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, b := range [][]byte{data, withChecksum(data)} {
			sf, err := ReadShard("fuzz", b)
			if err != nil {
				if !mechanics.IsInput(err) {
					t.Fatalf("an error that is not bad input: %v", err)
				}
				continue
			}
			again, err := ReadShard("again", encode(t, sf))
			if err != nil {
				t.Fatalf("re-encoded shard refused: %v", err)
			}
			if !reflect.DeepEqual(again.Points, sf.Points) {
				t.Fatalf("re-encoded shard differs")
			}
		}
	})
}
