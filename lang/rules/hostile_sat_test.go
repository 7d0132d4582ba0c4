package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/oddsmith/oddsmith/crosscheck"
	"github.com/oddsmith/oddsmith/sim"
)

// hostileSatTerms are dice terms with bursting, exploding and compounding
// dice that reach the simulator's settled-count tables.
var hostileSatTerms = []string{
	"d6!", "2d10!", "d20", "d4!", "3d4!", "d10!>=9", "d6!{2}", "d6!!", "2d6!!", "d{-2..5}!", "d{-2..5}!>=4",
	"d{0,0,1,3}!", "d8!>7", "d6r1!", "d12!{1}", "d%!", "d2!", "d3!", "dF", "d{1,1,2,3,5,8}!", "d10!!>=9",
	"d{-5..-1, 3}!", "d6ro<=2!", "4", "-3", "d6", "2d6", "d{-1,1}", "d{0,5}!", "d{1,100}!",
}

func hostileSatExpr(r *rand.Rand) string {
	n := 1 + r.IntN(3)
	var parts []string
	hasBurst := false
	for range n {
		t := hostileSatTerms[r.IntN(len(hostileSatTerms))]
		if strings.Contains(t, "!") {
			hasBurst = true
		}
		if len(parts) > 0 && r.IntN(4) == 0 && !strings.HasPrefix(t, "-") {
			parts = append(parts, "- "+t)
		} else if len(parts) > 0 {
			parts = append(parts, "+ "+t)
		} else {
			parts = append(parts, t)
		}
	}
	if !hasBurst {
		parts = append(parts, "+ d6!")
	}
	sum := strings.Join(parts, " ")
	ops := []string{">", ">=", "<", "<=", "==", "!="}
	tv := r.IntN(50) - 10
	switch r.IntN(7) {
	case 0:
		return fmt.Sprintf("if %s %s %d then d6 else 0", sum, ops[r.IntN(len(ops))], tv)
	case 1:
		lo := r.IntN(20) - 8
		return fmt.Sprintf("clamp(%s, %d, %d)", sum, lo, lo+r.IntN(40)-5)
	case 2:
		return fmt.Sprintf("(%s %s %d) + (%s %s %d)", sum, ops[r.IntN(len(ops))], tv, sum, ops[r.IntN(len(ops))], tv+r.IntN(10))
	case 3:
		return fmt.Sprintf("clamp(%s, 0, %d) * d6", sum, r.IntN(40))
	case 4:
		return fmt.Sprintf("clamp(%s, %d, %d) + clamp(%s, 0, %d)", sum, -r.IntN(5), r.IntN(30), sum, r.IntN(30))
	case 5:
		return fmt.Sprintf("max(clamp(%s, 0, %d), d20)", sum, r.IntN(60))
	default:
		return fmt.Sprintf("if %s %s %d then clamp(%s, 0, %d) else -1", sum, ops[r.IntN(len(ops))], tv, sum, r.IntN(40))
	}
}

// maxCheckBytes bounds the heap one cross-check below may allocate: the
// exact distribution, and the simulator's compiled samplers and histograms
// on one worker. The largest of the seeded cases takes about 1.2 MB. What
// could grow is the simulator's tables of settled counts: followed past
// the bounds on their steps and entries (a burst followed level after
// level, a table of every count), they allocate at every level and entry,
// and exceed this long before they would take seconds.
const maxCheckBytes = 16 << 20

// TestHostileSatBothEngines cross-checks random comparisons and clamps of
// bursting sums between the exact engine and the simulator, and bounds
// the memory each check allocates. HOSTILE_SAT_N sets the number of cases
// (default 40), HOSTILE_SAT_SEED their seed, HOSTILE_SAT_TRIALS the
// simulated trials; HOSTILE_SAT_LOG logs what each check allocated.
//
// It is not parallel: the bytes allocated are read from the runtime's
// statistics, which count every goroutine's allocations.
func TestHostileSatBothEngines(t *testing.T) {
	cases := 40
	if s := os.Getenv("HOSTILE_SAT_N"); s != "" {
		cases, _ = strconv.Atoi(s)
	}
	seed := uint64(1)
	if s := os.Getenv("HOSTILE_SAT_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	trials := int64(200_000)
	if s := os.Getenv("HOSTILE_SAT_TRIALS"); s != "" {
		trials, _ = strconv.ParseInt(s, 10, 64)
	}
	if testing.Short() {
		cases, trials = 10, 50_000
	}
	r := rand.New(rand.NewPCG(seed, 7))
	checked := 0
	for range cases {
		src := hostileSatExpr(r)
		t.Run(src, func(t *testing.T) {
			if checkBoth(t, src, trials) {
				checked++
			}
		})
	}
	t.Logf("%d expressions checked", checked)
}

// checkBoth cross-checks one expression and reports whether both engines
// ran it (an expression either refuses is logged, not checked).
func checkBoth(t *testing.T, src string, trials int64) bool {
	t.Helper()
	rl, err := FromExpr(src)
	if err != nil {
		t.Logf("refused: %v", err)
		return false
	}
	m := rl.Mechanic()
	spec, err := m.Model(m.DefaultConfig())
	if err != nil {
		t.Logf("model: %v", err)
		return false
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	report, err := crosscheck.Spec(context.Background(), spec, sim.Options{Trials: trials, Seed: 11, Workers: 1}, crosscheck.Bounds{MinP: 1e-6, Widen: 1.5})
	runtime.ReadMemStats(&after)
	if n := after.TotalAlloc - before.TotalAlloc; n > maxCheckBytes {
		t.Errorf("the cross-check allocated %d bytes (at most %d allowed)", n, maxCheckBytes)
	} else if os.Getenv("HOSTILE_SAT_LOG") != "" {
		t.Logf("allocated %d bytes", n)
	}
	if err != nil {
		t.Logf("%v", err)
		return false
	}
	for _, l := range report {
		t.Error(l)
	}
	return true
}
