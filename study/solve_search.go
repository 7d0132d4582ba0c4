package study

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// SolvePoint is one setting a solve evaluated: its index on each axis and
// each metric's estimate there (Solve.Metrics order).
type SolvePoint struct {
	Index       []int64
	Est         []engine.Estimate
	Fingerprint string
}

// Run is the settings First..Last (indices, inclusive) of one axis.
type Run struct{ First, Last int64 }

// Len is the number of settings in the run.
func (r Run) Len() int64 { return r.Last - r.First + 1 }

// Shape is how a metric moves along a searched axis, judged at the
// settings evaluated: "increasing", "decreasing", "constant" or "not
// monotone" (Rise and Fall then show it).
type Shape struct {
	Metric     string
	Dir        string
	Rise, Fall [2]int64
}

// TargetAnswer is what one target gives on its own (one varied parameter).
type TargetAnswer struct {
	Target *Target
	// Holds are the settings that meet an inequality target, or that give
	// an equality target's value exactly; Count how many.
	Holds []Run
	Count int64
	// Crossings (an equality target) are neighbouring settings between
	// which the metric crosses the value; Edges (an inequality target)
	// are neighbouring settings, the first inside Holds, the second
	// outside.
	Crossings [][2]int64
	Edges     [][2]int64
}

// FrontierRow is one row of a grid's frontier: the settings of every
// parameter but the last (Index), and along the last the settings that
// meet every inequality target, the nearest to an equality target, the
// best by the objective, and where an equality target is crossed.
type FrontierRow struct {
	Index     []int64
	Feasible  []Run
	Count     int64
	Nearest   []int64
	Best      int64
	Crossings [][2]int64
}

// SolveResult is a solve's answer.
type SolveResult struct {
	Solve *Solve
	// Mode is "bisection", "scan" (one parameter) or "grid".
	Mode string
	// Fallback says why a bisection became a scan ("" when it did not).
	Fallback string
	// Points are the settings evaluated, in index order (first axis
	// fastest in a grid); Evaluations how many engine runs they took.
	Points      []*SolvePoint
	Evaluations int
	// Shapes are the metrics' shapes along a searched span (one
	// parameter, not a list).
	Shapes []Shape
	// Answers are each target's own (one parameter).
	Answers []TargetAnswer
	// Feasible are the settings that meet every inequality target (the
	// whole range when there are none), NFeasible how many; in a grid,
	// FeasiblePoints lists them (indices into Points).
	Feasible       []Run
	NFeasible      int64
	FeasiblePoints []int
	// Nearest are the feasible settings nearest to the equality target
	// (one parameter: Runs; a grid: indices into Points in NearestPoints).
	Nearest       []Run
	NearestPoints []int
	// Best is the point (index into Points) the objective picks among the
	// feasible settings; Ties how many others give the same value. -1
	// when there is no objective or nothing is feasible.
	Best, Ties int
	// Closest is, when no setting meets every inequality target, the
	// evaluated point that misses them by the least (-1 otherwise).
	Closest int
	// Indistinct (simulation) are the points whose 95% interval covers the
	// equality target's value; Uncertain those whose interval straddles a
	// bound of an inequality target.
	Indistinct, Uncertain []int
	// Frontier is a grid's table, one row per setting of every parameter
	// but the last.
	Frontier []FrontierRow

	byIndex map[int64]int
}

// point returns the evaluated point at a 1-D index (nil if not evaluated).
func (r *SolveResult) point(i int64) *SolvePoint {
	if j, ok := r.byIndex[i]; ok {
		return r.Points[j]
	}
	return nil
}

// Point is the evaluated point at index i of a one-parameter solve (nil if
// it was not evaluated).
func (r *SolveResult) Point(i int64) *SolvePoint { return r.point(i) }

// evaluator runs the engine at settings, once each.
type evaluator struct {
	s        *Solve
	ctx      context.Context
	progress func()

	mu    sync.Mutex
	at    map[int64]*SolvePoint // by flat index
	evals int
}

