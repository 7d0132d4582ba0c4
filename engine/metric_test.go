package engine

import (
	"math"
	"strings"
	"testing"
)

// d6 is an exact result for one d6 (value), an event six and a band.
func d6() *Result {
	p := make([]float64, 6)
	for i := range p {
		p[i] = 1.0 / 6
	}
	return &Result{Mechanic: "toy.d6", Engine: Exact,
		Vars:   []VarResult{{Name: "value", Lo: 1, Den: 1, P: p, Stats: Stats{Mean: 3.5, SD: math.Sqrt(35.0 / 12)}}},
		Events: []EventResult{{Name: "six", P: 1.0 / 6}},
		Bands:  []BandResult{{Name: "size", Labels: []string{"low", "high"}, P: []float64{0.5, 0.5}}}}
}

func TestMetricEvalExact(t *testing.T) {
	r := d6()
	for _, c := range []struct {
		metric string
		want   float64
	}{
		{"event:six", 1.0 / 6},
		{"mean:value", 3.5},
		{"sd:value", math.Sqrt(35.0 / 12)},
		{"p:value<=2", 2.0 / 6},
		{"p:value<2", 1.0 / 6},
		{"p:value>=5", 2.0 / 6},
		{"p:value>5", 1.0 / 6},
		{"p:value=3", 1.0 / 6},
		{"p:value<=-1", 0},
		{"quantile:value:0.5", 3},
		{"quantile:value:0.51", 4},
		{"quantile:value:0.9", 6},
		{"band:size:high", 0.5},
		{"event:six + p:value<=2", 0.5},
		{"mean:value+mean:value", 7},
	} {
		m, err := ParseMetric(c.metric)
		if err != nil {
			t.Fatalf("%s: %v", c.metric, err)
		}
		e, err := m.Eval(r)
		if err != nil {
			t.Fatalf("%s: %v", c.metric, err)
		}
		if math.Abs(e.V-c.want) > 1e-12 || e.Lo != e.V || e.Hi != e.V {
			t.Errorf("%s = %+v, want %v exactly", c.metric, e, c.want)
		}
	}
}

func TestMetricErrors(t *testing.T) {
	for _, c := range []struct{ metric, want string }{
		{"", "empty metric"},
		{"mean", "is not one of"},
		{"median:value", "unknown kind"},
		{"p:value", "p:VAR<=x"},
		{"p:value<=x", "is not a number"},
		{"quantile:value:1", "strictly between 0 and 1"},
		{"quantile:value", "quantile:VAR:q"},
		{"band:size", "band:NAME:LABEL"},
		{"event:six+", "is not one of"},
	} {
		_, err := ParseMetric(c.metric)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseMetric(%q) = %v, want an error with %q", c.metric, err, c.want)
		}
	}
	r := d6()
	for _, c := range []struct{ metric, want string }{
		{"event:seven", `no event "seven" (its events: six)`},
		{"mean:total", `no variable "total" (its variables: value)`},
		{"band:size:mid", `no category "mid"`},
		{"band:shape:x", `no band "shape"`},
	} {
		m, err := ParseMetric(c.metric)
		if err != nil {
			t.Fatal(err)
		}
		if err := m.Check(r); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: Check = %v, want %q", c.metric, err, c.want)
		}
	}
}

func TestMetricSimIntervals(t *testing.T) {
	// 600 simulated d6 rolls, exactly 100 of each face.
	r := d6()
	r.Engine, r.Trials = Sim, 600
	r.Vars[0].Counts = []int64{100, 100, 100, 100, 100, 100}
	r.Events[0].Count = 100
	r.Events[0].CI = Wilson(100, 600)
	for _, metric := range []string{"event:six", "mean:value", "sd:value", "p:value<=2", "quantile:value:0.5", "event:six+p:value<=2"} {
		m, _ := ParseMetric(metric)
		e, err := m.Eval(r)
		if err != nil {
			t.Fatal(err)
		}
		if !(e.Lo <= e.V && e.V <= e.Hi) {
			t.Errorf("%s: %+v does not hold its value", metric, e)
		}
		if metric != "quantile:value:0.5" && !(e.Lo < e.V && e.V < e.Hi) {
			t.Errorf("%s: %+v has no width at 600 trials", metric, e)
		}
	}
	m, _ := ParseMetric("p:value<=2")
	e, _ := m.Eval(r)
	if w := Wilson(200, 600); e.Lo != w[0] || e.Hi != w[1] {
		t.Errorf("p:value<=2 interval %+v, want Wilson %v", e, w)
	}
	m, _ = ParseMetric("mean:value")
	e, _ = m.Eval(r)
	if h := z95 * math.Sqrt(35.0/12) / math.Sqrt(600); math.Abs(e.Hi-e.V-h) > 1e-12 {
		t.Errorf("mean interval half-width %v, want %v", e.Hi-e.V, h)
	}
	// A sum's interval adds its terms' intervals.
	m, _ = ParseMetric("event:six+p:value<=2")
	e, _ = m.Eval(r)
	if w1, w2 := Wilson(100, 600), Wilson(200, 600); math.Abs(e.Lo-w1[0]-w2[0]) > 1e-15 || math.Abs(e.Hi-w1[1]-w2[1]) > 1e-15 {
		t.Errorf("sum interval %+v", e)
	}
}

func TestMetricUndefinedVariable(t *testing.T) {
	// A variable defined with probability 1/2: p counts over all
	// outcomes, quantile and mean are given that it is defined.
	r := &Result{Mechanic: "toy", Engine: Exact, Vars: []VarResult{{Name: "x", Lo: 1, Den: 1, P: []float64{0.25, 0.25}, Undefined: 0.5, Stats: Stats{Mean: 1.5}}}}
	for metric, want := range map[string]float64{"p:x<=1": 0.25, "p:x>=1": 0.5, "quantile:x:0.5": 1, "quantile:x:0.6": 2, "mean:x": 1.5} {
		m, _ := ParseMetric(metric)
		if e, err := m.Eval(r); err != nil || math.Abs(e.V-want) > 1e-12 {
			t.Errorf("%s = %v, %v; want %v", metric, e.V, err, want)
		}
	}
}

// An event named in words (a process's absorbing state) is a metric; a
// variable with a space in its name, or a name padded with spaces, is not.
func TestMetricEventNamedInWords(t *testing.T) {
	r := &Result{Mechanic: "toy.chain", Engine: Exact, Events: []EventResult{{Name: "absorbed:level 4 (dying)", P: 0.25}}}
	m, err := ParseMetric("event:absorbed:level 4 (dying)")
	if err != nil {
		t.Fatal(err)
	}
	if e, err := m.Eval(r); err != nil || e.V != 0.25 {
		t.Errorf("Eval = %+v, %v; want 0.25", e, err)
	}
	for _, bad := range []string{"mean:time ill", "event: six", "p:time ill<=3"} {
		if _, err := ParseMetric(bad); err == nil {
			t.Errorf("ParseMetric(%q) accepted a malformed name", bad)
		}
	}
}
