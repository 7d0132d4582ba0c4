package study

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/pngtest"
	"github.com/oddsmith/oddsmith/lang/rules"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems"
)

// newSolve makes a solve of a built-in mechanic (or, for an id starting
// with "expr:", of a one-line expression).
func newSolve(t *testing.T, id string, sets []string, vary []string, targets []string) *Solve {
	t.Helper()
	var m *mechanics.Mechanic
	if src, ok := strings.CutPrefix(id, "expr:"); ok {
		r, err := rules.FromExpr(src)
		if err != nil {
			t.Fatal(err)
		}
		m = r.Mechanic()
	} else {
		var err error
		if m, err = systems.Default.Lookup(id); err != nil {
			t.Fatal(err)
		}
	}
	base, err := m.Configure(sets)
	if err != nil {
		t.Fatal(err)
	}
	return &Solve{Mechanic: m, Base: base, Vary: vary, Targets: targets, Engine: Engine{Kind: engine.Exact}}
}

func mustSolve(t *testing.T, s *Solve) *SolveResult {
	t.Helper()
	r, err := s.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// brute evaluates every setting of a one-parameter solve (its axis
// validated) with the solve's engine, independently of the search: metric
// k's value at each index.
func brute(t *testing.T, s *Solve) [][]engine.Estimate {
	t.Helper()
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	a := &s.axes[0]
	out := make([][]engine.Estimate, a.N)
	for i := range a.N {
		c := s.Base.Clone()
		if err := s.Mechanic.Set(c, a.Name+"="+a.Text(i)); err != nil {
			t.Fatal(err)
		}
		r, err := s.Engine.Run(context.Background(), s.Mechanic, c)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range s.metrics {
			e, err := m.Eval(r)
			if err != nil {
				t.Fatal(err)
			}
			out[i] = append(out[i], e)
		}
	}
	return out
}

// want is what a brute-force scan says of a one-parameter solve.
type want struct {
	feasible []Run   // settings meeting every inequality target
	nearest  float64 // the least distance to the equality target among them
	nearSet  []int64 // the settings at that distance
	best     float64 // the objective's optimum among them
	cross    [][2]int64
}

func wantOf(s *Solve, vals [][]engine.Estimate) want {
	return wantOfFunc(s, int64(len(vals)), func(i int64, k int) float64 { return vals[i][k].V })
}

// wantOfFunc is wantOf of n settings whose metric k at setting i is
// val(i, k).
func wantOfFunc(s *Solve, n int64, val func(i int64, k int) float64) want {
	var w want
	var feas []int64
	for i := range n {
		ok := true
		for ti := range s.targets {
			if t := &s.targets[ti]; !t.Equal && !t.Holds(val(i, s.targetAt[ti])) {
				ok = false
			}
		}
		if ok {
			feas = append(feas, i)
		}
	}
	w.feasible = runsOf(feas)
	w.nearest, w.best = math.Inf(1), math.Inf(1)
	sign := 1.0
	if s.Maximize != "" {
		sign = -1
	}
	for ti := range s.targets {
		t := &s.targets[ti]
		if !t.Equal {
			continue
		}
		k := s.targetAt[ti]
		for _, i := range feas {
			d := math.Abs(val(i, k) - t.Value)
			if d < w.nearest-1e-12 {
				w.nearest, w.nearSet = d, nil
			}
			if d <= w.nearest+1e-12 {
				w.nearSet = append(w.nearSet, i)
			}
		}
		for i := int64(0); i+1 < n; i++ {
			if t.atLeast(val(i, k)) != t.atLeast(val(i+1, k)) {
				w.cross = append(w.cross, [2]int64{i, i + 1})
			}
		}
	}
	if s.objective != nil {
		for _, i := range feas {
			w.best = math.Min(w.best, sign*val(i, s.objAt))
		}
		w.best *= sign
	}
	return w
}

// checkAgainstBrute compares a one-parameter answer with a brute-force
// scan of every setting.
func checkAgainstBrute(t *testing.T, s *Solve, r *SolveResult, vals [][]engine.Estimate) {
	t.Helper()
	w := wantOf(s, vals)
	if !slices.Equal(r.Feasible, w.feasible) && slices.ContainsFunc(s.targets, func(t Target) bool { return !t.Equal }) {
		t.Errorf("feasible %v; a scan says %v", r.Feasible, w.feasible)
	}
	equal := slices.IndexFunc(s.targets, func(t Target) bool { return t.Equal })
	if equal >= 0 && len(w.feasible) > 0 {
		tv := s.targets[equal].Value
		k := s.targetAt[equal]
		if len(r.Nearest) == 0 {
			t.Fatalf("no nearest setting; a scan says %v", w.nearSet)
		}
		for _, run := range r.Nearest {
			for i := run.First; i <= run.Last; i++ {
				if d := math.Abs(vals[i][k].V - tv); math.Abs(d-w.nearest) > 1e-12 {
					t.Errorf("nearest %s=%s is %g from the target; the scan's nearest is %g away (%v)", s.axes[0].Name, s.axes[0].Text(i), d, w.nearest, w.nearSet)
				}
			}
		}
		if r.Mode == "scan" && !slices.Equal(r.Nearest, runsOf(w.nearSet)) {
			t.Errorf("a scan's nearest %v; brute force %v", r.Nearest, runsOf(w.nearSet))
		}
		if !slices.Equal(r.Answers[equal].Crossings, w.cross) {
			t.Errorf("crossings %v; a scan says %v", r.Answers[equal].Crossings, w.cross)
		}
		// What the answer prints is what the engine gives there.
		for _, p := range r.Points {
			if p.Est[k] != vals[p.Index[0]][k] {
				t.Errorf("at index %d the solve read %v, the engine %v", p.Index[0], p.Est[k], vals[p.Index[0]][k])
			}
		}
	}
	if s.objective != nil && len(w.feasible) > 0 {
		if r.Best < 0 {
			t.Fatal("no best setting")
		}
		if got := r.Points[r.Best].Est[s.objAt].V; math.Abs(got-w.best) > 1e-12 {
			t.Errorf("best %s %g; a scan's best is %g", s.objective.Text, got, w.best)
		}
	}
	if len(w.feasible) == 0 && r.Closest < 0 && len(s.targets) > 0 && equal < 0 {
		t.Error("nothing feasible, and no closest setting")
	}
}

// TestSolveOneParameterAgainstScan checks answers over one integer
// parameter, found by bisection or by scanning, against brute force, for
// several mechanics, increasing and decreasing metrics, each kind of target
// and an objective.
func TestSolveOneParameterAgainstScan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id       string
		sets     []string
		vary     string
		targets  []string
		min, max string
		mode     string
	}{
		// decreasing in tn, bisection (60 settings)
		{"ag.skill_test", []string{"skill=3"}, "tn=1..60", []string{"event:success=0.6"}, "", "", "bisection"},
		{"ag.skill_test", []string{"skill=3"}, "tn=1..60", []string{"event:success>=0.5"}, "", "", "bisection"},
		{"ag.skill_test", []string{"skill=3"}, "tn=1..60", []string{"0.2<=event:success<=0.7"}, "", "event:crit_and_success", "bisection"},
		{"ag.skill_test", []string{"skill=3"}, "tn=1..14", []string{"event:success=0.6"}, "", "", "scan"},
		// increasing in skill
		{"ag.skill_test", []string{"tn=9"}, "skill=0..40", []string{"event:success=0.5"}, "", "", "bisection"},
		{"ag.skill_test", []string{"tn=9"}, "skill=1..40", []string{"event:success>0.5", "mean:mos<=3"}, "event:fumble", "", "bisection"},
		// the fumble chance rises from skill 0 (two dice, keep the lowest) to 1, then falls
		{"ag.skill_test", []string{"tn=9"}, "skill=0..40", []string{"event:success>0.5"}, "event:fumble", "", "scan"},
		{"ag.skill_test", []string{"tn=9"}, "skill=0..40", []string{"quantile:mos:0.5>=0"}, "", "", "bisection"},
		// an exact hit on a plateau: 'd20 + bonus >= tn' is exactly 0.5 at one tn
		{"expr:d20 + bonus >= tn", []string{"bonus=5"}, "tn=-100..100", []string{"event:success=0.5"}, "", "", "bisection"},
		{"expr:d20 + bonus >= tn", []string{"bonus=5"}, "tn=-100..100", []string{"event:success=1"}, "", "", "bisection"},
		{"expr:d20 + bonus >= tn", []string{"bonus=5"}, "tn=-100..100", []string{"p:total<=10>=0.25"}, "", "", "bisection"},
		// other systems
		{"grim.core.check", nil, "tn=1..40", []string{"event:success=0.35"}, "", "", "bisection"},
		{"bd.check", []string{"k=2"}, "vs=1..80", []string{"event:success<=0.25"}, "", "", "bisection"},
		{"gm.core.roll", nil, "score=1..40", []string{"event:success=0.75"}, "", "", "bisection"},
		// unreachable: the closest setting
		{"ag.skill_test", []string{"skill=3"}, "tn=1..60", []string{"event:success>=1.0", "event:success<=1"}, "", "", "bisection"},
		{"ag.skill_test", []string{"skill=1"}, "tn=20..60", []string{"event:success=0.5"}, "", "", "bisection"},
		// an objective alone
		{"ag.skill_test", []string{"skill=3"}, "tn=1..60", nil, "", "mean:mos", "bisection"},
	}
	for _, c := range cases {
		name := c.id + " " + c.vary + " " + strings.Join(c.targets, " ") + c.min + c.max
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := newSolve(t, c.id, c.sets, []string{c.vary}, c.targets)
			s.Minimize, s.Maximize = c.min, c.max
			r := mustSolve(t, s)
			if r.Mode != c.mode {
				t.Errorf("mode %s, want %s (fallback: %s)", r.Mode, c.mode, r.Fallback)
			}
			checkAgainstBrute(t, s, r, brute(t, s))
			if r.Mode == "bisection" && r.Evaluations > 40 {
				t.Errorf("%d evaluations for %d settings", r.Evaluations, s.axes[0].N)
			}
			if len(r.Answer()) < 2 {
				t.Errorf("answer %q", r.Answer())
			}
		})
	}
}

