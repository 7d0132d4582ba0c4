package benchmarks

import (
	"context"
	"io"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
	"github.com/oddsmith/oddsmith/study"
	"github.com/oddsmith/oddsmith/systems"
)

// BenchmarkCompare measures what `oddsmith compare` adds to the two exact
// runs it makes (the goal: under 5 ms). mode=runs is the two runs
// alone; mode=compare is the whole comparison as the command makes it
// (both models checked, both runs, the results lined up and written as
// text, CSV and JSON); mode=lineup is the lining up and the writing
// alone; mode=png draws the overlay and the difference PNG (-o only).
func BenchmarkCompare(b *testing.B) {
	ctx := context.Background()
	side := func(m *mechanics.Mechanic, set ...string) study.CompareSide {
		c, err := m.Configure(set)
		if err != nil {
			b.Fatal(err)
		}
		return study.CompareSide{Mechanic: m, Config: c}
	}
	ag, err := systems.Default.Lookup("ag.skill_test")
	if err != nil {
		b.Fatal(err)
	}
	expr := func(src string) *mechanics.Mechanic {
		r, err := rules.FromExpr(src)
		if err != nil {
			b.Fatal(err)
		}
		return r.Mechanic()
	}
	tasks := []struct {
		name string
		a, b study.CompareSide
	}{
		{"ag_skill3_tn5_vs_tn6", side(ag, "skill=3"), side(ag, "skill=3", "tn=6")},
		{"sum_100d6_vs_100d6+5", side(expr("100d6")), side(expr("100d6 + 5"))},
	}
	for _, task := range tasks {
		c := &study.Compare{A: task.a, B: task.b, Engine: study.Engine{Kind: engine.Exact}}
		b.Run("task="+task.name+"/mode=runs", func(b *testing.B) {
			for b.Loop() {
				for _, s := range []study.CompareSide{c.A, c.B} {
					if _, err := c.Engine.Run(ctx, s.Mechanic, s.Config); err != nil {
						b.Fatal(err)
					}
				}
			}
		})
		b.Run("task="+task.name+"/mode=compare", func(b *testing.B) {
			for b.Loop() {
				c := &study.Compare{A: task.a, B: task.b, Engine: study.Engine{Kind: engine.Exact}}
				rep, err := c.Run(ctx)
				if err != nil {
					b.Fatal(err)
				}
				writeAll(b, rep)
			}
		})
		rep, err := c.Run(ctx)
		if err != nil {
			b.Fatal(err)
		}
		b.Run("task="+task.name+"/mode=lineup", func(b *testing.B) {
			for b.Loop() {
				r := &reports.CompareReport{Comparison: engine.Compare(rep.A, rep.B), LabelA: rep.LabelA, LabelB: rep.LabelB}
				writeAll(b, r)
			}
		})
		b.Run("task="+task.name+"/mode=png", func(b *testing.B) {
			p := &reports.ComparePlot{CompareReport: rep}
			for b.Loop() {
				if err := reports.WriteCompareOverlay(io.Discard, p); err != nil {
					b.Fatal(err)
				}
				if err := reports.WriteCompareDiff(io.Discard, p); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func writeAll(b *testing.B, r *reports.CompareReport) {
	for _, f := range reports.CompareFormats {
		if err := reports.WriteCompare(io.Discard, r, f); err != nil {
			b.Fatal(err)
		}
	}
}
