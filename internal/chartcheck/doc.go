// Package chartcheck checks a chart from its PNG alone: the chart spec
// the reports package records in it (reports.ChartSpec) against the rules
// every chart keeps — no data drawn as a plain line, markers on
// whole-number axes, points in the order of x, intervals on simulated
// values, no legend entry of zero mass, tails not below 1e-6, no cell
// rounded to a certainty, distinct colours. It is internal test support.
package chartcheck