// TestSolveMillionSettings: a range of 2·10⁶ settings takes at most 30
// evaluations, and the answer agrees with the closed form of P(d20 + 5 ≥
// tn), scanned over the whole range.
func TestSolveMillionSettings(t *testing.T) {
	t.Parallel()
	for _, target := range []string{"event:success=0.6", "event:success=0.62", "event:success>=0.3", "event:success<0.3", "0.2<=event:success<=0.7"} {
		s := newSolve(t, "expr:d20 + bonus >= tn", []string{"bonus=5"}, []string{"tn=-1000000..1000000"}, []string{target})
		r := mustSolve(t, s)
		limit := 30
		if strings.Count(target, "<")+strings.Count(target, ">") > 1 {
			limit = 50 // two edges, two bisections
		}
		if r.Mode != "bisection" || r.Evaluations > limit {
			t.Errorf("%s: %s in %d evaluations, want bisection in at most %d", target, r.Mode, r.Evaluations, limit)
		}
		a := &s.axes[0]
		p := func(i int64) float64 { return math.Min(1, math.Max(0, (21-(a.Lo+float64(i)-5))/20)) }
		// The closed form is what the engine computes, where it evaluated.
		for _, pt := range r.Points {
			if d := math.Abs(pt.Est[0].V - p(pt.Index[0])); d > 1e-12 {
				t.Fatalf("at tn=%s the engine gives %g, the closed form %g", a.Text(pt.Index[0]), pt.Est[0].V, p(pt.Index[0]))
			}
		}
		w := wantOfFunc(s, a.N, func(i int64, _ int) float64 { return p(i) })
		tg := &s.targets[0]
		if tg.Equal {
			for _, run := range r.Nearest {
				for i := run.First; i <= run.Last; i++ {
					if d := math.Abs(p(i) - tg.Value); math.Abs(d-w.nearest) > 1e-12 {
						t.Errorf("%s: nearest tn=%s is %g off; the scan's best is %g off", target, a.Text(i), d, w.nearest)
					}
				}
			}
			if !slices.Equal(r.Answers[0].Crossings, w.cross) {
				t.Errorf("%s: crossings %v, want %v", target, r.Answers[0].Crossings, w.cross)
			}
		} else if !slices.Equal(r.Feasible, w.feasible) {
			t.Errorf("%s: feasible %v, want %v", target, r.Feasible, w.feasible)
		}
	}
}