// flat is the flat index of a grid setting (first axis fastest).
func (s *Solve) flat(idx []int64) int64 {
	f, mul := int64(0), int64(1)
	for k, i := range idx {
		f += i * mul
		mul *= s.axes[k].N
	}
	return f
}

// unflat is the axes' indices of a flat index.
func (s *Solve) unflat(f int64) []int64 {
	idx := make([]int64, len(s.axes))
	for k := range s.axes {
		idx[k] = f % s.axes[k].N
		f /= s.axes[k].N
	}
	return idx
}

// describe prints a setting: "skill=3 tn=5".
func (s *Solve) describe(idx []int64) string {
	parts := make([]string, len(idx))
	for k, i := range idx {
		parts[k] = s.axes[k].Name + "=" + s.axes[k].Text(i)
	}
	return strings.Join(parts, " ")
}

// eval evaluates the setting at idx (once).
func (ev *evaluator) eval(idx []int64) (*SolvePoint, error) {
	f := ev.s.flat(idx)
	ev.mu.Lock()
	if p := ev.at[f]; p != nil {
		ev.mu.Unlock()
		return p, nil
	}
	ev.mu.Unlock()
	s := ev.s
	c, err := s.config(idx)
	if err != nil {
		return nil, fmt.Errorf("at %s: %w", s.describe(idx), err)
	}
	if err := ev.ctx.Err(); err != nil {
		return nil, err
	}
	r, err := s.Engine.Run(ev.ctx, s.Mechanic, c)
	if err != nil {
		return nil, fmt.Errorf("at %s: %w", s.describe(idx), err)
	}
	if s.record != nil {
		s.record(c, r)
	}
	p := &SolvePoint{Index: slices.Clone(idx), Fingerprint: r.Fingerprint, Est: make([]engine.Estimate, len(s.metrics))}
	for k, m := range s.metrics {
		if err := m.Check(r); err != nil {
			return nil, mechanics.AsInput(fmt.Errorf("at %s: %w", s.describe(idx), err))
		}
		if p.Est[k], err = m.Eval(r); err != nil {
			return nil, fmt.Errorf("at %s: %w", s.describe(idx), err)
		}
	}
	ev.mu.Lock()
	defer ev.mu.Unlock()
	if have := ev.at[f]; have != nil {
		return have, nil
	}
	ev.at[f] = p
	ev.evals++
	if ev.progress != nil {
		ev.progress()
	}
	return p, nil
}

// eval1 evaluates index i of a one-parameter solve.
func (ev *evaluator) eval1(i int64) (*SolvePoint, error) { return ev.eval([]int64{i}) }

// evalAll evaluates flat indices [0, n): side by side with the exact
// engine, one after another with the simulator (which uses every core
// for each point).
func (ev *evaluator) evalAll(n int64) error {
	limit := runtime.GOMAXPROCS(0)
	if ev.s.Engine.Kind == engine.Sim && ev.s.Engine.Source == nil {
		limit = 1
	}
	g, gctx := newGroup(ev.ctx, limit)
	outer := ev.ctx
	ev.ctx = gctx
	defer func() { ev.ctx = outer }()
	for f := range n {
		g.Go(func() error {
			_, err := ev.eval(ev.s.unflat(f))
			return err
		})
	}
	if err := g.Wait(); err != nil {
		if outer.Err() != nil {
			return outer.Err()
		}
		return err
	}
	return nil
}

