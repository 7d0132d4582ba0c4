package main

import (
	"math"
	"runtime/debug"
	"strings"

	"github.com/oddsmith/oddsmith/engine"
	"github.com/oddsmith/oddsmith/mechanics"
)

// memoryFlag adds --memory to a command: the memory budget of one
// computation's tables (README, "Memory", says what it counts). A model
// that needs more is refused before it allocates.
func memoryFlag(fs *flagSet) *string {
	return fs.String("memory", "1GiB", "memory budget of one computation's tables, e.g. `SIZE` = 512MiB, 4GiB, 2GB or bytes (1MiB to 1PiB); a model that needs more is refused (exit 2); the runtime and the output being printed are not counted")
}

// parseMemory reads a size from 1MiB to 1PiB, both included: bytes, or a
// number in decimals with KiB/MiB/GiB/TiB/PiB (×1024) or kB/MB/GB/TB/PB
// (×1000); K, M, G, T and P alone are ×1024. It also tells the
// Go runtime to keep the heap near the budget (the budget counts live
// data; without a limit the collector may let the process grow to twice
// that).
func parseMemory(s string) (int64, error) {
	t := strings.TrimSpace(s)
	units := []struct {
		suffix string
		mult   float64
	}{
		{"KiB", 1 << 10}, {"MiB", 1 << 20}, {"GiB", 1 << 30}, {"TiB", 1 << 40}, {"PiB", 1 << 50},
		{"kB", 1e3}, {"KB", 1e3}, {"MB", 1e6}, {"GB", 1e9}, {"TB", 1e12}, {"PB", 1e15},
		{"K", 1 << 10}, {"M", 1 << 20}, {"G", 1 << 30}, {"T", 1 << 40}, {"P", 1 << 50}, {"B", 1},
	}
	mult := 1.0
	for _, u := range units {
		if rest, ok := strings.CutSuffix(t, u.suffix); ok {
			t, mult = strings.TrimSpace(rest), u.mult
			break
		}
	}
	v, err := mechanics.ParseNumber(t)
	b := v * mult
	if err != nil || math.IsNaN(b) || b < 1<<20 || b > 1<<50 {
		return 0, mechanics.Invalid("--memory %q is not a size between 1MiB and 1PiB (say 512MiB or 4GiB)", s)
	}
	n := int64(b)
	debug.SetMemoryLimit(n + n/2 + 256<<20)
	return n, nil
}

var _ = engine.DefaultMemory // the default of --memory is engine.DefaultMemory
