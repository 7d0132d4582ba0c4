package reports

import (
	"fmt"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// How a caption says what a chart was computed with:
//
//   - the engine, then, for a one-line rule, the rule itself ("rule: 3d6
//     >= tn") and, for a rule of a file, the file; then the parameters,
//     and for a simulation its trials and seed — parts joined by " · ",
//     and nothing dangling when a part is empty;
//   - never a sentinel: a parameter whose value stands for a choice (gm
//     ailments' s0 = −99, "the preset's") is said in words, its name with
//     the others that mean the same ("s0, effect_dice and effect_sides:
//     the preset's");
//   - the options on the next line, by the names --set takes;
//   - a chart of several series (SeriesCaption) names what distinguishes
//     each series — its mechanic or rule and the settings in which it
//     differs from the others or from its defaults — and what they share
//     once.

// exprID is the id of a one-line rule (lang/rules.ExprID): its Result.Rule
// is the expression itself, not a file.
const exprID = "expr"

// ruleCaption says which rule a result comes from: the expression of a
// one-liner, the file of a rule ("" for a built-in mechanic).
func ruleCaption(r *engine.Result) string {
	switch {
	case r.Rule == "":
		return ""
	case r.Mechanic == exprID, r.Mechanic == r.Rule:
		// A one-liner, or its chart's copy named by the rule itself.
		return "rule: " + oneLine(r.Rule)
	}
	return "rule from " + r.Rule
}

// settingsCaption prints parameters as name=value, those whose value is
// a sentinel (NamedValue.Means) grouped by what they mean after the
// others: "R=12 H=12 · s0 and effect_dice: the preset's".
func settingsCaption(params []mechanics.NamedValue) []string {
	var plain []string
	var means []string
	named := map[string][]string{}
	for _, p := range params {
		if p.Means != "" {
			if _, ok := named[p.Means]; !ok {
				means = append(means, p.Means)
			}
			named[p.Means] = append(named[p.Means], p.Name)
			continue
		}
		plain = append(plain, p.Name+"="+mechanics.FormatNum(p.Value))
	}
	var out []string
	if len(plain) > 0 {
		out = append(out, strings.Join(plain, " "))
	}
	for _, m := range means {
		out = append(out, andList(named[m])+": "+m)
	}
	return out
}

// andList joins words as a sentence does: "a", "a and b", "a, b and c".
func andList(ws []string) string {
	switch len(ws) {
	case 0:
		return ""
	case 1:
		return ws[0]
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " and " + ws[len(ws)-1]
}

// shortOption is an option's name as --set takes it ("tie" for
// "ag.core.opt.tie", "surface" for "ag.fall_damage.surface").
func shortOption(name string) string {
	if i := strings.LastIndex(name, ".opt."); i >= 0 {
		return name[i+5:]
	}
	if i := strings.LastIndex(name, "."); i >= 0 {
		return name[i+1:]
	}
	return name
}

// resultCaption is Caption's text (see the rule above).
func resultCaption(r *engine.Result) string {
	parts := []string{string(r.Engine)}
	if rc := ruleCaption(r); rc != "" {
		parts = append(parts, rc)
	}
	parts = append(parts, settingsCaption(r.Params)...)
	if r.Engine == engine.Sim {
		parts = append(parts, fmt.Sprintf("n=%d seed=%d", r.Trials, r.Seed))
	}
	c := strings.Join(parts, " · ")
	var opts []string
	for _, o := range r.Options {
		opts = append(opts, shortOption(o.Name)+"="+o.Value)
	}
	if len(opts) == 0 {
		return c
	}
	return c + "\noptions: " + strings.Join(opts, " ")
}

// CaptionSeries is one series of a chart of several, as SeriesCaption
// describes it.
type CaptionSeries struct {
	Label string
	// Mechanic is the series' mechanic (for its defaults), Result its
	// result at any of its points.
	Mechanic *mechanics.Mechanic
	Result   *engine.Result
	// Varied are the parameters and options the chart's axis sets: they
	// are on the axis, not in the caption.
	Varied []string
	// Note is added to the series' line ("height in feet, drawn × 0.3048").
	Note string
}

// setting is one parameter or option of a series, printed.
type setting struct {
	key, text string
	// def is whether it is at its mechanic's default.
	def bool
}

// seriesSettings lists a series' parameters and options that its axis
// does not set.
func seriesSettings(s CaptionSeries) []setting {
	var out []setting
	defaults := map[string]float64{}
	optDefaults := map[string]string{}
	if s.Mechanic != nil {
		for _, p := range s.Mechanic.Params {
			defaults[p.Name] = p.Default
		}
		for _, o := range s.Mechanic.Options {
			optDefaults[o.Name] = o.Default()
		}
	}
	for _, p := range s.Result.Params {
		if slices.Contains(s.Varied, p.Name) {
			continue
		}
		d, ok := defaults[p.Name]
		text := p.Name + "=" + mechanics.FormatNum(p.Value)
		if p.Means != "" {
			text = p.Name + ": " + p.Means
		}
		out = append(out, setting{key: p.Name, text: text, def: ok && d == p.Value})
	}
	for _, o := range s.Result.Options {
		if variedOption(o.Name, s.Varied) {
			continue
		}
		d, ok := optDefaults[o.Name]
		short := shortOption(o.Name)
		out = append(out, setting{key: "opt " + short, text: short + "=" + o.Value, def: ok && d == o.Value})
	}
	return out
}

// seriesName is what a series computes: its mechanic, or its rule.
func seriesName(r *engine.Result) string {
	switch {
	case r.Mechanic == exprID:
		return "rule " + oneLine(r.Rule)
	case r.Rule != "":
		return r.Mechanic + " (rule from " + r.Rule + ")"
	}
	return r.Mechanic
}

// SeriesCaption is the caption of a chart of several series: one line
// per series — its label, what it computes (the mechanic, or the rule's
// text), the settings that tell it apart (those another series of the
// same mechanic sets otherwise, and those off their defaults) and its
// note — after a line with the engine and what every series shares (said
// once). Settings of no such kind are at their defaults, which the last
// line says; sentinels are said in words.
func SeriesCaption(series []CaptionSeries) string {
	if len(series) == 0 {
		return ""
	}
	sets := make([][]setting, len(series))
	for i, s := range series {
		sets[i] = seriesSettings(s)
	}
	// A setting distinguishes a series when it is off its default, or
	// when another series of the same mechanic has it otherwise.
	valueOf := func(i int, key string) (string, bool) {
		for _, st := range sets[i] {
			if st.key == key {
				return st.text, true
			}
		}
		return "", false
	}
	keep := make([][]setting, len(series))
	for i, s := range series {
		for _, st := range sets[i] {
			tells := !st.def
			for j, o := range series {
				if j == i || o.Result.Mechanic != s.Result.Mechanic || o.Result.Rule != s.Result.Rule {
					continue
				}
				if v, ok := valueOf(j, st.key); !ok || v != st.text {
					tells = true
				}
			}
			if tells {
				keep[i] = append(keep[i], st)
			}
		}
	}
	// Shared: a setting every series of a mechanic keeps alike is said
	// once, for all of them.
	groupOf := func(r *engine.Result) string { return r.Mechanic + "\x00" + r.Rule }
	var groups []string
	members := map[string][]int{}
	for i, s := range series {
		g := groupOf(s.Result)
		if _, ok := members[g]; !ok {
			groups = append(groups, g)
		}
		members[g] = append(members[g], i)
	}
	var lines []string
	shared := make([][]string, len(series))
	for _, g := range groups {
		idx := members[g]
		if len(idx) < 2 {
			continue
		}
		var common []string
		for _, st := range keep[idx[0]] {
			all := true
			for _, j := range idx[1:] {
				if !slices.ContainsFunc(keep[j], func(o setting) bool { return o.key == st.key && o.text == st.text }) {
					all = false
					break
				}
			}
			if all {
				common = append(common, st.text)
			}
		}
		if len(common) == 0 {
			continue
		}
		for _, j := range idx {
			shared[j] = common
		}
		who := "every series"
		if len(idx) < len(series) {
			who = "every " + seriesName(series[idx[0]].Result) + " series"
		}
		lines = append(lines, who+": "+strings.Join(common, " "))
	}
	engines := map[engine.Kind]bool{}
	for _, s := range series {
		engines[s.Result.Engine] = true
	}
	anyDefault := false
	for i, s := range series {
		parts := []string{seriesName(s.Result)}
		if len(engines) > 1 {
			parts = append(parts, engineCaption(s.Result))
		}
		var own []string
		for _, st := range keep[i] {
			if !slices.Contains(shared[i], st.text) {
				own = append(own, st.text)
			}
		}
		if len(own) > 0 {
			parts = append(parts, strings.Join(own, " "))
		}
		if s.Note != "" {
			parts = append(parts, s.Note)
		}
		anyDefault = anyDefault || len(keep[i]) < len(sets[i])
		line := strings.Join(parts, " · ")
		// A label that starts with what the series computes (a rule's
		// text, a mechanic's id) needs no repeating.
		named := s.Label == "" || strings.HasPrefix(s.Label, s.Result.Mechanic) ||
			(s.Result.Mechanic == exprID && strings.HasPrefix(s.Label, oneLine(s.Result.Rule)))
		if !named {
			line = s.Label + ": " + line
		}
		lines = append(lines, line)
	}
	var tail []string
	if len(engines) == 1 {
		tail = append(tail, engineCaption(series[0].Result))
	}
	if anyDefault {
		tail = append(tail, "every other setting at its mechanic's default")
	}
	if len(tail) > 0 {
		lines = append(lines, strings.Join(tail, "; "))
	}
	return strings.Join(lines, "\n")
}

// engineCaption names a result's engine, with a simulation's trials and
// seed.
func engineCaption(r *engine.Result) string {
	if r.Engine == engine.Sim {
		return fmt.Sprintf("%s n=%d seed=%d", r.Engine, r.Trials, r.Seed)
	}
	return string(r.Engine)
}