// sorted lists the evaluated points in flat-index order.
func (ev *evaluator) sorted() []*SolvePoint {
	ev.mu.Lock()
	defer ev.mu.Unlock()
	keys := make([]int64, 0, len(ev.at))
	for k := range ev.at {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	pts := make([]*SolvePoint, len(keys))
	for i, k := range keys {
		pts[i] = ev.at[k]
	}
	return pts
}

// Run solves: validates (if needed), evaluates and returns the answer.
// progress, if not nil, is called after each evaluation.
func (s *Solve) Run(ctx context.Context, progress func()) (*SolveResult, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	ev := &evaluator{s: s, ctx: ctx, progress: progress, at: map[int64]*SolvePoint{}}
	res := &SolveResult{Solve: s, Best: -1, Closest: -1}
	switch {
	case len(s.axes) > 1:
		res.Mode = "grid"
		n := int64(1)
		for _, a := range s.axes {
			n *= a.N
		}
		if err := ev.evalAll(n); err != nil {
			return nil, err
		}
	case s.Searched():
		res.Mode = "bisection"
		if err := s.bisect(ev, res); err != nil {
			return nil, err
		}
	default:
		res.Mode = "scan"
		if err := ev.evalAll(s.axes[0].N); err != nil {
			return nil, err
		}
	}
	res.Points = ev.sorted()
	res.Evaluations = ev.evals
	res.byIndex = map[int64]int{}
	for j, p := range res.Points {
		res.byIndex[s.flat(p.Index)] = j
	}
	if len(s.axes) > 1 {
		s.analyzeGrid(res)
		return res, nil
	}
	if !s.axes[0].List() {
		for k, m := range s.metrics {
			res.Shapes = append(res.Shapes, shapeOf(res.Points, k, m.Text))
		}
	}
	if res.Mode == "bisection" {
		s.answersFromTransitions(res)
	} else {
		s.answersFromScan(res)
	}
	s.analyze1(res)
	return res, nil
}

// bisect searches one parameter: it probes the ends and quartiles, checks
// that every metric is monotone there, bisects for every bound and value
// the targets name, and checks monotony again at every setting evaluated.
// A metric that is not monotone is scanned instead (up to ScanMax
// settings; beyond, bad input).
func (s *Solve) bisect(ev *evaluator, res *SolveResult) error {
	a := &s.axes[0]
	last := a.N - 1
	for _, i := range []int64{0, last / 4, last / 2, last - last/4, last} {
		if _, err := ev.eval1(i); err != nil {
			return err
		}
	}
	if err := s.checkMonotone(ev, res); err != nil || res.Fallback != "" {
		return err
	}
	// The settings next to every answer are evaluated too, a cheap check
	// that the metric does not turn back just beside it (2d6 = x over
	// x = 2..200 looks monotone at the probes, but rises from x = 2 to 3).
	var near []int64
	if s.objective != nil {
		near = append(near, 1, last-1)
	}
	for ti := range s.targets {
		t := &s.targets[ti]
		k := s.targetAt[ti]
		preds := []func(*SolvePoint) bool{}
		if t.Equal {
			preds = append(preds, func(p *SolvePoint) bool { return t.atLeast(p.Est[k].V) })
		} else {
			if !math.IsInf(t.Lo, -1) {
				preds = append(preds, func(p *SolvePoint) bool { return t.aboveLo(p.Est[k].V) })
			}
			if !math.IsInf(t.Hi, 1) {
				preds = append(preds, func(p *SolvePoint) bool { return t.belowHi(p.Est[k].V) })
			}
		}
		for _, pred := range preds {
			at, ok, err := ev.transition(pred)
			if err != nil {
				return err
			}
			if ok {
				near = append(near, at-2, at+1)
			} else {
				near = append(near, 1, last-1)
			}
		}
		if t.Equal && slices.ContainsFunc(ev.sorted(), func(p *SolvePoint) bool { return t.Holds(p.Est[k].V) }) {
			// A plateau at the value itself: where it ends.
			if _, _, err := ev.transition(func(p *SolvePoint) bool { return t.over(p.Est[k].V) }); err != nil {
				return err
			}
		}
		if t.Equal && s.Engine.Kind == engine.Sim {
			if err := s.walkIndistinct(ev, k, t.Value); err != nil {
				return err
			}
		}
	}
	for _, i := range near {
		if i >= 0 && i <= last {
			if _, err := ev.eval1(i); err != nil {
				return err
			}
		}
	}
	return s.checkMonotone(ev, res)
}

// transition finds where a predicate of the metrics, assumed to change
// value at most once along the axis, changes: the first index whose value
// differs from index 0's. It starts from the tightest pair of settings
// already evaluated.
func (ev *evaluator) transition(pred func(*SolvePoint) bool) (int64, bool, error) {
	pts := ev.sorted()
	p0 := pred(pts[0])
	f := slices.IndexFunc(pts, func(p *SolvePoint) bool { return pred(p) != p0 })
	if f < 0 {
		return 0, false, nil
	}
	lo, hi := pts[f-1].Index[0], pts[f].Index[0]
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		p, err := ev.eval1(mid)
		if err != nil {
			return 0, false, err
		}
		if pred(p) == p0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return hi, true, nil
}

// walkIndistinct evaluates, outward from where the metric crosses v, the
// settings whose 95% interval covers v (at most 8 on each side).
func (s *Solve) walkIndistinct(ev *evaluator, k int, v float64) error {
	pts := ev.sorted()
	best := pts[0]
	for _, p := range pts {
		if math.Abs(p.Est[k].V-v) < math.Abs(best.Est[k].V-v) {
			best = p
		}
	}
	if !best.Est[k].Covers(v) {
		return nil
	}
	for _, dir := range []int64{-1, 1} {
		for step := int64(1); step <= 8; step++ {
			i := best.Index[0] + dir*step
			if i < 0 || i >= s.axes[0].N {
				break
			}
			p, err := ev.eval1(i)
			if err != nil {
				return err
			}
			if !p.Est[k].Covers(v) {
				break
			}
		}
	}
	return nil
}

// checkMonotone sets a fallback to a scan when some metric is not
// monotone at the settings evaluated, and scans (or refuses a range too
// long to scan).
func (s *Solve) checkMonotone(ev *evaluator, res *SolveResult) error {
	pts := ev.sorted()
	for k, m := range s.metrics {
		sh := shapeOf(pts, k, m.Text)
		if sh.Dir != "not monotone" {
			continue
		}
		a := &s.axes[0]
		at := func(i int64) string {
			p := pts[slices.IndexFunc(pts, func(p *SolvePoint) bool { return p.Index[0] == i })]
			return fmt.Sprintf("%s=%s → %s", a.Name, a.Text(i), fmtNum(p.Est[k].V))
		}
		why := fmt.Sprintf("%s is not monotone in %s: it rises from %s to %s and falls from %s to %s",
			m.Text, a.Name, at(sh.Rise[0]), at(sh.Rise[1]), at(sh.Fall[0]), at(sh.Fall[1]))
		if a.N > s.scanMax() {
			return mechanics.Invalid("%s; %d settings are too many to scan one by one (at most %d): narrow the range or raise its step", why, a.N, s.scanMax())
		}
		res.Fallback = why
		res.Mode = "scan"
		return ev.evalAll(a.N)
	}
	return nil
}

// monoSlack absorbs rounding in exact results that are equal in truth.
func monoSlack(v float64) float64 { return 1e-12 * math.Max(1, math.Abs(v)) }

// shapeOf judges metric k along the points (in index order): monotone if
// its values (their 95% intervals, for a simulation) allow it.
func shapeOf(pts []*SolvePoint, k int, name string) Shape {
	sh := Shape{Metric: name}
	rise, fall := false, false
	var minHi, maxLo *SolvePoint
	for _, p := range pts {
		e := p.Est[k]
		if math.IsNaN(e.V) {
			continue
		}
		if minHi != nil && !rise && e.Lo > minHi.Est[k].Hi+monoSlack(e.Lo) {
			rise, sh.Rise = true, [2]int64{minHi.Index[0], p.Index[0]}
		}
		if maxLo != nil && !fall && e.Hi < maxLo.Est[k].Lo-monoSlack(e.Hi) {
			fall, sh.Fall = true, [2]int64{maxLo.Index[0], p.Index[0]}
		}
		if minHi == nil || e.Hi < minHi.Est[k].Hi {
			minHi = p
		}
		if maxLo == nil || e.Lo > maxLo.Est[k].Lo {
			maxLo = p
		}
	}
	switch {
	case rise && fall:
		sh.Dir = "not monotone"
	case rise:
		sh.Dir = "increasing"
	case fall:
		sh.Dir = "decreasing"
	default:
		sh.Dir = "constant"
	}
	return sh
}

// runsOf compresses sorted indices into runs.
func runsOf(idx []int64) []Run {
	var rs []Run
	for _, i := range idx {
		if n := len(rs); n > 0 && rs[n-1].Last == i-1 {
			rs[n-1].Last = i
			continue
		}
		rs = append(rs, Run{i, i})
	}
	return rs
}

func countRuns(rs []Run) int64 {
	var n int64
	for _, r := range rs {
		n += r.Len()
	}
	return n
}

// intersect is the settings in both a and b.
func intersect(a, b []Run) []Run {
	var out []Run
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		lo, hi := max(a[i].First, b[j].First), min(a[i].Last, b[j].Last)
		if lo <= hi {
			out = append(out, Run{lo, hi})
		}
		if a[i].Last < b[j].Last {
			i++
		} else {
			j++
		}
	}
	return out
}

