package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// comparePair is two literal results of one mechanic at tn 5 and 6.
func comparePair(kind engine.Kind) *CompareReport {
	a, b := sample(kind), sample(kind)
	b.Params = []mechanics.NamedValue{{Name: "skill", Value: 2}, {Name: "tn", Value: 6}}
	b.Fingerprint, a.Fingerprint = "sha256:b", "sha256:a"
	b.Vars[0].Lo = -2
	b.Vars[0].Stats.Mean, b.Vars[0].Stats.SD = -0.75, 0.9
	b.Events[0].P, b.Events[0].Count, b.Events[0].CI = 0.2, 20, [2]float64{0.13, 0.29}
	b.Bands[0].P = []float64{0.8, 0.2}
	if kind == engine.Sim {
		b.Bands[0].CI = [][2]float64{{0.71, 0.87}, {0.13, 0.29}}
	}
	return &CompareReport{Comparison: engine.Compare(a, b), LabelA: "ag.skill_test tn=5", LabelB: "ag.skill_test tn=6"}
}

func TestCompareFormats(t *testing.T) {
	t.Parallel()
	for _, kind := range engine.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			c := comparePair(kind)
			var text bytes.Buffer
			if err := WriteCompare(&text, c, "text"); err != nil {
				t.Fatal(err)
			}
			out := text.String()
			for i, l := range strings.Split(out, "\n") {
				if strings.TrimRight(l, " \t") != l {
					t.Errorf("line %d ends in spaces: %q", i+1, l)
				}
			}
			want := []string{"A fingerprint:  sha256:a", "B fingerprint:  sha256:b", "A params:       skill=2 tn=5", "B params:       skill=2 tn=6",
				"Δ = B − A", "\nmos ", "distribution  TVD", "summary: "}
			if kind == engine.Sim {
				want = append(want, "Δ 95% CI", "n.s.", "not significant at n=100", "(95%: ")
			}
			for _, w := range want {
				if !strings.Contains(out, w) {
					t.Errorf("text lacks %q:\n%s", w, out)
				}
			}

			var buf bytes.Buffer
			if err := WriteCompare(&buf, c, "csv"); err != nil {
				t.Fatal(err)
			}
			for _, w := range []string{"# a_fingerprint: sha256:a\n", "# b_fingerprint: sha256:b\n", "# a_params: skill=2 tn=5\n",
				"# b_params: skill=2 tn=6\n", "# b_options: ag.core.opt.tie=band\n", "# a_label: ag.skill_test tn=5\n", "# column delta: "} {
				if !strings.Contains(buf.String(), w) {
					t.Errorf("CSV lacks %q", w)
				}
			}
			cr := csv.NewReader(&buf)
			cr.Comment = '#'
			rows, err := cr.ReadAll()
			if err != nil {
				t.Fatalf("CSV does not parse: %v", err)
			}
			if got := strings.Join(rows[0], ","); got != "row,output,quantity,x,a,b,delta,a_lo,a_hi,b_lo,b_hi,delta_lo,delta_hi,significant" {
				t.Errorf("header %s", got)
			}
			var pa, pb float64
			kinds := map[string]bool{}
			for _, r := range rows[1:] {
				kinds[r[0]] = true
				if r[0] == "pmf" {
					x, _ := strconv.ParseFloat(r[4], 64)
					y, _ := strconv.ParseFloat(r[5], 64)
					pa, pb = pa+x, pb+y
				}
				if (kind == engine.Sim) != (r[0] == "stat" && r[7] != "") && r[0] == "stat" {
					t.Errorf("row %v: intervals for %s", r, kind)
				}
			}
			if pa != 1 || pb != 1 {
				t.Errorf("pmf rows sum to %v and %v", pa, pb)
			}
			for _, k := range []string{"stat", "event", "band", "pmf", "cdf", "distance"} {
				if !kinds[k] {
					t.Errorf("no %s row", k)
				}
			}

			buf.Reset()
			if err := WriteCompare(&buf, c, "json"); err != nil {
				t.Fatal(err)
			}
			var j struct {
				A, B struct {
					Fingerprint string
					Params      map[string]float64
				}
				Rows []struct {
					Delta float64
					CI95  map[string][2]float64
				}
				Distributions []struct {
					Output    string
					TVD       float64
					Crossings []struct{ X float64 }
					PMF       [][3]float64
				}
			}
			if err := json.Unmarshal(buf.Bytes(), &j); err != nil {
				t.Fatal(err)
			}
			if j.A.Fingerprint != "sha256:a" || j.B.Fingerprint != "sha256:b" || j.B.Params["tn"] != 6 || len(j.Rows) == 0 || len(j.Distributions) != 2 {
				t.Errorf("JSON %s", buf.String())
			}
			if (j.Rows[0].CI95 != nil) != (kind == engine.Sim) {
				t.Errorf("ci95 %v for %s", j.Rows[0].CI95, kind)
			}
		})
	}
	if err := WriteCompare(&bytes.Buffer{}, comparePair(engine.Exact), "xml"); err == nil {
		t.Error("format xml accepted")
	}
}

