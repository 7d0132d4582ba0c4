package rules

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/sim"
)

// FuzzExpr: any one-line expression either is refused with an error or
// compiles to a model that both engines run without a model failure (a
// value outside a field's declared range, a panic in a step): the
// compiler's bounds and nodes must hold for whatever a designer writes.
// Seeds are in testdata/fuzz/FuzzExpr.
func FuzzExpr(f *testing.F) {
	for _, s := range []string{"4d6kh3", "2d10! + d20 >= 25", "count(6d6 == highest(6d6))", "d6!>=5{3} * -2", "lookup(d10, {1..3: 1, 4..: 2d6})",
		"if d6 >= 4 then 2d6 else -d4", "min(d20, d20) // 3 % 4", "8d10cs>=7cf1", "(d20 + 3) / 2 > 5 and not d6 == 1", "d{-1,0,0,5}ro<=0 + dF"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		r, err := FromExpr(src)
		if err != nil {
			return
		}
		m := r.Mechanic()
		c, err := m.Configure(nil)
		if err != nil {
			return
		}
		spec, err := m.Model(c)
		if err != nil {
			return
		}
		bad := func(err error) bool {
			return err != nil && (strings.Contains(err.Error(), "model failed") || strings.Contains(err.Error(), "declared range") ||
				strings.Contains(err.Error(), "outputs failed"))
		}
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if _, err := exact.RunContext(ctx, m, c, exact.Options{MemoryBytes: 64 << 20}); bad(err) {
			t.Fatalf("%q: exact: %v", src, err)
		}
		for i, part := range spec.Parts() {
			s, err := sim.NewSampler(part)
			if err != nil {
				continue
			}
			if err := s.RunChunk(sim.PartSeed(1, i), 0, 200); bad(err) {
				t.Fatalf("%q: sim: %v", src, err)
			}
		}
	})
}
