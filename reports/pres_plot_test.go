package reports

import (
	"bytes"
	"fmt"
	"math"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/vg"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// binomialVar is a variable whose PMF is Binomial(n, q), on the lattice
// (lo+i)/den.
func binomialVar(name, unit string, n int, q float64, lo, den int) engine.VarResult {
	p := make([]float64, n+1)
	mean := 0.0
	for k := 0; k <= n; k++ {
		lg, _ := math.Lgamma(float64(n + 1))
		la, _ := math.Lgamma(float64(k + 1))
		lb, _ := math.Lgamma(float64(n - k + 1))
		p[k] = math.Exp(lg - la - lb + float64(k)*math.Log(q) + float64(n-k)*math.Log(1-q))
		mean += p[k] * float64(lo+k) / float64(max(den, 1))
	}
	sd := math.Sqrt(float64(n)*q*(1-q)) / float64(max(den, 1))
	return engine.VarResult{Name: name, Unit: unit, Lo: lo, Den: den, P: p,
		Stats: engine.Stats{Mean: mean, SD: sd}}
}

func withVar(v engine.VarResult) *engine.Result {
	r := sample(engine.Exact)
	r.Mechanic = "ag.fall_damage"
	r.Params = []mechanics.NamedValue{{Name: "height", Value: 9}, {Name: "athletics", Value: 2}, {Name: "agility", Value: 2},
		{Name: "modifier", Value: 0}, {Name: "head_first", Value: 0}, {Name: "flesh", Value: 5}, {Name: "deep", Value: 10}, {Name: "critical", Value: 20}}
	r.Options = []mechanics.NamedString{{Name: "ag.core.opt.crit_count", Value: "extra_copies"}, {Name: "ag.core.opt.fumble_crit", Value: "suppress"},
		{Name: "ag.core.opt.unskilled_crit", Value: "apply"}, {Name: "ag.core.opt.tie", Value: "band"}, {Name: "ag.fall_damage.surface", Value: "concrete"},
		{Name: "ag.fall_damage.opt.dv_per_3m", Value: "floor"}, {Name: "ag.fall_damage.opt.cap_order", Value: "cap_after_reduction"},
		{Name: "ag.fall_damage.opt.rounding", Value: "exact_fraction"}, {Name: "ag.fall_damage.opt.feet_rule", Value: "strictly_greater"},
		{Name: "ag.fall_damage.opt.damage_roll", Value: "two_dice_keep_high_with_crit"}, {Name: "ag.fall_damage.opt.athletics", Value: "always_rolled"}}
	r.Vars = []engine.VarResult{v}
	return r
}

// TestPresentationPlots draws every kind of plot in the cases that broke
// before: lattice and long supports, many sweep points, identical series,
// a one-point sweep, long captions. With ODDSMITH_PLOT_DIR set they are
// saved there to be looked at.
func TestPresentationPlots(t *testing.T) {
	t.Parallel()
	halves := withVar(binomialVar("damage", "wounds", 14, 0.4, -3, 2))
	thirds := withVar(binomialVar("damage", "wounds", 9, 0.5, 2, 3))
	long := withVar(binomialVar("damage", "wounds", 400, 0.3, 0, 1))
	tn := func(skill float64) []XY {
		var xy []XY
		for x := 1.0; x <= 20; x++ {
			xy = append(xy, XY{X: x, Y: math.Max(0, math.Min(1, (21-x+skill)/20))})
		}
		return xy
	}
	var heights []string
	var rs []*engine.Result
	for h := 0; h <= 40; h += 2 {
		heights = append(heights, fmt.Sprintf("height=%d", h))
		r := sample(engine.Exact)
		q := math.Min(1, float64(h)/30)
		r.Bands[0].Labels = []string{"none (scrapes)", "flesh", "deep", "critical"}
		r.Bands[0].P = []float64{(1 - q) * (1 - q) * (1 - q), 3 * q * (1 - q) * (1 - q), 3 * q * q * (1 - q), q * q * q}
		rs = append(rs, r)
	}
	var longLabels, prefixed []string
	for i := range rs {
		longLabels = append(longLabels, fmt.Sprintf("%s/%s tie=%d", []string{"extra_copies", "repeated_faces", "kept_only"}[i%3], []string{"suppress", "stack"}[i%2], i))
		prefixed = append(prefixed, fmt.Sprintf("grim check with attribute +%d", i))
	}
	xs, ys := []float64{0, 1, 2, 3, 4, 5, 6, 7, 8}, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14}
	z := make([][]float64, len(ys))
	zm := make([][]float64, len(ys))
	for r, y := range ys {
		for _, x := range xs {
			z[r] = append(z[r], 1/(1+math.Exp(y-5-x)))
			zm[r] = append(zm[r], 3*x+y*y/4)
		}
	}
	runPlots(t, []plotCase{
		{"pres_pmf_halves", func(b *bytes.Buffer) error { return WritePMF(b, halves, &halves.Vars[0]) }},
		{"pres_pmf_thirds", func(b *bytes.Buffer) error { return WritePMF(b, thirds, &thirds.Vars[0]) }},
		{"pres_pmf_long", func(b *bytes.Buffer) error { return WritePMF(b, long, &long.Vars[0]) }},
		{"pres_atleast_halves", func(b *bytes.Buffer) error { return WriteAtLeast(b, halves, &halves.Vars[0]) }},
		{"pres_atleast_long", func(b *bytes.Buffer) error { return WriteAtLeast(b, long, &long.Vars[0]) }},
		{"pres_bands_21", func(b *bytes.Buffer) error {
			return WriteBands(b, "ag.fall_damage — category by height", Caption(long), heights, rs, "mos_band")
		}},
		{"pres_bands_long_labels", func(b *bytes.Buffer) error {
			return WriteBands(b, "grim — category by attribute", "", longLabels, rs, "mos_band")
		}},
		{"pres_bands_prefixed", func(b *bytes.Buffer) error {
			return WriteBands(b, "grim — category by attribute", "", prefixed, rs, "mos_band")
		}},
		{"pres_bands_many_labels", func(b *bytes.Buffer) error {
			var many []*engine.Result
			for i := 0; i < 6; i++ {
				r := sample(engine.Exact)
				r.Bands[0].Labels, r.Bands[0].P = nil, nil
				for k := 0; k < 31; k++ {
					r.Bands[0].Labels = append(r.Bands[0].Labels, fmt.Sprintf("gap %d", k-15))
					r.Bands[0].P = append(r.Bands[0].P, math.Exp(-math.Abs(float64(k-15-2*i))/3)/5.3)
				}
				many = append(many, r)
			}
			return WriteBands(b, "ag.chase — final_state by speed", "", []string{"speed=1", "speed=2", "speed=3", "speed=4", "speed=5", "speed=6"}, many, "mos_band")
		}},
		{"pres_bands_one", func(b *bytes.Buffer) error {
			return WriteBands(b, "ag.fall_damage — category", "", []string{"ag_fall_9m"}, rs[3:4], "mos_band")
		}},
		{"pres_lines_overlay", func(b *bytes.Buffer) error {
			return WriteLines(b, &Lines{Title: "core_roll_vs_difficulty", XLabel: "target number", Metric: "event:success",
				Caption: "ag skill 3 + attribute 2: ag.skill_test  grim check, attribute +3: grim.core.check  grim attack, COR +3: grim.core.attack", Series: []Series{
					{Name: "ag skill 3 + attribute 2", XY: tn(-6)},
					{Name: "grim check, attribute +3", XY: tn(3), Metric: "event:success"},
					{Name: "grim attack, COR +3", XY: tn(3), Metric: "event:hit"}}})
		}},
		{"pres_lines_sweep_one_point", func(b *bytes.Buffer) error {
			return WriteLines(b, &Lines{Title: "grim.core.attack — event:hit", XLabel: "attribute", Metric: "event:hit", Caption: Caption(sample(engine.Exact)),
				Series: []Series{{Name: "event:hit", XY: []XY{{X: 3, Y: 0.55}}}}})
		}},
		{"pres_lines_mean", func(b *bytes.Buffer) error {
			return WriteLines(b, &Lines{Title: "falls_ag_vs_grim", XLabel: "metres fallen", Metric: "mean:damage", Caption: "ag: ag.fall_damage  grim: grim.fall", Series: []Series{
				{Name: "ag, concrete", XY: []XY{{X: 0, Y: 0}, {X: 30, Y: 70}, {X: 60, Y: 92}}, Unit: "wounds"},
				{Name: "grim, hard", XY: []XY{{X: 0, Y: 0}, {X: 30, Y: 10}, {X: 60, Y: 31}}}}})
		}},
		{"pres_heatmap_prob", func(b *bytes.Buffer) error {
			return WriteHeatmap(b, &Heatmap{Title: "ag.skill_test — event:success", XLabel: "skill", YLabel: "tn", Metric: "event:success", Caption: Caption(long), Xs: xs, Ys: ys, Z: z})
		}},
		{"pres_heatmap_mean", func(b *bytes.Buffer) error {
			return WriteHeatmap(b, &Heatmap{Title: "ag.skill_test — mean:total", XLabel: "skill", YLabel: "tn", Metric: "mean:total", Caption: Caption(sample(engine.Exact)), Xs: xs, Ys: ys, Z: zm})
		}},
	})
}

