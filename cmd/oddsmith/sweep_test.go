package main

import (
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// exactRun is the JSON of 'oddsmith exact' at some settings: what a sweep's
// values are checked against.
type exactRun struct {
	Events        map[string]float64            `json:"events"`
	Distributions map[string][][2]float64       `json:"distributions"`
	Bands         map[string]exactBand          `json:"bands"`
	Stats         map[string]map[string]float64 `json:"stats"`
}

type exactBand struct {
	Labels []string  `json:"labels"`
	P      []float64 `json:"p"`
}

// exactAt runs 'oddsmith exact ID --set …' and decodes its JSON.
func exactAt(t *testing.T, id string, sets ...string) exactRun {
	t.Helper()
	args := []string{"exact", id, "--format", "json"}
	for _, s := range sets {
		args = append(args, "--set", s)
	}
	var r exactRun
	if err := json.Unmarshal([]byte(mustRun(t, args...)), &r); err != nil {
		t.Fatal(err)
	}
	return r
}

// pLE is P(VAR <= x) summed by hand from the distribution.
func (r exactRun) pLE(v string, x float64) float64 {
	p := 0.0
	for _, pt := range r.Distributions[v] {
		if pt[0] <= x {
			p += pt[1]
		}
	}
	return p
}

// quantile is the smallest value whose cumulative probability reaches q,
// found by hand from the distribution.
func (r exactRun) quantile(v string, q float64) float64 {
	acc := 0.0
	for _, pt := range r.Distributions[v] {
		acc += pt[1]
		if acc >= q-1e-12 {
			return pt[0]
		}
	}
	return math.NaN()
}

// sweepCSV parses a sweep's CSV: its header row and rows, keyed by column.
func sweepCSV(t *testing.T, text string) []map[string]string {
	t.Helper()
	var body []string
	for _, l := range strings.Split(text, "\n") {
		if !strings.HasPrefix(l, "# ") {
			body = append(body, l)
		}
	}
	recs, err := csv.NewReader(strings.NewReader(strings.Join(body, "\n"))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	var rows []map[string]string
	for _, rec := range recs[1:] {
		row := map[string]string{}
		for i, h := range recs[0] {
			row[h] = rec[i]
		}
		rows = append(rows, row)
	}
	return rows
}

func cell(t *testing.T, row map[string]string, col string) float64 {
	t.Helper()
	s, ok := row[col]
	if !ok {
		t.Fatalf("no column %q in %v", col, row)
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatalf("column %q: %q is not a number", col, s)
	}
	return v
}

func near(a, b float64) bool { return math.Abs(a-b) <= 1e-9 }

// TestSweepStdout: without -o a sweep prints its table — text by
// default, the file's CSV byte for byte with --format csv, JSON — and
// writes no file; the command describe prints for gm.ailment.chronic runs
// as printed.
func TestSweepStdout(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"sweep", "ag.skill_test", "--vary", "skill=0..3", "--vary", "tn=4,6", "--metric", "event:success", "-q"}
	text := mustRun(t, args...)
	for _, want := range []string{
		"mechanic:  ag.skill_test\n",
		"params:    attribute=2 modifier=0\n",
		"varied:    skill = 0, 1, 2, 3\nvaried:    tn = 4, 6\n",
		"skill  tn  event:success\n",
		"2      6   0.5833\n", // 21/36
	} {
		if !strings.Contains(text, want) {
			t.Errorf("text table lacks %q:\n%s", want, text)
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if strings.HasSuffix(l, " ") {
			t.Errorf("line ends in a space: %q", l)
		}
	}
	if got := mustRun(t, append(slices.Clone(args), "--format", "table")...); got != text {
		t.Error("--format table is not the text table")
	}
	csvOut := mustRun(t, append(slices.Clone(args), "--format", "csv")...)
	mustRun(t, append(slices.Clone(args), "-o", dir)...)
	if file := string(readFile(t, filepath.Join(dir, "ag_skill_test_sweep.csv"))); file != csvOut {
		t.Errorf("--format csv differs from the file -o writes:\n%s\nfile:\n%s", csvOut, file)
	}
	var js struct {
		Metrics []string `json:"metrics"`
		Points  []struct {
			Settings map[string]any `json:"settings"`
			Metrics  map[string]struct {
				Value float64 `json:"value"`
			} `json:"metrics"`
		} `json:"points"`
	}
	if err := json.Unmarshal([]byte(mustRun(t, append(slices.Clone(args), "--format", "json")...)), &js); err != nil {
		t.Fatal(err)
	}
	if len(js.Points) != 8 || !slices.Equal(js.Metrics, []string{"event:success"}) {
		t.Fatalf("JSON: %d points, metrics %v", len(js.Points), js.Metrics)
	}
	for _, p := range js.Points {
		want := exactAt(t, "ag.skill_test", fmt.Sprintf("skill=%v", p.Settings["skill"]), fmt.Sprintf("tn=%v", p.Settings["tn"])).Events["success"]
		if got := p.Metrics["event:success"].Value; !near(got, want) {
			t.Errorf("JSON at %v: %v, exact run %v", p.Settings, got, want)
		}
	}
	// The command gm.ailment.chronic's description prints.
	chronic := mustRun(t, "sweep", "gm.ailment.chronic", "--vary", "s0=-4..4", "--metric", "mean:time_ill")
	if !strings.Contains(chronic, "s0  mean:time_ill\n") || strings.Count(chronic, "\n") < 9+2 {
		t.Errorf("gm.ailment.chronic sweep:\n%s", chronic)
	}
	for s0 := -4; s0 <= 4; s0 += 4 {
		r := exactAt(t, "gm.ailment.chronic", fmt.Sprintf("s0=%d", s0))
		want := fmt.Sprintf("\n%-4d%.4f\n", s0, r.Stats["time_ill"]["mean"])
		if !strings.Contains(chronic, want) {
			t.Errorf("gm.ailment.chronic sweep lacks %q:\n%s", want, chronic)
		}
	}
}

// TestSweepSimStdout: a simulated sweep's table has each metric's 95%
// interval, and the same bytes for any number of workers, in every format.
func TestSweepSimStdout(t *testing.T) {
	t.Parallel()
	base := []string{"sweep", "grim.core.attack", "--vary", "attribute=0..4:2", "--engine", "sim", "-n", "20000", "-s", "7",
		"--metric", "event:hit", "--metric", "mean:total", "--delta", "attribute", "-q"}
	for _, f := range []string{"text", "csv", "json"} {
		var first string
		for _, w := range []string{"1", "2", "5"} {
			out := mustRun(t, append(slices.Clone(base), "--format", f, "--workers", w)...)
			if first == "" {
				first = out
			} else if out != first {
				t.Errorf("--format %s: the output differs between --workers 1 and %s", f, w)
			}
		}
		switch f {
		case "text":
			if !strings.Contains(first, "attribute  event:hit  95% CI") || !strings.Contains(first, "Δevent:hit/Δattribute") {
				t.Errorf("sim text table lacks its intervals:\n%s", first)
			}
		case "csv":
			rows := sweepCSV(t, first)
			for _, r := range rows {
				v, lo, hi := cell(t, r, "event:hit"), cell(t, r, "event:hit_ci_lo"), cell(t, r, "event:hit_ci_hi")
				if !(lo < v && v < hi) {
					t.Errorf("event:hit %v outside its interval [%v, %v]", v, lo, hi)
				}
				if r["attribute"] == "4" {
					if r["Δevent:hit/Δattribute"] != "" {
						t.Errorf("the last attribute has a difference: %v", r)
					}
					continue
				}
				d, dlo, dhi := cell(t, r, "Δevent:hit/Δattribute"), cell(t, r, "Δevent:hit/Δattribute_ci_lo"), cell(t, r, "Δevent:hit/Δattribute_ci_hi")
				if !(dlo < d && d < dhi) {
					t.Errorf("Δ %v outside its interval [%v, %v]", d, dlo, dhi)
				}
			}
		}
	}
}

// TestSweepDelta: --delta gives (metric at the next value − metric here) /
// step, checked against differences taken by hand between separate exact
// runs — on a range, a range with a step, a list with uneven steps, and
// along the second of two axes.
func TestSweepDelta(t *testing.T) {
	t.Parallel()
	// The example: what is +1 modifier worth?
	rows := sweepCSV(t, mustRun(t, "sweep", "ag.skill_test", "--vary", "modifier=-3..3", "--delta", "modifier", "--metric", "event:success", "--format", "csv", "-q"))
	if len(rows) != 7 {
		t.Fatalf("%d rows", len(rows))
	}
	p := map[int]float64{}
	for m := -3; m <= 3; m++ {
		p[m] = exactAt(t, "ag.skill_test", fmt.Sprintf("modifier=%d", m)).Events["success"]
	}
	for i, r := range rows {
		m := i - 3
		if got := cell(t, r, "event:success"); !near(got, p[m]) {
			t.Errorf("modifier %d: P(success) %v, exact %v", m, got, p[m])
		}
		if m == 3 {
			if r["Δevent:success/Δmodifier"] != "" {
				t.Errorf("modifier 3 has a difference: %q", r["Δevent:success/Δmodifier"])
			}
			continue
		}
		if got, want := cell(t, r, "Δevent:success/Δmodifier"), p[m+1]-p[m]; !near(got, want) {
			t.Errorf("modifier %d: Δ %v, by hand %v", m, got, want)
		}
	}
	// Uneven steps of a list, two metrics (one a quantile), per unit.
	rows = sweepCSV(t, mustRun(t, "sweep", "ag.fall_damage", "--vary", "height=3,6,15", "--delta", "height",
		"--metric", "mean:damage", "--metric", "quantile:damage:0.9", "--format", "csv", "-q"))
	hs := []float64{3, 6, 15}
	runs := make([]exactRun, 3)
	for i, h := range hs {
		runs[i] = exactAt(t, "ag.fall_damage", fmt.Sprintf("height=%v", h))
	}
	for i := range 2 {
		step := hs[i+1] - hs[i]
		if got, want := cell(t, rows[i], "Δmean:damage/Δheight"), (runs[i+1].Stats["damage"]["mean"]-runs[i].Stats["damage"]["mean"])/step; !near(got, want) {
			t.Errorf("height %v: Δmean %v, by hand %v", hs[i], got, want)
		}
		if got, want := cell(t, rows[i], "Δquantile:damage:0.9/Δheight"), (runs[i+1].quantile("damage", 0.9)-runs[i].quantile("damage", 0.9))/step; !near(got, want) {
			t.Errorf("height %v: Δquantile %v, by hand %v", hs[i], got, want)
		}
	}
	// Along the second axis: each skill's change per +1 tn.
	rows = sweepCSV(t, mustRun(t, "sweep", "ag.skill_test", "--vary", "skill=1..2", "--vary", "tn=4..6", "--delta", "tn", "--format", "csv", "-q"))
	for _, r := range rows {
		if r["tn"] == "6" {
			if r["Δevent:success/Δtn"] != "" {
				t.Errorf("tn 6 has a difference: %v", r)
			}
			continue
		}
		tn, _ := strconv.Atoi(r["tn"])
		here := exactAt(t, "ag.skill_test", "skill="+r["skill"], fmt.Sprintf("tn=%d", tn)).Events["success"]
		next := exactAt(t, "ag.skill_test", "skill="+r["skill"], fmt.Sprintf("tn=%d", tn+1)).Events["success"]
		if got := cell(t, r, "Δevent:success/Δtn"); !near(got, next-here) {
			t.Errorf("skill %s tn %d: Δ %v, by hand %v", r["skill"], tn, got, next-here)
		}
	}
	// -o draws the differences beside the metric.
	dir := t.TempDir()
	out := mustRun(t, "sweep", "ag.skill_test", "--vary", "modifier=-3..3", "--delta", "modifier", "-q", "-o", dir)
	if !strings.Contains(out, "ag_skill_test_sweep_delta.png") {
		t.Errorf("stdout does not name the delta plot: %q", out)
	}
	if st, err := os.Stat(filepath.Join(dir, "ag_skill_test_sweep_delta.png")); err != nil || st.Size() == 0 {
		t.Errorf("delta plot not written: %v", err)
	}
}

// TestSweepMetricKinds: every kind of metric in a sweep equals what a
// direct exact run gives (summed by hand from its distribution where the
// sweep's CSV has no column of its own).
func TestSweepMetricKinds(t *testing.T) {
	t.Parallel()
	metrics := []string{"event:success", "band:mos_band:maybe_at_cost (MoS=0)", "mean:total", "sd:total", "p:total<=8", "p:mos>0",
		"quantile:total:0.9", "quantile:mos:0.5", "event:success+event:tie"}
	args := []string{"sweep", "ag.skill_test", "--vary", "skill=0..3", "--format", "csv", "-q"}
	for _, m := range metrics {
		args = append(args, "--metric", m)
	}
	rows := sweepCSV(t, mustRun(t, args...))
	if len(rows) != 4 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		e := exactAt(t, "ag.skill_test", "skill="+r["skill"])
		band := e.Bands["mos_band"]
		want := map[string]float64{
			"event:success":                       e.Events["success"],
			"band:mos_band:maybe_at_cost (MoS=0)": band.P[slices.Index(band.Labels, "maybe_at_cost (MoS=0)")],
			"mean:total":                          e.Stats["total"]["mean"],
			"sd:total":                            e.Stats["total"]["sd"],
			"p:total<=8":                          e.pLE("total", 8),
			"p:mos>0":                             1 - e.pLE("mos", 0),
			"quantile:total:0.9":                  e.quantile("total", 0.9),
			"quantile:mos:0.5":                    e.quantile("mos", 0.5),
			"event:success+event:tie":             e.Events["success"] + e.Events["tie"],
		}
		for _, m := range metrics {
			if got := cell(t, r, m); !near(got, want[m]) {
				t.Errorf("skill %s: %s = %v, exact run %v", r["skill"], m, got, want[m])
			}
		}
	}
}

// TestSweepListsAndOptions: a list of numbers and a list of an option's
// words vary like ranges; the CSV, the text and the JSON show the words,
// and every point equals an exact run at that setting.
func TestSweepListsAndOptions(t *testing.T) {
	t.Parallel()
	base := []string{"sweep", "ag.skill_test", "--vary", "opt.tie=band,success", "--vary", "tn=4,6,8", "--metric", "event:success", "-q"}
	rows := sweepCSV(t, mustRun(t, append(slices.Clone(base), "--format", "csv")...))
	if len(rows) != 6 {
		t.Fatalf("%d rows", len(rows))
	}
	for _, r := range rows {
		if r["opt.tie"] != "band" && r["opt.tie"] != "success" {
			t.Errorf("opt.tie column holds %q, not a word", r["opt.tie"])
		}
		want := exactAt(t, "ag.skill_test", "opt.tie="+r["opt.tie"], "tn="+r["tn"]).Events["success"]
		if got := cell(t, r, "event:success"); !near(got, want) {
			t.Errorf("%s tn %s: %v, exact run %v", r["opt.tie"], r["tn"], got, want)
		}
	}
	text := mustRun(t, base...)
	if !strings.Contains(text, "varied:    opt.tie = band, success\n") || !strings.Contains(text, "\nsuccess  6   ") {
		t.Errorf("text table does not show the words:\n%s", text)
	}
	js := mustRun(t, append(slices.Clone(base), "--format", "json")...)
	if !strings.Contains(js, `"settings":{"opt.tie":"success","tn":8}`) || !strings.Contains(js, `{"name":"opt.tie","values":["band","success"]}`) {
		t.Errorf("JSON does not show the words:\n%s", js)
	}
	// A named choice (a bare name) and both plots of two axes.
	dir := t.TempDir()
	for _, plot := range []string{"heatmap", "lines"} {
		mustRun(t, "sweep", "ag.fall_damage", "--vary", "surface=concrete,deep_water", "--vary", "height=3,9", "--metric", "mean:damage", "--plot", plot, "-q", "-o", filepath.Join(dir, plot))
	}
}

// TestSweepBadInput: an unknown metric, a --delta that is not a varied
// numeric parameter, a bad format: exit 2 with one line, nothing written.
func TestSweepBadInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	out := filepath.Join(dir, "out")
	sw := []string{"sweep", "ag.skill_test", "--vary", "modifier=-1..1"}
	for _, c := range []struct {
		want string
		args []string
	}{
		{`unknown kind "median"`, []string{"--metric", "median:total"}},
		{`has no event "nope"`, []string{"--metric", "event:nope"}},
		{`has no variable "nope"`, []string{"--metric", "quantile:nope:0.5"}},
		{"strictly between 0 and 1", []string{"--metric", "quantile:total:1.5"}},
		{"metric event:success is given twice", []string{"--metric", "event:success", "--metric", "event:success"}},
		{"--delta skill: not a varied parameter", []string{"--delta", "skill"}},
		{"--delta opt.tie: opt.tie is varied over words", []string{"--vary", "opt.tie=band,success", "--delta", "opt.tie"}},
		{"--delta tn: tn takes one value", []string{"--vary", "tn=5", "--delta", "tn"}},
		{`unknown format "xml"`, []string{"--format", "xml"}},
		{"--format shapes the table on stdout", []string{"--format", "json", "-o", out}},
	} {
		mustRefuse(t, c.want, append(slices.Clone(sw), c.args...)...)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Error("a refused sweep created its output directory")
	}
}

// TestShardMergeSweepTable: the shards of a sweep merged without -o print
// the table of one run, in the shards' format or merge's.
func TestShardMergeSweepTable(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	args := []string{"sweep", "ag.skill_test", "--vary", "opt.tie=band,success", "--vary", "modifier=-1..1", "--delta", "modifier",
		"--engine", "sim", "-n", "3000", "-s", "3", "--format", "csv"}
	single := mustRun(t, append(slices.Clone(args), "-q")...)
	files := shardAll(t, dir, "t", 3, args...)
	if got := mustRun(t, append([]string{"merge", "-q"}, files...)...); got != single {
		t.Errorf("merged table differs from the single run's:\n%s\nsingle:\n%s", got, single)
	}
	text := mustRun(t, append(slices.Clone(args[:len(args)-2]), "-q")...)
	if got := mustRun(t, append([]string{"merge", "-q", "--format", "text"}, files...)...); got != text {
		t.Errorf("merged text table differs from the single run's:\n%s\nsingle:\n%s", got, text)
	}
	mustRefuse(t, "--format shapes a sweep's table", append([]string{"merge", "--format", "csv", "-o", filepath.Join(dir, "d")}, files...)...)
}
