package reports

import (
	"bytes"
	"math"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/pngtest"
)

// A bursting d10 (P(X = 10j + r) = 10^−(j+1)): its tail spans twelve
// decades, so the bundle adds the log-scale tail plot.
func TestTailPlot(t *testing.T) {
	t.Parallel()
	v := engine.VarResult{Name: "damage", Unit: "wounds", Lo: 1, Den: 1}
	for x := 1; x <= 120; x++ {
		p := 0.0
		if x%10 != 0 {
			p = math.Pow(0.1, float64(x/10+1))
		}
		v.P = append(v.P, p)
	}
	if !HasLongTail(&v) {
		t.Fatal("a bursting d10 has no long tail?")
	}
	short := engine.VarResult{Name: "x", Lo: 1, P: []float64{0.5, 0.5}}
	if HasLongTail(&short) {
		t.Error("a coin has a long tail?")
	}
	r := &engine.Result{Mechanic: "x.burst", Engine: engine.Exact, Truncated: 1e-12, Vars: []engine.VarResult{v}}
	var buf bytes.Buffer
	if err := WriteTail(&buf, r, &r.Vars[0]); err != nil {
		t.Fatal(err)
	}
	pngtest.Check(t, "tail", buf.Bytes())
}
