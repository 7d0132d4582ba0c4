package mechanics

import (
	"fmt"
	"slices"
)

// Unique rolls N dice of Die one after another (rpg-dice-roller's unique
// modifier). A die showing a face that an earlier die of the roll already
// shows, and for which Only holds (nil: every face), is rerolled: until
// its face is new or fails Only, or with Once at most once (the reroll
// stands whatever it shows). Eval then folds the face counts of the N
// dice as for Pool: every face of Die in ascending order, with the number
// of dice showing it.
type Unique struct {
	Die  Die
	N    int
	Once bool
	Only func(int) bool
	Eval Evaluator
}

func (Unique) node() {}

// Rerolled reports whether a repeated face f is rerolled.
func (u Unique) Rerolled(f int) bool { return u.Only == nil || u.Only(f) }

// UniqueFaces are the distinct faces of a die, ascending, with their
// summed weights.
func UniqueFaces(d Die) (faces []int, weights []int64) {
	w := map[int]int64{}
	for i, f := range d.Faces {
		w[f] += d.Weight(i)
	}
	for f := range w {
		faces = append(faces, f)
	}
	slices.Sort(faces)
	for _, f := range faces {
		weights = append(weights, w[f])
	}
	return faces, weights
}

// validate reports a Unique that is malformed or never ends: with u (not
// Once) rerolling every face, more dice than the die has faces would
// reroll forever.
func (u Unique) validate() error {
	if u.N < 0 {
		return fmt.Errorf("unique roll of %d dice", u.N)
	}
	if u.Eval == nil {
		return fmt.Errorf("unique roll has no evaluator")
	}
	if err := u.Die.Validate(); err != nil {
		return err
	}
	if u.Die.Missing != 0 {
		return fmt.Errorf("unique roll of a die with missing weight")
	}
	if u.Once {
		return nil
	}
	faces, _ := UniqueFaces(u.Die)
	for _, f := range faces {
		if !u.Rerolled(f) {
			return nil
		}
	}
	if u.N > len(faces) {
		return fmt.Errorf("%d dice cannot all show different faces of a die with %d faces: unique would reroll forever", u.N, len(faces))
	}
	return nil
}