// TestSolveNotMonotone: a metric that rises and falls is scanned, and the
// answer is brute force's; one that looks monotone at the probes but turns
// beside the answer is caught by the neighbours' check; a range too long
// to scan is refused.
func TestSolveNotMonotone(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ vary, target string }{
		{"x=-40..60", "event:success=0.1"},  // probes see it rise and fall
		{"x=2..200", "event:success=0.05"},  // probes see it fall only
		{"x=-40..60", "event:success>=0.1"}, // two runs? one: 5..9
	} {
		s := newSolve(t, "expr:2d6 == x", nil, []string{c.vary}, []string{c.target})
		r := mustSolve(t, s)
		if r.Mode != "scan" || r.Fallback == "" || !strings.Contains(r.Fallback, "not monotone") {
			t.Errorf("%s %s: mode %s, fallback %q", c.vary, c.target, r.Mode, r.Fallback)
		}
		checkAgainstBrute(t, s, r, brute(t, s))
		if txt := strings.Join(r.Answer(), "\n"); !strings.Contains(txt, "not monotone") || !strings.Contains(txt, "scanned") {
			t.Errorf("the answer does not say it was not monotone:\n%s", txt)
		}
	}
	s := newSolve(t, "expr:2d6 == x", nil, []string{"x=-40..60"}, []string{"event:success=0.1"})
	r := mustSolve(t, s)
	if got := r.Nearest; !slices.Equal(got, []Run{{45, 45}, {49, 49}}) {
		t.Errorf("nearest %v, want x=5 and x=9 (a tie)", got)
	}
	s = newSolve(t, "expr:2d6 == x", nil, []string{"x=-40..60"}, []string{"event:success=0.1"})
	s.ScanMax = 50
	if _, err := s.Run(context.Background(), nil); err == nil || !mechanics.IsInput(err) || !strings.Contains(err.Error(), "too many to scan") {
		t.Errorf("a range too long to scan: %v", err)
	}
}

