package mechanics

// A die that bursts without limit has no largest total, but a record field
// that holds the total needs an upper bound: models declare it as far as
// MaxBursts maxima in a row reach, where the simulator stops following the
// bursts (a fair die never gets there). Such a bound is no bound of the
// rule, and what shows a record (describe) says so; these functions tell it
// apart from a real bound, from the model alone.

// UnlimitedBursts walks a model and reports whether it holds a die that
// bursts without limit (an Explode with Limit 0) and, if so, the largest
// probability of going on at which the exact engine stops following such
// a die (its Tolerance, or DefaultTolerance).
func UnlimitedBursts(n Node) (found bool, tolerance float64) {
	walk(n, func(n Node) {
		if e, ok := n.(Explode); ok && e.Limit == 0 {
			tol := e.Tolerance
			if tol <= 0 {
				tol = DefaultTolerance
			}
			found, tolerance = true, max(tolerance, tol)
		}
	})
	return found, tolerance
}

// walk calls f on n and on every node below it.
func walk(n Node, f func(Node)) {
	f(n)
	switch n := n.(type) {
	case Sum:
		walkAll(n.Terms, f)
	case Max:
		walkAll(n.Terms, f)
	case Min:
		walkAll(n.Terms, f)
	case Repeat:
		walk(n.X, f)
	case Scale:
		walk(n.X, f)
	case Clamp:
		walk(n.X, f)
	case Map:
		walk(n.X, f)
	case Combine:
		walk(n.X, f)
		walk(n.Y, f)
	case Compare:
		walk(n.X, f)
	case Cond:
		walkAll([]Node{n.If, n.Then, n.Else}, f)
	case Mixture:
		walkAll(n.Of, f)
	}
}

func walkAll(ns []Node, f func(Node)) {
	for _, n := range ns {
		walk(n, f)
	}
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
