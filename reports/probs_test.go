package reports

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// burning is a process result shaped like grim.burning's defaults: 21
// absorbing states of which only "down" has mass, within the horizon and
// without one, and the band of final states with the same zeros.
func burning() *engine.Result {
	var states []string
	absorbed := make([]float64, 21)
	for k := range 20 {
		states = append(states, fmt.Sprintf("status=escaped damage=%d", k))
	}
	states = append(states, "down")
	absorbed[20] = 0.6369
	unbounded := make([]float64, 21)
	unbounded[20] = 1
	r := sample(engine.Exact)
	r.Bands = []engine.BandResult{{Name: "final_state", Labels: append([]string{"burning"}, states...), P: append([]float64{0.3631}, absorbed...)}}
	r.Process = &engine.ProcessResult{TimeUnit: "turn", Horizon: 3, AbsorbingStates: states, Absorbed: absorbed, Undecided: 0.3631,
		Survival: []float64{1, 1, 0.9, 0.3631}, Unbounded: true, MeanTimeUnbounded: 3.3495, AbsorbedUnbounded: unbounded}
	return r
}

// TestTableOmitsStatesWithoutMass: the text table lists only the states
// with mass, in every list of states (absorbed within the horizon,
// without one, the band of final states), and says in one row per list
// how many it left out; the CSV and JSON, for machines, keep every state.
func TestTableOmitsStatesWithoutMass(t *testing.T) {
	t.Parallel()
	r := burning()
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if strings.Contains(out, "escaped") {
		t.Errorf("the table lists states of probability 0:\n%s", out)
	}
	note := regexp.MustCompile(`(?m)^\(20 more states\) +0 each; see --format csv$`)
	if n := len(note.FindAllString(out, -1)); n != 3 {
		t.Errorf("%d rows \"(20 more states)  0 each; see --format csv\", want one per list (3):\n%s", n, out)
	}
	for _, want := range []string{"\ndown ", "\nP(down), unlimited horizon ", "\nburning "} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
	// The note widens no column: the P column starts where it would
	// without it.
	if !regexp.MustCompile(`(?m)^absorbed within 3 turns {7}P$`).MatchString(out) {
		t.Errorf("the note widened the column of states:\n%s", out)
	}
	buf.Reset()
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	csv := buf.String()
	for _, kind := range []string{"process,absorbed,status=escaped damage=", "process,absorbed_unbounded,status=escaped damage=", "band,final_state,status=escaped damage="} {
		if n := strings.Count(csv, kind); n != 20 {
			t.Errorf("the CSV has %d rows %q…, want all 20", n, kind)
		}
	}
	buf.Reset()
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Process engine.ProcessResult `json:"process"`
	}
	if err := json.Unmarshal(buf.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	if len(j.Process.AbsorbingStates) != 21 || len(j.Process.Absorbed) != 21 || len(j.Process.AbsorbedUnbounded) != 21 {
		t.Errorf("the JSON has %d states, want all 21", len(j.Process.AbsorbingStates))
	}
}

// TestTableCapsLongStateLists: a chain with an absorbing state per time
// lists its first 12 states of probability 0.001 or more, within the
// horizon and without one alike, and one row for the rest: how many,
// their probability in all, and how many of them have none.
func TestTableCapsLongStateLists(t *testing.T) {
	t.Parallel()
	r := sample(engine.Exact)
	var states []string
	ps := make([]float64, 40)
	for k := range 40 {
		states = append(states, fmt.Sprintf("done at %d", k))
		if k < 30 {
			ps[k] = 0.03
		}
	}
	ps[0] = 0.0005 // below 0.001: not among the 12
	r.Process = &engine.ProcessResult{TimeUnit: "step", Horizon: 40, AbsorbingStates: states, Absorbed: ps, Undecided: 0.1295,
		Unbounded: true, AbsorbedUnbounded: ps}
	var buf bytes.Buffer
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	note := regexp.MustCompile(`(?m)^\(28 more states\) +0\.5105 in all, 10 of them 0; see --format csv$`)
	if n := len(note.FindAllString(out, -1)); n != 2 {
		t.Errorf("%d notes of the 28 states left out, want 2:\n%s", n, out)
	}
	if strings.Contains(out, "done at 0 ") || !strings.Contains(out, "done at 12 ") || strings.Contains(out, "done at 13 ") {
		t.Errorf("want done at 1…12 listed:\n%s", out)
	}
}

