package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/exact"
	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/sim"
	"github.com/oddsmith/oddsmith/study"
)

// progressAfter is how long a simulation runs before its first progress
// line: a shorter one answers with its result alone.
const progressAfter = 200 * time.Millisecond

// agreement is the cross-check of a simulation against the exact engine:
// the chi-square test of the whole outcome and the events' intervals, as
// the tests run it (crosscheck.Standard) on the very trials simulated.
type agreement struct {
	ExactAvailable bool     `json:"exact_available"`
	Chi2           *float64 `json:"chi2"`
	DF             *int     `json:"df"`
	P              *float64 `json:"p"`
	OK             bool     `json:"ok"`
	Text           string   `json:"text"`
}

// simulate answers a simulation: JSON lines, {"progress": f} while it runs
// (from progressAfter on) and then {"result", "command", "fingerprint",
// "agreement"}. Until the first line is sent a failure is an ordinary
// error answer; after it, a last line {"error", "status"}.
func (s *Server) simulate(w *response, r *http.Request, t *target, eng study.Engine, eargs []string) {
	cmd := command(append(append([]string{"sim"}, t.args...), eargs...)...)
	var mu sync.Mutex // the simulator reports progress from its own goroutine
	closed := false
	start := func() {
		if !w.streaming {
			w.streaming = true
			h := w.Header()
			h.Set("Content-Type", "application/x-ndjson")
			h.Set("Cache-Control", "no-store")
			h.Set("X-Accel-Buffering", "no")
			w.WriteHeader(http.StatusOK)
		}
	}
	eng.ProgressAfter = progressAfter
	eng.OnProgress = func(done, total int64) {
		if s.hooks.progress != nil {
			s.hooks.progress(done, total)
		}
		mu.Lock()
		defer mu.Unlock()
		if closed || done >= total {
			return
		}
		start()
		w.line(map[string]float64{"progress": float64(done) / float64(total)})
	}
	// Nothing is written from the simulator's goroutine once the answer is
	// being finished (or a panic is being answered).
	defer func() {
		mu.Lock()
		closed = true
		mu.Unlock()
	}()
	var hists []sim.Hist
	eng.OnOutcomes = func(part int, h sim.Hist) { hists = append(hists, h) }
	var final map[string]any
	err := s.compute(r, cmd, func(ctx context.Context) error {
		res, err := eng.Run(ctx, t.m, t.c)
		if err != nil {
			return err
		}
		body, err := resultJSON(res)
		if err != nil {
			return err
		}
		ag, err := s.agreement(ctx, t, hists)
		if err != nil {
			return err
		}
		final = t.about(map[string]any{"result": json.RawMessage(body), "command": cmd, "fingerprint": res.Fingerprint, "agreement": ag})
		return nil
	})
	mu.Lock()
	defer mu.Unlock()
	closed = true
	if !w.streaming {
		if err != nil {
			fail(w, r.Context(), err)
			return
		}
		start()
		w.line(final)
		return
	}
	if err != nil {
		if code, msg := status(r.Context(), err); code != 0 {
			w.line(map[string]any{"error": msg, "status": code})
		}
		return
	}
	w.line(final)
}

// agreement tests the simulated outcome counts of each part of the model
// against the exact engine's distribution.
func (s *Server) agreement(ctx context.Context, t *target, hists []sim.Hist) (*agreement, error) {
	none := func(why string) (*agreement, error) {
		return &agreement{OK: true, Text: "no exact check: " + why}, nil
	}
	if t.m.MCOnly {
		return none(fmt.Sprintf("%s has no exact model (%s)", t.m.ID, t.m.MCReason))
	}
	spec, err := t.m.Model(t.c)
	if err != nil {
		return nil, err
	}
	parts := spec.Parts()
	if len(parts) != len(hists) {
		return nil, fmt.Errorf("the simulation counted %d parts of a model of %d", len(hists), len(parts))
	}
	var main crosscheck.Check
	var problems []string
	for i, part := range parts {
		d, err := exact.Outcome(ctx, part, exact.Options{MemoryBytes: s.opt.MemoryBytes})
		if err != nil {
			if mechanics.IsInput(err) { // too large, too long: not a failure of the simulation
				return none("the exact engine cannot compute it: " + oneLine(err.Error()))
			}
			return nil, err
		}
		c, err := crosscheck.Counts(part, d, hists[i], crosscheck.Standard)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			main = c
		}
		problems = append(problems, c.Problems...)
	}
	a := &agreement{ExactAvailable: true, Chi2: &main.Stat, DF: &main.DF, P: &main.P, OK: len(problems) == 0}
	also := ""
	if len(parts) > 1 {
		also = fmt.Sprintf(" (of the main model; its %d further parts were checked the same way)", len(parts)-1)
	}
	if a.OK {
		a.Text = fmt.Sprintf("simulation and exact engine agree: chi² = %.1f on %d degrees of freedom, p = %.3g%s (the tests require p > %g), and every event's exact chance lies within its simulated 95%% interval",
			main.Stat, main.DF, main.P, also, crosscheck.Standard.MinP)
	} else {
		a.Text = "simulation and exact engine disagree: " + strings.Join(problems, "; ")
	}
	return a, nil
}
