package reports

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/oddsmith/oddsmith/engine"
)

// CompareReport is a comparison to write: the two results lined up
// (engine.Compare) and a short label per side for legends ("A:
// ag.skill_test skill=3").
type CompareReport struct {
	*engine.Comparison
	LabelA, LabelB string
	// Percent prints the text's probabilities as percentages and their
	// changes in percentage points (the CSV and JSON keep them in [0, 1]).
	Percent bool
}

// prob prints a probability of the text: as prob4, or as a percentage.
func (c *CompareReport) prob(p float64) string {
	return TableOptions{Percent: c.Percent}.prob(p)
}

// delta prints a change Δ of the text: in percentage points for a
// probability (prob) with Percent, else as deltaText.
func (c *CompareReport) delta(d float64, prob bool) string {
	if c.Percent && prob {
		return points2(d)
	}
	return deltaText(d, prob)
}

// CompareFormats are the formats of WriteCompare.
var CompareFormats = TableFormats

// WriteCompare writes a comparison as a text table, a tidy CSV or JSON
// (WriteTableAs).
func WriteCompare(w io.Writer, c *CompareReport, format string) error {
	return WriteTableAs(w, format,
		func(w io.Writer) error { return WriteCompareText(w, c) },
		func(w io.Writer) error { return WriteCompareCSV(w, c) },
		func(w io.Writer) error { return WriteCompareJSON(w, c) })
}

// sideHeader is a side's metadata (Header without the version).
func sideHeader(r *engine.Result, label string) [][2]string {
	h := Header(r)[1:]
	if label != "" {
		h = append([][2]string{{"label", label}}, h...)
	}
	return h
}

// deltaText prints Δ with its sign; an exact zero is "0".
func deltaText(v float64, prob bool) string {
	if v == 0 {
		return "0"
	}
	s := statText(math.Abs(v), prob)
	if prob && math.Abs(v) < 0.00005 {
		// Not "+0.0000": a change too small for four decimals is not none.
		s = "<0.0001"
	}
	if v < 0 {
		s = "-" + s
	}
	if v > 0 {
		s = "+" + s
	}
	return s
}

// statText prints a number of a comparison: probabilities, means and sds
// to four decimals, values of a variable (percentiles) as they are.
func statText(v float64, fixed bool) string {
	if fixed {
		return fixed4(v)
	}
	return value(v)
}

// rowFixed reports whether a row's numbers print to four decimals (all
// but percentiles, which are values of the variable).
func rowFixed(r engine.CompareRow) bool {
	return r.Prob() || r.Quantity == "mean" || r.Quantity == "sd"
}

// notSignificant is the note of a simulated Δ whose interval covers 0.
func notSignificant(c *engine.Comparison) string {
	return fmt.Sprintf("not significant at n=%d", c.A.Trials)
}

