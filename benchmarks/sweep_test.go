package benchmarks

import (
	"bytes"
	"context"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
	"github.com/oddsmith/oddsmith/systems"
)

// BenchmarkSweep runs the exact sweep of ag.skill_test over skill 0..39 ×
// tn 1..40 (1 600 points), with the default metric, with four metrics of
// every kind read per point (a probability, a quantile, an SD, a band)
// and their differences along skill, and renders the text table of the
// latter: what reading metrics and differences adds to a sweep.
func BenchmarkSweep(b *testing.B) {
	m, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		b.Fatal(err)
	}
	sweep := func(metrics []string, delta string) *study.Sweep {
		sk, _ := study.ParseAxis("skill=0..39")
		tn, _ := study.ParseAxis("tn=1..40")
		return &study.Sweep{Mechanic: m, Base: m.DefaultConfig(), Axes: []study.Axis{sk, tn},
			Engine: study.Engine{Kind: engine.Exact}, Metrics: metrics, Delta: delta}
	}
	four := []string{"p:total<=8", "quantile:total:0.9", "sd:mos", "band:mos_band:yes (MoS=2)"}
	ctx := context.Background()
	for _, c := range []struct {
		name    string
		metrics []string
		delta   string
	}{{"metrics=default", nil, ""}, {"metrics=4+delta", four, "skill"}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := sweep(c.metrics, c.delta).Run(ctx, nil); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(1600*float64(b.N)/b.Elapsed().Seconds(), "points/s")
		})
	}
	s := sweep(four, "skill")
	pts, err := s.Run(ctx, nil)
	if err != nil {
		b.Fatal(err)
	}
	rep := s.Report(pts, "")
	b.Run("table=text", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			if err := reports.WriteSweepTable(&buf, rep); err != nil {
				b.Fatal(err)
			}
		}
	})
}