// minus is the settings in a but not in b.
func minus(a, b []Run) []Run {
	var out []Run
	for _, r := range a {
		cur := []Run{r}
		for _, x := range b {
			var next []Run
			for _, c := range cur {
				if x.Last < c.First || x.First > c.Last {
					next = append(next, c)
					continue
				}
				if x.First > c.First {
					next = append(next, Run{c.First, x.First - 1})
				}
				if x.Last < c.Last {
					next = append(next, Run{x.Last + 1, c.Last})
				}
			}
			cur = next
		}
		out = append(out, cur...)
	}
	return out
}

func inRuns(rs []Run, i int64) bool {
	for _, r := range rs {
		if r.First <= i && i <= r.Last {
			return true
		}
	}
	return false
}

// edges are the neighbouring settings at the ends of runs: (inside,
// outside) pairs within [0, n).
func edges(rs []Run, n int64) [][2]int64 {
	var out [][2]int64
	for _, r := range rs {
		if r.First > 0 {
			out = append(out, [2]int64{r.First, r.First - 1})
		}
		if r.Last < n-1 {
			out = append(out, [2]int64{r.Last, r.Last + 1})
		}
	}
	return out
}

// answersFromScan reads every target's answer off a scan of every setting.
func (s *Solve) answersFromScan(res *SolveResult) {
	n := s.axes[0].N
	for ti := range s.targets {
		t := &s.targets[ti]
		k := s.targetAt[ti]
		var holds []int64
		ans := TargetAnswer{Target: t}
		for i := range n {
			v := res.point(i).Est[k].V
			if t.Holds(v) {
				holds = append(holds, i)
			}
			if t.Equal && i+1 < n {
				w := res.point(i + 1).Est[k].V
				if t.atLeast(v) != t.atLeast(w) {
					ans.Crossings = append(ans.Crossings, [2]int64{i, i + 1})
				}
			}
		}
		ans.Holds = runsOf(holds)
		ans.Count = countRuns(ans.Holds)
		if !t.Equal {
			ans.Edges = edges(ans.Holds, n)
		}
		res.Answers = append(res.Answers, ans)
	}
}

