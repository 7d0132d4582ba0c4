package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// sample is a literal result, so these tests need no engine.
func sample(kind engine.Kind) *engine.Result {
	r := &engine.Result{
		Mechanic: "ag.skill_test", Engine: kind, Version: "test",
		Params:  []mechanics.NamedValue{{Name: "skill", Value: 2}, {Name: "tn", Value: 5}},
		Options: []mechanics.NamedString{{Name: "ag.core.opt.tie", Value: "band"}},
		Vars: []engine.VarResult{{Name: "mos", Lo: -1, P: []float64{0.25, 0.5, 0, 0.25},
			Stats: engine.Stats{Mean: 0.25, SD: 0.829, Min: -1, Max: 2, P5: -1, P25: -1, P50: 0, P75: 0, P95: 2}}},
		Events: []engine.EventResult{{Name: "success", P: 0.25, Count: 25, CI: [2]float64{0.17, 0.34}}},
		Bands:  []engine.BandResult{{Name: "mos_band", Labels: []string{"lo, with comma", "hi"}, P: []float64{0.75, 0.25}, CI: [][2]float64{{0.6, 0.8}, {0.17, 0.34}}}},
	}
	if kind == engine.Sim {
		r.Seed, r.Trials, r.Workers = 7, 100, 2
		r.Vars[0].Counts = []int64{25, 50, 0, 25}
	}
	return r
}

func TestCSVRoundTrip(t *testing.T) {
	t.Parallel()
	for _, kind := range engine.Kinds {
		t.Run(string(kind), func(t *testing.T) {
			t.Parallel()
			var buf bytes.Buffer
			if err := WriteCSV(&buf, sample(kind)); err != nil {
				t.Fatal(err)
			}
			cr := csv.NewReader(&buf)
			cr.Comment = '#'
			rows, err := cr.ReadAll()
			if err != nil {
				t.Fatalf("csv does not parse: %v", err)
			}
			if strings.Join(rows[0], ",") != "kind,name,x,probability,cdf,ccdf,count,ci_lo,ci_hi,exact" {
				t.Errorf("header %v", rows[0])
			}
			var pmf float64
			sawBand := false
			for _, r := range rows[1:] {
				switch r[0] {
				case "pmf":
					p, _ := strconv.ParseFloat(r[3], 64)
					pmf += p
				case "band":
					sawBand = sawBand || r[2] == "lo, with comma"
				case "event":
					if kind == engine.Sim && (r[6] != "25" || r[7] != "0.17") {
						t.Errorf("sim event row %v lacks count or interval", r)
					}
				}
			}
			if pmf != 1 || !sawBand {
				t.Errorf("pmf sums to %v, band label quoted: %v", pmf, sawBand)
			}
		})
	}
}

func TestJSONShape(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteJSON(&buf, sample(engine.Sim)); err != nil {
		t.Fatal(err)
	}
	var j struct {
		Mechanic      string                  `json:"mechanic"`
		Engine        string                  `json:"engine"`
		Params        map[string]float64      `json:"params"`
		Distributions map[string][][2]float64 `json:"distributions"`
		Events        map[string]float64      `json:"events"`
		CI95          map[string][2]float64   `json:"ci95"`
		Stats         map[string]map[string]float64
		Seed          *uint64 `json:"seed"`
		Trials        int64   `json:"trials"`
	}
	if err := json.Unmarshal(buf.Bytes(), &j); err != nil {
		t.Fatal(err)
	}
	if j.Mechanic != "ag.skill_test" || j.Params["skill"] != 2 || j.Events["success"] != 0.25 ||
		j.CI95["success"] != [2]float64{0.17, 0.34} || j.Stats["mos"]["mean"] != 0.25 || *j.Seed != 7 || j.Trials != 100 {
		t.Errorf("unexpected JSON: %s", buf.String())
	}
	if d := j.Distributions["mos"]; len(d) != 3 || d[0] != [2]float64{-1, 0.25} {
		t.Errorf("distribution pairs %v (zero-probability values are left out)", d)
	}
	if strings.Contains(buf.String(), "workers") {
		t.Error("JSON names the worker count; output must not depend on it")
	}
}

func TestTable(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	if err := WriteTable(&buf, sample(engine.Sim)); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"mechanic:", "ag.skill_test", "seed:", "success", "[0.1700, 0.3400]", "mos_band", "P(≥ x)"} {
		if !strings.Contains(buf.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, buf.String())
		}
	}
	if err := Write(io.Discard, sample(engine.Exact), "yaml"); err == nil {
		t.Error("unknown format accepted")
	}
}

func TestAtomicWrite(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	path := filepath.Join(dir, "out.csv")
	os.WriteFile(path, []byte("old"), 0o644)
	err := AtomicWrite(path, func(w io.Writer) error {
		io.WriteString(w, "half")
		return io.ErrUnexpectedEOF
	})
	if err == nil {
		t.Fatal("failed write reported success")
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("failed write changed the file: %q", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("temp file left: %v", entries)
	}
	if err := AtomicWrite(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "new" {
		t.Errorf("file is %q", b)
	}
}

func TestCSVExactColumn(t *testing.T) {
	t.Parallel()
	r := sample(engine.Exact)
	r.Vars[0].Exact = []string{"1/4", "1/2", "0", "1/4"}
	var buf bytes.Buffer
	if err := WriteCSV(&buf, r); err != nil {
		t.Fatal(err)
	}
	cr := csv.NewReader(&buf)
	cr.Comment = '#'
	rows, err := cr.ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, row := range rows[1:] {
		if row[0] == "pmf" {
			got[row[2]] = row[9]
		}
	}
	if got["-1"] != "1/4" || got["0"] != "1/2" || got["2"] != "1/4" {
		t.Errorf("exact column %v", got)
	}
}

func TestVarValue(t *testing.T) {
	t.Parallel()
	v := &engine.VarResult{Lo: -3, Den: 2}
	h := &engine.VarResult{Lo: 5, Den: 3}
	z := &engine.VarResult{Lo: 4}
	for _, c := range []struct {
		v    *engine.VarResult
		i    int
		want string
	}{{v, 0, "-1.5"}, {v, 1, "-1"}, {v, 4, "0.5"}, {h, 0, "5/3"}, {h, 1, "2"}, {z, 2, "6"}, {&engine.VarResult{Lo: 1, Den: 20}, 0, "0.05"}} {
		t.Run(c.want, func(t *testing.T) {
			t.Parallel()
			if got := VarValue(c.v, c.i); got != c.want {
				t.Errorf("VarValue(lo %d den %d, %d) = %q; want %q", c.v.Lo, c.v.Den, c.i, got, c.want)
			}
		})
	}
}
