package reports

import (
	"bytes"
	"cmp"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// Formats lists the output formats of Write.
var Formats = []string{"table", "csv", "json"}

// Write renders a result in the named format.
func Write(w io.Writer, r *engine.Result, format string) error {
	return WriteWith(w, r, format, TableOptions{})
}

// WriteWith renders a result in the named format, a text table with opt
// (the CSV and JSON have no options).
func WriteWith(w io.Writer, r *engine.Result, format string, opt TableOptions) error {
	switch format {
	case "table":
		return WriteTableWith(w, r, opt)
	case "csv":
		return WriteCSV(w, r)
	case "json":
		return WriteJSON(w, r)
	default:
		return fmt.Errorf("unknown format %q (want %s)", format, strings.Join(Formats, ", "))
	}
}

func csvWriter(w io.Writer) *csv.Writer { return csv.NewWriter(w) }

// fixed4 is x to four decimals, without the sign of a mean that rounds to
// zero (d6 − d6 sums to −1e−17 in floating point: "0.0000", not "-0.0000").
func fixed4(x float64) string {
	if s := strconv.FormatFloat(x, 'f', 4, 64); s != "-0.0000" {
		return s
	}
	return "0.0000"
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', 10, 64) }

// prob4 prints a probability in a text table: to four decimals, except
// that only an exact 0 or 1 prints as "0" or "1" (an impossible event, a
// certain one) and a probability that four decimals would round to either
// prints as "<0.0001" or ">0.9999", never as if it were impossible or
// certain. The engines sum each probability from its smaller side
// (engine.Prob), so their exact zeros and ones are exact.
func prob4(p float64) string {
	switch {
	case p == 0:
		return "0"
	case p == 1:
		return "1"
	case p > 0 && p < 0.00005:
		return "<0.0001"
	case p >= 0.99995 && p < 1:
		return ">0.9999"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// isProb4 is prob4 after "P", as in "with P = 0.3631" or "with P < 0.0001".
func isProb4(p float64) string {
	s := prob4(p)
	if s[0] == '<' || s[0] == '>' {
		return s[:1] + " " + s[1:]
	}
	return "= " + s
}

// oneLine keeps a metadata value on its line.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// Header returns the metadata lines shared by every format. The worker count
// is deliberately absent: a simulation's output is byte-identical for any
// number of workers.
func Header(r *engine.Result) [][2]string {
	h := [][2]string{
		{"oddsmith", r.Version},
		{"mechanic", r.Mechanic},
	}
	if r.Rule != "" {
		h = append(h, [2]string{"rule", oneLine(r.Rule)})
	}
	h = append(h, [][2]string{
		{"engine", string(r.Engine)},
		{"params", paramString(r)},
		{"options", optionString(r)},
		{"fingerprint", r.Fingerprint},
	}...)
	if r.Engine == engine.Sim {
		h = append(h, [2]string{"seed", strconv.FormatUint(r.Seed, 10)},
			[2]string{"trials", strconv.FormatInt(r.Trials, 10)})
	}
	if r.Truncated > 0 {
		h = append(h, [2]string{"truncated_mass", num(r.Truncated)})
	}
	return h
}

func paramString(r *engine.Result) string {
	var parts []string
	for _, p := range r.Params {
		parts = append(parts, p.Name+"="+mechanics.FormatNum(p.Value))
	}
	return strings.Join(parts, " ")
}

func optionString(r *engine.Result) string {
	var parts []string
	for _, o := range r.Options {
		parts = append(parts, o.Name+"="+o.Value)
	}
	return strings.Join(parts, " ")
}

// TableOptions shape a text table (WriteTableWith, WriteWith); the CSV
// and the JSON hold every number as it is, whatever they say.
type TableOptions struct {
	// Percent prints probabilities as percentages ("93.98%", "<0.01%"),
	// with the same rules as prob4: only an exact 0 or 1 prints as "0%"
	// or "100%".
	Percent bool
}

// prob prints a probability of a text table, as prob4 or as a
// percentage.
func (o TableOptions) prob(p float64) string {
	if o.Percent {
		return percent2(p)
	}
	return prob4(p)
}

// isProb is prob after "P", as in "with P = 0.3631" or "with P < 0.01%".
func (o TableOptions) isProb(p float64) string {
	s := o.prob(p)
	if s[0] == '<' || s[0] == '>' {
		return s[:1] + " " + s[1:]
	}
	return "= " + s
}

// percent2 prints a probability as a percentage to two decimals, the
// precision of prob4: "93.98%"; only an exact 0 or 1 prints as "0%" or
// "100%", and what two decimals would round to either as "<0.01%" or
// ">99.99%".
func percent2(p float64) string {
	switch {
	case p == 0:
		return "0%"
	case p == 1:
		return "100%"
	case p > 0 && p < 0.00005:
		return "<0.01%"
	case p >= 0.99995 && p < 1:
		return ">99.99%"
	}
	return strconv.FormatFloat(p*100, 'f', 2, 64) + "%"
}

// points2 prints a change of a probability in percentage points, with its
// sign, to two decimals ("+5.00 pp"); an exact 0 is "0", and a change too
// small for two decimals is "+<0.01 pp" or "-<0.01 pp", never none.
func points2(d float64) string {
	s := strconv.FormatFloat(math.Abs(d)*100, 'f', 2, 64)
	switch {
	case d == 0:
		return "0"
	case s == "0.00":
		s = "<0.01"
	}
	if d < 0 {
		return "-" + s + " pp"
	}
	return "+" + s + " pp"
}

// TinyMass is the least probability that a text table gives a row of a
// variable's distribution or of a list of states: the far tails of a big
// pool (1e-13 at −52) are counted in one line instead, and the table's
// min and max are those of the values it prints. The CSV and JSON keep
// every value, and the exact extremes.
const TinyMass = 1e-12

// WriteTable writes a human-readable report: aligned columns, no trailing
// spaces on any line. The distribution table of the primary variable, and
// of every conditional one (Var.Given), has P(= x), P(≤ x) and P(≥ x) (the
// CSV's ccdf column is P(> x)).
func WriteTable(w io.Writer, r *engine.Result) error {
	return WriteTableWith(w, r, TableOptions{})
}

// WriteTableWith is WriteTable with options.
func WriteTableWith(w io.Writer, r *engine.Result, opt TableOptions) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 4, 2, ' ', 0)
	t := &table{tw: tw, sim: r.Engine == engine.Sim, TableOptions: opt}
	t.write(r)
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(trimLines(buf.Bytes()))
	return err
}

// trimLines removes the spaces that tabwriter pads the last cell of a line
// with, and makes the text safe for a terminal (Printable): every text
// report passes through it.
func trimLines(b []byte) []byte {
	lines := bytes.Split(b, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimRight(l, " ")
	}
	return []byte(Printable(string(bytes.Join(lines, []byte("\n")))))
}

// table writes a text table: sim adds a simulation's intervals; exact
// says that the block being written has a column of exact fractions.
type table struct {
	tw         io.Writer
	sim, exact bool
	TableOptions
}

func (t *table) write(r *engine.Result) {
	tw := t.tw
	for _, h := range Header(r) {
		fmt.Fprintf(tw, "%s:\t%s\n", h[0], h[1])
	}
	for _, wmsg := range r.Warnings {
		fmt.Fprintf(tw, "warning:\t%s\n", wmsg)
	}
	if len(r.Events) > 0 {
		t.events(r)
	}
	for _, b := range r.Bands {
		t.band(r, &b)
	}
	if r.Process != nil {
		t.process(r.Process)
	}
	if len(r.Vars) > 0 {
		t.stats(r.Vars)
		t.dist(&r.Vars[0])
		// A conditional distribution is not the primary's with its
		// condition's mass taken out: it is printed in full as well.
		for i := 1; i < len(r.Vars); i++ {
			if r.Vars[i].Given != "" {
				t.dist(&r.Vars[i])
			}
		}
	}
}

// events writes the events. The events of a process's absorbing states
// ("absorbed:STATE", one per state) are a list of states (absorbedList);
// every other event is listed, whatever its probability: it was asked
// for.
func (t *table) events(r *engine.Result) {
	fmt.Fprintln(t.tw)
	t.exact = false
	for _, e := range r.Events {
		t.exact = t.exact || e.Exact != ""
	}
	t.probsHead("event")
	states := stateEvents(r)
	l := absorbedList(eventPs(r.Events, states))
	l.noun = "absorbed:…"
	last := -1
	for i := range r.Events {
		if states[i] {
			last = i
		}
	}
	for i, e := range r.Events {
		if !states[i] || !l.omit(e.P) {
			t.probRow(e.Name, e.P, e.CI, e.Exact)
		}
		if i == last {
			l.note(t.tw, t.TableOptions)
		}
	}
}

// stateEvents marks the events of r that stand for a process's absorbing
// states (mechanics.ProcessSpec's "absorbed:STATE").
func stateEvents(r *engine.Result) []bool {
	marks := make([]bool, len(r.Events))
	if r.Process == nil {
		return marks
	}
	states := map[string]bool{}
	for _, s := range r.Process.AbsorbingStates {
		states["absorbed:"+s] = true
	}
	for i, e := range r.Events {
		marks[i] = states[e.Name]
	}
	return marks
}

// eventPs are the probabilities of the marked events.
func eventPs(es []engine.EventResult, marks []bool) []float64 {
	var ps []float64
	for i, e := range es {
		if marks[i] {
			ps = append(ps, e.P)
		}
	}
	return ps
}

// band writes a band. A band of a process's final states, or any band
// with more than maxStates labels of some mass, is a list of states
// (bandList); a shorter band lists every label it declares.
func (t *table) band(r *engine.Result, b *engine.BandResult) {
	fmt.Fprintln(t.tw)
	t.exact = b.Exact != nil
	t.probsHead(b.Name)
	var states *stateList
	if isStateBand(r, b) || longList(b.P) {
		states = bandList(b.P)
		if !isStateBand(r, b) {
			states.noun = "labels"
		}
	}
	for i, l := range b.Labels {
		var ci [2]float64
		if t.sim {
			ci = b.CI[i]
		}
		if states != nil && states.omit(b.P[i]) {
			continue
		}
		ex := ""
		if b.Exact != nil {
			ex = b.Exact[i]
		}
		t.probRow(l, b.P[i], ci, ex)
	}
	if states != nil {
		states.note(t.tw, t.TableOptions)
	}
}

// probsHead heads a block of probabilities named what: with a
// simulation's Wilson intervals when sim is set, with the exact fractions
// when exact is.
func (t *table) probsHead(what string) {
	switch {
	case t.sim:
		fmt.Fprintf(t.tw, "%s\tP\t95%% CI (Wilson)\t\n", what)
	case t.exact:
		fmt.Fprintf(t.tw, "%s\tP\texact\t\n", what)
	default:
		fmt.Fprintf(t.tw, "%s\tP\t\n", what)
	}
}

// probRow is a line of a block of probabilities (probsHead): ex is P as
// an exact fraction, or "".
func (t *table) probRow(name string, p float64, ci [2]float64, ex string) {
	switch {
	case t.sim:
		fmt.Fprintf(t.tw, "%s\t%s\t[%s, %s]\t\n", name, t.prob(p), t.prob(ci[0]), t.prob(ci[1]))
	case t.exact:
		fmt.Fprintf(t.tw, "%s\t%s\t%s\t\n", name, t.prob(p), ex)
	default:
		fmt.Fprintf(t.tw, "%s\t%s\t\n", name, t.prob(p))
	}
}

// isStateBand tells the band of a process's final state (the band
// "final_state" of mechanics.ProcessSpec, a label per state of the
// chain), which the table lists as it lists the process's states.
func isStateBand(r *engine.Result, b *engine.BandResult) bool {
	return r.Process != nil && b.Name == "final_state"
}

// maxStates is the number of states past which a text table shortens a
// list of a process's states.
const maxStates = 12

// stateList decides which states of a process a text table lists, and
// counts the others for a closing note (the CSV and JSON list every
// state). A state with probability 0 is never listed: a chain has many;
// nor one below TinyMass. A list with more than maxStates states of some
// mass is shortened further: it leaves out the states below least, and
// lists at most most states.
type stateList struct {
	long        bool
	least       float64
	most        int
	shown, zero int
	// rest counts the states of some mass left out, restP their mass.
	rest  int
	restP float64
	// noun names what is listed in the note ("states" by default).
	noun string
}

// absorbedList is the list of a process's absorbing states, of
// probabilities ps: shortened to the first maxStates states of
// probability 0.001 or more (an event-driven chain has an absorbing state
// per time).
func absorbedList(ps []float64) *stateList {
	return &stateList{long: longList(ps), least: 0.001, most: maxStates}
}

// bandList is the list of the final states of a process (its band
// final_state), of probabilities ps: shortened only by the states too
// unlikely to show a digit (<0.0001), for the band is the distribution of
// where the process stands at the horizon, read as a whole.
func bandList(ps []float64) *stateList {
	return &stateList{long: longList(ps), least: 0.00005, most: len(ps)}
}

// longList tells whether more than maxStates of ps have mass.
func longList(ps []float64) bool {
	n := 0
	for _, p := range ps {
		if p != 0 {
			n++
		}
	}
	return n > maxStates
}

// omit tells whether a state of probability p is left out, counting it.
func (l *stateList) omit(p float64) bool {
	switch {
	case p == 0:
		l.zero++
	case p < TinyMass || l.long && (p < l.least || l.shown >= l.most):
		l.rest++
		l.restP += p
	default:
		l.shown++
		return false
	}
	return true
}

// note writes the line that says how many states were left out and their
// probability, if any were: a row "(20 more states)" whose P cell, "0
// each; see --format csv", is the last of its line so that it widens no
// column.
func (l *stateList) note(tw io.Writer, o TableOptions) {
	n := l.zero + l.rest
	var p string
	switch {
	case n == 0:
		return
	case l.rest == 0 && n == 1:
		p = "0"
	case l.rest == 0:
		p = "0 each"
	case l.zero == 0:
		p = o.prob(l.restP) + " in all"
	default:
		p = fmt.Sprintf("%s in all, %d of them 0", o.prob(l.restP), l.zero)
	}
	noun := cmp.Or(l.noun, "states")
	if n == 1 {
		noun = strings.TrimSuffix(noun, "s")
	}
	fmt.Fprintf(tw, "(%d more %s)\t%s; see --format csv\n", n, noun, p)
}

// process writes a process's absorption within its horizon and,
// when it is known, with no horizon at all: the states with mass (see
// stateList), then a note of those left out.
func (t *table) process(p *engine.ProcessResult) {
	tw := t.tw
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "absorbed within %d %ss\tP\t\n", p.Horizon, unit(p.TimeUnit))
	l := absorbedList(p.Absorbed)
	for i, s := range p.AbsorbingStates {
		if !l.omit(p.Absorbed[i]) {
			fmt.Fprintf(tw, "%s\t%s\t\n", s, t.prob(p.Absorbed[i]))
		}
	}
	l.note(tw, t.TableOptions)
	fmt.Fprintf(tw, "(not absorbed)\t%s\t\n", t.prob(p.Undecided))
	if p.Unbounded {
		fmt.Fprintf(tw, "mean time, unlimited horizon\t%.4f\t\n", p.MeanTimeUnbounded)
		l := absorbedList(p.AbsorbedUnbounded)
		for i, s := range p.AbsorbingStates {
			if !l.omit(p.AbsorbedUnbounded[i]) {
				fmt.Fprintf(tw, "P(%s), unlimited horizon\t%s\t\n", s, t.prob(p.AbsorbedUnbounded[i]))
			}
		}
		l.note(tw, t.TableOptions)
	}
}

// printedRange is the least and the greatest value of v that a table
// prints (of probability TinyMass or more), and whether it has any.
func printedRange(v *engine.VarResult) (lo, hi float64, ok bool) {
	for i, p := range v.P {
		if p < TinyMass {
			continue
		}
		x := v.Value(i)
		if !ok {
			lo, ok = x, true
		}
		hi = x
	}
	return lo, hi, ok
}

// stats writes the statistics of every variable, then a note for
// each that has no value with some probability. Their min and max are
// over the values the table prints (see TinyMass): a line says so, with
// the exact extremes, where these differ.
func (t *table) stats(vars []engine.VarResult) {
	tw := t.tw
	fmt.Fprintln(tw)
	fmt.Fprintln(tw, "variable\tmean\tsd\tmin\tp5\tp25\tp50\tp75\tp95\tmax\t")
	var notes, extremes []string
	for _, v := range vars {
		s := v.Stats
		if len(v.P) == 0 || math.IsNaN(s.Mean) {
			fmt.Fprintf(tw, "%s\t—\t—\t—\t—\t—\t—\t—\t—\t—\t\n", v.Name)
		} else {
			lo, hi := s.Min, s.Max
			if l, h, ok := printedRange(&v); ok && (l != lo || h != hi) {
				var ex []string
				if l != lo {
					ex = append(ex, "min "+value(lo))
				}
				if h != hi {
					ex = append(ex, "max "+value(hi))
				}
				extremes = append(extremes, v.Name+" "+strings.Join(ex, ", "))
				lo, hi = l, h
			}
			fmt.Fprintf(tw, "%s\t%s\t%.4f\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n", v.Name, fixed4(s.Mean), s.SD, value(lo), value(s.P5), value(s.P25), value(s.P50), value(s.P75), value(s.P95), value(hi))
		}
		switch {
		case v.Given != "" && v.Undefined > 0:
			notes = append(notes, fmt.Sprintf("%s: given %s (P %s); %s with P %s given it; its distribution is conditional and its statistics are over the rest",
				v.Name, v.Given, t.isProb(v.GivenP), v.UndefinedLabel, t.isProb(v.Undefined)))
		case v.Given != "":
			notes = append(notes, fmt.Sprintf("%s: given %s (P %s); its distribution and statistics are conditional", v.Name, v.Given, t.isProb(v.GivenP)))
		case v.Undefined > 0:
			notes = append(notes, fmt.Sprintf("%s: %s with P %s; its statistics are over the rest", v.Name, v.UndefinedLabel, t.isProb(v.Undefined)))
		}
	}
	if len(extremes) > 0 {
		notes = append(notes, fmt.Sprintf("(min and max are over the values of P ≥ %s; over every value, in --format csv: %s)", num(TinyMass), strings.Join(extremes, "; ")))
	}
	for _, n := range notes {
		fmt.Fprintf(tw, "%s\n", n)
	}
}

// dist writes a variable's distribution: P(= x), P(≤ x) and P(≥ x)
// at every value of probability TinyMass or more, then one line for the
// values left out, if any.
func (t *table) dist(v *engine.VarResult) {
	tw := t.tw
	fmt.Fprintln(tw)
	exact := ""
	if v.Exact != nil {
		exact = "exact\t"
	}
	name := v.Name
	if v.Given != "" {
		name += " | " + v.Given
	}
	fmt.Fprintf(tw, "x = %s\tP(= x)\tP(≤ x)\tP(≥ x)\t%s\n", name, exact)
	var left []int
	for i, tl := range v.Tails() {
		switch p := v.P[i]; {
		case p == 0:
		case p < TinyMass:
			left = append(left, i)
		default:
			ex := ""
			if v.Exact != nil {
				ex = v.Exact[i] + "\t"
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", VarValue(v, i), t.prob(p), t.prob(tl.Le), t.prob(tl.Ge), ex)
		}
	}
	if v.Undefined > 0 {
		fmt.Fprintf(tw, "(%s)\t%s\t\t\t\n", v.UndefinedLabel, t.prob(v.Undefined))
	}
	if len(left) > 0 {
		values := "values"
		if len(left) == 1 {
			values = "value"
		}
		fmt.Fprintf(tw, "(%d more %s, of P < %s each: %s; see --format csv)\n", len(left), values, num(TinyMass), leftRuns(v, left))
	}
}

// leftRuns says which values of v a table left out (left, in order): the
// runs of them with no printed value between, "-44…-4 and 4…44".
func leftRuns(v *engine.VarResult, left []int) string {
	var runs []string
	start := 0
	for k := 1; k <= len(left); k++ {
		if k < len(left) && !shownBetween(v, left[k-1], left[k]) {
			continue
		}
		a, b := left[start], left[k-1]
		if a == b {
			runs = append(runs, VarValue(v, a))
		} else {
			runs = append(runs, VarValue(v, a)+"…"+VarValue(v, b))
		}
		start = k
	}
	if len(runs) > 3 {
		runs = append(runs[:3], "…")
		return strings.Join(runs, ", ")
	}
	if len(runs) > 1 {
		return strings.Join(runs[:len(runs)-1], ", ") + " and " + runs[len(runs)-1]
	}
	return runs[0]
}

// shownBetween tells whether a table prints a value of v between its
// i-th and j-th.
func shownBetween(v *engine.VarResult, i, j int) bool {
	for k := i + 1; k < j; k++ {
		if v.P[k] >= TinyMass {
			return true
		}
	}
	return false
}

// value prints a value of a variable: whole numbers without a decimal
// point, others with up to four decimals.
func value(x float64) string {
	if x == math.Trunc(x) {
		return strconv.FormatFloat(x, 'f', -1, 64)
	}
	return strconv.FormatFloat(x, 'g', 10, 64)
}

// VarValue prints the i-th support point of a variable: an integer, a short
// decimal (2.5) or, on lattices such as thirds, the fraction (7/3).
func VarValue(v *engine.VarResult, i int) string {
	if v.Den <= 1 && v.Xs == nil {
		return strconv.Itoa(v.Lo + i)
	}
	r := v.Rat(i)
	for d := r.D; ; {
		switch {
		case d == 1:
			return strconv.FormatFloat(r.Float(), 'f', -1, 64)
		case d%2 == 0:
			d /= 2
		case d%5 == 0:
			d /= 5
		default:
			return r.String()
		}
	}
}

func unit(u string) string {
	if u == "" {
		return "step"
	}
	return u
}

// csvColumns are the columns of WriteCSV's table, and what each holds;
// they are written into the metadata header as "# column NAME: meaning".
var csvColumns = [][2]string{
	{"kind", "pmf (one value of a variable), undefined (the mass where a variable has no value, e.g. a time never reached), event, band (one label), stat (one statistic of a variable, over its defined values), survival (one time of a process), process (absorption)"},
	{"name", "the variable, event or band; time for survival rows; absorbed, absorbed_unbounded or mean_time_unbounded for process rows"},
	{"x", "pmf: the value x; undefined: why there is no value; band: the label; stat: the statistic (mean sd min p5 p25 p50 p75 p95 max); survival: the time t; process: the absorbing state"},
	{"probability", "pmf: P(X = x); event: P(event); band: P(label); stat: the statistic's value (not a probability); survival: S(t) = P(T > t); process: P(absorbed in the state) or the mean time"},
	{"cdf", "pmf rows: P(X ≤ x)"},
	{"ccdf", "pmf rows: P(X > x) (so P(X ≥ x) = ccdf + probability), summed from the top: exactly 0 at the largest value unless X is undefined with some probability or the exact engine left mass out (truncated_mass), which count as above every value"},
	{"count", "simulations: trials with this value or event"},
	{"ci_lo", "simulations: lower end of the Wilson 95% interval of probability (events and bands)"},
	{"ci_hi", "simulations: upper end of the Wilson 95% interval of probability (events and bands)"},
	{"exact", "exact engine, pmf, event and band rows: the probability as a fraction (5/36) when it could afford rational arithmetic"},
}

// WriteCSV writes one tidy table: a "# key: value" metadata header (spreadsheet
// tools skip it as comments; pandas reads it with comment='#') that ends with
// what every column holds ("# column cdf: pmf rows: P(X ≤ x)"), then rows of
// kind,name,x,probability,cdf,ccdf,count,ci_lo,ci_hi,exact. kind is pmf (x is
// the value), event, band (x is the label), stat (x is the statistic's name),
// survival or process. cdf is P(X ≤ x) and ccdf is P(X > x).
func WriteCSV(w io.Writer, r *engine.Result) error {
	var cols []string
	for _, c := range csvColumns {
		cols = append(cols, c[0])
	}
	if err := writeCSVHeader(w, r, cols); err != nil {
		return err
	}
	cw := csvRows{Writer: csv.NewWriter(w), sim: r.Engine == engine.Sim}
	cw.Write(cols)
	for i := range r.Vars {
		cw.pmf(&r.Vars[i])
	}
	for _, e := range r.Events {
		count := ""
		if cw.sim {
			count = strconv.FormatInt(e.Count, 10)
		}
		cw.Write(append(append([]string{"event", e.Name, "", num(e.P), "", "", count}, cw.ci(e.CI)...), e.Exact))
	}
	for _, b := range r.Bands {
		for i, l := range b.Labels {
			c := [2]float64{}
			if cw.sim {
				c = b.CI[i]
			}
			ex := ""
			if b.Exact != nil {
				ex = b.Exact[i]
			}
			cw.Write(append(append([]string{"band", b.Name, l, num(b.P[i]), "", "", ""}, cw.ci(c)...), ex))
		}
	}
	for i := range r.Vars {
		cw.stats(&r.Vars[i])
	}
	if r.Process != nil {
		cw.process(r.Process)
	}
	cw.Flush()
	return cw.Error()
}

// writeCSVHeader writes WriteCSV's metadata: the result's header and
// warnings, then the columns and what each holds.
func writeCSVHeader(w io.Writer, r *engine.Result, cols []string) error {
	meta := Header(r)
	for _, m := range r.Warnings {
		meta = append(meta, [2]string{"warning", m})
	}
	for _, v := range r.Vars {
		if v.Given != "" {
			meta = append(meta, [2]string{"given " + v.Name, fmt.Sprintf("its pmf, undefined and stat rows are given %s, which has probability %s", v.Given, num(v.GivenP))})
		}
	}
	meta = append(meta, [2]string{"columns", strings.Join(cols, ",")})
	for _, c := range csvColumns {
		meta = append(meta, [2]string{"column " + c[0], c[1]})
	}
	for _, h := range meta {
		if _, err := fmt.Fprintf(w, "# %s: %s\n", h[0], oneLine(h[1])); err != nil {
			return err
		}
	}
	return nil
}

// csvRows writes the rows of WriteCSV's table; sim adds a simulation's
// counts and Wilson intervals.
type csvRows struct {
	*csv.Writer
	sim bool
}

// ci is the ci_lo and ci_hi cells: a simulation's interval, or empty.
func (cw csvRows) ci(c [2]float64) []string {
	if !cw.sim {
		return []string{"", ""}
	}
	return []string{num(c[0]), num(c[1])}
}

// value writes a row with a kind, a name, an x and a number in the
// probability column, the other columns empty.
func (cw csvRows) value(kind, name, x string, p float64) {
	cw.Write([]string{kind, name, x, num(p), "", "", "", "", "", ""})
}

// pmf writes a variable's distribution, one row per value it takes, and
// the mass where it has no value.
func (cw csvRows) pmf(v *engine.VarResult) {
	for i, t := range v.Tails() {
		p := v.P[i]
		if p == 0 {
			continue
		}
		count := ""
		if v.Counts != nil {
			count = strconv.FormatInt(v.Counts[i], 10)
		}
		ex := ""
		if v.Exact != nil {
			ex = v.Exact[i]
		}
		cw.Write([]string{"pmf", v.Name, num(v.Value(i)), num(p), num(t.Le), num(t.Gt), count, "", "", ex})
	}
	if v.Undefined > 0 {
		count := ""
		if cw.sim {
			count = strconv.FormatInt(v.UndefinedCount, 10)
		}
		cw.Write([]string{"undefined", v.Name, v.UndefinedLabel, num(v.Undefined), "", "", count, "", "", ""})
	}
}

// stats writes a variable's statistics, unless it has no value at all
// (see its undefined row).
func (cw csvRows) stats(v *engine.VarResult) {
	s := v.Stats
	if len(v.P) == 0 || math.IsNaN(s.Mean) {
		return
	}
	for _, kv := range []struct {
		k string
		v float64
	}{{"mean", s.Mean}, {"sd", s.SD}, {"min", s.Min}, {"p5", s.P5}, {"p25", s.P25},
		{"p50", s.P50}, {"p75", s.P75}, {"p95", s.P95}, {"max", s.Max}} {
		cw.value("stat", v.Name, kv.k, kv.v)
	}
}

// process writes a process's survival curve and its absorption.
func (cw csvRows) process(p *engine.ProcessResult) {
	for t, s := range p.Survival {
		cw.value("survival", "time", strconv.Itoa(t), s)
	}
	for i, s := range p.AbsorbingStates {
		cw.value("process", "absorbed", s, p.Absorbed[i])
	}
	cw.value("process", "absorbed", "(not absorbed)", p.Undecided)
	if p.Unbounded {
		cw.value("process", "mean_time_unbounded", "", p.MeanTimeUnbounded)
		for i, s := range p.AbsorbingStates {
			cw.value("process", "absorbed_unbounded", s, p.AbsorbedUnbounded[i])
		}
	}
}

// jsonResult fixes the key order of the stable JSON form.
type jsonResult struct {
	Mechanic      string                    `json:"mechanic"`
	Rule          string                    `json:"rule,omitempty"`
	Engine        string                    `json:"engine"`
	Version       string                    `json:"version"`
	Fingerprint   string                    `json:"fingerprint"`
	Params        map[string]float64        `json:"params"`
	Options       map[string]string         `json:"options"`
	Seed          *uint64                   `json:"seed,omitempty"`
	Trials        int64                     `json:"trials,omitempty"`
	Workers       int                       `json:"workers,omitempty"`
	Distributions map[string][][2]any       `json:"distributions"`
	Events        map[string]float64        `json:"events"`
	CI95          map[string][2]float64     `json:"ci95,omitempty"`
	Bands         map[string]map[string]any `json:"bands,omitempty"`
	Stats         map[string]engine.Stats   `json:"stats"`
	Undefined     map[string]jsonUndefined  `json:"undefined,omitempty"`
	Given         map[string]jsonGiven      `json:"given,omitempty"`
	Process       *engine.ProcessResult     `json:"process,omitempty"`
	Truncated     float64                   `json:"truncated_mass,omitempty"`
	Warnings      []string                  `json:"warnings,omitempty"`
	Exact         *jsonExact                `json:"exact,omitempty"`
}

// jsonExact holds the exact fractions of the distributions and events
// that have them (the exact engine, when it could afford rational
// arithmetic); a band's are under its "exact" key.
type jsonExact struct {
	Distributions map[string][][2]any `json:"distributions,omitempty"`
	Events        map[string]string   `json:"events,omitempty"`
}

// jsonUndefined is the mass where a variable has no value.
type jsonUndefined struct {
	Label string  `json:"label"`
	P     float64 `json:"p"`
}

// jsonGiven is the condition of a conditional variable: its distribution,
// statistics and undefined mass are given it.
type jsonGiven struct {
	Label string  `json:"label"`
	P     float64 `json:"p"`
}

// WriteJSON writes the stable JSON form documented in docs/commands.md.
func WriteJSON(w io.Writer, r *engine.Result) error {
	j := jsonResult{
		Mechanic: r.Mechanic, Rule: r.Rule, Engine: string(r.Engine), Version: r.Version, Fingerprint: r.Fingerprint,
		Params: map[string]float64{}, Options: map[string]string{},
		Distributions: map[string][][2]any{}, Events: map[string]float64{},
		Stats: map[string]engine.Stats{}, Process: r.Process, Truncated: r.Truncated, Warnings: r.Warnings,
	}
	for _, p := range r.Params {
		j.Params[p.Name] = p.Value
	}
	for _, o := range r.Options {
		j.Options[o.Name] = o.Value
	}
	if r.Engine == engine.Sim {
		seed := r.Seed
		j.Seed, j.Trials = &seed, r.Trials
		j.CI95 = map[string][2]float64{}
		for _, e := range r.Events {
			j.CI95[e.Name] = e.CI
		}
	}
	for _, v := range r.Vars {
		pts := [][2]any{}
		for i, p := range v.P {
			switch {
			case p == 0:
			case v.Den > 1:
				pts = append(pts, [2]any{v.Value(i), p})
			default:
				pts = append(pts, [2]any{v.Lo + i, p})
			}
		}
		j.Distributions[v.Name] = pts
		if len(pts) > 0 && !math.IsNaN(v.Stats.Mean) { // JSON has no NaN: no values, no statistics
			j.Stats[v.Name] = v.Stats
		}
		if v.Undefined > 0 {
			if j.Undefined == nil {
				j.Undefined = map[string]jsonUndefined{}
			}
			j.Undefined[v.Name] = jsonUndefined{v.UndefinedLabel, v.Undefined}
		}
		if v.Given != "" {
			if j.Given == nil {
				j.Given = map[string]jsonGiven{}
			}
			j.Given[v.Name] = jsonGiven{v.Given, v.GivenP}
		}
	}
	for _, e := range r.Events {
		j.Events[e.Name] = e.P
	}
	j.Exact = exactJSON(r)
	if len(r.Bands) > 0 {
		j.Bands = map[string]map[string]any{}
		for _, b := range r.Bands {
			m := map[string]any{"labels": b.Labels, "p": b.P}
			if b.CI != nil {
				m["ci95"] = b.CI
			}
			if b.Exact != nil {
				m["exact"] = b.Exact
			}
			j.Bands[b.Name] = m
		}
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(j)
}

// exactJSON gathers the exact fractions of r's distributions (as
// "distributions", [value, fraction] at every value of some mass) and
// events; nil when it has none.
func exactJSON(r *engine.Result) *jsonExact {
	var x jsonExact
	for _, v := range r.Vars {
		if v.Exact == nil {
			continue
		}
		pts := [][2]any{}
		for i, p := range v.P {
			switch {
			case p == 0:
			case v.Den > 1:
				pts = append(pts, [2]any{v.Value(i), v.Exact[i]})
			default:
				pts = append(pts, [2]any{v.Lo + i, v.Exact[i]})
			}
		}
		if x.Distributions == nil {
			x.Distributions = map[string][][2]any{}
		}
		x.Distributions[v.Name] = pts
	}
	for _, e := range r.Events {
		if e.Exact != "" {
			if x.Events == nil {
				x.Events = map[string]string{}
			}
			x.Events[e.Name] = e.Exact
		}
	}
	if x.Distributions == nil && x.Events == nil {
		return nil
	}
	return &x
}
