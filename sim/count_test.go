package sim

import (
	"context"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestRandomCountBadCountIsAnError: a count the dice cannot roll stops the
// simulation with one line, never a panic.
func TestRandomCountBadCountIsAnError(t *testing.T) {
	for _, c := range []struct {
		n    mechanics.Node
		want string
	}{
		{mechanics.Die{Faces: []int{-1, 2}}, "must not be negative"},
		{mechanics.Die{Faces: []int{1, mechanics.MaxRandomCount + 1}}, "at most 100000"},
	} {
		spec := &mechanics.Spec{Outcome: mechanics.RandomCount{N: c.n, X: mechanics.D(6)}}
		_, err := Outcomes(context.Background(), spec, Options{Trials: 1000, Seed: 3})
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v; want %q", c.n, err, c.want)
		}
	}
}