// TestSolveRealParameter: a real parameter is bisected to the tolerance;
// the answer is brute force's over the same lattice.
func TestSolveRealParameter(t *testing.T) {
	t.Parallel()
	cases := []struct {
		id, vary string
		tol      float64
		target   string
	}{
		{"gm.fall", "height=0..100", 0.5, "event:damage_reaches_survival>=0.1"},
		{"gm.fall", "height=0..100", 0.2, "mean:damage=10"},
		{"ag.fall_damage", "height=0..30", 0.05, "mean:damage=5"},
	}
	if !testing.Short() {
		// The default tolerance, 0.1: 1001 settings to check.
		cases = append(cases, struct {
			id, vary string
			tol      float64
			target   string
		}{"gm.fall", "height=0..100", 0, "event:damage_reaches_survival>=0.1"})
	}
	for _, c := range cases {
		s := newSolve(t, c.id, nil, []string{c.vary}, []string{c.target})
		s.Tolerance = c.tol
		r := mustSolve(t, s)
		a := &s.axes[0]
		if !a.Real || r.Mode != "bisection" {
			t.Fatalf("%s %s: real %v, mode %s", c.id, c.vary, a.Real, r.Mode)
		}
		if c.tol == 0 && a.Step != DefaultTolerance(a.Lo, a.Hi) || c.tol != 0 && a.Step != c.tol {
			t.Errorf("%s: tolerance %g", c.id, a.Step)
		}
		if r.Evaluations > 25 {
			t.Errorf("%s: %d evaluations", c.id, r.Evaluations)
		}
		checkAgainstBrute(t, s, r, brute(t, s))
		if !strings.Contains(r.method(), "searched to within") {
			t.Errorf("the answer does not state the tolerance: %s", r.method())
		}
	}
	if got := DefaultTolerance(0, 400); got != 0.1 {
		t.Errorf("default tolerance over 0..400: %g", got)
	}
}

