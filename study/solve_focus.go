package study

import "github.com/oddsmith/oddsmith/mechanics"

// Focus is the setting a solve's answer names — the nearest to an equality
// target, the objective's pick, the closest miss, or the first edge of a
// run — as a configuration of the mechanic and in words ("tn=9"); ok is
// false when the answer names no setting.
func (r *SolveResult) Focus() (c mechanics.Config, setting string, ok bool, err error) {
	i := r.focus()
	if i < 0 || i >= len(r.Points) {
		return mechanics.Config{}, "", false, nil
	}
	idx := r.Points[i].Index
	c, err = r.Solve.config(idx)
	if err != nil {
		return c, "", false, err
	}
	return c, r.Solve.describe(idx), true, nil
}
