package main

import (
	"context"
	"math"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems"
)

// TestEveryParameterAtItsLimits runs every mechanic with each parameter at
// the ends of its range (the others at their defaults), in both engines,
// under a small memory budget: each run ends in a result (0) or one clear
// line of bad input (2, e.g. over the budget, or a combination the rules
// refuse), within a bounded time, never a panic or an internal error.
func TestEveryParameterAtItsLimits(t *testing.T) {
	for _, m := range systems.Default.All() {
		for _, p := range m.Params {
			for _, v := range []float64{p.Min, p.Max} {
				set := p.Name + "=" + mechanics.FormatNum(v)
				for _, eng := range [][]string{{"exact"}, {"sim", "-n", "20000", "-q"}} {
					if eng[0] == "exact" && m.MCOnly {
						continue
					}
					args := append(append([]string{}, eng...), m.ID, "--set", set, "--memory", "256MiB", "--format", "csv")
					ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
					start := time.Now()
					code, _, errOut := runCLI(ctx, args...)
					cancel()
					if el := time.Since(start); el > 20*time.Second {
						t.Errorf("%q took %v", args, el)
					}
					if testing.Verbose() && code == 2 {
						t.Logf("%q: %s", args, strings.TrimSpace(errOut))
					}
					if code != 0 && code != 2 {
						t.Errorf("%q: exit %d: %s", args, code, errOut)
					}
					if strings.Contains(errOut, "internal error") || strings.Contains(errOut, "goroutine") {
						t.Errorf("%q: %s", args, errOut)
					}
				}
			}
		}
	}
}

// TestRandomConfigurations runs every mechanic at a few random points of its
// whole parameter space, with random option values (a fixed seed): the
// same guarantees as at the limits.
func TestRandomConfigurations(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 8))
	for _, m := range systems.Default.All() {
		for range randomPerMechanic {
			args := []string{"exact", m.ID, "--memory", "256MiB", "--format", "json"}
			if m.MCOnly || rng.IntN(2) == 0 {
				args = []string{"sim", m.ID, "-n", "5000", "-q", "--memory", "256MiB", "--format", "json"}
			}
			for _, p := range m.Params {
				v := p.Min + rng.Float64()*(p.Max-p.Min)
				if !p.Real {
					v = math.Round(v)
				}
				args = append(args, "--set", p.Name+"="+mechanics.FormatNum(v))
			}
			for _, o := range m.Options {
				args = append(args, "--set", o.Name+"="+o.Values[rng.IntN(len(o.Values))])
			}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			start := time.Now()
			code, _, errOut := runCLI(ctx, args...)
			cancel()
			if el := time.Since(start); el > 20*time.Second {
				t.Errorf("%q took %v", args, el)
			}
			if code != 0 && code != 2 || strings.Contains(errOut, "internal error") {
				t.Errorf("%q: exit %d: %s", args, code, errOut)
			}
		}
	}
}

// randomPerMechanic is how many random configurations of each mechanic
// TestRandomConfigurations runs (raise it locally to search harder).
var randomPerMechanic = 3