func TestMetricWords(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ metric, unit, want string }{
		{"event:success", "", "P(success)"},
		{"event:success_or_cost", "", "P(success or cost)"},
		{"mean:damage", "wounds", "mean damage (wounds)"},
		{"mean:time", "", "mean time"},
		{"P(success)", "", "P(success)"},
	} {
		t.Run(c.metric, func(t *testing.T) {
			t.Parallel()
			if got := MetricLabelOf(c.metric, c.unit); got != c.want {
				t.Errorf("MetricLabelOf(%q, %q) = %q; want %q", c.metric, c.unit, got, c.want)
			}
		})
	}
	r := withVar(binomialVar("damage", "wounds", 3, 0.5, 0, 1))
	if got := MetricLabel(r, "mean:damage"); got != "mean damage (wounds)" {
		t.Errorf("MetricLabel = %q", got)
	}
}

func TestRetitle(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ title, metric, what, want, id string }{
		{"core_roll_vs_difficulty", "event:success", "P(success)", "P(success) by target number", "core_roll_vs_difficulty"},
		{"grim.core.attack — event:hit", "event:hit", "P(hit)", "grim.core.attack — P(hit) by target number", ""},
		{"Chance to hit by TN", "event:hit", "P(hit)", "Chance to hit by TN", ""},
	} {
		t.Run(c.title, func(t *testing.T) {
			t.Parallel()
			got, id := retitle(c.title, c.metric, c.what, "target number")
			if got != c.want || id != c.id {
				t.Errorf("retitle(%q) = %q, %q; want %q, %q", c.title, got, id, c.want, c.id)
			}
		})
	}
}

