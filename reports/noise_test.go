package reports

import (
	"bytes"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// tails is a result shaped like a big opposed pool: mos from −6 to 6,
// with masses of 1e-13 and less outside −1…1 (and a value of no mass).
func tails() *engine.Result {
	r := sample(engine.Exact)
	p := []float64{1e-30, 0, 2e-13, 1e-13, 3e-13, 0.25, 0.5, 0.25 - 1e-12, 4e-13, 5e-14, 0, 0, 1e-20}
	r.Vars[0] = engine.VarResult{Name: "mos", Lo: -6, P: p,
		Stats: engine.Stats{Mean: 0, SD: 0.7, Min: -6, Max: 6, P5: -1, P25: 0, P50: 0, P75: 0, P95: 1}}
	return r
}

// TestTableLeavesOutTinyValues: a text table prints the values of
// probability 1e-12 or more, one line for the rest (how many, where), and
// min and max over the values it prints, with a line that gives the
// exact extremes; the CSV and JSON keep every value and the extremes.
// The old table printed −6…−2 and 2…6 as <0.0001 and min −6, max 6.
func TestTableLeavesOutTinyValues(t *testing.T) {
	t.Parallel()
	r := tails()
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	_, dist, _ := strings.Cut(out, "x = mos")
	var xs []string
	for _, l := range strings.Split(strings.TrimSpace(dist), "\n")[1:] {
		xs = append(xs, strings.Fields(l)[0])
	}
	if got := strings.Join(xs, " "); got != "-1 0 1 (7" {
		t.Errorf("rows %q, want -1 0 1 and the note:\n%s", got, out)
	}
	for _, want := range []string{
		`(?m)^\(7 more values, of P < 1e-12 each: -6…-2 and 2…6; see --format csv\)$`,
		`(?m)^mos +0\.0000 +0\.7000 +-1 +-1 +0 +0 +0 +1 +1$`,
		`(?m)^\(min and max are over the values of P ≥ 1e-12; over every value, in --format csv: mos min -6, max 6\)$`,
		`(?m)^-1 +0\.2500 +0\.2500 +>0\.9999$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the table lacks %s:\n%s", want, out)
		}
	}
	buf.Reset()
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\npmf,mos,-6,1e-30,", "\npmf,mos,6,1e-20,", "\nstat,mos,min,-6,", "\nstat,mos,max,6,"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the CSV lacks %q", want)
		}
	}
	buf.Reset()
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`[-6,1e-30]`, `"min":-6`, `"max":6`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the JSON lacks %s", want)
		}
	}
	// A value of small mass among those printed is a run of its own.
	r.Vars[0].P[6], r.Vars[0].P[7] = 1e-13, 0.75-1e-12
	buf.Reset()
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	if want := "(8 more values, of P < 1e-12 each: -6…-2, 0 and 2…6; see --format csv)"; !strings.Contains(buf.String(), want) {
		t.Errorf("the table lacks %q:\n%s", want, buf.String())
	}
}

// TestTableShortensStateEvents: the events of a process's absorbing
// states (absorbed:STATE, one per state: 169 for a 12 × 12 duel) are a
// list of states like the absorption block: the states with mass, the
// first 12 of a long list, one row for the rest. An event the rule
// declares is listed even at 0, and so is every label of a short band.
func TestTableShortensStateEvents(t *testing.T) {
	t.Parallel()
	for _, kind := range engine.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			r := sample(kind)
			var states []string
			ps := make([]float64, 40)
			for k := range 40 {
				states = append(states, fmt.Sprintf("a=0 b=%d", k))
				if k < 20 {
					ps[k] = 0.045
				}
			}
			ps[20] = 1e-13
			r.Process = &engine.ProcessResult{TimeUnit: "round", Horizon: 30, AbsorbingStates: states, Absorbed: ps}
			var evs []engine.EventResult
			for k, s := range states {
				evs = append(evs, engine.EventResult{Name: "absorbed:" + s, P: ps[k], CI: [2]float64{ps[k], ps[k]}})
			}
			r.Events = append(evs, engine.EventResult{Name: "not_absorbed", P: 0.1}, engine.EventResult{Name: "a_wins", P: 0})
			r.Bands[0].P = []float64{1, 0}
			r.Bands[0].CI = [][2]float64{{1, 1}, {0, 0}}
			var buf bytes.Buffer
			if err := WriteTable(&buf, r); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if n := strings.Count(out, "\nabsorbed:"); n != 12 {
				t.Errorf("%d events absorbed:…, want 12:\n%s", n, out)
			}
			for _, want := range []string{
				`(?m)^\(28 more absorbed:…\) +0\.3600 in all, 19 of them 0; see --format csv$`,
				`(?m)^a_wins +0( |$)`, `(?m)^not_absorbed +0\.1000( |$)`, `(?m)^hi +0( |$)`,
			} {
				if !regexp.MustCompile(want).MatchString(out) {
					t.Errorf("the table lacks %s:\n%s", want, out)
				}
			}
			// The note comes right after the last state's event.
			if !regexp.MustCompile(`\n\(28 more absorbed:…\)[^\n]*\nnot_absorbed`).MatchString(out) {
				t.Errorf("the note is not where the states end:\n%s", out)
			}
		})
	}
}

// TestCompareShortensStateRows: a comparison's text lists, of a
// process's states (its absorbed:STATE events, its final_state band),
// the rows with mass on either side, at most the 12 of the largest |Δ|,
// and a line for the rest; the CSV keeps every row. Before, two 40 × 40
// duels printed 1,681 band rows, nearly all 0.
func TestCompareShortensStateRows(t *testing.T) {
	t.Parallel()
	side := func(shift float64) *engine.Result {
		r := sample(engine.Exact)
		var states []string
		ps := make([]float64, 30)
		for k := range 30 {
			states = append(states, fmt.Sprintf("a=0 b=%d", k))
			if k < 15 {
				ps[k] = 0.05 + shift*float64(k%4+1)
			}
		}
		r.Process = &engine.ProcessResult{TimeUnit: "round", Horizon: 30, AbsorbingStates: states, Absorbed: ps}
		r.Events = nil
		for k, s := range states {
			r.Events = append(r.Events, engine.EventResult{Name: "absorbed:" + s, P: ps[k]})
		}
		r.Events = append(r.Events, engine.EventResult{Name: "never", P: 0})
		r.Bands = []engine.BandResult{{Name: "final_state", Labels: states, P: ps}}
		return r
	}
	c := &CompareReport{Comparison: engine.Compare(side(0), side(0.01))}
	var buf bytes.Buffer
	if err := WriteCompareText(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if n := strings.Count(out, "\nabsorbed:"); n != 12 {
		t.Errorf("%d rows absorbed:…, want 12:\n%s", n, out)
	}
	for _, want := range []string{
		`(?m)^\(18 more absorbed:… events, the largest \|Δ\| among them 0\.0100; see --format csv\)$`,
		`(?m)^\(18 more final_state labels, the largest \|Δ\| among them 0\.0100; see --format csv\)$`,
		`(?m)^never +P +0 +0 +0$`,
	} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the text lacks %s:\n%s", want, out)
		}
	}
	// The rows kept are those that changed most: all but b=4, 8 and 12
	// (and b=0, the first of the four of the least change).
	if strings.Contains(out, "absorbed:a=0 b=4 ") || strings.Contains(out, "absorbed:a=0 b=12 ") || !strings.Contains(out, "absorbed:a=0 b=0 ") {
		t.Errorf("not the rows of the largest |Δ|:\n%s", out)
	}
	buf.Reset()
	if err := WriteCompareCSV(&buf, c); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(buf.String(), "\nevent,absorbed:"); n != 30 {
		t.Errorf("the CSV has %d rows absorbed:…, want all 30", n)
	}
}

// TestTablePercent: with Percent every probability of the table prints
// as a percentage to two decimals, only an exact 0 or 1 as 0% or 100%,
// and what would round to either as <0.01% or >99.99%; the CSV is
// unchanged.
func TestTablePercent(t *testing.T) {
	t.Parallel()
	for _, kind := range engine.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			r := sample(kind)
			r.Events = []engine.EventResult{{Name: "never", P: 0, CI: [2]float64{0, 3e-5}}, {Name: "always", P: 1, CI: [2]float64{0.99997, 1}},
				{Name: "rare", P: 2e-5, CI: [2]float64{1e-6, 4e-5}}, {Name: "success", P: 0.939815, CI: [2]float64{0.93, 0.95}}}
			r.Vars[0].Undefined, r.Vars[0].UndefinedLabel = 2e-5, "not absorbed"
			r.Vars[0].P[0] -= 2e-5
			var buf bytes.Buffer
			if err := WriteTableWith(&buf, r, TableOptions{Percent: true}); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			want := []string{`never +0%`, `always +100%`, `rare +<0\.01%`, `success +93\.98%`, `lo, with comma +75\.00%`,
				`-1 +25\.00% +25\.00% +100%`, `2 +25\.00% +>99\.99% +25\.00%`, `\(not absorbed\) +<0\.01%`,
				`mos: not absorbed with P < 0\.01%; its statistics are over the rest`}
			if kind == engine.Sim {
				want[0] += ` +\[0%, <0\.01%\]`
				want[3] += ` +\[93\.00%, 95\.00%\]`
				want[4] += ` +\[60\.00%, 80\.00%\]`
				want[1] += ` +\[>99\.99%, 100%\]`
				want[2] += ` +\[<0\.01%, <0\.01%\]`
				want[6] = `2 +25\.00% +100% +25\.00%` // from the counts
			}
			for _, w := range want {
				if !regexp.MustCompile(`(?m)^` + w + `$`).MatchString(out) {
					t.Errorf("the table lacks a line %s:\n%s", w, out)
				}
			}
			if regexp.MustCompile(`\b0\.\d{4}\b`).MatchString(strings.SplitN(out, "\nvariable", 2)[0]) {
				t.Errorf("a probability printed as a fraction of 1:\n%s", out)
			}
			var plain, pct bytes.Buffer
			if err := WriteWith(&plain, r, "csv", TableOptions{}); err != nil {
				t.Fatal(err)
			}
			if err := WriteWith(&pct, r, "csv", TableOptions{Percent: true}); err != nil {
				t.Fatal(err)
			}
			if plain.String() != pct.String() {
				t.Error("Percent changed the CSV")
			}
		})
	}
	for p, want := range map[float64]string{0.05: "+5.00 pp", -0.1435185: "-14.35 pp", 0: "0", 1e-7: "+<0.01 pp", -1e-7: "-<0.01 pp"} {
		if got := points2(p); got != want {
			t.Errorf("points2(%v) = %q, want %q", p, got, want)
		}
	}
}

// TestComparePercent: a comparison's text with Percent gives its
// probabilities as percentages and their changes in percentage points.
func TestComparePercent(t *testing.T) {
	t.Parallel()
	c := comparePair(engine.Exact)
	c.Percent = true
	var buf bytes.Buffer
	if err := WriteCompareText(&buf, c); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`(?m)^success +P +25\.00% +20\.00% +-5\.00 pp$`, `(?m)^ +hi +25\.00% +20\.00% +-5\.00 pp$`, `(?m)^mos +mean +0\.2500 +-0\.7500 +-1\.0000$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the text lacks %s:\n%s", want, out)
		}
	}
}

