package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/mechanics"
	"github.com/oddsmith/oddsmith/systems"
)

// Every mechanic's parameters at their limits and at random points, in
// both engines, are the library's test (internal/mechtest, run by each
// system's tests): a result or bad input, never a panic. Here a few
// mechanics go through the command line, for what only it does: --set,
// --memory, the exit status and the one line on stderr.

// limitSample are the mechanics run at their limits through the command
// line: a dice pool (ag.skill_test), falls with a real-valued height in
// two systems, a process whose support outgrows the budget at a limit
// (ag.acting_fast, refused with exit 2) and one that only the simulator
// computes (d20w.initiative.crowd).
var limitSample = []string{"ag.skill_test", "ag.fall_damage", "ag.acting_fast", "gm.fall", "d20w.initiative.crowd"}

// TestLimitsThroughCLI runs each sample mechanic with each parameter at
// the ends of its range and each option at each of its values (the rest
// at their defaults), in every engine that computes it, under a 256 MiB
// budget: each run ends in a result (exit 0) or one clear line of bad
// input (exit 2, e.g. over the budget or a combination the rules refuse),
// never a panic or an internal error. Both outcomes occur in the sample.
func TestLimitsThroughCLI(t *testing.T) {
	t.Parallel()
	for _, id := range limitSample {
		m, err := systems.Default.Lookup(id)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(id, func(t *testing.T) {
			t.Parallel()
			var sets []string
			for _, p := range m.Params {
				sets = append(sets, p.Name+"="+mechanics.FormatNum(p.Min), p.Name+"="+mechanics.FormatNum(p.Max))
			}
			for _, o := range m.Options {
				for _, v := range o.Values {
					sets = append(sets, o.Name+"="+v)
				}
			}
			engines := [][]string{{"exact"}, {"sim", "-n", "2000", "-q"}}
			if m.MCOnly {
				engines = engines[1:]
			}
			seen := map[int]bool{}
			for _, set := range sets {
				for _, eng := range engines {
					args := append(slices.Clone(eng), m.ID, "--set", set, "--memory", "256MiB", "--format", "csv")
					code, _, errOut := wellBehaved(t, args...)
					if code != 0 && code != 2 {
						t.Errorf("%q: exit %d; want 0 or 2: %s", args, code, errOut)
					}
					if testing.Verbose() && code == 2 {
						t.Logf("%q: %s", args, strings.TrimSpace(errOut))
					}
					seen[code] = true
				}
			}
			if id == "ag.acting_fast" && !seen[2] {
				t.Error("no setting at a limit was refused: the sample no longer reaches the memory budget")
			}
			if !seen[0] {
				t.Error("no setting at a limit gave a result")
			}
		})
	}
}

// TestMemoryFlag: --memory is each engine's budget: a model over it is
// refused before it runs (exit 2, one line naming the budget and the
// flag) and runs under a larger one; every command that takes the flag
// refuses a value that is not a size.
func TestMemoryFlag(t *testing.T) {
	t.Parallel()
	// Its elapsed-time distribution spans about 294 000 values: 2.2 MiB.
	model := []string{"ag.acting_fast", "--set", "base_minutes=100", "--format", "csv"}
	for _, eng := range [][]string{{"exact"}, {"sim", "-n", "2000", "-q"}} {
		args := append(slices.Clone(eng), model...)
		_, errOut := hostile(t, 2, append(slices.Clone(args), "--memory", "1MiB")...)
		if !strings.Contains(errOut, "(the memory budget is 1 MiB)") || !strings.Contains(errOut, "--memory") {
			t.Errorf("%s over the budget: %q; want the budget and --memory named", eng[0], errOut)
		}
		if out, _ := hostile(t, 0, append(slices.Clone(args), "--memory", "4MiB")...); out == "" {
			t.Errorf("%s under the budget wrote nothing", eng[0])
		}
	}
	dir := t.TempDir()
	for _, size := range []string{"", "lots", "NaN", "0", "-1GiB", "1KiB", "1048575", "2PiB"} {
		for _, args := range [][]string{
			{"exact", "ag.skill_test"},
			{"sim", "ag.skill_test", "-n", "1000", "-q"},
			{"sweep", "ag.skill_test", "--vary", "skill=0..2", "-o", dir, "-q"},
			{"run", "../../examples/tour.toml", "-o", dir, "-q"},
			{"atlas", "-o", dir, "-q"},
			{"merge", "no-such.shard"},
		} {
			_, errOut := hostile(t, 2, append(args, "--memory", size)...)
			if !strings.Contains(errOut, "is not a size between 1MiB and 1PiB") {
				t.Errorf("%s --memory %q: %q", args[0], size, errOut)
			}
		}
	}
	for _, size := range []string{"512MiB", "4GiB", "2GB", "1048576", "1.5G"} {
		hostile(t, 0, "exact", "ag.skill_test", "--memory", size)
	}
}
