package reports

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// walkMechanic is a homogeneous random walk on 0..n (0 absorbing), its
// model built at the parameter n; noExact, when set, is what the model
// says the exact engine would face (Spec.NoExact).
func walkMechanic(mcOnly bool, noExact func(p *mechanics.Process) string) *mechanics.Mechanic {
	m := &mechanics.Mechanic{
		ID: "t.walk", Summary: "a walk", Doc: "A walk down to 0.",
		Params: []mechanics.Param{mechanics.IntParam("n", 3, 1, 50, "start")},
		Build: func(c mechanics.Config) (*mechanics.Spec, error) {
			n := c.Int("n")
			p := &mechanics.Process{Homogeneous: true, Horizon: 10, TimeUnit: "round"}
			p.Add(true, "done")
			for i := 1; i <= n; i++ {
				p.Add(false, "at "+string(rune('0'+i%10)))
			}
			p.Start = n
			p.Kernel = func(int) mechanics.Node { return mechanics.D(2) }
			p.Move = func(_, s, x int) int { return max(0, s-x+1) }
			spec := mechanics.ProcessSpec(p)
			if noExact != nil {
				spec.NoExact = noExact(p)
			}
			return spec, nil
		},
	}
	if mcOnly {
		m.MCOnly, m.MCReason = true, "its chain is too long in general"
	}
	return m
}

func describe(t *testing.T, m *mechanics.Mechanic, markdown bool, settings ...string) string {
	t.Helper()
	c, err := m.Configure(settings)
	if err != nil {
		t.Fatal(err)
	}
	spec, err := m.Model(c)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if markdown {
		err = WriteDescriptionMarkdown(&b, m, spec, len(settings) > 0)
	} else {
		err = WriteDescription(&b, m, spec, len(settings) > 0)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// The engines line and the model line say what the engines do with the
// model described: a simulator-only mechanic is never said to be solved
// by the exact engine (the old text said every homogeneous process was),
// its reason gives the size the model states at these settings, and a
// configuration the exact engine refuses (Spec.NoExact) is simulator-only
// at these settings (the old text said "exact and simulator").
func TestDescribeEnginesFollowTheModel(t *testing.T) {
	size := func(p *mechanics.Process) string { return itoa(len(p.States)) + " states" }
	cases := []struct {
		name        string
		m           *mechanics.Mechanic
		settings    []string
		exact       bool
		wantEngines string
	}{
		{"exact", walkMechanic(false, nil), nil, true, "Engines: exact and simulator"},
		{"sim only", walkMechanic(true, nil), nil, false, "Engines: simulator only (its chain is too long in general)"},
		{"sim only, its size", walkMechanic(true, size), []string{"n=7"}, false,
			"Engines: simulator only (its chain is too long in general; at these settings: 8 states)"},
		{"refused here", walkMechanic(false, size), nil, false,
			"Engines: simulator only at the defaults (too large for the exact engine: 4 states); exact and simulator where the model is smaller"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, md := range []bool{false, true} {
				d := describe(t, c.m, md, c.settings...)
				if !strings.Contains(d, c.wantEngines) {
					t.Errorf("markdown=%v: no %q in\n%s", md, c.wantEngines, d)
				}
				for _, claim := range []string{"exact engine also solves", "unlimited-horizon"} {
					if strings.Contains(d, claim) != c.exact {
						t.Errorf("markdown=%v: %q present = %v; want %v:\n%s", md, claim, !c.exact, c.exact, d)
					}
				}
			}
		})
	}
}

func itoa(n int) string { return mechanics.FormatNum(float64(n)) }

// burstMechanic records the total of one d6 that bursts without limit
// (declared as far as MaxBursts bursts reach, as models do) beside a
// field with a real bound.
func burstMechanic(limit int) *mechanics.Mechanic {
	return &mechanics.Mechanic{
		ID: "t.burst", Summary: "a bursting d6", Doc: "d6!",
		Build: func(mechanics.Config) (*mechanics.Spec, error) {
			rec := mechanics.NewRecord(mechanics.Int("total", 1, 6*(mechanics.MaxBursts+1), "the total"),
				mechanics.Int("big", 0, 1, "a real bound"))
			total, big := rec.Slot("total"), rec.Slot("big")
			out := mechanics.Map{X: mechanics.Explode{Die: mechanics.D(6), Limit: limit, Tolerance: 1e-9}, F: func(x int) int {
				return big.SetBool(total.Set(rec.Start(), x), x > 6)
			}}
			spec := &mechanics.Spec{Record: rec, Outcome: out}
			spec.Report("total", "big")
			return spec, nil
		},
	}
}

// A bound that only holds the longest run of bursts the simulator follows
// is shown as ∞, with the bound it is declared to and a note that says
// what that bound is and where the exact engine stops, from the model (its
// tolerance, mechanics.MaxBursts); a die with a limit keeps its bounds. The
// old text printed "1..60006" unexplained.
func TestDescribeOpenBounds(t *testing.T) {
	for _, md := range []bool{false, true} {
		d := describe(t, burstMechanic(0), md)
		for _, want := range []string{"1..∞ (declared up to 60006)", "10000 maxima in a row", "at most 1e-09 a die", "0..1"} {
			if !strings.Contains(d, want) {
				t.Errorf("markdown=%v: no %q in\n%s", md, want, d)
			}
		}
		if strings.Contains(d, "1..60006 ") || strings.Count(d, "∞") != 2 {
			t.Errorf("markdown=%v: the open bound is not shown once as ∞ with one note:\n%s", md, d)
		}
	}
	limited := burstMechanic(2)
	limited.Build = func(mechanics.Config) (*mechanics.Spec, error) {
		rec := mechanics.NewRecord(mechanics.Int("total", 1, 18, "the total"))
		spec := &mechanics.Spec{Record: rec, Outcome: mechanics.Explode{Die: mechanics.D(6), Limit: 2}}
		spec.Var("total", "the total", expr.F("total"))
		return spec, nil
	}
	if d := describe(t, limited, false); strings.Contains(d, "∞") || !strings.Contains(d, "1..18") {
		t.Errorf("a die with a limit has real bounds:\n%s", d)
	}
}