func TestNiceTicks(t *testing.T) {
	t.Parallel()
	labels := func(lo, hi float64, integer bool) string {
		var ls []string
		for _, tk := range niceTicks(lo, hi, integer, 12) {
			if tk.Label != "" {
				ls = append(ls, tk.Label)
			}
		}
		return strings.Join(ls, " ")
	}
	for _, c := range []struct {
		lo, hi  float64
		integer bool
		want    string
	}{
		{0, 1, false, "0 0.1 0.2 0.3 0.4 0.5 0.6 0.7 0.8 0.9 1"},
		{1, 20, true, "2 4 6 8 10 12 14 16 18 20"},
		{-0.5, 1.5, true, "0 1"}, // counts never read 0.5
		{0, 400, true, "0 50 100 150 200 250 300 350 400"},
	} {
		t.Run(fmt.Sprintf("%v..%v", c.lo, c.hi), func(t *testing.T) {
			t.Parallel()
			if got := labels(c.lo, c.hi, c.integer); got != c.want {
				t.Errorf("niceTicks(%v, %v) labels %q; want %q", c.lo, c.hi, got, c.want)
			}
		})
	}
}

func TestBandTicks(t *testing.T) {
	t.Parallel()
	name, ts := bandTicks([]string{"tn=2", "tn=3"})
	if name != "tn" || ts[1].Label != "3" {
		t.Errorf("bandTicks: %q %v", name, ts)
	}
	if name, ts := bandTicks([]string{"tn=2", "skill=3"}); name != "" || ts[1].Label != "skill=3" {
		t.Errorf("mixed names: %q %v", name, ts)
	}
	if name, ts := bandTicks([]string{"grim check +1", "grim check +12"}); name != "grim check" || ts[1].Label != "+12" {
		t.Errorf("shared words: %q %v", name, ts)
	}
	if name, ts := bandTicks([]string{"ag_skill2_tn5"}); name != "" || ts[0].Label != "ag_skill2_tn5" {
		t.Errorf("one label: %q %v", name, ts)
	}
}