// TestSolveGridAgainstScan: a grid's feasible settings, nearest, best and
// frontier are brute force's.
func TestSolveGridAgainstScan(t *testing.T) {
	t.Parallel()
	cases := []struct {
		vary     []string
		targets  []string
		min, max string
	}{
		{[]string{"skill=0..8", "tn=1..14"}, []string{"0.55<=event:success<=0.65"}, "", "event:crit"},
		{[]string{"skill=0..8", "tn=1..14"}, []string{"event:success=0.6"}, "", ""},
		{[]string{"skill=1..6", "attribute=0..4", "tn=4..8"}, []string{"event:success>=0.5", "event:fumble<=0.1"}, "mean:mos", ""},
		{[]string{"skill=0..4", "opt.crit_count=extra_copies,kept_only"}, []string{"event:crit>=0.3"}, "", ""},
	}
	for _, c := range cases {
		s := newSolve(t, "ag.skill_test", nil, c.vary, c.targets)
		s.Minimize, s.Maximize = c.min, c.max
		r := mustSolve(t, s)
		if r.Mode != "grid" {
			t.Fatalf("mode %s", r.Mode)
		}
		// Brute force: every setting of the grid, by Sweep's own code.
		sw := &Sweep{Mechanic: s.Mechanic, Base: s.Base, Engine: s.Engine}
		for _, v := range c.vary {
			a, err := ParseAxis(v)
			if err != nil {
				t.Fatal(err)
			}
			sw.Axes = append(sw.Axes, a)
		}
		n := 1
		for _, a := range sw.Axes {
			n *= len(a.Values)
		}
		if r.Evaluations != n || len(r.Points) != n {
			t.Fatalf("%d evaluations, %d points; the grid has %d", r.Evaluations, len(r.Points), n)
		}
		// The grid in the same order as the solve's (first axis fastest).
		var feasible []int
		nearest, best := math.Inf(1), math.Inf(1)
		sign := 1.0
		if c.max != "" {
			sign = -1
		}
		for f := range n {
			idx := s.unflat(int64(f))
			cfg := s.Base.Clone()
			for k, a := range sw.Axes {
				if err := s.Mechanic.Set(cfg, a.Name+"="+a.Text(a.Values[idx[k]])); err != nil {
					t.Fatal(err)
				}
			}
			res, err := s.Engine.Run(context.Background(), s.Mechanic, cfg)
			if err != nil {
				t.Fatal(err)
			}
			ok := true
			var dist float64 = math.Inf(1)
			for ti := range s.targets {
				tg := &s.targets[ti]
				e, _ := tg.Metric.Eval(res)
				if tg.Equal {
					dist = math.Abs(e.V - tg.Value)
				} else if !tg.Holds(e.V) {
					ok = false
				}
			}
			if ok {
				feasible = append(feasible, f)
				nearest = math.Min(nearest, dist)
				if s.objective != nil {
					e, _ := s.objective.Eval(res)
					best = math.Min(best, sign*e.V)
				}
			}
			if r.Points[f].Fingerprint != res.Fingerprint {
				t.Fatalf("point %d is not setting %v", f, idx)
			}
		}
		if !slices.Equal(r.FeasiblePoints, feasible) {
			t.Errorf("%v: feasible %v, want %v", c.targets, r.FeasiblePoints, feasible)
		}
		if eq := slices.IndexFunc(s.targets, func(t Target) bool { return t.Equal }); eq >= 0 {
			for _, j := range r.NearestPoints {
				if d := math.Abs(r.Points[j].Est[s.targetAt[eq]].V - s.targets[eq].Value); math.Abs(d-nearest) > 1e-12 {
					t.Errorf("nearest is %g off, brute force %g", d, nearest)
				}
			}
		}
		if s.objective != nil && len(feasible) > 0 {
			if got := sign * r.Points[r.Best].Est[s.objAt].V; math.Abs(got-best) > 1e-12 {
				t.Errorf("best %g, brute force %g", got, best)
			}
		}
		// The frontier: every row's feasible settings are the grid's.
		var fromRows int64
		for _, row := range r.Frontier {
			fromRows += row.Count
			for _, run := range row.Feasible {
				for i := run.First; i <= run.Last; i++ {
					if !slices.Contains(feasible, int(s.flat(append(slices.Clone(row.Index), i)))) {
						t.Errorf("frontier row %v lists %d, which is not feasible", row.Index, i)
					}
				}
			}
		}
		if fromRows != int64(len(feasible)) {
			t.Errorf("the frontier counts %d feasible settings, the grid %d", fromRows, len(feasible))
		}
		var b strings.Builder
		if err := r.WriteText(&b); err != nil || !strings.Contains(b.String(), "Frontier") {
			t.Errorf("text: %v\n%s", err, b.String())
		}
	}
}