// The plots of a comparison draw with either engine, as PMFs or CDFs, for
// variables on different lattices, long supports, bands and events; with
// ODDSMITH_PLOT_DIR set they are saved there to be looked at.
func TestComparePlots(t *testing.T) {
	t.Parallel()
	halves := withVar(binomialVar("damage", "wounds", 14, 0.4, -3, 2))
	whole := withVar(binomialVar("damage", "wounds", 7, 0.5, -1, 1))
	long := withVar(binomialVar("damage", "wounds", 400, 0.3, 0, 1))
	longer := withVar(binomialVar("damage", "wounds", 400, 0.32, 0, 1))
	events := sample(engine.Exact)
	events.Vars, events.Bands = nil, nil
	events2 := sample(engine.Exact)
	events2.Vars, events2.Bands = nil, nil
	events2.Events = append(events2.Events[:0:0], engine.EventResult{Name: "success", P: 0.4})
	cases := []struct {
		name   string
		c      *CompareReport
		output string
	}{
		{"exact", comparePair(engine.Exact), ""},
		{"sim", comparePair(engine.Sim), ""},
		{"band", comparePair(engine.Sim), "mos_band"},
		{"lattices", &CompareReport{Comparison: engine.Compare(halves, whole)}, ""},
		{"long", &CompareReport{Comparison: engine.Compare(long, longer)}, ""},
		{"events", &CompareReport{Comparison: engine.Compare(events, events2)}, ""},
	}
	for _, tc := range cases {
		for _, cdf := range []bool{false, true} {
			p := &ComparePlot{CompareReport: tc.c, Output: tc.output, CDF: cdf}
			name := fmt.Sprintf("compare_%s_cdf=%v", tc.name, cdf)
			var ov, diff bytes.Buffer
			if err := WriteCompareOverlay(&ov, p); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if err := WriteCompareDiff(&diff, p); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			checkPNG(t, name, ov.Bytes())
			checkPNG(t, name+"_diff", diff.Bytes())
		}
	}
	p := &ComparePlot{CompareReport: comparePair(engine.Exact), Output: "nope"}
	if _, _, err := p.DrawTarget(); err == nil || !strings.Contains(err.Error(), "shared: mos, mos_band") {
		t.Errorf("DrawTarget(nope) = %v", err)
	}
}

func TestCompareStem(t *testing.T) {
	a, b := sample(engine.Exact), sample(engine.Exact)
	if got := CompareStem(a, b); got != "ag_skill_test_compare" {
		t.Errorf("%s", got)
	}
	b.Mechanic, b.Rule = "expr", "2d6"
	a.Mechanic, a.Rule = "expr", "d12 / 2"
	if got := CompareStem(a, b); got != "expr_vs_expr" {
		t.Errorf("%s", got)
	}
}
