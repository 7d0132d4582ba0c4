package reports

import (
	"bytes"
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// WriteDescription documents a mechanic: its rule, parameters (default and
// range), options (default first), and what its model declares at the
// configuration spec was built from — the outcome record (or the process)
// and every output with the formula it is computed from.
func WriteDescription(w io.Writer, m *mechanics.Mechanic, spec *mechanics.Spec, custom bool) error {
	var buf bytes.Buffer
	writeDescription(&buf, m, spec, custom)
	_, err := w.Write(trimLines(buf.Bytes()))
	return err
}

func writeDescription(w io.Writer, m *mechanics.Mechanic, spec *mechanics.Spec, custom bool) {
	fmt.Fprintf(w, "%s — %s\n\n%s\n\n", m.ID, PrintableLine(m.Summary), m.Doc)
	fmt.Fprintf(w, "Engines: %s\n\n", engines(m, spec, custom))
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PARAMETER\tDEFAULT\tRANGE\tDESCRIPTION")
	for _, p := range m.Params {
		kind := ""
		if p.Real {
			kind = " (real)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s..%s%s\t%s\n", p.Name, mechanics.FormatNum(p.Default), mechanics.FormatNum(p.Min), mechanics.FormatNum(p.Max), kind, PrintableLine(p.Doc))
	}
	tw.Flush()
	if len(m.Options) > 0 {
		fmt.Fprintf(w, "\nOptions (set with --set opt.NAME=VALUE or the full name; choices with NAME=VALUE; default first):\n")
		for _, o := range m.Options {
			short := "opt." + o.Short()
			if o.IsChoice() {
				short = o.Short()
			}
			fmt.Fprintf(w, "  %s (%s) = %s\n      %s\n", o.Name, short, strings.Join(o.Values, " | "), o.Doc)
		}
	}
	describeModel(w, spec, custom, exactRuns(m, spec))
	fmt.Fprintf(w, "\nExample:\n  %s\n", example(m))
}

// settingsAt names the configuration a description is of.
func settingsAt(custom bool) string {
	if custom {
		return "at these settings"
	}
	return "at the defaults"
}

// noExact is why the exact engine refuses the model at this
// configuration (Spec.NoExact of any part), or "".
func noExact(spec *mechanics.Spec) string {
	for _, part := range spec.Parts() {
		if part.NoExact != "" {
			return part.NoExact
		}
	}
	return ""
}

// exactRuns reports whether the exact engine computes the model described.
func exactRuns(m *mechanics.Mechanic, spec *mechanics.Spec) bool {
	return !m.MCOnly && noExact(spec) == ""
}

// engines says which engines compute the mechanic, and why only the
// simulator where that is so: the mechanic's reason (MCReason, true at
// every setting) and what the model says it comes to at this configuration
// (Spec.NoExact), so that no size in it is typed by hand.
func engines(m *mechanics.Mechanic, spec *mechanics.Spec, custom bool) string {
	at, why := settingsAt(custom), noExact(spec)
	switch {
	case m.MCOnly && why != "":
		return fmt.Sprintf("simulator only (%s; %s: %s)", m.MCReason, at, why)
	case m.MCOnly:
		return fmt.Sprintf("simulator only (%s)", m.MCReason)
	case why != "":
		return fmt.Sprintf("simulator only %s (too large for the exact engine: %s); exact and simulator where the model is smaller", at, why)
	}
	return "exact and simulator"
}

// example is a command line that runs m at its defaults, every parameter
// spelt out.
func example(m *mechanics.Mechanic) string {
	// The command is named after the engine it runs.
	cmd := "oddsmith " + string(engine.Exact)
	if m.MCOnly {
		cmd = "oddsmith " + string(engine.Sim)
	}
	s := cmd + " " + m.ID
	switch {
	case m.RuleText != "" && m.ID == "expr": // a one-liner
		s = cmd + " --expr '" + m.RuleSource + "'"
	case m.RuleSource != "": // a rule file's rule
		s = cmd + " --rules " + m.RuleSource + " " + m.ID
	}
	for _, p := range m.Params {
		s += fmt.Sprintf(" --set %s=%s", p.Name, mechanics.FormatNum(p.Default))
	}
	return s
}

// describeModel lists what a model declares: its outcome record (or
// process) and every output with the expression it is computed from.
func describeModel(w io.Writer, spec *mechanics.Spec, custom, exact bool) {
	at := settingsAt(custom)
	if p := spec.Process; p != nil {
		fmt.Fprintf(w, "\nModel (%s): %s\n", at, processSummary(p, exact))
	}
	if r := spec.Record; r != nil && spec.Process == nil {
		fmt.Fprintf(w, "\nOutcome record (%s):\n", at)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, f := range r.Fields {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", f.Name, fieldType(spec, f), PrintableLine(f.Doc))
		}
		tw.Flush()
		if note := openNote(spec); note != "" {
			fmt.Fprintf(w, "  %s\n", note)
		}
	}
	fmt.Fprintf(w, "\nOutputs (%s):\n", at)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for pi, part := range spec.Parts() {
		if pi > 0 {
			tw.Flush()
			fmt.Fprintln(w, "  "+apart+":")
		}
		for _, o := range outputRows(part, pi == 0) {
			name, formula, last := o.name, "(a function of the outcome)", o.doc
			if o.unit != "" {
				name += " [" + o.unit + "]"
			}
			if o.formula != "" {
				formula = "= " + o.formula
			}
			if o.kind == "band" {
				last = bandLabels(o.labels, 8)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", o.kind, PrintableLine(name), formula, PrintableLine(last))
		}
		if pi == 0 && spec.Process != nil {
			// The main part's process gives these (see mechanics.Spec.Also).
			fmt.Fprintf(tw, "  process\t%s\n", processOutputs(spec.Process, exact)) // the last cell: it does not widen the column
		}
	}
	tw.Flush()
}

// apart introduces the outputs of a spec's further parts.
const apart = "computed apart, from a separate model of the same rule (exact on its own; not joint with the outputs above)"

// processSummary describes a process: its states, its step and horizon,
// and, where the exact engine computes it (exact), that a time-homogeneous
// one is also solved for an unlimited horizon.
func processSummary(p *mechanics.Process, exact bool) string {
	s := fmt.Sprintf("a process over %d states (%d absorbing), one step = one %s, horizon %d steps", len(p.States), len(p.AbsorbingStates()), cmp.Or(p.TimeUnit, "step"), p.Horizon)
	switch {
	case p.Homogeneous && exact:
		s += "; time-homogeneous, so the exact engine also solves it for an unlimited horizon"
	case p.Homogeneous:
		s += "; time-homogeneous (the simulator follows it to the horizon only)"
	}
	return s
}

// processOutputs lists what a process reports beyond its outputs; the
// unlimited-horizon figures come from the exact engine only.
func processOutputs(p *mechanics.Process, exact bool) string {
	s := "survival S(t), absorption per state"
	if p.Homogeneous && exact {
		s += ", unlimited-horizon mean time and absorption"
	}
	return s
}

// bandLabels lists a band's labels, the middle ones left out when there are
// more than most.
func bandLabels(labels []string, most int) string {
	if len(labels) > most {
		return fmt.Sprintf("%d labels: %s | … | %s", len(labels), strings.Join(labels[:3], " | "), labels[len(labels)-1])
	}
	return strings.Join(labels, " | ")
}

// outputRow is one declared output: kind (distribution, "distribution
// (primary)", event, band), name, unit, formula ("" for a function of the
// outcome), doc and, for bands, labels.
type outputRow struct {
	kind, name, unit, formula, doc string
	labels                         []string
}

// outputRows lists a spec's outputs in declaration order; main marks the
// spec whose first variable is the primary one.
func outputRows(spec *mechanics.Spec, main bool) []outputRow {
	// Formulas name the variables and bands they repeat.
	named := map[string]string{}
	for _, v := range spec.Vars {
		if k := expr.Key(v.Expr); named[k] == "" {
			named[k] = v.Name
		}
	}
	for _, b := range spec.Bands {
		if k := expr.Key(b.Expr); named[k] == "" {
			named[k] = b.Name
		}
	}
	formula := func(e expr.Expr) string {
		if e == nil {
			return ""
		}
		return expr.String(expr.Abbreviate(e, named))
	}
	var rows []outputRow
	for i, v := range spec.Vars {
		kind := "distribution"
		if i == 0 && main {
			kind = "distribution (primary)"
		}
		f := formula(v.Expr)
		if v.When != nil {
			f += ", where " + strings.TrimPrefix(formula(v.When), "= ") + " (otherwise: " + v.Otherwise + ")"
		}
		if v.Given != nil {
			f += ", given " + strings.TrimPrefix(formula(v.Given), "= ") + " (" + v.GivenLabel + "; the distribution given it)"
		}
		rows = append(rows, outputRow{kind: kind, name: v.Name, unit: v.Unit, formula: f, doc: v.Doc})
	}
	for _, e := range spec.Events {
		rows = append(rows, outputRow{kind: "event", name: e.Name, formula: formula(e.Expr), doc: e.Doc})
	}
	for _, b := range spec.Bands {
		rows = append(rows, outputRow{kind: "band", name: b.Name, formula: formula(b.Expr), doc: b.Doc, labels: b.Labels})
	}
	return rows
}

// fieldType is a field's type; a bound that stands for no bound
// (Spec.OpenEnds: a total of dice that burst without limit) shows as ∞,
// with the bound declared beside it (openNote says what it is).
func fieldType(spec *mechanics.Spec, f mechanics.Field) string {
	if lo, hi, _ := spec.OpenEnds(f); lo || hi {
		l, h, decl := f.Format(f.Lo), f.Format(f.Hi), "up to "+f.Format(f.Hi)
		if lo {
			l, decl = "-∞", "down to "+f.Format(f.Lo)
		}
		if hi {
			h = "∞"
		}
		if lo && hi {
			decl = f.Format(f.Lo) + ".." + f.Format(f.Hi)
		}
		if f.Kind == mechanics.ScaledField {
			return fmt.Sprintf("%s..%s in steps of 1/%d %s (declared %s)", l, h, f.Den, f.Unit, decl)
		}
		return strings.TrimSpace(fmt.Sprintf("%s..%s %s", l, h, f.Unit)) + " (declared " + decl + ")"
	}
	switch f.Kind {
	case mechanics.FlagField:
		return "yes/no"
	case mechanics.EnumField:
		if len(f.Labels) > 8 {
			return fmt.Sprintf("one of %d labels", len(f.Labels))
		}
		return "one of " + strings.Join(f.Labels, " | ")
	case mechanics.ScaledField:
		return fmt.Sprintf("%s..%s in steps of 1/%d %s", f.Format(f.Lo), f.Format(f.Hi), f.Den, f.Unit)
	}
	return fmt.Sprintf("%d..%d %s", f.Lo, f.Hi, f.Unit)
}

// openNote explains the ∞ of fieldType once under the record, from the
// model: the declared bound is room for mechanics.MaxBursts maxima in a
// row, where the simulator stops, and the exact engine stops at the
// model's tolerance. "" when no field has an open end.
func openNote(spec *mechanics.Spec) string {
	for _, f := range spec.Record.Fields {
		if lo, hi, tol := spec.OpenEnds(f); lo || hi {
			return fmt.Sprintf("∞: a total of dice that burst without limit has no bound. The record declares it as far as %d maxima in a row reach, "+
				"where the simulator stops following the bursts (a fair die never gets there); the exact engine follows them until going on "+
				"has probability at most %g a die and reports the mass it leaves out as truncated mass.", mechanics.MaxBursts, tol)
		}
	}
	return ""
}

// WriteDescriptionMarkdown documents one mechanic in Markdown, with what
// WriteDescription gives in plain text: its rule, parameters, options, the
// model (outcome record or process) and every output with its formula.
func WriteDescriptionMarkdown(w io.Writer, m *mechanics.Mechanic, spec *mechanics.Spec, custom bool) error {
	var buf bytes.Buffer
	writeMarkdown(&buf, m, spec, custom, "#")
	_, err := io.WriteString(w, Printable(buf.String()))
	return err
}

// WriteReference writes the Markdown reference of the mechanics given (in
// that order; mechanics.All() for the whole registry): a contents list by
// system, then each mechanic as WriteDescriptionMarkdown documents it, its
// model at the defaults. Everything in it comes from the registry, so it
// is regenerated, never edited.
func WriteReference(w io.Writer, ms []*mechanics.Mechanic) error {
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "# Mechanics reference\n\n")
	fmt.Fprintf(&buf, "Every mechanic oddsmith implements: its rule, parameters (default and range), options (the readings the rules leave open; default first, in bold), the model it declares at the defaults (outcome record or process) and every output with the formula it is computed from. ")
	fmt.Fprintf(&buf, "Generated from the registry by `oddsmith describe --all --format markdown`; do not edit it by hand (`go test ./cmd/oddsmith -run Reference -update` rewrites it). ")
	fmt.Fprintf(&buf, "`oddsmith describe ID --set name=value …` shows a model at other settings.\n\n")
	// Contents, by system (the id's first part).
	var systems []string
	bySystem := map[string][]*mechanics.Mechanic{}
	for _, m := range ms {
		sys, _, _ := strings.Cut(m.ID, ".")
		if bySystem[sys] == nil {
			systems = append(systems, sys)
		}
		bySystem[sys] = append(bySystem[sys], m)
	}
	fmt.Fprintf(&buf, "## Contents\n\n")
	for _, sys := range systems {
		fmt.Fprintf(&buf, "- [`%s.*`](#%s) (%d)\n", sys, anchor(sys), len(bySystem[sys]))
		for _, m := range bySystem[sys] {
			fmt.Fprintf(&buf, "  - [`%s`](#%s) — %s\n", m.ID, anchor(m.ID), mdText(m.Summary))
		}
	}
	for _, sys := range systems {
		fmt.Fprintf(&buf, "\n## <a id=\"%s\"></a>`%s.*`\n", anchor(sys), sys)
		for _, m := range bySystem[sys] {
			c, err := m.Configure(nil)
			if err != nil {
				return fmt.Errorf("%s: %w", m.ID, err)
			}
			spec, err := m.Model(c)
			if err != nil {
				return fmt.Errorf("%s: %w", m.ID, err)
			}
			buf.WriteString("\n")
			writeMarkdown(&buf, m, spec, false, "###")
		}
	}
	_, err := io.WriteString(w, Printable(buf.String()))
	return err
}

// anchor is the id of a mechanic's (or a system's) heading in the
// reference: the id with dots as dashes, stable across versions, so that
// docs and comments can link docs/mechanics.md#grim-fall.
func anchor(id string) string { return strings.ReplaceAll(id, ".", "-") }

func writeMarkdown(w io.Writer, m *mechanics.Mechanic, spec *mechanics.Spec, custom bool, h string) {
	at := settingsAt(custom)
	fmt.Fprintf(w, "%s <a id=\"%s\"></a>`%s`\n\n", h, anchor(m.ID), m.ID)
	fmt.Fprintf(w, "**%s**\n\n%s\n\n", mdText(m.Summary), mdText(m.Doc))
	fmt.Fprintf(w, "Engines: %s.\n\n", mdText(engines(m, spec, custom)))
	if len(m.Params) > 0 {
		fmt.Fprintf(w, "**Parameters** (`--set NAME=VALUE`)\n\n| parameter | default | range | description |\n|---|---|---|---|\n")
		for _, p := range m.Params {
			rng := mechanics.FormatNum(p.Min) + " … " + mechanics.FormatNum(p.Max)
			if p.Real {
				rng += " (real)"
			} else {
				rng += " (whole)"
			}
			fmt.Fprintf(w, "| `%s` | %s | %s | %s |\n", p.Name, mechanics.FormatNum(p.Default), rng, mdCell(p.Doc))
		}
		fmt.Fprintln(w)
	}
	if len(m.Options) > 0 {
		fmt.Fprintf(w, "**Options** (`--set opt.NAME=VALUE` or the full name; named choices `--set NAME=VALUE`; the default first, in bold)\n\n| option | set as | values | description |\n|---|---|---|---|\n")
		for _, o := range m.Options {
			short := "opt." + o.Short()
			if o.IsChoice() {
				short = o.Short()
			}
			var vals []string
			for i, v := range o.Values {
				v = mdCode(v)
				if i == 0 {
					v = "**" + v + "**"
				}
				vals = append(vals, v)
			}
			fmt.Fprintf(w, "| `%s` | `%s` | %s | %s |\n", o.Name, short, strings.Join(vals, ", "), mdCell(o.Doc))
		}
		fmt.Fprintln(w)
	}
	if p := spec.Process; p != nil {
		fmt.Fprintf(w, "**Model** (%s): %s.\n\n", at, mdText(processSummary(p, exactRuns(m, spec))))
	}
	if r := spec.Record; r != nil && spec.Process == nil {
		fmt.Fprintf(w, "**Outcome record** (%s)\n\n| field | type | description |\n|---|---|---|\n", at)
		for _, f := range r.Fields {
			fmt.Fprintf(w, "| `%s` | %s | %s |\n", f.Name, mdCell(strings.TrimSpace(fieldType(spec, f))), mdCell(f.Doc))
		}
		fmt.Fprintln(w)
		if note := openNote(spec); note != "" {
			fmt.Fprintf(w, "%s\n\n", mdText(note))
		}
	}
	fmt.Fprintf(w, "**Outputs** (%s)\n\n", at)
	for pi, part := range spec.Parts() {
		if pi > 0 {
			fmt.Fprintf(w, "\n%s:\n\n", strings.ToUpper(apart[:1])+apart[1:])
		}
		fmt.Fprintf(w, "| kind | name | formula | description |\n|---|---|---|---|\n")
		for _, o := range outputRows(part, pi == 0) {
			name := mdCode(o.name)
			if o.unit != "" {
				name += " (" + mdCell(o.unit) + ")"
			}
			formula := "(a function of the outcome)"
			if o.formula != "" {
				formula = mdCode(o.formula)
			}
			doc := mdCell(o.doc)
			if o.kind == "band" {
				doc = strings.TrimSuffix(doc, ".")
				if doc != "" {
					doc += "; "
				}
				doc += "labels: " + mdCell(bandLabels(o.labels, 12))
			}
			fmt.Fprintf(w, "| %s | %s | %s | %s |\n", o.kind, name, formula, doc)
		}
		if pi == 0 && spec.Process != nil {
			fmt.Fprintf(w, "| process | %s | | |\n", processOutputs(spec.Process, exactRuns(m, spec)))
		}
	}
	fmt.Fprintf(w, "\nExample:\n\n```sh\n%s\n```\n", example(m))
}

// mdText escapes text for a Markdown paragraph: an asterisk is no emphasis,
// and "<" before a letter starts no HTML tag.
func mdText(s string) string {
	s = strings.ReplaceAll(s, "*", `\*`)
	var b strings.Builder
	for i, r := range s {
		if r == '<' && i+1 < len(s) && strings.ContainsRune("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ/!?", rune(s[i+1])) {
			b.WriteString("&lt;")
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// mdCell escapes text for a table cell: as mdText, on one line, pipes
// escaped.
func mdCell(s string) string {
	return strings.ReplaceAll(mdText(strings.Join(strings.Fields(s), " ")), "|", `\|`)
}

// mdCode is s as inline code in a table cell (pipes escaped, which GitHub's
// tables require even in code).
func mdCode(s string) string {
	s = strings.ReplaceAll(strings.Join(strings.Fields(s), " "), "|", `\|`)
	if strings.Contains(s, "`") {
		return "`` " + s + " ``"
	}
	return "`" + s + "`"
}

// Engines says which engines compute m at the configuration spec was
// built from, as describe's engines line does ("exact and simulator", or
// "simulator only (…)" with the reason); custom says the configuration is
// not the defaults.
func Engines(m *mechanics.Mechanic, spec *mechanics.Spec, custom bool) string {
	return engines(m, spec, custom)
}

// Output is one output a model declares, as describe lists it: its kind
// (distribution, event, band, or process for the survival and absorption
// figures of a process), name, doc, unit, the formula it is computed from
// ("" for a function of the outcome), a band's labels, and whether it is
// the primary distribution. Part is 0 for the main model and i for its
// i-th further part (Spec.Also), computed apart.
type Output struct {
	Kind, Name, Doc, Unit, Formula string
	Labels                         []string
	Primary                        bool
	Part                           int
}

// Outputs lists the outputs of m's model spec in describe's order: every part's
// distributions, events and bands, and after the main part's, its process
// figures (a process's survival S(t) and absorption per state).
func Outputs(m *mechanics.Mechanic, spec *mechanics.Spec) []Output {
	var out []Output
	for pi, part := range spec.Parts() {
		for _, o := range outputRows(part, pi == 0) {
			kind, primary := o.kind, false
			if k, ok := strings.CutSuffix(kind, " (primary)"); ok {
				kind, primary = k, true
			}
			out = append(out, Output{Kind: kind, Name: o.name, Doc: o.doc, Unit: o.unit, Formula: o.formula, Labels: o.labels, Primary: primary, Part: pi})
		}
		if pi == 0 && spec.Process != nil {
			out = append(out, Output{Kind: "process", Name: "survival", Doc: processOutputs(spec.Process, exactRuns(m, spec)), Unit: spec.Process.TimeUnit})
		}
	}
	return out
}
