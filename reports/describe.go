package reports

import (
	"cmp"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/mechanics/expr"
)

// WriteDescription documents a mechanic: its rule, parameters (default and
// range), options (default first), and what its model declares at the
// configuration spec was built from — the outcome record (or the process)
// and every output with the formula it is computed from.
func WriteDescription(w io.Writer, m *mechanics.Mechanic, spec *mechanics.Spec, custom bool) error {
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
	fmt.Fprintf(w, "\nExample:\n  oddsmith exact %s", m.ID)
	for _, p := range m.Params {
		fmt.Fprintf(w, " --set %s=%s", p.Name, mechanics.FormatNum(p.Default))
	}
	_, err := fmt.Fprintln(w)
	return err
}

// describeModel lists what a model declares: its outcome record (or
// process) and every output with the expression it is computed from.
func describeModel(w io.Writer, spec *mechanics.Spec, custom bool) {
	at := "at the defaults"
	if custom {
		at = "at these settings"
	}
	if p := spec.Process; p != nil {
		n := len(p.AbsorbingStates())
		fmt.Fprintf(w, "\nModel (%s): a process over %d states (%d absorbing), one step = one %s, horizon %d steps", at, len(p.States), n, cmp.Or(p.TimeUnit, "step"), p.Horizon)
		if p.Homogeneous {
			fmt.Fprintf(w, "; time-homogeneous, so the exact engine also solves it for an unlimited horizon")
		}
		fmt.Fprintln(w)
	}
	if r := spec.Record; r != nil && spec.Process == nil {
		fmt.Fprintf(w, "\nOutcome record (%s):\n", at)
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		for _, f := range r.Fields {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", f.Name, fieldType(f), f.Doc)
		}
		tw.Flush()
	}
	formula := func(e expr.Expr) string {
		if e == nil {
			return "(a function of the outcome)"
		}
		return "= " + expr.String(e)
	}
	fmt.Fprintf(w, "\nOutputs (%s):\n", at)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for pi, part := range spec.Parts() {
		if pi > 0 {
			tw.Flush()
			fmt.Fprintln(w, "  computed apart, from a separate model of the same rule (exact on its own; not joint with the outputs above):")
		}
		describeOutputs(tw, part, formula, pi == 0)
	}
	if spec.Process != nil {
		fmt.Fprintf(tw, "  process\tsurvival S(t), absorption per state%s\t\t\n", map[bool]string{true: ", unlimited-horizon mean time and absorption", false: ""}[spec.Process.Homogeneous])
	}
	tw.Flush()
}

func describeOutputs(tw io.Writer, spec *mechanics.Spec, formula func(expr.Expr) string, main bool) {
	// Formulas name the variables and bands they repeat.
	named := map[string]string{}
	for _, v := range spec.Vars {
		if k := expr.String(v.Expr); named[k] == "" {
			named[k] = v.Name
		}
	}
	for _, b := range spec.Bands {
		if k := expr.String(b.Expr); named[k] == "" {
			named[k] = b.Name
		}
	}
	short := formula
	formula = func(e expr.Expr) string {
		if e == nil {
			return short(e)
		}
		return short(expr.Abbreviate(e, named))
	}
	for i, v := range spec.Vars {
		kind := "distribution"
		if i == 0 && main {
			kind = "distribution (primary)"
		}
		name := v.Name
		if v.Unit != "" {
			name += " [" + v.Unit + "]"
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\n", kind, name, formula(v.Expr), v.Doc)
	}
	for _, e := range spec.Events {
		fmt.Fprintf(tw, "  event\t%s\t%s\t%s\n", e.Name, formula(e.Expr), e.Doc)
	}
	for _, b := range spec.Bands {
		labels := strings.Join(b.Labels, " | ")
		if len(b.Labels) > 8 {
			labels = fmt.Sprintf("%d labels: %s | … | %s", len(b.Labels), strings.Join(b.Labels[:3], " | "), b.Labels[len(b.Labels)-1])
		}
		fmt.Fprintf(tw, "  band\t%s\t%s\t%s\n", b.Name, formula(b.Expr), labels)
	}
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
