package reports

import (
	"bytes"
	"testing"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/internal/pngtest"
)

func checkPNG(t *testing.T, name string, b []byte) { pngtest.Check(t, name, b) }

func TestPlots(t *testing.T) {
	t.Parallel()
	r := sample(engine.Exact)
	r.Process = &engine.ProcessResult{TimeUnit: "test", Horizon: 4, Survival: []float64{1, 0.8, 0.4, 0.1, 0.02}}
	runPlots(t, []plotCase{
		{"pmf", func(b *bytes.Buffer) error { return WritePMF(b, r, &r.Vars[0]) }},
		{"atleast", func(b *bytes.Buffer) error { return WriteAtLeast(b, r, &r.Vars[0]) }},
		{"survival", func(b *bytes.Buffer) error { return WriteSurvival(b, r) }},
		{"bands", func(b *bytes.Buffer) error {
			return WriteBands(b, "bands", "", []string{"TN 4", "TN 5"}, []*engine.Result{r, r}, "mos_band")
		}},
		{"lines", func(b *bytes.Buffer) error {
			return WriteLines(b, &Lines{Title: "overlay", XLabel: "TN", Metric: "P(success)", Caption: "caption", Series: []Series{
				{Name: "a", XY: []XY{{X: 1, Y: 0.9}, {X: 2, Y: 0.5}}}, {Name: "b", XY: []XY{{X: 1, Y: 0.7}, {X: 2, Y: 0.2}}}}})
		}},
		{"heatmap", func(b *bytes.Buffer) error {
			return WriteHeatmap(b, &Heatmap{Title: "heat", XLabel: "skill", YLabel: "TN", Metric: "P(success)", Caption: "caption",
				Xs: []float64{1, 2, 3}, Ys: []float64{4, 5}, Z: [][]float64{{0.5, 0.6, 0.7}, {0.3, 0.4, 0.55}}})
		}},
	})
}

// plotCase draws one plot into a buffer.
type plotCase struct {
	name string
	draw func(*bytes.Buffer) error
}

// runPlots draws each case in a parallel subtest and checks that it is a
// PNG that decodes and is not blank.
func runPlots(t *testing.T, cases []plotCase) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var b bytes.Buffer
			if err := c.draw(&b); err != nil {
				t.Fatal(err)
			}
			checkPNG(t, c.name, b.Bytes())
		})
	}
}
