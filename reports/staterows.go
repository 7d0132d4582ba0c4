package reports

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
)

// stateRows decides which rows of a comparison's text table are listed
// when they stand for the states of a process (the events
// "absorbed:STATE", the band final_state) or for the labels of a band
// with more than maxStates labels of some mass: a row with P < TinyMass
// on both sides is left out, and of a longer list only the maxStates rows
// of the largest |Δ| are kept (in their order). notes has a line for
// each list that left rows out, for the end of the table (a line without
// columns amid the rows would break their alignment); the CSV and JSON
// keep every row. delta prints a change of a probability.
func stateRows(c *engine.Comparison, delta func(d float64, prob bool) string) (keep []bool, notes []string) {
	keep = make([]bool, len(c.Rows))
	for i := range keep {
		keep[i] = true
	}
	states := map[string]bool{}
	for _, r := range []*engine.Result{c.A, c.B} {
		if r != nil && r.Process != nil {
			for _, s := range r.Process.AbsorbingStates {
				states["absorbed:"+s] = true
			}
		}
	}
	// The lists: the absorbing states' events together, each band alone.
	lists := map[string][]int{}
	var order []string
	for i, r := range c.Rows {
		key := ""
		switch {
		case r.Kind == "event" && states[r.Output]:
			key = "event"
		case r.Kind == "band":
			key = "band " + r.Output
		default:
			continue
		}
		if _, ok := lists[key]; !ok {
			order = append(order, key)
		}
		lists[key] = append(lists[key], i)
	}
	for _, key := range order {
		rows := lists[key]
		var mass []int
		for _, i := range rows {
			if r := c.Rows[i]; r.A.V != 0 || r.B.V != 0 {
				mass = append(mass, i)
			}
		}
		band := key != "event"
		if band && len(mass) <= maxStates && !(len(states) > 0 && c.Rows[rows[0]].Output == "final_state") {
			continue // a short band: every label it declares
		}
		var shown []int
		for _, i := range rows {
			if r := c.Rows[i]; r.A.V >= TinyMass || r.B.V >= TinyMass {
				shown = append(shown, i)
			}
		}
		cut, cutting := 0.0, false // the largest |Δ| left out beyond the tiny rows
		if len(shown) > maxStates {
			cutting = true
			byDelta := slices.Clone(shown)
			slices.SortStableFunc(byDelta, func(i, j int) int {
				return cmp.Compare(math.Abs(c.Rows[j].Delta.V), math.Abs(c.Rows[i].Delta.V))
			})
			cut = math.Abs(c.Rows[byDelta[maxStates]].Delta.V)
			shown = byDelta[:maxStates]
		}
		for _, i := range rows {
			keep[i] = slices.Contains(shown, i)
		}
		left := len(rows) - len(shown)
		if left == 0 {
			continue
		}
		what := "absorbed:… events"
		if band {
			what = c.Rows[rows[0]].Output + " labels"
		}
		if left == 1 {
			what = what[:len(what)-1]
		}
		why := fmt.Sprintf("P < %s on both sides", num(TinyMass))
		if cutting {
			why = "the largest |Δ| among them " + strings.TrimPrefix(delta(cut, true), "+")
		}
		notes = append(notes, fmt.Sprintf("(%d more %s, %s; see --format csv)", left, what, why))
	}
	return keep, notes
}
