package mechanics

// A die that bursts without limit has no largest total, but a record field
// that holds the total needs an upper bound: models declare it as far as
// MaxBursts maxima in a row reach, where the simulator stops following the
// bursts (a fair die never gets there). Such a bound is no bound of the
// rule, and what shows a record (describe) says so; these functions tell it
// apart from a real bound, from the model alone.

// UnlimitedBursts walks a model and reports whether it holds a die that
// bursts without limit (an Explode with Limit 0, or its rolls) and, if so, the largest
// probability of going on at which the exact engine stops following such
// a die (its Tolerance, or DefaultTolerance).
func UnlimitedBursts(n Node) (found bool, tolerance float64) {
	Walk(n, func(n Node) {
		e, ok := n.(Explode)
		if r, each := n.(ExplodeRolls); each {
			e, ok = r.Explode, true
		}
		if ok && e.Limit == 0 {
			tol := e.Tolerance
			if tol <= 0 {
				tol = DefaultTolerance
			}
			found, tolerance = true, max(tolerance, tol)
		}
	})
	return found, tolerance
}

// BurstBound reports whether a declared bound of a field is where
// unlimited bursting stops being followed rather than a bound of the rule:
// MaxBursts or more from 0. Only a model that bursts without limit
// (UnlimitedBursts) declares such bounds; every other bound is the rule's.
func BurstBound(b int) bool { return b >= MaxBursts || b <= -MaxBursts }

// OpenEnds says which bounds of field f of the spec's record stand for no
// bound at all (BurstBound, in a model whose outcome bursts without
// limit), and the tolerance the exact engine follows such dice to (see
// UnlimitedBursts). A process's record (state and time) has none.
func (s *Spec) OpenEnds(f Field) (lo, hi bool, tolerance float64) {
	if s.Outcome == nil || (f.Kind != IntField && f.Kind != ScaledField) {
		return false, false, 0
	}
	found, tol := UnlimitedBursts(s.Outcome)
	if !found {
		return false, false, 0
	}
	return BurstBound(f.Lo), BurstBound(f.Hi), tol
}