// answersFromTransitions reads every target's answer off a bisection: a
// monotone metric meets a bound on one side of the setting where it
// crosses it.
func (s *Solve) answersFromTransitions(res *SolveResult) {
	n := s.axes[0].N
	all := []Run{{0, n - 1}}
	// side is where a predicate holds: up to its transition or from it.
	side := func(pred func(*SolvePoint) bool) ([]Run, int64, bool) {
		p0 := pred(res.Points[0])
		f := slices.IndexFunc(res.Points, func(p *SolvePoint) bool { return pred(p) != p0 })
		switch {
		case f < 0 && p0:
			return all, 0, false
		case f < 0:
			return nil, 0, false
		}
		k := res.Points[f].Index[0]
		if p0 {
			return []Run{{0, k - 1}}, k, true
		}
		return []Run{{k, n - 1}}, k, true
	}
	for ti := range s.targets {
		t := &s.targets[ti]
		k := s.targetAt[ti]
		ans := TargetAnswer{Target: t}
		if t.Equal {
			ge, at, ok := side(func(p *SolvePoint) bool { return t.atLeast(p.Est[k].V) })
			if ok {
				ans.Crossings = [][2]int64{{at - 1, at}}
			}
			gt, _, _ := side(func(p *SolvePoint) bool { return t.over(p.Est[k].V) })
			ans.Holds = minus(ge, gt)
		} else {
			lo, _, _ := side(func(p *SolvePoint) bool { return t.aboveLo(p.Est[k].V) })
			hi, _, _ := side(func(p *SolvePoint) bool { return t.belowHi(p.Est[k].V) })
			ans.Holds = intersect(lo, hi)
			ans.Edges = edges(ans.Holds, n)
		}
		ans.Count = countRuns(ans.Holds)
		res.Answers = append(res.Answers, ans)
	}
}