// TestSolveSim: with the simulator (fixed seed) every value carries its
// interval, the answer is brute force's over the same simulated results,
// and the settings whose interval covers the target are named.
func TestSolveSim(t *testing.T) {
	t.Parallel()
	for _, vary := range []string{"tn=1..14", "tn=1..60"} {
		s := newSolve(t, "ag.skill_test", []string{"skill=3"}, []string{vary}, []string{"event:success=0.55"})
		s.Engine = Engine{Kind: engine.Sim, Trials: 4000, Seed: 7, Workers: 2}
		r := mustSolve(t, s)
		vals := brute(t, s)
		checkAgainstBrute(t, s, r, vals)
		var covers []int64
		for i, v := range vals {
			if v[0].Covers(0.55) {
				covers = append(covers, int64(i))
			}
			if v[0].Lo == v[0].Hi {
				t.Fatalf("a simulated value without an interval: %v", v[0])
			}
		}
		var got []int64
		for _, j := range r.Indistinct {
			got = append(got, r.Points[j].Index[0])
		}
		if !slices.Equal(got, covers) {
			t.Errorf("%s: indistinguishable %v; the intervals that cover 0.55: %v", vary, got, covers)
		}
		if txt := strings.Join(r.Answer(), "\n"); len(covers) > 0 && !strings.Contains(txt, "Indistinguishable from the target at 4000 trials") {
			t.Errorf("the answer does not say which settings are indistinguishable:\n%s", txt)
		}
	}
}

// TestSolveBadInput: each mistake is bad input naming it, before anything
// runs.
func TestSolveBadInput(t *testing.T) {
	t.Parallel()
	cases := []struct {
		vary    []string
		targets []string
		max     string
		want    string
	}{
		{[]string{"tn=1..14"}, []string{"event:sucess=0.6"}, "", `no event "sucess"`},
		{[]string{"tn=1..14"}, []string{"mean:nope>=2"}, "", `no variable "nope"`},
		{[]string{"tn=14..1"}, []string{"event:success=0.6"}, "", "is empty"},
		{[]string{"tn=1..14"}, []string{"event:success=1.2"}, "", "outside what event:success can be"},
		{[]string{"tn=1..14"}, []string{"event:success>=-0.1"}, "", "outside what"},
		{[]string{"tn=1..14"}, []string{"event:success>1"}, "", "can never hold"},
		{[]string{"tn=1..14"}, []string{"event:success>=0.7", "event:success<=0.6"}, "", "contradictory targets"},
		{[]string{"tn=1..14"}, []string{"event:success=0.5", "event:success>0.5"}, "", "contradictory targets"},
		{[]string{"tn=1..14"}, []string{"0.7<=event:success<=0.6"}, "", "the range is empty"},
		{[]string{"tn=1..14"}, []string{"event:success=0.5", "event:crit=0.1"}, "", "give one METRIC=VALUE target"},
		{[]string{"tn=1..14"}, []string{"event:success=0.5"}, "event:crit", "already picks"},
		{[]string{"tn=1..14"}, []string{"event:success"}, "", "no comparison"},
		{[]string{"tn=1..14"}, nil, "", "needs a --target"},
		{[]string{"tn=0..14"}, []string{"event:success=0.5"}, "", "out of range"},
		{[]string{"tn=1..14", "tn=2..3"}, []string{"event:success=0.5"}, "", "varied twice"},
		{[]string{"opt.tie=1..3"}, []string{"event:success=0.5"}, "", "is an option"},
		{[]string{"tn=1..3000000000"}, []string{"event:success=0.5"}, "", "more than"},
		{[]string{"skill=0..40", "tn=1..60", "attribute=0..20", "modifier=-20..20"}, []string{"event:success=0.5"}, "", "one to 3 parameters"},
		{[]string{"skill=0..40", "tn=1..60", "attribute=0..20:0.25"}, []string{"event:success=0.5"}, "", "more than 100000"},
	}
	for _, c := range cases {
		s := newSolve(t, "ag.skill_test", nil, c.vary, c.targets)
		s.Maximize = c.max
		err := s.Validate()
		if err == nil || !mechanics.IsInput(err) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v: %v; want bad input with %q", c.vary, c.targets, err, c.want)
		}
	}
}

