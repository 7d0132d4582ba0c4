package rules

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestHostileSatBothEngines cross-checks random comparisons and clamps of
// bursting sums between the exact engine and the simulator.
// HOSTILE_SAT_N sets the number of cases (default 40).
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
		checkBoth(t, src, trials, &checked)
	}
	t.Logf("%d expressions checked", checked)
}

func checkBoth(t *testing.T, src string, trials int64, checked *int) {
	t.Helper()
	rl, err := FromExpr(src)
	if err != nil {
		t.Logf("%s: refused: %v", src, err)
		return
	}
	m := rl.Mechanic()
	spec, err := m.Model(m.DefaultConfig())
	if err != nil {
		t.Logf("%s: model: %v", src, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	start := time.Now()
	report, err := crosscheck.Spec(ctx, spec, sim.Options{Trials: trials, Seed: 11}, crosscheck.Bounds{MinP: 1e-6, Widen: 1.5})
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("%s: took %v", src, d)
	}
	if err != nil {
		t.Logf("%s: %v", src, err)
		return
	}
	*checked++
	if os.Getenv("HOSTILE_SAT_LOG") != "" {
		t.Logf("%s: ok in %v", src, time.Since(start))
	}
	for _, l := range report {
		t.Errorf("%s: %s", src, l)
	}
}
