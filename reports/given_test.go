package reports

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
)

// TestConditionalVariable: a variable reported given a condition says so in
// every format, with the condition's probability, and the table prints its
// distribution beside the primary one's.
func TestConditionalVariable(t *testing.T) {
	t.Parallel()
	r := sample(engine.Exact)
	r.Vars = append(r.Vars, engine.VarResult{Name: "mos_if_success", Lo: 1, P: []float64{0.5, 0.25}, Den: 1,
		Undefined: 0.25, UndefinedLabel: "still going", Given: "success", GivenP: 0.25,
		Stats: engine.Stats{Mean: 4.0 / 3, Min: 1, Max: 2, P5: 1, P25: 1, P50: 1, P75: 2, P95: 2}})
	var table, csv, js strings.Builder
	if err := WriteTable(&table, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`mos_if_success: given success \(P = 0.2500\); still going with P = 0.2500 given it; its distribution is conditional and its statistics are over the rest`,
		`\nx = mos_if_success \| success +P\(= x\)`,
		`\n2 +0.2500 +0.7500 +0.5000\n`,
		`\n\(still going\) +0.2500\n`,
	} {
		if !regexp.MustCompile(want).MatchString(table.String()) {
			t.Errorf("the table has no %q:\n%s", want, table.String())
		}
	}
	if err := WriteCSV(&csv, r); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"# given mos_if_success: its pmf, undefined and stat rows are given success, which has probability 0.25\n",
		"\npmf,mos_if_success,1,0.5,0.5,0.5,",
		"\nundefined,mos_if_success,still going,0.25,",
	} {
		if !strings.Contains(csv.String(), want) {
			t.Errorf("the CSV has no %q:\n%s", want, csv.String())
		}
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Given map[string]struct {
			Label string  `json:"label"`
			P     float64 `json:"p"`
		} `json:"given"`
	}
	if err := json.Unmarshal([]byte(js.String()), &j); err != nil {
		t.Fatal(err)
	}
	if g := j.Given["mos_if_success"]; g.Label != "success" || g.P != 0.25 || len(j.Given) != 1 {
		t.Errorf("JSON given = %+v; want mos_if_success: success, 0.25", j.Given)
	}
}