// TestTableProbabilities: in every probability column of the text table
// only an exact 0 or 1 prints as 0 or 1; what four decimals would round
// to either prints as <0.0001 or >0.9999.
func TestTableProbabilities(t *testing.T) {
	t.Parallel()
	for _, kind := range engine.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			r := sample(kind)
			r.Events = []engine.EventResult{{Name: "never", P: 0, CI: [2]float64{0, 3e-5}}, {Name: "always", P: 1, CI: [2]float64{0.99997, 1}},
				{Name: "rare", P: 2e-5, CI: [2]float64{1e-6, 4e-5}}, {Name: "almost", P: 1 - 2e-5, CI: [2]float64{0.99996, 0.999999}}}
			r.Bands = []engine.BandResult{{Name: "band", Labels: []string{"none", "all"}, P: []float64{0, 1}, CI: [][2]float64{{0, 3e-5}, {0.99997, 1}}}}
			r.Vars[0].P = []float64{3e-5, 1 - 3e-5}
			r.Vars[0].Undefined = 0
			if kind == engine.Sim {
				r.Vars[0].Counts = []int64{3, 99997}
			}
			r.Vars = append(r.Vars, engine.VarResult{Name: "time", Lo: 1, P: []float64{1 - 1e-6}, Undefined: 1e-6, UndefinedLabel: "not absorbed",
				Stats: engine.Stats{Mean: 1.5, SD: 0.5, Min: 1, Max: 2, P5: 1, P25: 1, P50: 1, P75: 2, P95: 2}})
			r.Process = &engine.ProcessResult{TimeUnit: "step", Horizon: 3, AbsorbingStates: []string{"done", "gone"},
				Absorbed: []float64{1 - 1e-6, 0}, Undecided: 1e-6, Survival: []float64{1, 0.5, 0.25, 1e-6}}
			var buf bytes.Buffer
			if err := WriteTable(&buf, r); err != nil {
				t.Fatal(err)
			}
			out := buf.String()
			if strings.Contains(out, "0.0000") || strings.Contains(out, "1.0000") {
				t.Errorf("a probability printed as 0.0000 or 1.0000:\n%s", out)
			}
			want := []string{`never +0`, `always +1`, `rare +<0\.0001`, `almost +>0\.9999`, `none +0`, `all +1`,
				`-1 +<0\.0001 +<0\.0001 +1`, `0 +>0\.9999 +1 +>0\.9999`,
				`time: not absorbed with P < 0\.0001; .*`, `\(not absorbed\) +<0\.0001`, `done +>0\.9999`, `\(1 more state\) +0; see --format csv`}
			for k, ci := range []string{`\[0, <0\.0001\]`, `\[>0\.9999, 1\]`, `\[<0\.0001, <0\.0001\]`, `\[>0\.9999, >0\.9999\]`, `\[0, <0\.0001\]`, `\[>0\.9999, 1\]`} {
				if kind == engine.Sim {
					want[k] += ` +` + ci
				}
			}
			for _, w := range want {
				if !regexp.MustCompile(`(?m)^` + w + `$`).MatchString(out) {
					t.Errorf("the table lacks a line %s:\n%s", w, out)
				}
			}
		})
	}
}

// TestNoFloatNoiseTail: outcome masses that add up to 1 − 1.1e−16 (as an
// engine's do, gm.fall at 320 ft adding up to 1 − 2.1e−15) give a value
// that is certain exactly P = 1, cdf 1 and ccdf 0 in the CSV and P = 1 in
// the JSON, and the largest value of any variable a ccdf of exactly 0: no
// 1.1e−16 tail.
func TestNoFloatNoiseTail(t *testing.T) {
	t.Parallel()
	rec := mechanics.NewRecord(mechanics.Int("roll", 0, 9, "a d10 from 0"))
	spec := &mechanics.Spec{Record: rec,
		Vars:   []mechanics.Var{{Name: "seven", Expr: expr.K(7)}, {Name: "roll", Expr: expr.F("roll")}},
		Events: []mechanics.Event{{Name: "always", Expr: expr.Ge(expr.F("roll"), expr.K(0))}}}
	d := engine.Dist{P: make([]float64, 10)}
	for i := range d.P {
		d.P[i] = 0.1
	}
	r := &engine.Result{Mechanic: "x.tenths", Engine: engine.Exact}
	if err := engine.Summarize(spec, d, r); err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, want := range []string{"\npmf,seven,7,1,1,0,", "\npmf,roll,9,0.1,1,0,", "\npmf,roll,8,0.1,0.9,0.1,", "\nevent,always,,1,"} {
		if !strings.Contains(out, want) {
			t.Errorf("the CSV lacks %q:\n%s", want, out)
		}
	}
	buf.Reset()
	if err := WriteJSON(&buf, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"seven":[[7,1]]`, `"always":1`} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("the JSON lacks %s:\n%s", want, buf.String())
		}
	}
	buf.Reset()
	if err := WriteTable(&buf, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\nalways  1\n") {
		t.Errorf("a certain event is not printed as 1:\n%s", buf.String())
	}
}

// TestFindingProbabilities: a bundle's one-line finding prints its
// probabilities as the table does.
func TestFindingProbabilities(t *testing.T) {
	t.Parallel()
	r := &engine.Result{Events: []engine.EventResult{{Name: "never", P: 0}, {Name: "rare", P: 2e-5}, {Name: "always", P: 1}}}
	want := "Finding: P(never) = 0; P(rare) < 0.0001; P(always) = 1."
	if got := Finding(r); got != want {
		t.Errorf("Finding = %q, want %q", got, want)
	}
}
