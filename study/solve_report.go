package study

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/reports"
)

// SolveFormats are the formats a solve's answer is written in.
var SolveFormats = reports.TableFormats

// Fixed is what a solve holds fixed, for its header: every parameter not
// varied, and the options not at their default.
func (s *Solve) Fixed() string {
	varied := map[string]bool{}
	for _, a := range s.axes {
		varied[a.Name] = true
	}
	var parts []string
	for _, p := range s.Mechanic.Params {
		if !varied[p.Name] {
			parts = append(parts, p.Name+"="+mechanics.FormatNum(s.Base.Params[p.Name]))
		}
	}
	for _, o := range s.Mechanic.Options {
		if v := s.Base.Options[o.Name]; v != o.Default() && !varied[o.Name] && !varied["opt."+o.Short()] && !varied[o.Short()] {
			parts = append(parts, "opt."+o.Short()+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// engineText names the engine: "exact", "simulated, 200000 trials, seed 1".
func (s *Solve) engineText() string {
	if s.Engine.Kind == engine.Sim {
		return fmt.Sprintf("simulated, %d trials, seed %d", s.Engine.Trials, s.Engine.Seed)
	}
	return "exact"
}

// Header is the solve's first line: what is solved, how, over what.
func (r *SolveResult) Header() string {
	s := r.Solve
	var ranges []string
	n := int64(1)
	real := false
	for k := range s.axes {
		a := &s.axes[k]
		ranges = append(ranges, a.Name+" over "+a.RangeText())
		n *= a.N
		real = real || a.Real
	}
	h := s.Mechanic.ID + " (" + s.engineText() + ")"
	if f := s.Fixed(); f != "" {
		h += " at " + f
	}
	if real {
		return fmt.Sprintf("%s: %s", h, strings.Join(ranges, " × "))
	}
	return fmt.Sprintf("%s: %s (%s settings)", h, strings.Join(ranges, " × "), groupDigits(n))
}

// groupDigits prints a count with thin groups: 1000000 → "1 000 000".
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 4 {
		return s
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(' ')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// est prints an estimate: "0.6015", with its 95% interval when simulated.
func (s *Solve) est(e engine.Estimate) string {
	if s.Engine.Kind == engine.Sim && e.Lo != e.Hi {
		return fmt.Sprintf("%s [%s, %s]", fmtNum(e.V), fmtNum(e.Lo), fmtNum(e.Hi))
	}
	return fmtNum(e.V)
}

// at1 prints a setting of one parameter with metric k: "tn=7 → 0.6015".
func (r *SolveResult) at1(i int64, k int) string {
	a := &r.Solve.axes[0]
	s := a.Name + "=" + a.Text(i)
	if p := r.point(i); p != nil {
		s += " → " + r.Solve.est(p.Est[k])
	}
	return s
}

// runText prints runs of one axis: "tn=1..7", "tn=3, 5..9".
func runText(a *SolveAxis, rs []Run) string {
	var parts []string
	for _, r := range rs {
		switch {
		case r.First == r.Last:
			parts = append(parts, a.Text(r.First))
		case a.List():
			for i := r.First; i <= r.Last; i++ {
				parts = append(parts, a.Text(i))
			}
		default:
			parts = append(parts, a.Text(r.First)+".."+a.Text(r.Last))
		}
	}
	if len(parts) == 0 {
		return "none"
	}
	return strings.Join(parts, ", ")
}

// Answer is the solve's answer in words, one sentence a line, the header
// first.
func (r *SolveResult) Answer() []string {
	if len(r.Solve.axes) > 1 {
		return r.gridAnswer()
	}
	return r.answer1()
}

func pluralOf(n int64, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (r *SolveResult) answer1() []string {
	s := r.Solve
	a := &s.axes[0]
	out := []string{r.Header()}
	equal := -1
	var ineq []int
	for ti, t := range s.targets {
		if t.Equal {
			equal = ti
		} else {
			ineq = append(ineq, ti)
		}
	}
	for _, ti := range ineq {
		ans := &r.Answers[ti]
		k := s.targetAt[ti]
		if ans.Count == 0 {
			out = append(out, fmt.Sprintf("%s holds at no setting of %s.", ans.Target, a.Name))
			continue
		}
		line := fmt.Sprintf("%s holds for %s=%s (%s of %s %s)", ans.Target, a.Name, runText(a, ans.Holds),
			groupDigits(ans.Count), groupDigits(a.N), pluralOf(a.N, "setting", "settings"))
		switch {
		case ans.Count == a.N:
			line = fmt.Sprintf("%s holds at every setting of %s", ans.Target, a.Name)
		case a.Real:
			line = fmt.Sprintf("%s holds for %s=%s", ans.Target, a.Name, runText(a, ans.Holds))
		}
		if !a.List() && len(ans.Edges) > 0 && len(ans.Edges) <= 4 {
			var ins, outs []string
			var seen []int64
			for _, e := range ans.Edges {
				if !slices.Contains(seen, e[0]) {
					seen = append(seen, e[0])
					ins = append(ins, r.at1(e[0], k))
				}
				outs = append(outs, r.at1(e[1], k)+" "+r.missText(ans.Target, e[1], k))
			}
			if len(ins) == 1 {
				line += fmt.Sprintf("; at its edge %s, beyond it %s", ins[0], strings.Join(outs, " and "))
			} else {
				line += fmt.Sprintf("; at its edges %s, beyond them %s", strings.Join(ins, " and "), strings.Join(outs, " and "))
			}
		}
		out = append(out, line+".")
	}
	if len(ineq) > 1 {
		if r.NFeasible > 0 {
			out = append(out, fmt.Sprintf("All %d inequality targets hold together for %s=%s (%s %s).", len(ineq), a.Name, runText(a, r.Feasible),
				groupDigits(r.NFeasible), pluralOf(r.NFeasible, "setting", "settings")))
		} else {
			out = append(out, fmt.Sprintf("No setting of %s meets all %d inequality targets together.", a.Name, len(ineq)))
		}
	}
	if r.Closest >= 0 {
		p := r.Points[r.Closest]
		out = append(out, fmt.Sprintf("The closest is %s=%s (%s).", a.Name, a.Text(p.Index[0]), r.values(p, ineq)))
	}
	among := ""
	if len(ineq) > 0 {
		among = "Among them, "
	}
	if equal >= 0 && r.NFeasible > 0 {
		out = append(out, r.equalAnswer(equal, among)...)
	}
	if s.objective != nil && r.Best >= 0 {
		out = append(out, r.objectiveAnswer(among))
	}
	out = append(out, r.simNotes()...)
	out = append(out, r.method())
	return out
}

// missText says how the value at index i misses the target: "is below
// 0.6".
func (r *SolveResult) missText(t *Target, i int64, k int) string {
	p := r.point(i)
	if p == nil {
		return "does not"
	}
	if v := p.Est[k].V; !t.aboveLo(v) {
		return "is below " + fmtNum(t.Lo)
	}
	return "is above " + fmtNum(t.Hi)
}

// values prints a point's value of each target's metric (of the targets
// listed, or all).
func (r *SolveResult) values(p *SolvePoint, targets []int) string {
	s := r.Solve
	var parts []string
	seen := map[int]bool{}
	for _, ti := range targets {
		k := s.targetAt[ti]
		if !seen[k] {
			seen[k] = true
			parts = append(parts, s.metrics[k].Text+" = "+s.est(p.Est[k]))
		}
	}
	return strings.Join(parts, ", ")
}

// equalAnswer words the equality target: the nearest setting(s), the
// bracket or crossings, or that the value is never reached.
func (r *SolveResult) equalAnswer(ti int, among string) []string {
	s := r.Solve
	a := &s.axes[0]
	t := &s.targets[ti]
	k := s.targetAt[ti]
	ans := &r.Answers[ti]
	var out []string
	exact := len(intersect(ans.Holds, r.Feasible)) > 0
	switch {
	case exact:
		n := countRuns(r.Nearest)
		out = append(out, fmt.Sprintf("%s%s=%s %s %s exactly.", among, a.Name, runText(a, r.Nearest), pluralOf(n, "gives", "give"), t))
	case len(r.NearestPoints) == 1:
		p := r.Points[r.NearestPoints[0]]
		out = append(out, fmt.Sprintf("%s%s=%s gives %s = %s, the nearest to %s.", among, a.Name, a.Text(p.Index[0]), t.Metric.Text, s.est(p.Est[k]), fmtNum(t.Value)))
	case len(r.NearestPoints) > 3:
		var parts []string
		for _, j := range r.NearestPoints[:3] {
			parts = append(parts, r.at1(r.Points[j].Index[0], k))
		}
		out = append(out, fmt.Sprintf("%s%d settings evaluated are equally near to %s: %s, …", among, len(r.NearestPoints), fmtNum(t.Value), strings.Join(parts, ", ")))
	default:
		var parts []string
		for _, j := range r.NearestPoints {
			parts = append(parts, r.at1(r.Points[j].Index[0], k))
		}
		out = append(out, fmt.Sprintf("%s%s are equally near to %s.", among, strings.Join(parts, " and "), fmtNum(t.Value)))
	}
	switch n := len(ans.Crossings); {
	case a.List():
	case n == 1:
		c := ans.Crossings[0]
		out = append(out, fmt.Sprintf("Bracket: %s, %s.", r.at1(c[0], k), r.at1(c[1], k)))
		if p, q := r.point(c[0]), r.point(c[1]); a.Real && !exact && p != nil && q != nil {
			// Neighbours within the tolerance on either side of the value:
			// a step of the rules (a band edge), not a slope.
			out = append(out, fmt.Sprintf("No %s gives %s exactly: it jumps from %s to %s between %s=%s and %s=%s.", a.Name, fmtNum(t.Value),
				s.est(p.Est[k]), s.est(q.Est[k]), a.Name, a.Text(c[0]), a.Name, a.Text(c[1])))
		}
	case n > 1:
		var parts []string
		for _, c := range ans.Crossings[:min(n, 6)] {
			parts = append(parts, a.Text(c[0])+" and "+a.Text(c[1]))
		}
		more := ""
		if n > 6 {
			more = fmt.Sprintf(" and %d more", n-6)
		}
		times := fmt.Sprintf("%d times", n)
		if n == 2 {
			times = "twice"
		}
		out = append(out, fmt.Sprintf("%s crosses %s %s: between %s=%s%s.", t.Metric.Text, fmtNum(t.Value), times, a.Name, strings.Join(parts, ", and between "+a.Name+"="), more))
	case !exact && len(r.Points) > 0:
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, p := range r.Points {
			lo, hi = math.Min(lo, p.Est[k].V), math.Max(hi, p.Est[k].V)
		}
		where := "above"
		if hi < t.Value {
			where = "below"
		}
		span := fmt.Sprintf("from %s to %s at the settings evaluated", fmtNum(lo), fmtNum(hi))
		if lo == hi {
			span = fmt.Sprintf("%s at every setting evaluated", fmtNum(lo))
		}
		out = append(out, fmt.Sprintf("%s never reaches %s over %s=%s: it stays %s it (%s); the nearest is the closest it gets.",
			t.Metric.Text, fmtNum(t.Value), a.Name, a.RangeText(), where, span))
	}
	return out
}

// objectiveAnswer words the objective's pick.
func (r *SolveResult) objectiveAnswer(among string) string {
	s := r.Solve
	p := r.Points[r.Best]
	verb := "minimizes"
	if s.Maximize != "" {
		verb = "maximizes"
	}
	line := fmt.Sprintf("%s%s %s %s = %s", among, s.describe(p.Index), verb, s.objective.Text, s.est(p.Est[s.objAt]))
	if among == "" {
		line = strings.ToUpper(line[:1]) + line[1:]
	}
	if r.Ties > 0 {
		line += fmt.Sprintf(" (%d other %s the same)", r.Ties, pluralOf(int64(r.Ties), "setting gives", "settings give"))
	}
	return line + "."
}

// simNotes says which settings a simulation cannot tell from the target,
// and which it cannot place on either side of a bound.
func (r *SolveResult) simNotes() []string {
	s := r.Solve
	if s.Engine.Kind != engine.Sim {
		return nil
	}
	var out []string
	list := func(js []int) string {
		var parts []string
		for _, j := range js[:min(len(js), 6)] {
			parts = append(parts, s.describe(r.Points[j].Index))
		}
		if len(js) > 6 {
			parts = append(parts, fmt.Sprintf("and %d more", len(js)-6))
		}
		return strings.Join(parts, ", ")
	}
	if equal := slices.IndexFunc(s.targets, func(t Target) bool { return t.Equal }); equal >= 0 {
		t := &s.targets[equal]
		if len(r.Indistinct) > 0 {
			out = append(out, fmt.Sprintf("Indistinguishable from the target at %d trials (the 95%% interval covers %s): %s.", s.Engine.Trials, fmtNum(t.Value), list(r.Indistinct)))
		} else {
			out = append(out, fmt.Sprintf("No setting evaluated is indistinguishable from %s at %d trials.", fmtNum(t.Value), s.Engine.Trials))
		}
	}
	if len(r.Uncertain) > 0 {
		out = append(out, fmt.Sprintf("Too close to a bound to tell at %d trials (the 95%% interval straddles it): %s.", s.Engine.Trials, list(r.Uncertain)))
	}
	return out
}

// method says how the answer was found: monotony, bisection or scan, the
// tolerance of a real parameter, and the number of evaluations.
func (r *SolveResult) method() string {
	s := r.Solve
	a := &s.axes[0]
	evals := fmt.Sprintf("%d %s", r.Evaluations, pluralOf(int64(r.Evaluations), "evaluation", "evaluations"))
	var line string
	switch {
	case r.Fallback != "":
		line = fmt.Sprintf("%s, so all %s settings were scanned: %s", r.Fallback, groupDigits(a.N), evals)
	case len(r.Shapes) == 0:
		line = "Every setting evaluated: " + evals
	default:
		where := fmt.Sprintf("at the %d settings evaluated", len(r.Points))
		if int64(len(r.Points)) == a.N {
			where = fmt.Sprintf("over all %s settings", groupDigits(a.N))
		}
		var mono, other []string
		var mono1 Shape
		for _, sh := range r.Shapes {
			switch sh.Dir {
			case "constant":
				same := fmt.Sprintf("%s is the same (%s) %s", sh.Metric, fmtNum(r.Points[0].Est[slices.IndexFunc(s.metrics, func(m *engine.Metric) bool { return m.Text == sh.Metric })].V), where)
				if r.Mode == "bisection" {
					same += " (it may still move between them: a narrower range looks closer)"
				}
				other = append(other, same)
			case "not monotone":
				other = append(other, fmt.Sprintf("%s is not monotone in %s", sh.Metric, a.Name))
			default:
				mono = append(mono, sh.Metric+" ("+sh.Dir+")")
				mono1 = sh
			}
		}
		var parts []string
		switch len(mono) {
		case 0:
		case 1:
			parts = append(parts, fmt.Sprintf("%s is monotone (%s) in %s %s", mono1.Metric, mono1.Dir, a.Name, where))
		default:
			parts = append(parts, fmt.Sprintf("%s are monotone in %s %s", strings.Join(mono, " and "), a.Name, where))
		}
		parts = append(parts, other...)
		line = strings.Join(parts, "; ")
		if r.Mode == "bisection" {
			line += "; found by bisection in " + evals
		} else {
			line += "; every setting scanned: " + evals
		}
	}
	if a.Real {
		line += fmt.Sprintf("; %s searched to within %s", a.Name, mechanics.FormatNum(a.Step))
		if a.DefaultStep {
			line += " (the default tolerance; set --tolerance)"
		}
	}
	return line + "."
}

// gridAnswer words a grid's answer; the frontier follows as a table
// (WriteText).
func (r *SolveResult) gridAnswer() []string {
	s := r.Solve
	out := []string{r.Header()}
	var ineq []string
	var ineqAt []int
	equal := -1
	for ti := range s.targets {
		if s.targets[ti].Equal {
			equal = ti
			continue
		}
		ineq = append(ineq, s.targets[ti].String())
		ineqAt = append(ineqAt, ti)
	}
	total := int64(len(r.Points))
	if len(ineq) > 0 {
		out = append(out, fmt.Sprintf("%s of %s settings meet %s.", groupDigits(r.NFeasible), groupDigits(total), strings.Join(ineq, " and ")))
	}
	if r.Closest >= 0 {
		p := r.Points[r.Closest]
		out = append(out, fmt.Sprintf("The closest is %s (%s).", s.describe(p.Index), r.values(p, ineqAt)))
	}
	among := ""
	if len(ineq) > 0 {
		among = "Among them, "
	}
	if equal >= 0 && len(r.NearestPoints) > 0 {
		t := &s.targets[equal]
		k := s.targetAt[equal]
		p := r.Points[r.NearestPoints[0]]
		line := fmt.Sprintf("%s%s gives %s = %s, the nearest to %s", among, s.describe(p.Index), t.Metric.Text, s.est(p.Est[k]), fmtNum(t.Value))
		if n := len(r.NearestPoints) - 1; n > 0 {
			line += fmt.Sprintf(" (%d other %s equally near)", n, pluralOf(int64(n), "setting is", "settings are"))
		}
		out = append(out, line+".")
	}
	if s.objective != nil && r.Best >= 0 {
		out = append(out, r.objectiveAnswer(among))
	}
	out = append(out, r.simNotes()...)
	out = append(out, fmt.Sprintf("Every setting evaluated: %d %s.", r.Evaluations, pluralOf(int64(r.Evaluations), "evaluation", "evaluations")))
	return out
}

// frontierTable is the grid's frontier: a header and one row per setting
// of every parameter but the last.
func (r *SolveResult) frontierTable() ([]string, [][]string) {
	s := r.Solve
	lastAx := len(s.axes) - 1
	la := &s.axes[lastAx]
	var head []string
	for _, a := range s.axes[:lastAx] {
		head = append(head, a.Name)
	}
	equal := slices.IndexFunc(s.targets, func(t Target) bool { return t.Equal })
	hasIneq := slices.ContainsFunc(s.targets, func(t Target) bool { return !t.Equal })
	if hasIneq {
		head = append(head, la.Name+" meeting the targets", "settings")
	}
	if equal >= 0 {
		head = append(head, la.Name+" nearest to "+fmtNum(s.targets[equal].Value), s.targets[equal].Metric.Text, "crosses between")
	}
	if s.objective != nil {
		verb := "minimizing "
		if s.Maximize != "" {
			verb = "maximizing "
		}
		head = append(head, la.Name+" "+verb+s.objective.Text, s.objective.Text)
	}
	var rows [][]string
	for _, fr := range r.Frontier {
		var row []string
		for k, i := range fr.Index {
			row = append(row, s.axes[k].Text(i))
		}
		if hasIneq {
			row = append(row, runText(la, fr.Feasible), strconv.FormatInt(fr.Count, 10))
		}
		idx := func(last int64) *SolvePoint { return r.point(s.flat(append(slices.Clone(fr.Index), last))) }
		if equal >= 0 {
			k := s.targetAt[equal]
			if len(fr.Nearest) == 0 {
				row = append(row, "—", "—")
			} else {
				var ns, vs []string
				for _, i := range fr.Nearest {
					ns = append(ns, la.Text(i))
					vs = append(vs, s.est(idx(i).Est[k]))
				}
				row = append(row, strings.Join(ns, " "), strings.Join(vs, " "))
			}
			var cs []string
			for _, c := range fr.Crossings {
				cs = append(cs, la.Text(c[0])+"–"+la.Text(c[1]))
			}
			row = append(row, cmpOr(strings.Join(cs, " "), "—"))
		}
		if s.objective != nil {
			if fr.Best < 0 {
				row = append(row, "—", "—")
			} else {
				row = append(row, la.Text(fr.Best), s.est(idx(fr.Best).Est[s.objAt]))
			}
		}
		rows = append(rows, row)
	}
	return head, rows
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// WriteText writes the answer in words and, for a grid, the frontier
// (safe for a terminal: reports.Printable).
func (r *SolveResult) WriteText(w io.Writer) error {
	var buf bytes.Buffer
	for _, l := range r.Answer() {
		fmt.Fprintln(&buf, l)
	}
	if len(r.Solve.axes) >= 2 {
		head, rows := r.frontierTable()
		fmt.Fprintf(&buf, "\nFrontier (by %s):\n", strings.Join(head[:len(r.Solve.axes)-1], " and "))
		tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, row := range rows {
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	_, err := io.WriteString(w, reports.Printable(buf.String()))
	return err
}

// WriteCSV writes, for one parameter, every setting evaluated; for a grid,
// the frontier (WritePointsCSV has every setting).
func (r *SolveResult) WriteCSV(w io.Writer) error {
	if len(r.Solve.axes) < 2 {
		return r.WritePointsCSV(w)
	}
	r.csvHeader(w)
	head, rows := r.frontierTable()
	cw := csv.NewWriter(w)
	cw.Write(head)
	for _, row := range rows {
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func (r *SolveResult) csvHeader(w io.Writer) {
	s := r.Solve
	fmt.Fprintf(w, "# oddsmith: %s\n# mechanic: %s\n# engine: %s\n", mechanics.Version, s.Mechanic.ID, s.engineText())
	if f := s.Fixed(); f != "" {
		fmt.Fprintf(w, "# fixed: %s\n", f)
	}
	for _, t := range s.targets {
		fmt.Fprintf(w, "# target: %s\n", t.String())
	}
	if s.objective != nil {
		verb := "minimize"
		if s.Maximize != "" {
			verb = "maximize"
		}
		fmt.Fprintf(w, "# %s: %s\n", verb, s.objective.Text)
	}
	fmt.Fprintf(w, "# evaluations: %d (%s)\n", r.Evaluations, r.Mode)
}

// WritePointsCSV writes one row per setting evaluated: the varied
// parameters, each metric (with its 95% interval when simulated), whether
// the setting meets every inequality target, and its fingerprint.
func (r *SolveResult) WritePointsCSV(w io.Writer) error {
	s := r.Solve
	r.csvHeader(w)
	cw := csv.NewWriter(w)
	var head []string
	for _, a := range s.axes {
		head = append(head, a.Name)
	}
	sim := s.Engine.Kind == engine.Sim
	for _, m := range s.metrics {
		head = append(head, m.Text)
		if sim {
			head = append(head, m.Text+"_lo", m.Text+"_hi")
		}
	}
	head = append(head, "meets_targets", "fingerprint")
	cw.Write(head)
	for _, p := range r.Points {
		var row []string
		for k, i := range p.Index {
			row = append(row, s.axes[k].Text(i))
		}
		for _, e := range p.Est {
			row = append(row, csvNum(e.V))
			if sim {
				row = append(row, csvNum(e.Lo), csvNum(e.Hi))
			}
		}
		row = append(row, strconv.FormatBool(s.meets(p)), p.Fingerprint)
		cw.Write(row)
	}
	cw.Flush()
	return cw.Error()
}

func csvNum(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// meets reports a point that meets every inequality target.
func (s *Solve) meets(p *SolvePoint) bool {
	for ti := range s.targets {
		if t := &s.targets[ti]; !t.Equal && !t.Holds(p.Est[s.targetAt[ti]].V) {
			return false
		}
	}
	return true
}

// solveJSON is the JSON form of a solve's answer.
type solveJSON struct {
	Oddsmith    string              `json:"oddsmith"`
	Mechanic    string              `json:"mechanic"`
	Engine      engine.Kind         `json:"engine"`
	Trials      int64               `json:"trials,omitempty"`
	Seed        *uint64             `json:"seed,omitempty"`
	Fixed       string              `json:"fixed"`
	Vary        []solveAxisJSON     `json:"vary"`
	Targets     []string            `json:"targets"`
	Minimize    string              `json:"minimize,omitempty"`
	Maximize    string              `json:"maximize,omitempty"`
	Mode        string              `json:"mode"`
	Fallback    string              `json:"fallback,omitempty"`
	Evaluations int                 `json:"evaluations"`
	Answer      []string            `json:"answer"`
	Shapes      map[string]string   `json:"shapes,omitempty"`
	Feasible    []string            `json:"feasible,omitempty"`
	NFeasible   int64               `json:"feasible_count"`
	Nearest     []string            `json:"nearest,omitempty"`
	Best        *solvePointJSON     `json:"best,omitempty"`
	Closest     *solvePointJSON     `json:"closest,omitempty"`
	Frontier    []map[string]string `json:"frontier,omitempty"`
	Points      []solvePointJSON    `json:"points"`
}

type solveAxisJSON struct {
	Name      string  `json:"name"`
	Range     string  `json:"range"`
	Settings  int64   `json:"settings"`
	Tolerance float64 `json:"tolerance,omitempty"`
}

type solvePointJSON struct {
	Setting     map[string]string       `json:"setting"`
	Values      map[string]estimateJSON `json:"values"`
	Meets       bool                    `json:"meets_targets"`
	Fingerprint string                  `json:"fingerprint"`
}

// estimateJSON is a metric's value, with its 95% interval when simulated.
type estimateJSON struct {
	V  float64  `json:"value"`
	Lo *float64 `json:"ci_lo,omitempty"`
	Hi *float64 `json:"ci_hi,omitempty"`
}

func (r *SolveResult) pointJSON(p *SolvePoint) solvePointJSON {
	s := r.Solve
	pj := solvePointJSON{Setting: map[string]string{}, Values: map[string]estimateJSON{}, Meets: s.meets(p), Fingerprint: p.Fingerprint}
	for k, i := range p.Index {
		pj.Setting[s.axes[k].Name] = s.axes[k].Text(i)
	}
	for k, m := range s.metrics {
		e := estimateJSON{V: p.Est[k].V}
		if s.Engine.Kind == engine.Sim {
			e.Lo, e.Hi = &p.Est[k].Lo, &p.Est[k].Hi
		}
		pj.Values[m.Text] = e
	}
	return pj
}

// WriteJSON writes the whole answer: the words, the sets, and every
// setting evaluated.
func (r *SolveResult) WriteJSON(w io.Writer) error {
	s := r.Solve
	j := solveJSON{Oddsmith: mechanics.Version, Mechanic: s.Mechanic.ID, Engine: s.Engine.Kind, Fixed: s.Fixed(),
		Minimize: s.Minimize, Maximize: s.Maximize, Mode: r.Mode, Fallback: r.Fallback, Evaluations: r.Evaluations,
		Answer: r.Answer(), NFeasible: r.NFeasible, Targets: []string{}}
	if s.Engine.Kind == engine.Sim {
		seed := s.Engine.Seed
		j.Trials, j.Seed = s.Engine.Trials, &seed
	}
	for k := range s.axes {
		a := &s.axes[k]
		aj := solveAxisJSON{Name: a.Name, Range: a.RangeText(), Settings: a.N}
		if a.Real {
			aj.Tolerance = a.Step
		}
		j.Vary = append(j.Vary, aj)
	}
	for _, t := range s.targets {
		j.Targets = append(j.Targets, t.String())
	}
	if len(r.Shapes) > 0 {
		j.Shapes = map[string]string{}
		for _, sh := range r.Shapes {
			j.Shapes[sh.Metric] = sh.Dir
		}
	}
	if len(s.axes) == 1 {
		for _, run := range r.Feasible {
			j.Feasible = append(j.Feasible, runText(&s.axes[0], []Run{run}))
		}
		for _, run := range r.Nearest {
			j.Nearest = append(j.Nearest, runText(&s.axes[0], []Run{run}))
		}
	} else {
		for _, i := range r.NearestPoints {
			j.Nearest = append(j.Nearest, s.describe(r.Points[i].Index))
		}
		head, rows := r.frontierTable()
		for _, row := range rows {
			m := map[string]string{}
			for c, h := range head {
				m[h] = row[c]
			}
			j.Frontier = append(j.Frontier, m)
		}
	}
	if r.Best >= 0 {
		b := r.pointJSON(r.Points[r.Best])
		j.Best = &b
	}
	if r.Closest >= 0 {
		c := r.pointJSON(r.Points[r.Closest])
		j.Closest = &c
	}
	j.Points = []solvePointJSON{}
	for _, p := range r.Points {
		j.Points = append(j.Points, r.pointJSON(p))
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(j)
}

// Write writes the answer in a format of SolveFormats.
func (r *SolveResult) Write(w io.Writer, format string) error {
	return reports.WriteTableAs(w, format, r.WriteText, r.WriteCSV, r.WriteJSON)
}

// Plot is the answer as a chart: the first target's metric (else the
// objective) against one parameter, or over a grid of two, with the
// settings that meet the targets marked.
func (r *SolveResult) Plot() (*reports.SolvePlot, error) {
	s := r.Solve
	if len(s.axes) > 2 {
		return nil, mechanics.Invalid("a chart shows one or two varied parameters, not %d", len(s.axes))
	}
	k := s.objAt
	if len(s.targets) > 0 {
		k = s.targetAt[0]
	}
	sp := &reports.SolvePlot{Mechanic: s.Mechanic.ID, Metric: s.metrics[k].Text, Caption: s.caption(), Sim: s.Engine.Kind == engine.Sim}
	for ti := range s.targets {
		t := &s.targets[ti]
		if s.targetAt[ti] != k {
			continue
		}
		if t.Equal {
			sp.Lines = append(sp.Lines, t.Value)
			continue
		}
		sp.Bands = append(sp.Bands, [2]float64{t.Lo, t.Hi})
	}
	var targets []string
	for _, t := range s.targets {
		words, _ := reports.SolveMetricWords(t.Metric.Text)
		targets = append(targets, strings.Replace(t.String(), t.Metric.Text, words, 1))
	}
	if s.objective != nil {
		words, _ := reports.SolveMetricWords(s.objective.Text)
		verb := "least "
		if s.Maximize != "" {
			verb = "greatest "
		}
		targets = append(targets, verb+words)
	}
	sp.Targets = strings.Join(targets, " and ")
	for ax := range s.axes {
		a := &s.axes[ax]
		sp.Names = append(sp.Names, a.Name)
		sp.Labels = append(sp.Labels, a.Labels)
	}
	mark := map[int]bool{}
	for _, j := range r.NearestPoints {
		mark[j] = true
	}
	if r.Best >= 0 {
		mark[r.Best] = true
	}
	if len(s.axes) == 1 {
		a := &s.axes[0]
		lo, hi := 0, len(r.Points)-1
		if c := r.focus(); r.Mode == "bisection" && a.N > DefaultScanMax && c >= 0 {
			// Over a range too long to show, the chart shows where the
			// search closed in: out to the fourth setting evaluated on
			// either side of the answer, or ten settings.
			ci := r.Points[c].Index[0]
			d := int64(10)
			for _, side := range []int{-1, 1} {
				j := c + 4*side
				j = max(0, min(len(r.Points)-1, j))
				d = max(d, abs64(r.Points[j].Index[0]-ci))
			}
			for lo < c && ci-r.Points[lo].Index[0] > d {
				lo++
			}
			for hi > c && r.Points[hi].Index[0]-ci > d {
				hi--
			}
			if lo > 0 || hi < len(r.Points)-1 {
				sp.Caption += fmt.Sprintf("\nshowing %s=%s..%s, where the bisection closed in, of the range %s searched", a.Name,
					a.Text(r.Points[lo].Index[0]), a.Text(r.Points[hi].Index[0]), a.RangeText())
			}
		}
		for j, p := range r.Points[lo : hi+1] {
			j += lo
			x := a.At(p.Index[0])
			if a.List() {
				x = float64(p.Index[0])
			}
			sp.Points = append(sp.Points, reports.SolvePlotPoint{X: x, Est: p.Est[k], Meets: s.meets(p) && r.NFeasible > 0, Chosen: mark[j]})
		}
		if len(s.targets) > 0 && slices.ContainsFunc(s.targets, func(t Target) bool { return !t.Equal }) {
			for _, run := range r.Feasible {
				run.First = max(run.First, r.Points[lo].Index[0])
				run.Last = min(run.Last, r.Points[hi].Index[0])
				if run.First > run.Last {
					continue
				}
				x0, x1 := a.At(run.First), a.At(run.Last)
				if a.List() {
					x0, x1 = float64(run.First), float64(run.Last)
				}
				sp.Feasible = append(sp.Feasible, [2]float64{x0, x1})
			}
		}
		return sp, nil
	}
	ax, ay := &s.axes[0], &s.axes[1]
	for i := range ax.N {
		sp.Xs = append(sp.Xs, axisCoord(ax, i))
	}
	for i := range ay.N {
		sp.Ys = append(sp.Ys, axisCoord(ay, i))
	}
	sp.Z = make([][]float64, ay.N)
	sp.Meets = make([][]bool, ay.N)
	sp.Chosen = make([][]bool, ay.N)
	for j, p := range r.Points {
		row := p.Index[1]
		if sp.Z[row] == nil {
			sp.Z[row] = make([]float64, ax.N)
			sp.Meets[row] = make([]bool, ax.N)
			sp.Chosen[row] = make([]bool, ax.N)
		}
		sp.Z[row][p.Index[0]] = p.Est[k].V
		sp.Meets[row][p.Index[0]] = s.meets(p) && slices.ContainsFunc(s.targets, func(t Target) bool { return !t.Equal })
		sp.Chosen[row][p.Index[0]] = mark[j]
	}
	sp.MeetsLabel = "outlined: settings that meet every inequality target"
	if eq := slices.IndexFunc(s.targets, func(t Target) bool { return t.Equal }); eq >= 0 && !slices.ContainsFunc(s.targets, func(t Target) bool { return !t.Equal }) {
		// The frontier: along each column, the setting nearest the value.
		for _, fr := range r.Frontier {
			for _, y := range fr.Nearest {
				sp.Meets[y][fr.Index[0]] = true
			}
		}
		sp.MeetsLabel = fmt.Sprintf("outlined: for each %s, the %s nearest to %s", ax.Name, ay.Name, fmtNum(s.targets[eq].Value))
	}
	return sp, nil
}

// focus is the point the answer names: the nearest to the equality
// target, the objective's pick, or the first edge of a run (-1 if none).
func (r *SolveResult) focus() int {
	switch {
	case len(r.NearestPoints) > 0:
		return r.NearestPoints[0]
	case r.Best >= 0:
		return r.Best
	case r.Closest >= 0:
		return r.Closest
	}
	for _, ans := range r.Answers {
		if len(ans.Edges) > 0 {
			return r.byIndex[ans.Edges[0][0]]
		}
	}
	return -1
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

func axisCoord(a *SolveAxis, i int64) float64 {
	if a.List() && a.Labels != nil {
		return float64(i)
	}
	return a.At(i)
}

// caption is the chart's caption: the engine and what is held fixed.
func (s *Solve) caption() string {
	c := s.engineText()
	if f := s.Fixed(); f != "" {
		c += " · " + f
	}
	return c
}