// Captions are wrapped to the width they are drawn in, items kept whole
// where they fit.
func TestWrapText(t *testing.T) {
	t.Parallel()
	sty := textStyle(captionFont)
	width := 3 * vg.Inch
	s := "ag skill 3 + attribute 2: ag.skill_test  grim check, attribute +3: grim.core.check\noptions: " + strings.Repeat("crit_count=extra_copies ", 8)
	lines := wrapText(s, sty, width)
	if len(lines) < 4 {
		t.Errorf("wrapped into %d lines: %q", len(lines), lines)
	}
	for _, l := range lines {
		if sty.Width(l) > width {
			t.Errorf("line %q is %v wide; limit %v", l, sty.Width(l), width)
		}
	}
	if lines[0] != "ag skill 3 + attribute 2: ag.skill_test" {
		t.Errorf("first item split: %q", lines[0])
	}
}

func TestShownRange(t *testing.T) {
	t.Parallel()
	if lo, hi, cut := shownRange([]float64{0, 0, 0.5, 0, 0.5, 0}); lo != 2 || hi != 4 || cut != 0 {
		t.Errorf("zero ends: %d %d %v", lo, hi, cut)
	}
	v := binomialVar("x", "", 400, 0.3, 0, 1)
	lo, hi, cut := shownRange(v.P)
	if lo < 60 || hi > 180 || cut >= 0.0005 || cut <= 0 {
		t.Errorf("long support shown %d..%d, cut %v", lo, hi, cut)
	}
}

// Ticks of a lattice stand on lattice points: halves may read 0.5, thirds
// read whole numbers with a mark at every third.
func TestLatticeTicks(t *testing.T) {
	t.Parallel()
	labelled := func(ts []plot.Tick) (ls []string, minor int) {
		for _, tk := range ts {
			if tk.Label != "" {
				ls = append(ls, tk.Label+"@"+num(tk.Value))
			} else {
				minor++
			}
		}
		return ls, minor
	}
	ls, minor := labelled(latticeTicks{den: 3}.Ticks(1.5, 11.5)) // values 0.5 … 3.83
	if strings.Join(ls, " ") != "1@3 2@6 3@9" || minor != 7 {
		t.Errorf("thirds: %v, %d minor", ls, minor)
	}
	ls, _ = labelled(latticeTicks{den: 2}.Ticks(-3.5, 3.5))
	if strings.Join(ls, " ") != "-1.5@-3 -1@-2 -0.5@-1 0@0 0.5@1 1@2 1.5@3" {
		t.Errorf("halves: %v", ls)
	}
}

func TestRoundLabels(t *testing.T) {
	t.Parallel()
	kept := func(labels []string, step int) string {
		var ts plot.ConstantTicks
		for i, l := range labels {
			ts = append(ts, plot.Tick{Value: float64(i), Label: l})
		}
		keep := roundLabels(ts, step)
		var out []string
		for i, l := range labels {
			if keep(i) {
				out = append(out, l)
			}
		}
		return strings.Join(out, " ")
	}
	var tns []string
	for tn := 1; tn <= 23; tn++ {
		tns = append(tns, fmt.Sprint(tn))
	}
	if got := kept(tns, 4); got != "5 10 15 20" {
		t.Errorf("1…23 every 4th: %q", got)
	}
	if got := kept([]string{"a", "b", "c", "d", "e"}, 2); got != "a c e" {
		t.Errorf("words: %q", got)
	}
}
