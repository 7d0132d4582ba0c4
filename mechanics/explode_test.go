package mechanics

import "testing"

// TestExplodeBursts: which faces burst under each rule, what a bursting
// roll adds, and the words for the set.
func TestExplodeBursts(t *testing.T) {
	d6 := D(6)
	for _, c := range []struct {
		e     Explode
		burst []int
		words string
		p     float64
	}{
		{Explode{Die: d6}, []int{6}, "6", 1.0 / 6},
		{Explode{Die: d6, ByThreshold: true, Threshold: 5}, []int{5, 6}, "5 or more", 2.0 / 6},
		{Explode{Die: d6, On: []int{5}}, []int{5}, "5", 1.0 / 6},
		{Explode{Die: d6, On: []int{1, 2}, ByThreshold: true, Threshold: 6}, []int{1, 2}, "1 or 2", 2.0 / 6},
		{Explode{Die: d6, On: []int{3, 1, 2, 6}}, []int{1, 2, 3, 6}, "1 to 3 or 6", 4.0 / 6},
		{Explode{Die: Die{Faces: []int{-1, 0, 1}}, On: []int{-1}}, []int{-1}, "-1", 1.0 / 3},
		{Explode{Die: d6, On: []int{7}}, nil, "7", 0},
	} {
		for _, f := range c.e.Die.Faces {
			want := false
			for _, b := range c.burst {
				want = want || b == f
			}
			if c.e.Bursts(f) != want || c.e.Burster()(f) != want {
				t.Errorf("%+v: Bursts(%d) = %v, Burster = %v, want %v", c.e, f, c.e.Bursts(f), c.e.Burster()(f), want)
			}
		}
		if got := c.e.BurstFaces(); got != c.words {
			t.Errorf("%+v: BurstFaces() = %q, want %q", c.e, got, c.words)
		}
		if got := c.e.TopProbability(); got < c.p-1e-15 || got > c.p+1e-15 {
			t.Errorf("%+v: TopProbability() = %v, want %v", c.e, got, c.p)
		}
	}
	pen := Explode{Die: d6, Penetrate: true}
	if pen.BurstAdds(6) != 5 || (Explode{Die: d6}).BurstAdds(6) != 6 {
		t.Error("a penetrating burst adds its face less one, another its face")
	}
	many := Explode{Die: D(100), On: []int{1, 3, 5, 7, 9, 11, 13, 15, 17, 19}}
	if got := many.BurstFaces(); got != "1, 3, 5, 7, 9, 11, 13 or 3 more" {
		t.Errorf("BurstFaces() = %q", got)
	}
	if err := Validate(Explode{Die: D(2), On: []int{1, 2}}); err == nil {
		t.Error("a die bursting on every face without a limit is valid")
	}
	if err := Validate(Explode{Die: D(2), On: []int{1, 2}, Limit: 2, Penetrate: true}); err != nil {
		t.Error(err)
	}
}
