package reports

import (
	"fmt"
	"math"

	"github.com/oddsmith/oddsmith/engine"
)

// certain is the share past which one outcome is all a chart would show.
const certain = 0.999

// Degenerate tells a chart that would show nothing a sentence does not,
// and gives that sentence, for the index that leaves the chart out. The
// kinds are those of a bundle (Bundle.WriteResultFiles) and of a sweep's
// charts, for the results rs and their output (a variable or a band; ""
// for the first):
//
//   - "pmf", "atleast": the variable takes one value with P ≥ 0.999;
//   - "tail": the variable has no long tail to show on a log scale
//     (HasLongTail): a bounded variable whose chances fall from above
//     1e-4 to nothing in a step or two;
//   - "bands": one category holds ≥ 0.999 of every bar;
//   - "survival": S(t) ≥ 0.999 up to the horizon (it almost never ends)
//     in every result, or ≤ 0.001 from the first step on (it ends at
//     once).
func Degenerate(kind, output string, rs ...*engine.Result) (bool, string) {
	if len(rs) == 0 {
		return true, "nothing to draw"
	}
	switch kind {
	case "pmf", "atleast", "tail":
		for _, r := range rs {
			v := varOf(r, output)
			if v == nil {
				return true, "no variable " + output
			}
			if kind == "tail" {
				if HasLongTail(v) {
					return false, ""
				}
				continue
			}
			if i, p := topOf(v.P); p < certain {
				return false, ""
			} else if len(rs) == 1 {
				return true, fmt.Sprintf("%s is %s with P %s", v.Name, VarValue(v, i), probIs(p))
			}
		}
		if kind == "tail" {
			return true, "no long tail to show on a log scale: the chance of exceeding a value falls from above 1e-4 to below 1e-6 within two values"
		}
		return true, "the variable takes one value with P ≥ 0.999 everywhere"
	case "bands":
		top := -1
		for _, r := range rs {
			b := bandOf(r, output)
			if b == nil && output == "" && len(r.Bands) > 0 {
				b = &r.Bands[0]
			}
			if b == nil {
				return true, "no band " + output
			}
			i, p := topOf(b.P)
			if p < certain || (top >= 0 && i != top) {
				return false, ""
			}
			top = i
			if len(rs) == 1 {
				return true, fmt.Sprintf("%s is %q with P %s", b.Name, b.Labels[i], probIs(p))
			}
		}
		b := bandOf(rs[0], output)
		if b == nil {
			b = &rs[0].Bands[0]
		}
		return true, fmt.Sprintf("%s is %q with P ≥ %g in every bar", b.Name, b.Labels[top], certain)
	case "survival":
		never, once := true, true
		for _, r := range rs {
			pr := r.Process
			if pr == nil || len(pr.Survival) == 0 {
				return true, "not a process"
			}
			for t, s := range pr.Survival {
				never = never && s >= certain
				once = once && (t == 0 || s <= 1-certain)
			}
		}
		switch {
		case never:
			return true, fmt.Sprintf("S(t) ≥ %g up to the horizon: it almost never ends", certain)
		case once:
			return true, fmt.Sprintf("S(t) ≤ %g from the first step on: it almost always ends at once", 1-certain)
		}
		return false, ""
	}
	return false, ""
}

// probIs says a probability after "P": "= 0.9994", "> 0.9999", "= 1".
func probIs(p float64) string {
	s := prob4(p)
	if s[0] == '>' || s[0] == '<' {
		return s[:1] + " " + s[1:]
	}
	return "= " + s
}

// varOf is the named variable of a result, or its first for "".
func varOf(r *engine.Result, name string) *engine.VarResult {
	if name == "" {
		if len(r.Vars) == 0 {
			return nil
		}
		return &r.Vars[0]
	}
	return r.Var(name)
}

// topOf is the index and value of the largest of ps.
func topOf(ps []float64) (int, float64) {
	at, top := 0, math.Inf(-1)
	for i, p := range ps {
		if p > top {
			at, top = i, p
		}
	}
	return at, top
}

// hasSmallTail tells a variable with a chance below 1e-4 of exceeding one
// of its values: a tail plot would have something to draw.
func hasSmallTail(v *engine.VarResult) bool {
	tail := 0.0
	for i := len(v.P) - 1; i >= 0; i-- {
		if tail > 0 && tail < 1e-4 {
			return true
		}
		tail += v.P[i]
	}
	return false
}

// DuplicatesSurvival tells a variable of a process whose "at least"
// curve is its survival curve over again: the time to absorption, for
// which P(X ≥ t+1) = S(t) − P(not absorbed) at every t.
func DuplicatesSurvival(r *engine.Result, v *engine.VarResult) bool {
	if r.Process == nil || len(r.Process.Survival) == 0 || v.Den > 1 {
		return false
	}
	tail := make(map[int]float64, len(v.P)) // P(X ≥ x) at whole x
	acc := 0.0
	for i := len(v.P) - 1; i >= 0; i-- {
		acc += v.P[i]
		tail[v.Lo+i] = acc
	}
	for t, s := range r.Process.Survival {
		at, ok := tail[t+1]
		if !ok {
			if t+1 < v.Lo {
				at = acc
			} else {
				at = 0
			}
		}
		if math.Abs(s-v.Undefined-at) > 1e-9 {
			return false
		}
	}
	return true
}
