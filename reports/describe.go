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
	fmt.Fprintf(w, "%s — %s\n\n%s\n\n", m.ID, m.Summary, m.Doc)
	if m.MCOnly {
		fmt.Fprintf(w, "Engines: simulator only (%s)\n\n", m.MCReason)
	} else {
		fmt.Fprintf(w, "Engines: exact and simulator\n\n")
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PARAMETER\tDEFAULT\tRANGE\tDESCRIPTION")
	for _, p := range m.Params {
		kind := ""
		if p.Real {
			kind = " (real)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s..%s%s\t%s\n", p.Name, mechanics.FormatNum(p.Default), mechanics.FormatNum(p.Min), mechanics.FormatNum(p.Max), kind, p.Doc)
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
	describeModel(w, spec, custom)
	fmt.Fprintf(w, "\nExample:\n  %s\n", example(m))
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
func describeModel(w io.Writer, spec *mechanics.Spec, custom bool) {
	at := "at the defaults"
	if custom {
		at = "at these settings"
	}
	if p := spec.Process; p != nil {
		fmt.Fprintf(w, "\nModel (%s): %s\n", at, processSummary(p))
	}
	if r := spec.Record; r != nil && spec.Process == nil {
		fmt.Fprintf(w, "\nOutcome record (%s):\n", at)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, f := range r.Fields {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", f.Name, fieldType(f), f.Doc)
		}
		tw.Flush()
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
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", o.kind, name, formula, last)
		}
		if pi == 0 && spec.Process != nil {
			// The main part's process gives these (see mechanics.Spec.Also).
			fmt.Fprintf(tw, "  process\t%s\n", processOutputs(spec.Process)) // the last cell: it does not widen the column
		}
	}
	tw.Flush()
}

// apart introduces the outputs of a spec's further parts.
const apart = "computed apart, from a separate model of the same rule (exact on its own; not joint with the outputs above)"

func processSummary(p *mechanics.Process) string {
	s := fmt.Sprintf("a process over %d states (%d absorbing), one step = one %s, horizon %d steps", len(p.States), len(p.AbsorbingStates()), cmp.Or(p.TimeUnit, "step"), p.Horizon)
	if p.Homogeneous {
		s += "; time-homogeneous, so the exact engine also solves it for an unlimited horizon"
	}
	return s
}

func processOutputs(p *mechanics.Process) string {
	s := "survival S(t), absorption per state"
	if p.Homogeneous {
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

func fieldType(f mechanics.Field) string {
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

// WriteDescriptionMarkdown documents one mechanic in Markdown, with what
// WriteDescription gives in plain text: its rule, parameters, options, the
// model (outcome record or process) and every output with its formula.
func WriteDescriptionMarkdown(w io.Writer, m *mechanics.Mechanic, spec *mechanics.Spec, custom bool) error {
	var buf bytes.Buffer
	writeMarkdown(&buf, m, spec, custom, "#")
	_, err := w.Write(buf.Bytes())
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
	_, err := w.Write(buf.Bytes())
	return err
}

// anchor is the id of a mechanic's (or a system's) heading in the
// reference: the id with dots as dashes, stable across versions, so that
// docs and comments can link docs/mechanics.md#grim-fall.
func anchor(id string) string { return strings.ReplaceAll(id, ".", "-") }

func writeMarkdown(w io.Writer, m *mechanics.Mechanic, spec *mechanics.Spec, custom bool, h string) {
	at := "at the defaults"
	if custom {
		at = "at these settings"
	}
	fmt.Fprintf(w, "%s <a id=\"%s\"></a>`%s`\n\n", h, anchor(m.ID), m.ID)
	fmt.Fprintf(w, "**%s**\n\n%s\n\n", mdText(m.Summary), mdText(m.Doc))
	if m.MCOnly {
		fmt.Fprintf(w, "Engines: simulator only (%s).\n\n", mdText(m.MCReason))
	} else {
		fmt.Fprintf(w, "Engines: exact and simulator.\n\n")
	}
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
		fmt.Fprintf(w, "**Model** (%s): %s.\n\n", at, mdText(processSummary(p)))
	}
	if r := spec.Record; r != nil && spec.Process == nil {
		fmt.Fprintf(w, "**Outcome record** (%s)\n\n| field | type | description |\n|---|---|---|\n", at)
		for _, f := range r.Fields {
			fmt.Fprintf(w, "| `%s` | %s | %s |\n", f.Name, mdCell(strings.TrimSpace(fieldType(f))), mdCell(f.Doc))
		}
		fmt.Fprintln(w)
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
			fmt.Fprintf(w, "| process | %s | | |\n", processOutputs(spec.Process))
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