// TestExactFractionsEverywhere: where the exact engine gives fractions,
// the table shows them in a column "exact" beside the events, the bands'
// labels and the distribution's values (it showed none), and the CSV and
// JSON carry them for events and bands as for the distribution.
func TestExactFractionsEverywhere(t *testing.T) {
	t.Parallel()
	r := sample(engine.Exact)
	r.Vars[0].Exact = []string{"1/4", "1/2", "0", "1/4"}
	r.Events[0].Exact = "1/4"
	r.Bands[0].Exact = []string{"3/4", "1/4"}
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{`(?m)^event +P +exact$`, `(?m)^success +0\.2500 +1/4$`, `(?m)^mos_band +P +exact$`,
		`(?m)^lo, with comma +0\.7500 +3/4$`, `(?m)^x = mos +P\(= x\) +P\(≤ x\) +P\(≥ x\) +exact$`, `(?m)^0 +0\.5000 +0\.7500 +0\.7500 +1/2$`} {
		if !regexp.MustCompile(want).MatchString(out) {
			t.Errorf("the table lacks %s:\n%s", want, out)
		}
	}
	buf.Reset()
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"\nevent,success,,0.25,,,,,,1/4\n", "\nband,mos_band,\"lo, with comma\",0.75,,,,,,3/4\n", "\npmf,mos,0,0.5,0.75,0.25,,,,1/2\n"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the CSV lacks %q:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"exact":{"distributions":{"mos":[[-1,"1/4"],[0,"1/2"],[2,"1/4"]]},"events":{"success":"1/4"}}`, `"exact":["3/4","1/4"]`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the JSON lacks %s:\n%s", want, buf.String())
		}
	}
	// Without fractions (a simulation, a large model): no column, no key.
	for _, kind := range engine.Kinds {
		buf.Reset()
		if err := WriteTable(&buf, sample(kind)); err != nil {
			t.Fatal(err)
		}
		if regexp.MustCompile(`(?m)(P|x\)) +exact$`).MatchString(buf.String()) {
			t.Errorf("%s: a column of fractions without fractions:\n%s", kind, buf.String())
		}
		buf.Reset()
		if err := WriteJSON(&buf, sample(kind)); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(buf.String(), `"exact":{`) || strings.Contains(buf.String(), `"exact":[`) {
			t.Errorf("%s: JSON key exact without fractions: %s", kind, buf.String())
		}
	}
}
