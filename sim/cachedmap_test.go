package sim

import (
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
)

// TestCachedMapIsTheMap: a Map over a sampler without a table gives, draw
// for draw, f of the same draws — inside the cache window, on its first
// and later visits, and far outside it (a long burst) — and panics from f
// still reach the caller.
func TestCachedMapIsTheMap(t *testing.T) {
	x := mechanics.Sum{Terms: []mechanics.Node{mechanics.D(20), mechanics.Explode{Die: mechanics.D(4)}}}
	f := func(v int) int { return 3*v*v - 7 }
	s, err := compileMap(x, f)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := s.(*cachedMap); !ok {
		t.Fatalf("compiled to %T, want *cachedMap", s)
	}
	raw, err := compile(x)
	if err != nil {
		t.Fatal(err)
	}
	var a, b source
	a.Seed(7, 1)
	b.Seed(7, 1)
	for i := range 200_000 {
		v := raw.sample(&b)
		if got := s.sample(&a); got != f(v) {
			t.Fatalf("draw %d: cached map gave %d for %d, want %d", i, got, v, f(v))
		}
	}
	// Outside the window: values the window cannot hold.
	m := &cachedMap{x: constSampler(10), f: f}
	for _, v := range []int{10, 10 + mapCache, 10 - mapCache, 10} {
		m.x = constSampler(v)
		if got := m.sample(&a); got != f(v) {
			t.Errorf("cached map of %d = %d, want %d", v, got, f(v))
		}
	}
	defer func() {
		if recover() == nil {
			t.Error("a panic of f was swallowed")
		}
	}()
	p := &cachedMap{x: constSampler(1), f: func(int) int { panic("model error") }}
	p.sample(&a)
}

type constSampler int

func (c constSampler) sample(*source) int { return int(c) }