// analyze1 combines the targets of a one-parameter solve: the settings
// meeting every inequality target, the nearest to the equality target,
// the objective's pick, or the closest miss. Only evaluated settings are
// candidates: a bisection evaluates both sides of every crossing and both
// ends of every run, where a monotone metric's nearest and best lie.
func (s *Solve) analyze1(res *SolveResult) {
	n := s.axes[0].N
	res.Feasible = []Run{{0, n - 1}}
	equal := -1
	for ti, ans := range res.Answers {
		if ans.Target.Equal {
			equal = ti
			continue
		}
		res.Feasible = intersect(res.Feasible, ans.Holds)
	}
	res.NFeasible = countRuns(res.Feasible)
	var cand []int
	for j, p := range res.Points {
		if inRuns(res.Feasible, p.Index[0]) {
			cand = append(cand, j)
		}
	}
	s.common(res, cand)
	if res.Mode == "bisection" && equal >= 0 && len(res.NearestPoints) > 1 {
		// Ties along a plateau, at the settings the search happened to
		// evaluate: the one next to where the metric crosses the value.
		at := res.Points[res.NearestPoints[0]].Index[0]
		if cr := res.Answers[equal].Crossings; len(cr) > 0 {
			at = cr[0][1]
		}
		best := res.NearestPoints[0]
		for _, j := range res.NearestPoints {
			if abs64(res.Points[j].Index[0]-at) < abs64(res.Points[best].Index[0]-at) {
				best = j
			}
		}
		res.NearestPoints = []int{best}
	}
	if equal >= 0 && len(cand) > 0 {
		exact := intersect(res.Answers[equal].Holds, res.Feasible)
		if len(exact) > 0 {
			res.Nearest = exact
		} else {
			var idx []int64
			for _, j := range res.NearestPoints {
				idx = append(idx, res.Points[j].Index[0])
			}
			res.Nearest = runsOf(idx)
		}
	}
}

// nearest is the points of cand whose metric of the equal target is
// nearest its value, ties (within monoSlack) included, in cand's order.
func (s *Solve) nearest(res *SolveResult, cand []int, equal int) []int {
	k, t := s.targetAt[equal], &s.targets[equal]
	best := math.Inf(1)
	var out []int
	for _, j := range cand {
		d := t.miss(res.Points[j].Est[k].V)
		switch {
		case d < best-monoSlack(d):
			best, out = d, []int{j}
		case d <= best+monoSlack(d):
			out = append(out, j)
		}
	}
	return out
}