// WriteCompareText writes the comparison for a person: both sides'
// settings and fingerprints, then every shared number side by side with
// Δ = B − A (and its 95% interval when simulated), the distances of the
// shared distributions, the outputs of one side only and those refused,
// and a one-line summary.
func WriteCompareText(w io.Writer, c *CompareReport) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "oddsmith:\t%s\t\n", c.A.Version)
	for _, side := range []struct {
		name  string
		r     *engine.Result
		label string
	}{{"A", c.A, c.LabelA}, {"B", c.B, c.LabelB}} {
		for _, h := range sideHeader(side.r, side.label) {
			fmt.Fprintf(tw, "%s %s:\t%s\t\n", side.name, h[0], h[1])
		}
	}
	sim := c.Sim()
	if len(c.Rows) > 0 {
		fmt.Fprintln(tw)
		if sim {
			fmt.Fprintln(tw, "output\tquantity\tA\tB\tΔ = B − A\tΔ 95% CI\t\t")
		} else {
			fmt.Fprintln(tw, "output\tquantity\tA\tB\tΔ = B − A\t")
		}
		prev := ""
		keep, notes := stateRows(c.Comparison, c.delta)
		for i, r := range c.Rows {
			if !keep[i] {
				continue
			}
			name := r.Output
			if name == prev {
				name = ""
			}
			prev = r.Output
			q := r.Quantity
			switch {
			case r.Kind == "band":
				q = r.Label
			case r.Quantity == "undefined" && r.Label != "":
				q = "undefined"
				notes = append(notes, fmt.Sprintf("%s undefined: %s", r.Output, r.Label))
			case r.Unit != "" && r.Quantity != "undefined":
				q += " (" + r.Unit + ")"
			}
			f := rowFixed(r)
			a, b := statText(r.A.V, f), statText(r.B.V, f)
			if r.Prob() {
				a, b = c.prob(r.A.V), c.prob(r.B.V)
			}
			d := func(v float64) string {
				if r.Prob() {
					return c.delta(v, true)
				}
				return deltaText(v, f)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t", name, q, a, b, d(r.Delta.V))
			if sim {
				note := ""
				if !r.Significant {
					note = "n.s."
				}
				fmt.Fprintf(tw, "[%s, %s]\t%s\t", d(r.Delta.Lo), d(r.Delta.Hi), note)
			}
			fmt.Fprintln(tw)
		}
		for _, n := range notes {
			fmt.Fprintln(tw, n)
		}
		if sim {
			fmt.Fprintf(tw, "n.s.: the 95%% interval of Δ covers 0 (%s)\n", notSignificant(c.Comparison))
		}
	}
	if len(c.Dists) > 0 {
		fmt.Fprintln(tw)
		fmt.Fprintln(tw, "distribution\tTVD\tKS\tKS at\tCDFs cross at\tswingier\t")
		for _, d := range c.Dists {
			ks, at, cross, swing := "—", "—", "—", "—"
			if d.Kind == "variable" {
				ks = c.prob(d.KS)
				if d.KSCritical > 0 {
					crit := fixed4(d.KSCritical)
					if c.Percent {
						crit = percent2(d.KSCritical)
					}
					ks += fmt.Sprintf(" (95%%: %s)", crit)
				}
				if !math.IsNaN(d.KSAt) {
					at = value(d.KSAt)
				}
				cross = crossText(d.Crossings)
				swing = swingText(d)
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t\n", d.Name, c.prob(d.TVD), ks, at, cross, swing)
		}
		if sim {
			fmt.Fprintln(tw, "KS (95%: c): a KS below c is no evidence of a difference at these trials; a crossing counts only where F_A − F_B is outside its 95% interval")
		}
	}
	fmt.Fprintln(tw)
	for _, l := range oneSideLines(c.Comparison) {
		fmt.Fprintln(tw, l)
	}
	fmt.Fprintf(tw, "summary: %s\n", c.Describe())
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(trimLines(buf.Bytes()))
	return err
}

// crossText lists where the CDFs cross, or "no".
func crossText(cs []engine.Crossing) string {
	if len(cs) == 0 {
		return "no"
	}
	var xs []string
	for _, c := range cs {
		xs = append(xs, value(c.X))
	}
	if len(xs) > 6 {
		xs = append(xs[:6], fmt.Sprintf("… (%d in all)", len(cs)))
	}
	return strings.Join(xs, ", ")
}

// swingText says which side has the larger sd, with both.
func swingText(d engine.DistCompare) string {
	switch d.Swingier {
	case "A":
		return fmt.Sprintf("A (sd %s vs %s)", fixed4(d.SDA.V), fixed4(d.SDB.V))
	case "B":
		return fmt.Sprintf("B (sd %s vs %s)", fixed4(d.SDB.V), fixed4(d.SDA.V))
	}
	if d.SDA.V == d.SDB.V {
		return fmt.Sprintf("neither (sd %s)", fixed4(d.SDA.V))
	}
	return fmt.Sprintf("neither (sd %s vs %s, not significant)", fixed4(d.SDA.V), fixed4(d.SDB.V))
}

// oneSideLines lists the outputs of one side only and those refused, one
// line each.
func oneSideLines(c *engine.Comparison) []string {
	var out []string
	list := func(refs []engine.OutputRef) string {
		var s []string
		for _, r := range refs {
			if len(s) == maxStates && len(refs) > maxStates+1 {
				// A process's states: see --format csv for them all.
				s = append(s, fmt.Sprintf("and %d more (see --format csv)", len(refs)-maxStates))
				break
			}
			s = append(s, r.String())
		}
		return strings.Join(s, ", ")
	}
	if len(c.OnlyA) > 0 {
		out = append(out, "only in A: "+list(c.OnlyA))
	}
	if len(c.OnlyB) > 0 {
		out = append(out, "only in B: "+list(c.OnlyB))
	}
	for _, r := range c.Refused {
		out = append(out, fmt.Sprintf("not compared: %s: %s", r.OutputRef, r.Reason))
	}
	return out
}

// compareColumns are the columns of WriteCompareCSV and what each holds.
var compareColumns = [][2]string{
	{"row", "stat (a variable's mean, sd, percentile or undefined mass), event, band (one category), pmf (one value of a variable), cdf (likewise, cumulative), distance (tvd, ks, ks_at, ks_critical95, swingier), crossing (where the CDFs cross), only_a, only_b, refused"},
	{"output", "the variable, event or band"},
	{"quantity", "stat: mean, sd, p5, p25, p50, p75, p95 or undefined; event, band: P; pmf: P(X=x); cdf: P(X<=x); distance: tvd, ks, ks_at, ks_critical95 or swingier; crossing: crossing; only_a, only_b, refused: the output's kind"},
	{"x", "band: the category; pmf, cdf: the value x; crossing: where the CDFs meet, the first value after the last one where F_A − F_B has its old sign (it has the other sign from there or, after values where F_A = F_B, a little later); swingier: A, B or neither; undefined: why there is no value; refused: the reason"},
	{"a", "A's number (crossing: F_A(x); swingier: A's sd)"},
	{"b", "B's number (crossing: F_B(x); swingier: B's sd)"},
	{"delta", "B − A; distance rows: the distance (ks_at: the value where KS is reached)"},
	{"a_lo", "simulations: the 95% interval of a (Wilson for probabilities)"},
	{"a_hi", ""},
	{"b_lo", "simulations: the 95% interval of b"},
	{"b_hi", ""},
	{"delta_lo", "simulations: the 95% interval of delta, from a's and b's as independent runs"},
	{"delta_hi", ""},
	{"significant", "stat, event, band, pmf, cdf rows: yes when delta is not zero (exact) or its interval leaves out 0 (simulated)"},
}

// WriteCompareCSV writes one tidy table: a "# key: value" header with both
// sides' settings and fingerprints (a_… and b_…) and what every column
// holds, then every shared number, every value of every shared variable,
// the distances, the crossings and the outputs not compared.
func WriteCompareCSV(w io.Writer, c *CompareReport) error {
	meta := [][2]string{{"oddsmith", c.A.Version}}
	for _, side := range []struct {
		p     string
		r     *engine.Result
		label string
	}{{"a", c.A, c.LabelA}, {"b", c.B, c.LabelB}} {
		for _, h := range sideHeader(side.r, side.label) {
			meta = append(meta, [2]string{side.p + "_" + h[0], h[1]})
		}
	}
	var cols []string
	for _, col := range compareColumns {
		cols = append(cols, col[0])
	}
	meta = append(meta, [2]string{"columns", strings.Join(cols, ",")})
	for _, col := range compareColumns {
		if col[1] != "" {
			meta = append(meta, [2]string{"column " + col[0], col[1]})
		}
	}
	for _, h := range meta {
		if _, err := fmt.Fprintf(w, "# %s: %s\n", h[0], oneLine(h[1])); err != nil {
			return err
		}
	}
	cw := csv.NewWriter(w)
	cw.Write(cols)
	sim := c.Sim()
	ci := func(e engine.Estimate) []string {
		if !sim {
			return []string{"", ""}
		}
		return []string{num(e.Lo), num(e.Hi)}
	}
	yes := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	row := func(kind, output, quantity, x string, a, b, d engine.Estimate, sig bool) {
		rec := []string{kind, output, quantity, x, num(a.V), num(b.V), num(d.V)}
		rec = append(rec, ci(a)...)
		rec = append(rec, ci(b)...)
		rec = append(rec, ci(d)...)
		cw.Write(append(rec, yes(sig)))
	}
	other := func(kind, output, quantity, x, a, b, d string) {
		cw.Write([]string{kind, output, quantity, x, a, b, d, "", "", "", "", "", "", ""})
	}
	for _, r := range c.Rows {
		kind, x := r.Kind, r.Label
		if kind == "variable" {
			kind = "stat"
		}
		row(kind, r.Output, r.Quantity, x, r.A, r.B, r.Delta, r.Significant)
	}
	for i := range c.Dists {
		d := &c.Dists[i]
		vps := d.Values(c.Comparison)
		for _, vp := range vps {
			row("pmf", d.Name, "P(X=x)", num(vp.X), vp.A, vp.B, vp.Delta, nonZero(vp.Delta, sim))
		}
		for _, vp := range vps {
			row("cdf", d.Name, "P(X<=x)", num(vp.X), vp.FA, vp.FB, vp.FDelta, nonZero(vp.FDelta, sim))
		}
	}
	for i := range c.Dists {
		d := &c.Dists[i]
		vps := d.Values(c.Comparison)
		other("distance", d.Name, "tvd", "", "", "", num(d.TVD))
		if d.Kind != "variable" {
			continue
		}
		other("distance", d.Name, "ks", "", "", "", num(d.KS))
		if !math.IsNaN(d.KSAt) {
			other("distance", d.Name, "ks_at", "", "", "", num(d.KSAt))
		}
		if d.KSCritical > 0 {
			other("distance", d.Name, "ks_critical95", "", "", "", num(d.KSCritical))
		}
		other("distance", d.Name, "swingier", cmpOr(d.Swingier, "neither"), num(d.SDA.V), num(d.SDB.V), num(d.SDB.V-d.SDA.V))
		for _, cr := range d.Crossings {
			vp := valueAt(vps, cr.X)
			other("crossing", d.Name, "crossing", num(cr.X), num(vp.FA.V), num(vp.FB.V), num(vp.FDelta.V))
		}
	}
	for _, r := range c.OnlyA {
		other("only_a", r.Name, r.Kind, "", "", "", "")
	}
	for _, r := range c.OnlyB {
		other("only_b", r.Name, r.Kind, "", "", "", "")
	}
	for _, r := range c.Refused {
		other("refused", r.Name, r.Kind, r.Reason, "", "", "")
	}
	cw.Flush()
	return cw.Error()
}

func nonZero(d engine.Estimate, sim bool) bool {
	if sim {
		return d.Lo > 0 || d.Hi < 0
	}
	return d.V != 0
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

// valueAt is the value point at x, one of the values listed.
func valueAt(vps []engine.ValuePoint, x float64) engine.ValuePoint {
	for _, vp := range vps {
		if vp.X == x {
			return vp
		}
	}
	return engine.ValuePoint{X: x}
}

// jsonSide is one side of a comparison in JSON.
type jsonSide struct {
	Label       string             `json:"label,omitempty"`
	Mechanic    string             `json:"mechanic"`
	Rule        string             `json:"rule,omitempty"`
	Engine      string             `json:"engine"`
	Fingerprint string             `json:"fingerprint"`
	Params      map[string]float64 `json:"params"`
	Options     map[string]string  `json:"options"`
	Seed        *uint64            `json:"seed,omitempty"`
	Trials      int64              `json:"trials,omitempty"`
	Truncated   float64            `json:"truncated_mass,omitempty"`
}

type jsonCompareRow struct {
	Kind        string            `json:"kind"`
	Output      string            `json:"output"`
	Quantity    string            `json:"quantity"`
	Label       string            `json:"label,omitempty"`
	Unit        string            `json:"unit,omitempty"`
	A           float64           `json:"a"`
	B           float64           `json:"b"`
	Delta       float64           `json:"delta"`
	CI95        map[string][2]any `json:"ci95,omitempty"`
	Significant bool              `json:"significant"`
}

type jsonCrossing struct {
	X     float64 `json:"x"`
	After float64 `json:"after"`
	To    float64 `json:"to"`
}

type jsonDist struct {
	Kind       string         `json:"kind"`
	Output     string         `json:"output"`
	Unit       string         `json:"unit,omitempty"`
	TVD        float64        `json:"tvd"`
	KS         *float64       `json:"ks,omitempty"`
	KSAt       *float64       `json:"ks_at,omitempty"`
	KSCritical float64        `json:"ks_critical95,omitempty"`
	Crossings  []jsonCrossing `json:"crossings,omitempty"`
	SD         *[2]float64    `json:"sd,omitempty"`
	Swingier   string         `json:"swingier,omitempty"`
	// PMF lists [x, P_A(x), P_B(x)] at every value of either side.
	PMF [][3]float64 `json:"pmf,omitempty"`
}

type jsonRefusal struct {
	Kind   string `json:"kind"`
	Output string `json:"output"`
	Reason string `json:"reason"`
}

type jsonCompare struct {
	Version       string           `json:"oddsmith"`
	A             jsonSide         `json:"a"`
	B             jsonSide         `json:"b"`
	Rows          []jsonCompareRow `json:"rows"`
	Distributions []jsonDist       `json:"distributions"`
	OnlyA         []map[string]any `json:"only_a,omitempty"`
	OnlyB         []map[string]any `json:"only_b,omitempty"`
	Refused       []jsonRefusal    `json:"refused,omitempty"`
	Summary       string           `json:"summary"`
}

func toJSONSide(r *engine.Result, label string) jsonSide {
	s := jsonSide{Label: label, Mechanic: r.Mechanic, Rule: r.Rule, Engine: string(r.Engine), Fingerprint: r.Fingerprint,
		Params: map[string]float64{}, Options: map[string]string{}, Truncated: r.Truncated}
	for _, p := range r.Params {
		s.Params[p.Name] = p.Value
	}
	for _, o := range r.Options {
		s.Options[o.Name] = o.Value
	}
	if r.Engine == engine.Sim {
		seed := r.Seed
		s.Seed, s.Trials = &seed, r.Trials
	}
	return s
}

// WriteCompareJSON writes the comparison as one JSON object: both sides
// (settings, fingerprints), the rows, the distributions (distances,
// crossings, swingier, and the two PMFs value by value), the outputs not
// compared and the summary.
func WriteCompareJSON(w io.Writer, c *CompareReport) error {
	j := jsonCompare{Version: c.A.Version, A: toJSONSide(c.A, c.LabelA), B: toJSONSide(c.B, c.LabelB),
		Rows: []jsonCompareRow{}, Distributions: []jsonDist{}, Summary: c.Describe()}
	sim := c.Sim()
	for _, r := range c.Rows {
		jr := jsonCompareRow{Kind: r.Kind, Output: r.Output, Quantity: r.Quantity, Label: r.Label, Unit: r.Unit,
			A: r.A.V, B: r.B.V, Delta: r.Delta.V, Significant: r.Significant}
		if sim {
			jr.CI95 = map[string][2]any{"a": {r.A.Lo, r.A.Hi}, "b": {r.B.Lo, r.B.Hi}, "delta": {r.Delta.Lo, r.Delta.Hi}}
		}
		j.Rows = append(j.Rows, jr)
	}
	for i := range c.Dists {
		d := &c.Dists[i]
		jd := jsonDist{Kind: d.Kind, Output: d.Name, Unit: d.Unit, TVD: d.TVD}
		if d.Kind == "variable" {
			ks := d.KS
			jd.KS = &ks
			if !math.IsNaN(d.KSAt) {
				at := d.KSAt
				jd.KSAt = &at
			}
			jd.KSCritical = d.KSCritical
			jd.SD = &[2]float64{d.SDA.V, d.SDB.V}
			jd.Swingier = cmpOr(d.Swingier, "neither")
			jd.Crossings = []jsonCrossing{}
			for _, cr := range d.Crossings {
				jd.Crossings = append(jd.Crossings, jsonCrossing{cr.X, cr.After, cr.To})
			}
			for _, vp := range d.Values(c.Comparison) {
				jd.PMF = append(jd.PMF, [3]float64{vp.X, vp.A.V, vp.B.V})
			}
		}
		j.Distributions = append(j.Distributions, jd)
	}
	for _, r := range c.OnlyA {
		j.OnlyA = append(j.OnlyA, map[string]any{"kind": r.Kind, "output": r.Name})
	}
	for _, r := range c.OnlyB {
		j.OnlyB = append(j.OnlyB, map[string]any{"kind": r.Kind, "output": r.Name})
	}
	for _, r := range c.Refused {
		j.Refused = append(j.Refused, jsonRefusal{r.Kind, r.Name, r.Reason})
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(j)
}

// CompareStem is the file name stem of a comparison written to a
// directory: "<A>_vs_<B>", or "<A>_compare" when both sides are one
// mechanic (one rule), with ids written as file names.
func CompareStem(ra, rb *engine.Result) string {
	a, b := ra.Mechanic, rb.Mechanic
	clean := func(id string) string {
		var sb strings.Builder
		for _, r := range id {
			switch {
			case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-':
				sb.WriteRune(r)
			default:
				sb.WriteByte('_')
			}
		}
		return sb.String()
	}
	if a == b && ra.Rule == rb.Rule {
		return clean(a) + "_compare"
	}
	return clean(a) + "_vs_" + clean(b)
}