// TestParseTarget reads comparisons from the right, range bounds from the
// left.
func TestParseTarget(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, metric, canon string }{
		{"event:success=0.6", "event:success", "event:success = 0.6"},
		{"event:success == 0.6", "event:success", "event:success = 0.6"},
		{"p:damage<=5>=0.5", "p:damage<=5", "p:damage<=5 >= 0.5"},
		{"p:damage<=5<0.5", "p:damage<=5", "p:damage<=5 < 0.5"},
		{"0.55<=event:success<=0.65", "event:success", "0.55 <= event:success <= 0.65"},
		{"0.1<p:x>=3<0.9", "p:x>=3", "0.1 < p:x>=3 < 0.9"},
		{"mean:margin>-2.5", "mean:margin", "mean:margin > -2.5"},
		{"event:a+event:b>=1e-3", "event:a+event:b", "event:a+event:b >= 0.001"},
	} {
		tg, err := ParseTarget(c.in)
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if tg.Metric.Text != c.metric || tg.String() != c.canon {
			t.Errorf("%s: metric %q, canonical %q; want %q, %q", c.in, tg.Metric.Text, tg.String(), c.metric, c.canon)
		}
	}
}

func solvePlan(t *testing.T) *Plan {
	t.Helper()
	const file = "testdata/solve_plan.toml"
	src, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	p, err := ParsePlan(systems.Default, file, src)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSolvePlan: [[solve]] tables run in a plan, write their files and
// say their answer in the index; their shards, merged, write the bytes of
// a single run for K ∈ {1, 2, 3, 7}.
func TestSolvePlan(t *testing.T) {
	t.Parallel()
	p := solvePlan(t)
	dir := t.TempDir()
	single := filepath.Join(dir, "single")
	files, err := RunPlan(context.Background(), p, single, nil)
	if err != nil {
		t.Fatal(err)
	}
	index, err := os.ReadFile(filepath.Join(single, "index.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"## tn_for_60 — solve `ag.skill_test` (exact)", "tn=7 gives event:success = 0.5417, the nearest to 0.6",
		"found by bisection", "Indistinguishable from the target at 4000 trials", "height searched to within 0.5",
		"| skill | tn meeting the targets |", "](grid_frontier.csv)", "](three.csv)", "## one_liner — solve `expr` (exact)", "event:success >= 0.25 holds for tn=-1000..19"} {
		if !bytes.Contains(index, []byte(want)) {
			t.Errorf("index.md lacks %q:\n%s", want, index)
		}
	}
	for _, f := range files {
		if filepath.Ext(f) == ".png" {
			pngtest.Check(t, filepath.Base(f), mustRead(t, f))
		}
	}
	pts, err := p.ShardPoints()
	if err != nil {
		t.Fatal(err)
	}
	searches := 0
	for _, pt := range pts {
		if pt.Search != nil {
			searches++
		}
	}
	if searches != 4 {
		t.Errorf("%d search points, want 4 (rule_million, sim_bisection, fall, one_liner)", searches)
	}
	for _, k := range []int{1, 2, 3, 7} {
		t.Run(fmt.Sprintf("K=%d", k), func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(dir, fmt.Sprintf("merged%d", k))
			runSharded(t, p, k, out)
			sameBundle(t, single, out)
		})
	}
}

func mustRead(t *testing.T, f string) []byte {
	t.Helper()
	b, err := os.ReadFile(f)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSolvePlanErrors: a malformed [[solve]] names the file, its line and
// the problem.
func TestSolvePlanErrors(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ body, want string }{
		{"name = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { tn = \"1..14\" }\ntarget = \"event:sucess=0.5\"", `plan.toml:1: solve 1 (a): ag.skill_test has no event "sucess"`},
		{"name = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { tn = \"1..14\" }\ntarget = [\"event:success>=0.7\", \"event:success<=0.6\"]", "contradictory targets"},
		{"name = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { tn = \"1..14\" }\ntarget = 3", "target must be a string"},
		{"name = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { tn = 3 }\ntarget = \"event:success=0.5\"", "vary tn must be"},
		{"name = \"a\"\nmechanic = \"ag.skill_test\"\nvary = { tn = \"1..14\" }\ntarget = \"event:success=0.5\"\nbogus = 1", "unknown key"},
	} {
		src := "[[solve]]\n" + c.body + "\n"
		_, err := ParsePlan(systems.Default, "plan.toml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: %v; want %q", c.body, err, c.want)
		}
	}
}