// common fills what one parameter and a grid share, from the candidate
// points (those meeting every inequality target): the nearest to the
// equality target, the objective's pick, the closest miss, and for a
// simulation the settings indistinguishable from the target or uncertain.
func (s *Solve) common(res *SolveResult, cand []int) {
	equal := slices.IndexFunc(s.targets, func(t Target) bool { return t.Equal })
	if len(cand) == 0 && len(s.targets) > 0 {
		// Nothing meets every inequality target: the least total miss.
		best := math.Inf(1)
		for j, p := range res.Points {
			if m := s.totalMiss(p); m < best {
				best, res.Closest = m, j
			}
		}
	}
	if equal >= 0 && len(cand) > 0 {
		res.NearestPoints = s.nearest(res, cand, equal)
	}
	if s.objective != nil && len(cand) > 0 {
		sign := 1.0
		if s.Maximize != "" {
			sign = -1
		}
		best := math.Inf(1)
		for _, j := range cand {
			v := sign * res.Points[j].Est[s.objAt].V
			switch {
			case math.IsNaN(v):
			case v < best-monoSlack(v):
				best, res.Best, res.Ties = v, j, 0
			case v <= best+monoSlack(v):
				res.Ties++
			}
		}
	}
	if s.Engine.Kind != engine.Sim {
		return
	}
	for j, p := range res.Points {
		for ti := range s.targets {
			t := &s.targets[ti]
			e := p.Est[s.targetAt[ti]]
			if t.Equal && e.Covers(t.Value) && (len(cand) == 0 || slices.Contains(cand, j)) {
				res.Indistinct = append(res.Indistinct, j)
			}
			if t.straddles(e) {
				res.Uncertain = append(res.Uncertain, j)
				break
			}
		}
	}
}

// totalMiss is how far a point misses every inequality target, summed.
func (s *Solve) totalMiss(p *SolvePoint) float64 {
	var m float64
	for ti := range s.targets {
		if t := &s.targets[ti]; !t.Equal {
			m += t.miss(p.Est[s.targetAt[ti]].V)
		}
	}
	return m
}

// analyzeGrid reads a grid's answer: every setting meeting every
// inequality target, the nearest to the equality target, the objective's
// pick, and the frontier along the last parameter.
func (s *Solve) analyzeGrid(res *SolveResult) {
	equal := slices.IndexFunc(s.targets, func(t Target) bool { return t.Equal })
	feasible := func(p *SolvePoint) bool {
		for ti := range s.targets {
			if t := &s.targets[ti]; !t.Equal && !t.Holds(p.Est[s.targetAt[ti]].V) {
				return false
			}
		}
		return true
	}
	for j, p := range res.Points {
		if feasible(p) {
			res.FeasiblePoints = append(res.FeasiblePoints, j)
		}
	}
	res.NFeasible = int64(len(res.FeasiblePoints))
	s.common(res, res.FeasiblePoints)
	// The frontier: rows by every parameter but the last.
	lastAx := len(s.axes) - 1
	nLast := s.axes[lastAx].N
	rows := len(res.Points) / int(nLast)
	stride := len(res.Points) / int(nLast) // the last axis varies slowest
	for r := range rows {
		row := FrontierRow{Best: -1}
		row.Index = slices.Clone(res.Points[r].Index[:lastAx])
		var idx []int64
		var cand []int
		for i := range nLast {
			j := r + int(i)*stride
			if feasible(res.Points[j]) {
				idx = append(idx, i)
				cand = append(cand, j)
			}
		}
		row.Feasible = runsOf(idx)
		row.Count = int64(len(idx))
		if equal >= 0 {
			k := s.targetAt[equal]
			t := &s.targets[equal]
			for _, j := range s.nearest(res, cand, equal) {
				row.Nearest = append(row.Nearest, res.Points[j].Index[lastAx])
			}
			for i := range nLast - 1 {
				v, w := res.Points[r+int(i)*stride].Est[k].V, res.Points[r+int(i+1)*stride].Est[k].V
				if t.atLeast(v) != t.atLeast(w) {
					row.Crossings = append(row.Crossings, [2]int64{i, i + 1})
				}
			}
		}
		if s.objective != nil {
			sign := 1.0
			if s.Maximize != "" {
				sign = -1
			}
			best := math.Inf(1)
			for _, j := range cand {
				if v := sign * res.Points[j].Est[s.objAt].V; v < best-monoSlack(v) {
					best, row.Best = v, res.Points[j].Index[lastAx]
				}
			}
		}
		res.Frontier = append(res.Frontier, row)
	}
}
